"""The organiser's member picker (tournaments.views.entrants.member_suggestions and the
detail page's ?member= search without JS): members of the site only, bots too online
(marked), nobody entered already; the add form takes only whom the picker offers."""

import re

import pytest
from django.urls import reverse

from games.models import Invitation
from tests.games.factories import (
    EngineBotFactory,
    ExternalBotFactory,
    HumanPlayerFactory,
    UserFactory,
)
from tournaments import services
from tournaments.services import entrants

pytestmark = pytest.mark.django_db


def _event(organiser, **extra):
    kwargs = {"name": "Čtvrtek", "game": "yspahan", "format": "swiss", "organiser": organiser,
              "over_the_board": True, "config": {"table_size": 2}}  # fmt: skip
    return services.create_tournament(**{**kwargs, **extra})


def _picks(html: str) -> list[str]:
    return re.findall(r'name="player" value="([^"]+)"', html)


def _suggest(client, t, text):
    return client.get(reverse("tournament-member-suggestions", args=[t.pk]), {"member": text})


@pytest.fixture
def members():
    HumanPlayerFactory(user__username="jana", display_name="Jana Nováková")
    HumanPlayerFactory(user__username="janek")
    HumanPlayerFactory(user__username="bohdan", display_name="Bohdan Janáček")
    HumanPlayerFactory(user__username="janina", is_active=False)
    blocked = HumanPlayerFactory(user__username="janus")
    blocked.user.is_active = False
    blocked.user.save()
    HumanPlayerFactory(user__username="jan-silk", game="silkroad")  # plays another game only
    EngineBotFactory(name="jan-bot")
    ExternalBotFactory(user__username="jan-program")


def test_over_the_board_offers_active_members_of_the_game_only(client, members):
    organiser = UserFactory(username="olga")
    t = _event(organiser)
    services.add_entry(tournament=t, player=HumanPlayerFactory(user__username="janette"))
    client.force_login(organiser)
    response = _suggest(client, t, "JAN")
    assert response.status_code == 200
    # Begins with it first, then contains it (a display name too); no bots, no one entered,
    # no inactive player or account, nobody of another game.
    assert _picks(response.content.decode()) == ["jana", "janek", "bohdan"]
    nothing = _suggest(client, t, "zzz").content.decode()
    assert _picks(nothing) == [] and "Nobody to add matches “zzz”" in nothing
    assert _suggest(client, t, "  ").content.decode().strip() == ""


def test_online_bots_are_offered_too_and_marked(client, members):
    organiser = UserFactory(username="olga")
    t = _event(organiser, over_the_board=False, game="silkroad")
    client.force_login(organiser)
    html = _suggest(client, t, "jan").content.decode()
    assert set(_picks(html)) == {"jana", "janek", "bohdan", "jan-silk", "jan-bot", "jan-program"}
    assert "Built-in bot" in html and "External bot program" in html
    assert html.count('class="bot-mark"') == 2


def test_waiting_entrants_are_not_offered_either(client):
    organiser = UserFactory(username="olga")
    t = _event(organiser, entry_limit=2)
    for name in ("ann", "anna", "annika"):
        services.add_entry(tournament=t, player=HumanPlayerFactory(user__username=name))
    HumanPlayerFactory(user__username="annabel")
    assert entrants.waitlist(t)[0].player.name == "annika"
    client.force_login(organiser)
    assert _picks(_suggest(client, t, "ann").content.decode()) == ["annabel"]


def test_only_the_organiser_searches(client, members):
    t = _event(UserFactory(username="olga"))
    client.force_login(HumanPlayerFactory().user)
    assert _suggest(client, t, "jan").status_code == 403


def test_without_js_the_search_reloads_the_page_with_the_matches_to_pick(client, members):
    organiser = UserFactory(username="olga")
    t = _event(organiser)
    client.force_login(organiser)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    # A plain GET form back to this page, the list inside the add form.
    assert 'id="member-search" name="member"' in page and 'id="member-search-go"' in page
    assert f'action="{reverse("tournament-detail", args=[t.pk])}#add-entrant"' in page
    assert _picks(page) == [] and "<select" not in page.split('id="add-entrant"')[1][:2000]
    page = client.get(reverse("tournament-detail", args=[t.pk]), {"member": "Nová"})
    html = page.content.decode()
    assert _picks(html) == ["jana"] and 'value="Nová"' in html
    done = client.post(reverse("tournament-add-entry", args=[t.pk]), {"player": "jana"},
                       follow=True)  # fmt: skip
    assert "Jana Nováková invited: entered once they accept" in done.content.decode()
    assert Invitation.objects.filter(player__name="jana", target_id=t.pk).exists()
    html = client.get(reverse("tournament-detail", args=[t.pk]), {"member": "olg"}).content
    assert _picks(html.decode()) == ["olga"]
    done = client.post(reverse("tournament-add-entry", args=[t.pk]), {"player": "olga"},
                       follow=True)  # fmt: skip
    assert "olga entered" in done.content.decode()  # his own player: at once
    assert list(t.entries.values_list("player__name", flat=True)) == ["olga"]


@pytest.mark.parametrize("name", ["jan-bot", "janina", "janus", "jan-silk"])
def test_the_add_form_takes_only_whom_the_picker_offers(client, members, name):
    organiser = UserFactory(username="olga")
    t = _event(organiser)  # over the board: no bots
    client.force_login(organiser)
    response = client.post(reverse("tournament-add-entry", args=[t.pk]), {"player": name},
                           follow=True)  # fmt: skip
    assert "Pick a player" in response.content.decode()
    assert not t.entries.exists()


def test_an_online_organiser_enters_a_built_in_bot_at_once(client, members):
    organiser = UserFactory(username="olga")
    t = _event(organiser, over_the_board=False, game="silkroad")
    client.force_login(organiser)
    client.post(reverse("tournament-add-entry", args=[t.pk]), {"player": "jan-bot"})
    assert list(t.entries.values_list("player__name", flat=True)) == ["jan-bot"]
    assert "jan-bot" not in _picks(_suggest(client, t, "jan").content.decode())


def test_adding_to_a_full_tournament_says_the_waitlist(client, members):
    organiser = UserFactory(username="olga")
    t = _event(organiser, entry_limit=2, over_the_board=False, game="silkroad")
    for _ in range(2):
        services.add_entry(tournament=t, player=EngineBotFactory())
    client.force_login(organiser)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert "whoever you add now goes on the waitlist" in page
    done = client.post(reverse("tournament-add-entry", args=[t.pk]), {"player": "jan-bot"},
                       follow=True).content.decode()  # fmt: skip
    assert "The tournament is full: jan-bot is on the waitlist (position 1)." in done
    assert [e.player.name for e in entrants.waitlist(t)] == ["jan-bot"]
