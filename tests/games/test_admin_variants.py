"""The admin's variants, time-control presets and matches: forms made from the option
schema, the preview, readable messages for bad input (never a 5xx), and no way to make a
match that cannot be played."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engines.registry import ENGINES
from games.forms import PlayForm
from games.models import Match, TimeControl, Variant
from games.selectors import time_control_choices
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

ADD = reverse("admin:games_variant_add")
MIX = "opt_tile_mix__"


@pytest.fixture
def staff(client):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def silk_data(**changes) -> dict:
    data = {"name": "Blank board", "description": "", "opt_board_side": "blank"}
    data.update(
        {f"{MIX}{k}": str(n) for k, n in ENGINES["silkroad"].default_options()["tile_mix"].items()}
    )
    data.update(changes)
    return data


def test_adding_a_variant_starts_with_the_choice_of_game(staff):
    page = staff.get(ADD)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="game"' in html and 'value="silkroad"' in html and "opt_board_side" not in html
    # An unknown game asks again; it is never a 5xx.
    assert staff.get(ADD, {"game": "chess"}).status_code == 200
    assert staff.post(ADD + "?game=chess", silk_data()).status_code == 200
    assert not Variant.objects.exists()


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_game_gets_its_option_fields_and_a_preview(staff, game):
    page = staff.get(ADD, {"game": game})
    assert page.status_code == 200
    html = page.content.decode()
    props = ENGINES[game].option_schema().get("properties", {})
    for key in props:
        assert f'name="opt_{key}' in html
    if not props:
        assert "This game has no options" in html
    response = staff.post(f"{ADD}?game={game}", {"name": "Club rules", "description": "x",
                                                 "_continue": "1", **_defaults_posted(staff, game)})  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    variant = Variant.objects.get(game=game)
    assert variant.options == ENGINES[game].default_options()
    change = staff.get(reverse("admin:games_variant_change", args=[variant.pk]))
    assert change.status_code == 200
    body = change.content.decode()
    assert 'id="variant-preview"' in body and "<svg" in body
    assert 'class="options-json"' in body  # the JSON, read-only
    assert 'name="options"' not in body


def _defaults_posted(client, game: str) -> dict:
    """The add form's fields as a browser posts them untouched."""
    from games.admin_variants import variant_form_class
    from tests.games.test_variant_form import posted

    return posted(variant_form_class(ENGINES[game])())


def test_a_blank_board_variant_by_form_and_its_shuffled_preview(staff):
    response = staff.post(f"{ADD}?game=silkroad", {**silk_data(), "_continue": "1"})
    assert response.status_code == 302
    variant = Variant.objects.get()
    assert variant.options["board_side"] == "blank"
    url = reverse("admin:games_variant_change", args=[variant.pk])
    page = staff.get(url).content.decode()
    assert 'id="shuffle-again"' in page
    seed = re.search(r'id="shuffle-again" href="\?seed=(\d+)#', page).group(1)
    again = staff.get(url, {"seed": seed}).content.decode()
    villages = lambda html: re.findall(r'data-target="village:(v\d+)"[^>]*><title>([^<]*)<', html)  # noqa: E731
    assert villages(page) and villages(page) != villages(again)
    assert staff.get(url, {"seed": "not-a-seed"}).status_code == 200
    assert staff.get(url, {"seed": str(10**30)}).status_code == 200


def test_yspahan_deals_nothing_random_on_its_board_so_no_shuffle(staff):
    variant = Variant.objects.create(game="yspahan", name="plain")
    page = staff.get(reverse("admin:games_variant_change", args=[variant.pk])).content.decode()
    assert "<svg" in page and 'id="shuffle-again"' not in page


@pytest.mark.parametrize(
    "changes, field, message",
    [
        ({f"{MIX}bazaar": "5"}, "opt_tile_mix", "Tile mix: the numbers must add up to 22, not 26."),
        ({f"{MIX}bazaar": "-1"}, "opt_tile_mix", "Tile mix / bazaar: at least 0."),
        ({f"{MIX}bazaar": "99999999999"}, "opt_tile_mix", "Tile mix / bazaar: at most 22."),
        ({f"{MIX}bazaar": "lots"}, "opt_tile_mix", "Tile mix / bazaar: must be a whole number."),
        ({"opt_board_side": "round"}, "opt_board_side",
         "Board side: choose one of “printed action fields”, “blank: the tiles of the tile mix shuffled”."),
        ({"opt_board_side": "printed", f"{MIX}bazaar": "2", f"{MIX}baksheesh": "0"},
         "opt_tile_mix", "Tile mix: only the blank board side takes a tile mix."),
        ({"opt_start_cities__set": "on"}, "opt_start_cities", "Start cities / 1-camel caravan / start: missing."),
        ({"name": ""}, "name", "This field is required."),
    ],
)  # fmt: skip
def test_bad_variant_values_are_form_errors_and_change_nothing(staff, changes, field, message):
    response = staff.post(f"{ADD}?game=silkroad", silk_data(**changes))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert message in " ".join(errors[field]), errors
    assert not Variant.objects.exists()


