"""The lobby (/play/), My games, rematch and challenge, the header's badges, and the
board targets the match page and the state API give with every legal action."""

import json

import pytest
from django.urls import reverse

from games import services
from games.engines import registry
from games.engines.registry import ENGINES
from games.models import Invitation, Match, MatchStatus, PlayerKind, TimeControl, Variant
from tests.games.engines.toy_board import TOY_BOARD
from tests.games.factories import EngineBotFactory, ExternalBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client):
    player = HumanPlayerFactory(user__username="alice")
    client.force_login(player.user)
    return player


def lobby(**fields):
    data = {"game": "silkroad", "seats": 2, "seat_0": "me", "seat_1": "greedy", "time_control": ""}
    data.update(fields)
    return data


def errors(response) -> str:
    form = response.context["form"]
    return json.dumps(form.errors)


def test_the_lobby_wants_a_login(client):
    response = client.get(reverse("play"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_match_against_a_bot_in_every_game(client, alice, game):
    page = client.get(reverse("play"))
    assert page.status_code == 200 and b'name="seat_4"' in page.content
    response = client.post(reverse("play"), lobby(game=game, seat_1="ismcts-fast"))
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert match.game == game and match.created_by == alice.user
    assert match.status == MatchStatus.RUNNING
    seats = list(match.seats.order_by("index").select_related("player"))
    assert seats[0].player == alice
    assert seats[1].player.kind == PlayerKind.ENGINE_BOT
    assert (seats[1].player.bot_name, seats[1].player.bot_params) == ("ismcts", {"iterations": 200})


def test_variant_time_control_and_rated_reach_the_match(client, alice):
    variant = Variant.objects.create(game="yspahan", name="plain", options={})
    tc = TimeControl.objects.create(name="Quick", per_move_s=30)
    response = client.post(reverse("play"), lobby(
        game="yspahan", variant=variant.pk, time_control="pm:30", seats=3, seat_2="random",
        rated="on",
    ))  # fmt: skip
    assert response.status_code == 302, errors(response)
    match = Match.objects.get()
    assert match.variant == variant and match.per_move_s == tc.per_move_s and match.rated
    assert match.seats.count() == 3


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seat_1": "invite", "seat_1_name": "nobody-here"}, "No player called"),
        ({"seat_1": "invite", "seat_1_name": ""}, "Type the name"),
        ({"seat_1": "invite", "seat_1_name": "ALICE"}, "That is you"),
        ({"seat_1": "me"}, "exactly one"),
        ({"seat_0": "greedy"}, "exactly one"),
        (
            {
                "game": "yspahan",
                "seats": 5,
                "seat_2": "random",
                "seat_3": "random",
                "seat_4": "random",
            },
            "2 to 4 players",
        ),  # fmt: skip
        ({"seats": 7}, "Select a valid choice"),
        ({"game": "chess"}, "Select a valid choice"),
        ({"seat_1": "grandmaster"}, "Select a valid choice"),
        ({"time_control": "pm:x"}, "Unknown time control"),
        ({"options": "[1]"}, "JSON object"),
        ({"options": '{"nonsense": 1}'}, "nonsense"),
    ],
)
def test_form_errors_change_nothing(client, alice, fields, message):
    response = client.post(reverse("play"), lobby(**fields))
    assert response.status_code == 200
    assert message in errors(response)
    assert not Match.objects.exists()


def test_a_variant_of_another_game_is_refused(client, alice):
    variant = Variant.objects.create(game="yspahan", name="plain", options={})
    response = client.post(reverse("play"), lobby(variant=variant.pk))
    assert "another game" in errors(response) and not Match.objects.exists()


def test_each_variant_option_names_its_game_for_the_page_to_filter(client, alice):
    ours = Variant.objects.create(game="yspahan", name="plain", options={})
    Variant.objects.create(game="silkroad", name="blank board", options={})
    html = client.get(reverse("play")).content.decode()
    assert 'name="game" data-game-select' in html.replace('data-game-select=""', "data-game-select")
    assert f'<option value="{ours.pk}" data-game="yspahan">plain</option>' in html
    assert 'data-game="silkroad">blank board</option>' in html
    assert "js/game-options.js" in html


def test_rated_is_refused_when_the_service_says_so(client, alice):
    # The creator's own bot program beside him: one person in two seats.
    own_bot = ExternalBotFactory(owner=alice.user)
    response = client.post(
        reverse("play"), lobby(seat_1="invite", seat_1_name=own_bot.name, rated="on")
    )
    assert response.status_code == 200
    assert "cannot be rated" in errors(response) and not Match.objects.exists()
    unrated = client.post(reverse("play"), lobby(seat_1="invite", seat_1_name=own_bot.name))
    assert unrated.status_code == 302 and not Match.objects.get().rated


