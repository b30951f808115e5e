"""Admin hardening (issue #31, item 3): /admin/login/ limited like the site's log-in; the
match admin never filters, searches or sorts on hidden fields for anyone but superusers
(a running match's seed rebuilds every hand); no API token is listed anywhere."""

import pytest
from django.contrib.auth.models import Permission

from core import throttling
from games import services
from games.models import MatchStatus
from tests.core.factories import ApiTokenFactory
from tests.games.factories import HumanPlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"
MATCHES = "/admin/games/match/"


@pytest.fixture(autouse=True)
def _cache_healthy(monkeypatch, settings):
    monkeypatch.setattr(throttling, "_health", throttling._CacheHealth())
    settings.LOGIN_SLOW_DELAY_S = 0.01


def _staff(*perms):
    user = UserFactory(is_staff=True)
    for codename in perms:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    return user


@pytest.fixture
def running():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, bob], seed=987654,
                                  time_control={"per_move_s": 60}, created_by=alice.user,
                                  consented=True)  # fmt: skip
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING and match.state
    return match


def _admin_login(client, username, password, addr="203.0.113.5"):
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password},
                       REMOTE_ADDR=addr)  # fmt: skip


def test_admin_login_is_rate_limited(client):
    staff = _staff()
    for _ in range(10):
        wrong = _admin_login(client, staff.username, "wrong")
        assert wrong.status_code == 200 and "_auth_user_id" not in client.session
    blocked = _admin_login(client, staff.username, PASSWORD)
    assert blocked.status_code == 200
    assert "Too many attempts, try again in 15 minutes." in blocked.content.decode()
    assert "_auth_user_id" not in client.session
    # The site's log-in shares the count: the pair is blocked there too.
    site = client.post("/accounts/login/", {"username": staff.username, "password": PASSWORD},
                       REMOTE_ADDR="203.0.113.5")  # fmt: skip
    assert "Too many attempts" in site.content.decode()
    # From another address the right password works.
    ok = _admin_login(client, staff.username, PASSWORD, addr="198.51.100.7")
    assert ok.status_code == 302 and ok["Location"] == "/admin/"


def test_admin_login_counts_a_non_staff_password_as_a_failure(client, settings):
    from tests.rates import set_rates

    set_rates(settings, login="2/15min")
    member = HumanPlayerFactory().user  # the right password, but no admin
    for _ in range(2):
        assert _admin_login(client, member.username, PASSWORD).status_code == 200
    assert "Too many attempts" in _admin_login(client, member.username, PASSWORD).content.decode()


@pytest.mark.parametrize(
    "query",
    ["seed__lte=5", "seed=987654", "seed__gt=0", "state__has_key=stacks", "state__isnull=False",
     "log_record__entries__contains=a"],
)  # fmt: skip
def test_view_only_staff_cannot_look_up_hidden_fields(client, running, query):
    client.force_login(_staff("view_match"))
    assert client.get(MATCHES).status_code == 200
    assert client.get(f"{MATCHES}?id={running.pk}").status_code == 200
    response = client.get(f"{MATCHES}?id={running.pk}&{query}")
    assert response.status_code == 400


def test_staff_may_change_matches_and_still_not_look_up_the_seed(client, running):
    client.force_login(_staff("view_match", "change_match"))
    assert client.get(f"{MATCHES}?seed__lte=5").status_code == 400
    assert client.get("/admin/games/seat/?match__seed__lte=5").status_code == 403  # no view_seat


def test_related_admins_refuse_the_seed_too(client, running):
    client.force_login(_staff("view_seat"))
    assert client.get("/admin/games/seat/").status_code == 200
    assert client.get("/admin/games/seat/?match__seed__lte=5").status_code == 400
    assert client.get("/admin/games/seat/?match__state__has_key=stacks").status_code == 400


def test_no_filter_search_or_ordering_on_hidden_fields(client, running):
    client.force_login(_staff("view_match"))
    response = client.get(MATCHES)
    cl = response.context["cl"]
    hidden = {"seed", "state", "log_record"}
    named = {f if isinstance(f, str) else f[0] for f in cl.list_filter}
    assert not named & hidden
    assert not {f.split("__")[0] for f in cl.search_fields} & hidden
    assert not set(cl.sortable_by or cl.list_display) & hidden
    assert not set(cl.list_display) & hidden
    # A search for the seed's digits does not find the match.
    assert client.get(MATCHES, {"q": str(running.seed)}).context["cl"].result_count == 0
    assert client.get(MATCHES, {"q": str(running.pk)}).context["cl"].result_count == 1


def test_a_superuser_may_look_up_the_seed(client, running):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    hit = client.get(f"{MATCHES}?id={running.pk}&seed__lte={running.seed}")
    assert hit.status_code == 200 and hit.context["cl"].result_count == 1
    miss = client.get(f"{MATCHES}?id={running.pk}&seed__lte={running.seed - 1}")
    assert miss.status_code == 200 and miss.context["cl"].result_count == 0
    assert client.get(f"{MATCHES}?state__has_key=stacks").status_code == 200


def test_the_view_only_match_page_hides_the_seed(client, running):
    client.force_login(_staff("view_match"))
    page = client.get(f"{MATCHES}{running.pk}/change/")
    assert page.status_code == 200
    assert "seed" not in page.context["adminform"].form.fields
    assert "field-seed" not in page.content.decode()


def test_no_api_token_is_listed_in_the_admin(client):
    token = ApiTokenFactory(user=HumanPlayerFactory().user)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    for url in ["/admin/authtoken/tokenproxy/", "/admin/authtoken/token/",
                "/admin/core/apitoken/", "/admin/authtoken/"]:  # fmt: skip
        assert client.get(url).status_code == 404, url
    index = client.get("/admin/").content.decode()
    assert "authtoken" not in index and "/admin/core/apitoken/" not in index
    assert token.key not in index
