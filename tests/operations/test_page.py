"""The staff operations page: workers, queue, overdue matches, failing tasks, pending pools."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from config.celery import app as celery_app
from games import services as game_services
from games.models import Match
from operations import selectors
from operations.models import TaskFailure, WorkerHeartbeat
from ratings import services as rating_services
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, MatchFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = "/admin/operations/"


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _section(html: str, section: str) -> str:
    match = re.search(rf'<section[^>]*id="ops-{section}".*?</section>', html, re.S)
    assert match, section
    return match.group(0)


def _page(client) -> str:
    response = client.get(URL)
    assert response.status_code == 200
    return response.content.decode()


def _running_match(deadline_delta: timedelta) -> Match:
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = MatchFactory.create(players=[alice, bob], time_control={"per_move_s": 60})
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + deadline_delta)
    return match


def test_the_url_is_the_named_admin_page():
    assert reverse("admin-operations") == URL


def test_others_are_sent_to_the_admin_login_and_see_nothing(client):
    late = _running_match(-timedelta(minutes=5))
    anonymous = client.get(URL)
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
    client.force_login(UserFactory(is_staff=False))
    member = client.get(URL)
    assert member.status_code == 302 and "/admin/login/" in member["Location"]
    assert f"#{late.pk}" not in member.content.decode()


def test_the_admin_index_links_to_it(staff_client):
    html = staff_client.get(reverse("admin:index")).content.decode()
    assert f'href="{URL}"' in html


def test_an_overdue_match_is_listed_with_links_and_a_punctual_one_is_not(staff_client):
    late = _running_match(-timedelta(minutes=5))
    punctual = _running_match(timedelta(seconds=50))
    barely = _running_match(-timedelta(seconds=5))  # within the grace: the sweep is on it
    section = _section(_page(staff_client), "overdue")
    assert f"#{late.pk}" in section
    assert reverse("admin:games_match_change", args=[late.pk]) in section
    assert reverse("match-detail", args=[late.pk]) in section
    assert f"#{punctual.pk}<" not in section and f"#{barely.pk}<" not in section
    assert selectors.overdue_matches().count == 1


def test_an_old_heartbeat_is_a_lost_worker_and_a_fresh_one_is_live(staff_client):
    now = timezone.now()
    WorkerHeartbeat.objects.create(hostname="celery@gone", pid=11, started_at=now - timedelta(hours=2),
                                   last_seen=now - timedelta(minutes=5))  # fmt: skip
    WorkerHeartbeat.objects.create(hostname="celery@alive", pid=12, started_at=now,
                                   last_seen=now - timedelta(seconds=10), tasks=7)  # fmt: skip
    WorkerHeartbeat.objects.create(hostname="celery@ended", pid=13, started_at=now,
                                   last_seen=now, stopped_at=now)  # fmt: skip
    WorkerHeartbeat.objects.create(hostname="celery@ancient", pid=14, started_at=now - timedelta(days=3),
                                   last_seen=now - timedelta(days=2))  # fmt: skip
    section = _section(_page(staff_client), "workers")
    rows = {m.group(2): m.group(1) for m in re.finditer(
        r'<tr class="ops-worker ops-(\w+)">\s*<td[^>]*>([^<]+?) <', section)}  # fmt: skip
    assert rows == {"celery@gone": "lost", "celery@alive": "live", "celery@ended": "stopped"}
    assert "1 worker seen in the last minute" in section
    lost_seen = timezone.localtime(now - timedelta(minutes=5)).strftime("%Y-%m-%d %H:%M")
    assert lost_seen in section  # when the lost one was last heard of


def test_failing_tasks_show_their_count_error_and_match_link(staff_client):
    now = timezone.now()
    match = _running_match(timedelta(seconds=60))
    TaskFailure.objects.create(task="games.tasks.enforce_deadline", key=str(match.pk), count=3,
                               last_error="RuntimeError: engine crashed", first_at=now,
                               last_at=now)  # fmt: skip
    section = _section(_page(staff_client), "failures")
    assert "games.tasks.enforce_deadline" in section and "RuntimeError: engine crashed" in section
    assert reverse("admin:games_match_change", args=[match.pk]) in section
    assert re.search(r'class="ops-failure-count">3<', section)


def test_a_pool_with_pending_matches_is_listed_until_applied(staff_client):
    pool = rating_services.default_pool("silkroad")
    a, b = EngineBotFactory(), EngineBotFactory()
    for _ in range(2):
        game_services.record_offline_match(game="silkroad", players=[a, b], ranks=[1, 2])
    game_services.record_offline_match(game="silkroad", players=[a, b], ranks=[1, 2], rated=False)
    section = _section(_page(staff_client), "pools")
    assert pool.name in section
    assert re.search(r'class="ops-pending">2<', section)
    assert reverse("admin:ratings_ratingpool_change", args=[pool.pk]) in section
    assert reverse("admin:ratings_ratingpool_changelist") in section  # the recompute button
    rating_services.apply_pending(pool_id=pool.pk)
    assert "ops-pending" not in _section(_page(staff_client), "pools")


def test_the_recompute_button_runs_the_admin_action(staff_client):
    pool = rating_services.default_pool("silkroad")
    a, b = EngineBotFactory(), EngineBotFactory()
    game_services.record_offline_match(game="silkroad", players=[a, b], ranks=[1, 2])
    html = _page(staff_client)
    form = re.search(r'<form method="post" action="([^"]+)" class="ops-inline">(.*?)</form>',
                     _section(html, "pools"), re.S)  # fmt: skip
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(2)))
    assert fields["_selected_action"] == str(pool.pk)
    response = staff_client.post(form.group(1), fields, follow=True)
    assert f"{pool}: 1 match replayed" in response.content.decode()
    assert "ops-pending" not in _section(_page(staff_client), "pools")


@pytest.fixture
def empty_queue():
    celery_app.control.purge()
    yield
    celery_app.control.purge()


def test_queue_length_counts_waiting_messages_on_the_configured_broker(staff_client, empty_queue):
    queue = celery_app.conf.task_default_queue
    before = dict(selectors.queue_lengths().queues)[queue]
    for i in range(3):
        celery_app.send_task("games.tasks.ping", args=[i])
    report = selectors.queue_lengths()
    assert report.error == ""
    assert dict(report.queues)[queue] == before + 3
    section = _section(_page(staff_client), "queue")
    assert re.search(rf"{re.escape(queue)} <span[^>]*>\({report.transport}\)", section)
    assert f'class="ops-queue-length">{before + 3}<' in section


def test_the_page_speaks_czech(staff_client):
    response = staff_client.get(URL, HTTP_ACCEPT_LANGUAGE="cs")
    assert response.status_code == 200
    assert '<html lang="cs"' in response.content.decode()


def test_a_bot_turn_nobody_advances_is_listed_and_a_fresh_or_human_one_is_not(staff_client):
    old = timezone.now() - timedelta(minutes=5)
    stuck = MatchFactory.create(players=[EngineBotFactory(), EngineBotFactory()])
    fresh = MatchFactory.create(players=[EngineBotFactory(), EngineBotFactory()])
    human_turn = MatchFactory.create(players=[HumanPlayerFactory(), HumanPlayerFactory()])
    Match.objects.filter(pk__in=[stuck.pk, human_turn.pk]).update(updated_at=old)
    section = _section(_page(staff_client), "overdue")
    stalled = re.findall(r'<tr class="ops-stalled">\s*<td[^>]*><a href="[^"]+">#(\d+)<', section)
    assert stalled == [str(stuck.pk)]
    assert reverse("match-detail", args=[stuck.pk]) in section
    assert f"#{fresh.pk}<" not in section and f"#{human_turn.pk}<" not in section


def test_a_failure_can_be_dismissed_from_its_row(staff_client):
    now = timezone.now()
    failure = TaskFailure.objects.create(task="ratings.tasks.sweep_pools", key="", count=2,
                                         last_error="OperationalError: gone", first_at=now,
                                         last_at=now)  # fmt: skip
    section = _section(_page(staff_client), "failures")
    delete_url = reverse("admin:operations_taskfailure_delete", args=[failure.pk])
    assert delete_url in section
    assert staff_client.get(delete_url).status_code == 200  # the admin's confirmation page
    staff_client.post(delete_url, {"post": "yes"})
    assert not TaskFailure.objects.exists()
    assert "No task has failed" in _section(_page(staff_client), "failures")


def test_the_records_are_read_only_in_the_admin(staff_client):
    now = timezone.now()
    beat = WorkerHeartbeat.objects.create(hostname="celery@x", pid=1, started_at=now, last_seen=now)
    assert (
        staff_client.get(reverse("admin:operations_workerheartbeat_changelist")).status_code == 200
    )
    assert staff_client.get(reverse("admin:operations_workerheartbeat_add")).status_code == 403
    change = staff_client.get(reverse("admin:operations_workerheartbeat_change", args=[beat.pk]))
    assert change.status_code == 200 and b'name="hostname"' not in change.content  # view only
