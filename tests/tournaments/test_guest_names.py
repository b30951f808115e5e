"""Names people can't fake in a tournament (issue #31): a guest's name that looks like an
entrant's is refused within the tournament, and control or bidi characters are refused in
guest names and in the tournament's name, venue and description, on pages and in the API,
changing nothing."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from core import names
from games.models import Player, PlayerKind
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import editing, entrants

pytestmark = pytest.mark.django_db

RLO = "\u202e"
CREATE = {"name": "Club night", "game": "silkroad", "format": "swiss", "config": {"table_size": 2}}
PAGE = {"name": "Club cup", "game": "silkroad", "format": "swiss", "table_size": 2, "rated": ""}


def _club(organiser) -> Tournament:
    return services.create_tournament(
        name="Club night", game="yspahan", organiser=organiser, config={"table_size": 2},
        over_the_board=True, auto_advance=False, seed=5, format="round_robin",
    )  # fmt: skip


def _guests(t: Tournament) -> list[str]:
    return sorted(t.entries.filter(player__kind=PlayerKind.GUEST)
                  .values_list("player__display_name", flat=True))  # fmt: skip


# ---- guests ------------------------------------------------------------------------------
def test_a_guest_that_looks_like_an_entrant_is_refused_in_that_tournament_only():
    organiser = UserFactory()
    t, other = _club(organiser), _club(organiser)
    entrants.add_guest(tournament=t, name="Jana Nováková", by=organiser)
    alice = HumanPlayerFactory(user__username="alice")
    services.add_entry(tournament=t, player=alice)
    for name in ("J\u0430na Nováková", "JANA NOVÁKOVÁ", "\u0430lice", "ALICE", "a1ice"):
        with pytest.raises(ValidationError) as refused:
            entrants.add_guest(tournament=t, name=name, by=organiser)
        assert "guest" in refused.value.error_dict, name
    with pytest.raises(ValidationError) as refused:
        entrants.add_guest(tournament=t, name="\u0430lice", by=organiser)
    assert refused.value.error_dict["guest"][0].messages == [str(names.LOOKS_TAKEN)]
    assert _guests(t) == ["Jana Nováková"]
    # Another tournament has no Jana yet: the same name is fine there.
    entrants.add_guest(tournament=other, name="J\u0430na Nováková", by=organiser)
    assert _guests(other) == ["J\u0430na Nováková"]


def test_czech_names_with_and_without_diacritics_are_two_people():
    organiser = UserFactory()
    t = _club(organiser)
    entrants.add_guest(tournament=t, name="Sarka Novakova", by=organiser)
    entrants.add_guest(tournament=t, name="Šárka Nováková", by=organiser)
    assert _guests(t) == ["Sarka Novakova", "Šárka Nováková"]


@pytest.mark.parametrize("char", [RLO, "\u200b", "\u2066", "\ufeff", "\x1b"])
def test_a_guest_name_with_an_invisible_character_is_refused(char):
    organiser = UserFactory()
    t = _club(organiser)
    with pytest.raises(ValidationError) as refused:
        entrants.add_guest(tournament=t, name=f"a{char}lice", by=organiser)
    assert refused.value.error_dict["guest"][0].code == "control_character"
    assert not Player.objects.filter(kind=PlayerKind.GUEST).exists()


def test_guest_names_on_the_page_and_in_the_api(client, api_client):
    organiser = UserFactory()
    t = _club(organiser)
    client.force_login(organiser)
    url = reverse("tournament-add-guest", args=[t.pk])
    page = client.post(url, {"guest": f"a{RLO}lice"}, follow=True).content.decode()
    assert "can&#x27;t contain invisible control or text-direction characters" in page
    assert "U+202E" in page
    client.post(url, {"guest": "Jana"})
    page = client.post(url, {"guest": "J\u0430na"}, follow=True).content.decode()
    assert "This name looks like one already taken." in page
    api_client.force_authenticate(organiser)
    api = f"/api/tournaments/{t.pk}/entries/"
    for bad in (f"a{RLO}lice", "J\u0430na", "JANA"):
        response = api_client.post(api, {"guest": bad}, format="json")
        assert response.status_code == 400, (bad, response.content)
        assert "guest" in response.json()["fields"]
    response = api_client.post(api, {"guest": f"a{RLO}lice"}, format="json")
    assert response.json()["fields"]["guest"][0].startswith("Guest's name can't contain")
    assert _guests(t) == ["Jana"]


# ---- the tournament's own text -------------------------------------------------------------
@pytest.mark.parametrize(
    ("field", "value"),
    [("name", f"Club {RLO}night"), ("venue", f"Hall{RLO} 2"), ("description", f"Bring\n{RLO}dice"),
     ("description", "x\u200by")],
)  # fmt: skip
def test_the_api_refuses_an_override_in_the_tournaments_text(api_client, field, value):
    api_client.force_authenticate(UserFactory())
    response = api_client.post("/api/tournaments/", {**CREATE, field: value}, format="json")
    assert response.status_code == 400, response.content
    assert "control or text-direction" in response.json()["fields"][field][0]
    assert not Tournament.objects.exists()


def test_a_description_keeps_its_lines():
    t = services.create_tournament(**CREATE, description="Bring dice.\n\n\tAnd snacks 🍕")
    assert t.description == "Bring dice.\n\n\tAnd snacks 🍕"


@pytest.mark.parametrize("field", ["name", "venue", "description"])
def test_the_create_page_shows_the_refusal_at_the_field(client, field):
    client.force_login(UserFactory())
    page = client.post(reverse("tournament-create"), {**PAGE, field: f"Club {RLO}cup"})
    assert page.status_code == 200
    assert page.context["form"].errors[field][0].endswith("(it has U+202E).")
    assert not Tournament.objects.exists()


def test_editing_refuses_an_override_on_the_page_and_in_the_api(client, api_client):
    organiser = UserFactory()
    t = _club(organiser)
    with pytest.raises(ValidationError) as refused:
        editing.update_tournament(tournament=t, by=organiser, name=f"Club {RLO}night II")
    assert "name" in refused.value.error_dict
    client.force_login(organiser)
    url = reverse("tournament-edit", args=[t.pk])
    posted = client.post(url, {"name": "Club night", "format": "round_robin", "table_size": 2,
                               "venue": f"Hall {RLO}2"})  # fmt: skip
    assert posted.status_code == 200
    assert "U+202E" in posted.context["form"].errors["venue"][0]
    api_client.force_authenticate(organiser)
    answer = api_client.patch(f"/api/tournaments/{t.pk}/", {"description": f"a{RLO}b"},
                              format="json")  # fmt: skip
    assert answer.status_code == 400 and "description" in answer.json()["fields"]
    t.refresh_from_db()
    assert (t.name, t.venue, t.description) == ("Club night", "", "")
    answer = api_client.patch(f"/api/tournaments/{t.pk}/", {"name": "Šárka's cup"},
                              format="json")  # fmt: skip
    assert answer.status_code == 200 and answer.json()["name"] == "Šárka's cup"
