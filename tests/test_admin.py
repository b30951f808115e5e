"""Every model registered in the admin has working list, add and change pages."""

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.games.factories import (
    EngineBotFactory,
    ExternalBotFactory,
    HumanPlayerFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

MODELS = sorted(admin.site._registry, key=lambda m: m._meta.label)


@pytest.fixture
def admin_client(client):
    user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(user)
    HumanPlayerFactory()
    EngineBotFactory()
    return client


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m._meta.label)
def test_admin_pages_load(admin_client, model):
    prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert admin_client.get(reverse(f"{prefix}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"{prefix}_changelist"), {"q": "a"}).status_code == 200
    # Some third-party admins forbid adding by hand (403); none may fail (500).
    # Matches are made in the lobby: the admin's "add match" leads there (302).
    assert admin_client.get(reverse(f"{prefix}_add")).status_code in (200, 302, 403)
    obj = model._default_manager.first()
    if obj is not None:
        url = reverse(f"{prefix}_change", args=[obj.pk])
        assert admin_client.get(url).status_code == 200


def test_admin_covers_every_project_model():
    from django.apps import apps

    ours = [
        m
        for app in ("games", "tournaments", "ratings")
        for m in apps.get_app_config(app).get_models()
    ]
    missing = [m._meta.label for m in ours if m not in admin.site._registry]
    assert not missing


# ---- admin actions declare their permissions -----------------------------------------------
def _staff(client, *perms: str):
    from django.contrib.auth.models import Permission

    user = UserFactory(is_staff=True)
    for codename in perms:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    client.force_login(user)
    return user


def _offered(client, url: str) -> set[str]:
    form = client.get(url).context["action_form"]  # None when no action is offered
    return {name for name, _ in form.fields["action"].choices if name} if form else set()


def _post_action(client, url: str, action: str, pk: int):
    return client.post(url, {"action": action, "_selected_action": [pk], "index": 0})


TOURNAMENT_ACTIONS = {"start", "pair_next_round"}
ROUND_ACTIONS = {"start_rounds", "repair_rounds"}


def _registration_tournament():
    from tests.tournaments.factories import tournament_with_bots

    return tournament_with_bots(n=4, config={"table_size": 2, "rounds": 1}, auto_advance=False)


def test_view_only_staff_cannot_start_a_tournament(client):
    t = _registration_tournament()
    _staff(client, "view_tournament")
    url = reverse("admin:tournaments_tournament_changelist")
    assert not TOURNAMENT_ACTIONS & _offered(client, url)
    assert _post_action(client, url, "start", t.pk).status_code in (200, 302, 403)
    t.refresh_from_db()
    assert t.status == "registration" and not t.rounds.exists()


def test_staff_with_change_permission_starts_a_tournament(client):
    t = _registration_tournament()
    _staff(client, "view_tournament", "change_tournament")
    url = reverse("admin:tournaments_tournament_changelist")
    assert _offered(client, url) >= TOURNAMENT_ACTIONS
    assert _post_action(client, url, "start", t.pk).status_code == 302
    t.refresh_from_db()
    assert t.status == "running" and t.rounds.count() == 1


def test_view_only_staff_cannot_start_or_repair_rounds(client):
    from tournaments import services

    t = _registration_tournament()
    services.start_tournament(tournament=t)
    rnd = t.rounds.get()
    _staff(client, "view_round")
    url = reverse("admin:tournaments_round_changelist")
    assert not ROUND_ACTIONS & _offered(client, url)
    _post_action(client, url, "start_rounds", rnd.pk)
    rnd.refresh_from_db()
    assert rnd.status == "paired"
    _staff(client, "view_round", "change_round")
    assert _offered(client, url) >= ROUND_ACTIONS
    _post_action(client, url, "start_rounds", rnd.pk)
    rnd.refresh_from_db()
    assert rnd.status == "running"


def test_view_only_staff_cannot_recompute_ratings(client):
    from games import services as game_services
    from ratings.models import Rating
    from ratings.services import default_pool

    # Program bots: a table of built-in bots rates nobody (ratings/services.py).
    bots = [ExternalBotFactory(), ExternalBotFactory()]
    game_services.record_offline_match(game="silkroad", players=bots, ranks=[1, 2])
    pool = default_pool("silkroad")
    _staff(client, "view_ratingpool")
    url = reverse("admin:ratings_ratingpool_changelist")
    assert "recompute" not in _offered(client, url)
    _post_action(client, url, "recompute", pool.pk)
    assert not Rating.objects.exists()
    _staff(client, "view_ratingpool", "change_ratingpool")
    assert "recompute" in _offered(client, url)
    _post_action(client, url, "recompute", pool.pk)
    assert Rating.objects.filter(pool=pool).count() == 4  # two players, two systems


def test_admin_refuses_rated_over_the_board_without_the_permission(client):
    _staff(client, "view_tournament", "add_tournament", "change_tournament")
    data = {
        "name": "Club night", "game": "silkroad", "format": "swiss", "config": "{}",
        "options": "{}", "increment_s": 0, "timeout_policy": "auto", "seed": 1,
        "status": "registration", "rated": "on", "over_the_board": "on",
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0,
    }  # fmt: skip
    from tournaments.models import Tournament

    response = client.post(reverse("admin:tournaments_tournament_add"), data)
    assert response.status_code == 200 and "run rated events" in response.content.decode()
    assert not Tournament.objects.exists()
    data.pop("rated")
    assert client.post(reverse("admin:tournaments_tournament_add"), data).status_code == 302
    assert Tournament.objects.get().rated is False