def test_inviting_a_person_makes_a_waiting_match(client, alice):
    bob = HumanPlayerFactory(user__username="bob")
    response = client.post(reverse("play"), lobby(seat_1="invite", seat_1_name="Bob"))
    match = Match.objects.get()
    assert response.status_code == 302 and match.status == MatchStatus.PENDING
    assert Invitation.objects.filter(match=match, player=bob).exists()
    mine = client.get(reverse("my-games"))
    assert mine.context["games"]["pending"] == [match]
    page = client.get(reverse("match-detail", args=[match.pk]))
    assert b"Waiting for the invited players" in page.content


def _my_turn_match(alice, game="silkroad"):
    match = services.create_match(game=game, players=[alice, EngineBotFactory()], seed=2)
    while match.to_act != 0:
        services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    return match


def test_my_games_and_the_turn_badge(client, alice):
    waiting = _my_turn_match(alice)
    finished = _my_turn_match(alice, game="yspahan")
    services.resign(match_id=finished.pk, user=alice.user)
    other = services.create_match(game="silkroad", players=[EngineBotFactory(), EngineBotFactory()])
    response = client.get(reverse("my-games"))
    games = response.context["games"]
    assert games["my_turn"] == [waiting]
    assert games["finished"] == [finished]
    assert other not in games["running"]
    content = response.content.decode()
    assert 'id="turn-badge"' in content and f"?rematch={finished.pk}" in content
    home = client.get(reverse("home")).content.decode()
    assert 'id="turn-badge" title="Games waiting for your move">1<' in home
    assert 'href="/players/alice/"' in home  # the user name links to the profile
    client.logout()
    assert b"turn-badge" not in client.get(reverse("home")).content


def test_rematch_prefills_the_same_game_with_seats_rotated(client, alice):
    bob = HumanPlayerFactory(user__username="bob")
    tc = TimeControl.objects.create(name="Slow", initial_s=600, increment_s=5)
    variant = Variant.objects.create(game="silkroad", name="v", options={})
    match = services.create_match(
        game="silkroad", players=[alice, bob, EngineBotFactory(bot_name="greedy")],
        variant=variant, time_control=tc.as_dict(), created_by=alice.user,
    )  # fmt: skip
    initial = client.get(reverse("play"), {"rematch": match.pk}).context["form"].initial
    assert initial["game"] == "silkroad" and initial["variant"] == variant.pk
    assert initial["time_control"] == "cl:600+5" and initial["seats"] == 3
    assert (initial["seat_0"], initial["seat_0_name"]) == ("invite", "bob")
    assert initial["seat_1"] == "greedy" and initial["seat_2"] == "me"
    # Submitting the prefilled form makes the rematch, with the same time control.
    posted = {k: v for k, v in initial.items() if v is not None}
    posted["variant"] = variant.pk
    response = client.post(reverse("play"), posted)
    assert response.status_code == 302, errors(response)
    rematch = Match.objects.exclude(pk=match.pk).get()
    assert rematch.time_control() == {"initial_s": 600, "increment_s": 5}
    assert [s.player for s in rematch.seats.order_by("index")][::2] == [bob, alice]
    # Someone else's match gives no prefill.
    stranger = services.create_match(game="silkroad", players=[EngineBotFactory(), bob])
    assert client.get(reverse("play"), {"rematch": stranger.pk}).context["form"].initial == {}


def test_a_finished_match_shows_the_result_banner(client, alice):
    match = _my_turn_match(alice)
    services.resign(match_id=match.pk, user=alice.user)
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert 'id="result-banner"' in page and f"/play/?rematch={match.pk}" in page
    assert page.index("Final result") < page.index('id="board"')


def test_challenge_from_the_player_page(client, alice):
    HumanPlayerFactory(user__username="carol")
    profile = client.get(reverse("player-page", args=["carol"])).content.decode()
    assert "/play/?opponent=carol" in profile
    assert (
        "/play/?opponent=alice"
        not in client.get(reverse("player-page", args=["alice"])).content.decode()
    )
    initial = client.get(reverse("play"), {"opponent": "carol"}).context["form"].initial
    assert initial == {"seats": 2, "seat_0": "me", "seat_1": "invite", "seat_1_name": "carol"}


@pytest.fixture
def toy_board(monkeypatch):
    monkeypatch.setitem(registry.ENGINES, "toy-board", TOY_BOARD)
    return TOY_BOARD


def test_the_state_api_gives_board_targets_with_every_legal_action(api_client, toy_board):
    alice = HumanPlayerFactory()
    match = services.create_match(game="toy-board", players=[alice, EngineBotFactory()], seed=1)
    while match.to_act != 0:
        services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    api_client.force_authenticate(alice.user)
    state = api_client.get(f"/api/matches/{match.pk}/state/").json()
    targets = [a["targets"] for a in state["legal_actions"]]
    assert targets == [["display:0"], ["display:1"], ["deck"]]
    assert all(a["choice"] is None for a in state["legal_actions"])
    # The match page embeds the same for static/js/board.js.
    api_client.logout()


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_real_engines_give_a_targets_list_even_before_their_boards_are_clickable(api_client, game):
    alice = HumanPlayerFactory()
    match = _my_turn_match(alice, game=game)
    api_client.force_authenticate(alice.user)
    state = api_client.get(f"/api/matches/{match.pk}/state/").json()
    assert state["legal_actions"]
    for legal in state["legal_actions"]:
        assert isinstance(legal["targets"], list) and "choice" in legal


