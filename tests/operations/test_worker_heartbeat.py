"""A real worker process reports itself and the tasks that fail, on the configured broker."""

import re

import pytest
from django.utils import timezone

from config.celery import app as celery_app
from config.worker_process import celery_worker, wait_for
from operations.models import TaskFailure, WorkerHeartbeat
from tests.games.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


@pytest.fixture(autouse=True)
def _empty_queue():
    celery_app.control.purge()


def _worker_state(client, pid: int) -> str | None:
    html = client.get("/admin/operations/").content.decode()
    found = re.search(rf'<tr class="ops-worker ops-(\w+)">\s*<td[^>]*>[^<]*<span[^>]*>pid {pid}<',
                      html)  # fmt: skip
    return found.group(1) if found else None


def test_a_running_worker_beats_reports_failures_clears_them_and_stops(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    with celery_worker() as worker:
        beat = wait_for(lambda: WorkerHeartbeat.objects.filter(pid=worker.pid).first(),
                        timeout=20, what="the first heartbeat", worker=worker)  # fmt: skip
        assert beat.stopped_at is None
        assert timezone.now() - beat.last_seen < timezone.timedelta(seconds=30)
        assert _worker_state(client, worker.pid) == "live"

        # The same task and key failing twice (an unexpected argument), then succeeding.
        for _ in range(2):
            celery_app.send_task("games.tasks.ping", args=[5], kwargs={"bogus": 1})
        failure = wait_for(
            lambda: TaskFailure.objects.filter(task="games.tasks.ping", key="5", count=2).first(),
            timeout=30, what="two failures recorded", worker=worker,
        )  # fmt: skip
        assert "TypeError" in failure.last_error and "bogus" in failure.last_error
        html = client.get("/admin/operations/").content.decode()
        assert 'class="ops-failure-count">2<' in html and "bogus" in html

        assert celery_app.send_task("games.tasks.ping", args=[5]).get(timeout=30)["pong"] == 10
        wait_for(lambda: not TaskFailure.objects.filter(task="games.tasks.ping").exists(),
                 timeout=10, what="the failure cleared by a success", worker=worker)  # fmt: skip
    # A clean shutdown says so, and the page tells a stopped worker from a lost one.
    beat = WorkerHeartbeat.objects.get(pid=worker.pid)
    assert beat.stopped_at is not None and beat.tasks >= 3
    assert _worker_state(client, worker.pid) == "stopped"