def test_editing_a_variant_keeps_its_game_and_shows_its_values(staff):
    variant = Variant.objects.create(game="silkroad", name="Blank", options={"board_side": "blank"})
    url = reverse("admin:games_variant_change", args=[variant.pk])
    page = staff.get(url).content.decode()
    assert re.search(r'<option value="blank" selected>', page)
    response = staff.post(url, silk_data(name="Blank, more robbers", **{f"{MIX}robbers": "3",
                                                                      f"{MIX}bazaar": "0"}))  # fmt: skip
    assert response.status_code == 302
    variant.refresh_from_db()
    assert variant.game == "silkroad" and variant.options["tile_mix"]["robbers"] == 3


# ---- time-control presets -------------------------------------------------------------------
TC_ADD = reverse("admin:games_timecontrol_add")


@pytest.mark.parametrize(
    "data, field, message",
    [
        ({"name": "Zero", "per_move_s": "0", "increment_s": "0"}, "per_move_s", "at least one second"),
        ({"name": "Forever", "per_move_s": "99999999999", "increment_s": "0"}, "per_move_s",
         "At most 604800 seconds (7 days) per decision."),
        ({"name": "Long clock", "initial_s": "604801", "increment_s": "0"}, "initial_s", "(7 days)"),
        ({"name": "Big step", "initial_s": "600", "increment_s": "86401"}, "increment_s", "(1 day)"),
        ({"name": "Empty", "increment_s": "0"}, "per_move_s", "Set either a limit per decision"),
        ({"name": "Both", "per_move_s": "30", "initial_s": "600", "increment_s": "0"},
         "initial_s", "not both"),
        ({"name": "Odd", "per_move_s": "30", "increment_s": "5"}, "increment_s", "goes with a clock"),
        ({}, "name", "This field is required."),
        ({"name": "Neg", "per_move_s": "-5", "increment_s": "0"}, "per_move_s", ""),
    ],
)  # fmt: skip
def test_time_control_presets_are_bounded_with_readable_messages(staff, data, field, message):
    presets = TimeControl.objects.count()  # a fresh install's (migration 0016)
    response = staff.post(TC_ADD, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "time_control_one_kind" not in html and "Constraint" not in html
    errors = response.context["adminform"].form.errors
    assert message in " ".join(errors[field]), errors
    assert TimeControl.objects.count() == presets


def test_valid_presets_are_saved_and_offered_by_the_lobby(staff):
    for data in ({"name": "Blitz", "initial_s": "300", "increment_s": "3"},
                 {"name": "Correspondence", "per_move_s": str(7 * 24 * 3600), "increment_s": "0"}):  # fmt: skip
        assert staff.post(TC_ADD, data).status_code == 302
    offered_keys = [key for key, _name in time_control_choices()]
    # Among a fresh install's presets, by speed: 5 min + 3 s after 3 min + 2 s, a week a
    # move after 3 days a move.
    assert offered_keys.index("cl:180+2") < offered_keys.index("cl:300+3")
    assert offered_keys.index("pm:259200") < offered_keys.index("pm:604800")
    assert offered_keys[-1] == "pm:604800"
    offered = dict(PlayForm().fields["time_control"].widget.choices)
    assert offered["cl:300+3"] == "Blitz" and offered["pm:604800"] == "Correspondence"


# ---- matches ----------------------------------------------------------------------------
def test_add_match_leads_to_the_lobby_and_no_match_is_made(staff):
    response = staff.get(reverse("admin:games_match_add"))
    assert response.status_code == 302 and response["Location"] == reverse("play")
    bots = [EngineBotFactory(), EngineBotFactory()]
    response = staff.post(reverse("admin:games_match_add"), {"game": "silkroad", "seed": "1",
                                                            "status": "running"})  # fmt: skip
    assert response.status_code == 302 and not Match.objects.exists()
    listing = staff.get(reverse("admin:games_match_changelist")).content.decode()
    assert 'id="start-in-lobby"' in listing and f'href="{reverse("play")}"' in listing
    assert bots


def test_a_matchs_setup_cannot_be_edited_into_a_dead_match(staff):
    from games import services

    players = [HumanPlayerFactory(), EngineBotFactory()]
    match = services.create_match(game="silkroad", players=players)
    url = reverse("admin:games_match_change", args=[match.pk])
    page = staff.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert not {"game", "options", "seed", "status", "variant"} & set(form.fields)
    staff.post(url, {"status": "pending", "options": "{}", "seed": "1", "timeout_policy": "auto",
                     "abort_reason": "", "seats-TOTAL_FORMS": "0", "seats-INITIAL_FORMS": "0"})  # fmt: skip
    before = (match.status, match.options, match.seed)
    match.refresh_from_db()
    assert (match.status, match.options, match.seed) == before


def test_the_variant_form_speaks_czech(staff):
    """Labels come from the engine in the request's language (its catalog already has the
    action names); the form's own help texts are in locale/cs/LC_MESSAGES/django.po."""
    page = staff.get(ADD, {"game": "silkroad"}, HTTP_ACCEPT_LANGUAGE="cs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Černý trh" in html and "Malý trh (hedvábí)" in html
    english = staff.get(ADD, {"game": "silkroad"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Black market" in english and "Černý trh" not in english


def test_seats_and_log_records_are_not_added_by_hand(staff):
    for model in ("seat", "matchlog"):
        assert staff.get(reverse(f"admin:games_{model}_add")).status_code == 403


def test_view_only_staff_see_a_variant_without_a_5xx_and_cannot_add(client):
    from django.contrib.auth.models import Permission

    user = UserFactory(is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_variant"))
    client.force_login(user)
    variant = Variant.objects.create(game="silkroad", name="Blank", options={"board_side": "blank"})
    page = client.get(reverse("admin:games_variant_change", args=[variant.pk]))
    assert page.status_code == 200 and "options-json" in page.content.decode()
    assert client.get(ADD).status_code == 403
    assert client.get(ADD, {"game": "silkroad"}).status_code == 403


# ---- messages in the reader's language (games/engines/schema.py) -------------------------
# (changes, field, English, Czech); the Czech reads the merged catalog (locale/cs/pending/
# msgs-engines.po until the lead merges it).
WORDED = [
    ({f"{MIX}bazaar": "99999999999"}, "opt_tile_mix",
     "Tile mix / bazaar: at most 22.", "Počty destiček akcí / bazar: nejvýše 22."),
    ({f"{MIX}bazaar": "-1"}, "opt_tile_mix",
     "Tile mix / bazaar: at least 0.", "Počty destiček akcí / bazar: alespoň 0."),
    ({f"{MIX}bazaar": "lots"}, "opt_tile_mix",
     "Tile mix / bazaar: must be a whole number.",
     "Počty destiček akcí / bazar: musí být celé číslo."),
    ({"opt_board_side": "round"}, "opt_board_side",
     "Board side: choose one of “printed action fields”, “blank: the tiles of the tile mix "
     "shuffled”.",
     "Strana herního plánu: zvolte jednu z možností „předtištěná pole akcí“, „prázdná pole "
     "akcí: zamíchané destičky akcí“."),
    ({"opt_start_cities__set": "on", "opt_start_cities__1__start": "tashkent"},
     "opt_start_cities", "Start cities / 1-camel caravan / target: missing.",
     "Výchozí a cílová města / jednočlenná karavana / cílové město: chybí."),
    ({f"{MIX}bazaar": "5"}, "opt_tile_mix", "Tile mix: the numbers must add up to 22, not 26.",
     "Počty destiček akcí: součet musí být 22, ne 26."),
    ({"opt_board_side": "printed", f"{MIX}bazaar": "2", f"{MIX}baksheesh": "0"}, "opt_tile_mix",
     "Tile mix: only the blank board side takes a tile mix.",
     "Počty destiček akcí: vlastní počty destiček jsou jen pro stranu plánu s prázdnými poli "
     "akcí."),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "field", "english", "czech"), WORDED)
@pytest.mark.parametrize("language", ["en", "cs"])
def test_variant_errors_are_in_the_admins_language(staff, changes, field, english, czech,
                                                   language):  # fmt: skip
    response = staff.post(
        f"{ADD}?game=silkroad", silk_data(**changes), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors[field] == [english if language == "en" else czech], errors
    assert not Variant.objects.exists()