def test_the_match_page_embeds_legal_actions_and_the_last_move(client, toy_board):
    alice = HumanPlayerFactory()
    client.force_login(alice.user)
    match = services.create_match(game="toy-board", players=[alice, EngineBotFactory()], seed=1)
    while match.to_act != 0 or match.ply == 0:
        if match.to_act == 0:
            legal = TOY_BOARD.legal_actions(TOY_BOARD.from_json(match.state))
            services.submit_action(
                match_id=match.pk, user=alice.user, ply=match.ply, action=legal[-1]
            )
        else:
            services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    start = page.index('id="legal-actions"')
    data = json.loads(page[page.index(">", start) + 1 : page.index("</script>", start)])
    state = TOY_BOARD.from_json(match.state)
    assert [json.loads(a["action"]) for a in data] == TOY_BOARD.legal_actions(state)
    assert [a["targets"] for a in data] == [
        TOY_BOARD.action_targets(state, json.loads(a["action"])) for a in data
    ]
    assert {a["targets"][1] for a in data} == {"bank", "discard"}  # two clicks each
    # Alice's own draw was the last move: the deck is highlighted.
    start = page.index('id="last-move"')
    assert json.loads(page[page.index(">", start) + 1 : page.index("</script>", start)]) == ["deck"]
    assert '<details class="fallback">' in page and "<legend>Bank</legend>" in page
    assert 'data-clickable="1"' in page  # board.js narrows on the board, not the list


def test_the_result_banner_shows_rating_changes(client, alice):
    from ratings import services as rating_services

    response = client.post(reverse("play"), lobby(rated="on"))
    match = Match.objects.get()
    assert response.status_code == 302 and match.rated
    while match.to_act != 0:
        services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    services.resign(match_id=match.pk, user=alice.user)
    waiting = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert "being rated" in waiting and 'hx-trigger="every 2s"' in waiting  # it refreshes
    rating_services.on_match_finished(match_id=match.pk)
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    banner = page[page.index('id="result-banner"') : page.index('id="board"')]
    assert "being rated" not in banner and 'hx-trigger="every 2s"' not in page
    # A built-in bot at the table: the pool rated nobody (ratings/services.py), and the
    # banner says so rather than showing a column of +0.0.
    assert "No rating changed: games against built-in bots are not rated." in banner
    assert "(+0.0)" not in banner and "Rating</th>" not in banner


# ---- option errors in the platform's words (games/engines/schema.py) --------------------
# (options, English, Czech): each validator kind the Silk Road options can break. The Czech
# reads the merged catalog (locale/cs/pending/msgs-engines.po until the lead merges it).
LOBBY_OPTION_ERRORS = [
    ({"board_side": "blank", "tile_mix": {"bazaar": 23}},
     "Tile mix / bazaar: at most 22.", "Počty destiček akcí / bazar: nejvýše 22."),
    ({"board_side": "blank", "tile_mix": {"bazaar": -1}},
     "Tile mix / bazaar: at least 0.", "Počty destiček akcí / bazar: alespoň 0."),
    ({"tile_mix": {"bazaar": "many"}}, "Tile mix / bazaar: must be a whole number.",
     "Počty destiček akcí / bazar: musí být celé číslo."),
    ({"board_side": "moon"}, "Board side: choose one of “printed action fields”",
     "Strana herního plánu: zvolte jednu z možností „předtištěná pole akcí“"),
    ({"start_cities": {"1": {"start": "tashkent"}, "2": {}, "3": {}}},
     "Start cities / 1-camel caravan / target: missing.",
     "Výchozí a cílová města / jednočlenná karavana / cílové město: chybí."),
    ({"colour": "red"}, "Options: unknown setting “colour”.", "Volby: neznámé nastavení „colour“."),
    ({"board_side": "blank", "tile_mix": {"bazaar": 5}},
     "Tile mix: the numbers must add up to 22, not 5.",
     "Počty destiček akcí: součet musí být 22, ne 5."),
]  # fmt: skip


@pytest.mark.parametrize(("options", "english", "czech"), LOBBY_OPTION_ERRORS)
@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_lobby_shows_option_errors_in_the_readers_language(
    client, alice, options, english, czech, language
):
    response = client.post(
        reverse("play"), lobby(options=json.dumps(options)), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    expected = english if language == "en" else czech
    assert any(expected in e for e in response.context["form"].non_field_errors()), errors(response)
    assert expected in response.content.decode()  # drawn above the form, not in a hidden input
    assert Match.objects.count() == 0
