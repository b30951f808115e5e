"""Search bots can't stall the workers (issue #31): twenty search-bot matches of one person
keep the bots-heavy worker busy while another person's cheap match finishes on the default
queue's worker; a twenty-first search-bot match is refused (429)."""

import pytest
from rest_framework.test import APIClient

from config.celery import app as celery_app
from config.worker_process import celery_worker, wait_for
from games.models import Match, MatchStatus
from tests.games.factories import HumanPlayerFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]

SEARCH = {"bot": "ismcts", "params": {"iterations": 10000}}  # seconds a decision: capped


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_twenty_search_matches_leave_a_cheap_match_alone(settings):
    from django.conf import settings as live

    settings.MAX_LIVE_SEARCH_BOT_MATCHES = 20
    celery_app.control.purge()
    heavy, light = HumanPlayerFactory(name="heavy"), HumanPlayerFactory(name="light")
    default_queue, heavy_queue = live.CELERY_TASK_DEFAULT_QUEUE, live.BOT_HEAVY_QUEUE
    with celery_worker(queues=[heavy_queue]), celery_worker(queues=[default_queue]) as worker:
        api = _api(heavy.user)
        made = [api.post("/api/matches/", {"game": "greatwall", "seats": [SEARCH, SEARCH]},
                         format="json") for _ in range(20)]  # fmt: skip
        assert [r.status_code for r in made] == [201] * 20
        refused = api.post("/api/matches/", {"game": "silkroad", "seats": [SEARCH, SEARCH]},
                           format="json")  # fmt: skip
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_matches"
        cheap = _api(light.user).post(
            "/api/matches/", {"game": "silkroad", "seats": [{"bot": "random"}, {"bot": "random"}]},
            format="json",
        ).json()["id"]  # fmt: skip
        wait_for(lambda: Match.objects.get(pk=cheap).status == MatchStatus.FINISHED,
                 timeout=30, what="the cheap match's end", worker=worker)  # fmt: skip
        busy = Match.objects.filter(created_by=heavy.user, status=MatchStatus.RUNNING).count()
        assert busy == 20  # still thinking: the cheap match did not wait for them
        for m in Match.objects.filter(created_by=heavy.user):
            api.post(f"/api/matches/{m.pk}/abort/")
    celery_app.control.purge()
