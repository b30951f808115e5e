"""games.services.match_batches: many matches in a few statements, the rows of one by one."""

from __future__ import annotations

import contextlib

import pytest
from celery.signals import before_task_publish
from django.core.exceptions import ValidationError

from config.celery import app as celery_app
from games import services
from games.engines import registry
from games.models import Match, MatchStatus, Seat, Variant
from games.services import MatchSpec, create_matches
from tests.games.engines.toy import ToyEngine
from tests.games.factories import (
    EngineBotFactory,
    ExternalBotFactory,
    HumanPlayerFactory,
    UserFactory,
    logged,
)

pytestmark = pytest.mark.django_db

# Compared apart: times of the write itself (the deadline relative to the turn's start).
_TIMES = {"id", "created_at", "updated_at", "started_at", "turn_started_at", "deadline"}


def match_row(match_id: int) -> dict:
    """A match as stored: every column but its id and write times, its seats and its log."""
    m = Match.objects.get(pk=match_id)
    row = {f.attname: getattr(m, f.attname) for f in Match._meta.concrete_fields
           if f.attname not in _TIMES}  # fmt: skip
    row["deadline_after_turn_start"] = m.deadline - m.turn_started_at if m.deadline else None
    row["started"] = (m.started_at is not None, m.turn_started_at is not None)
    row["seats"] = [
        (s.index, s.player_id, s.clock_ms, s.forfeited, s.timeouts, s.score, s.rank)
        for s in Seat.objects.filter(match=m).order_by("index")
    ]
    row["open_seats"] = sorted(m.open_seats.values_list("index", flat=True))
    row["invited"] = sorted(m.invitations.values_list("player_id", flat=True))
    row["log"] = [(a.ply, a.seat, a.action, a.label, a.source, a.time_used_ms) for a in logged(m)]
    return row


class OpeningForcedToy(ToyEngine):
    """The toy game whose first turn (take, then bank) has one legal decision each: no
    real game opens with forced decisions, yet `start_match` applies and logs them."""

    slug = "toyforced"

    def legal_actions(self, state):
        legal = super().legal_actions(state)
        return legal[:1] if state.turns == 0 else legal


@pytest.fixture
def forced_toy(monkeypatch):
    monkeypatch.setattr(registry, "ENGINES", {**registry.ENGINES, "toyforced": OpeningForcedToy()})
    return "toyforced"


@contextlib.contextmanager
def published_tasks(*, queues: bool = False):
    """The tasks really sent to the broker meanwhile, as (task name, args, eta), or with
    `queues` as (task name, args, queue); the test's queues are purged afterwards so that
    no later worker test takes them."""
    sent = []

    def record(sender=None, body=None, headers=None, routing_key=None, **kwargs):
        last = routing_key if queues else (headers or {}).get("eta")
        sent.append((sender, tuple(body[0]), last))

    before_task_publish.connect(record, weak=False)
    try:
        yield sent
    finally:
        before_task_publish.disconnect(record)
        celery_app.control.purge()


def scheduled(tasks, matches) -> list[tuple]:
    """Per match (by its place in `matches`) what was scheduled: a bot turn, whichever
    task carried it and with how many others, or a time-out task; with its ply."""
    position = {m.pk: i for i, m in enumerate(matches)}
    out = []
    for name, args, eta in tasks:
        if name == "games.tasks.play_bot_matches":
            out += [(position[match_id], "bot turn", ply, False) for match_id, ply in args[0]]
        else:
            out.append((position[args[0]], name, args[1], eta is not None))
    return sorted(out)


def varied_specs(forced_toy: str) -> list[MatchSpec]:
    variant = Variant.objects.create(
        game="silkroad", name="batch test", options={"board_side": "blank"}
    )
    human, other = HumanPlayerFactory(), HumanPlayerFactory()
    return [
        MatchSpec(game="silkroad", players=[EngineBotFactory() for _ in range(4)], seed=11),
        MatchSpec(
            game="silkroad",
            variant=variant,
            seed=12,
            timeout_policy="forfeit",
            players=[
                EngineBotFactory(bot_name="greedy"),
                EngineBotFactory(bot_name="ismcts", bot_params={"iterations": 50}),
            ],
        ),
        MatchSpec(
            game="greatwall",
            seed=13,
            time_control={"per_move_s": 30},
            players=[human, EngineBotFactory(), EngineBotFactory()],
        ),
        MatchSpec(
            game="yspahan",
            seed=14,
            players=[human, other],
            time_control={"initial_s": 60, "increment_s": 5},
        ),
        # Forced decisions at the start: logged, and the human's clock gets its increments.
        MatchSpec(
            game=forced_toy,
            seed=15,
            players=[other, EngineBotFactory()],
            time_control={"initial_s": 60, "increment_s": 5},
        ),
    ]


def test_a_batch_writes_the_rows_create_match_writes_for_the_same_seeds(forced_toy):
    specs = varied_specs(forced_toy)
    batch = create_matches(specs)
    single = [services.create_match(**spec.as_kwargs()) for spec in specs]
    assert [m.pk for m in batch] != [m.pk for m in single]
    for made, reference, spec in zip(batch, single, specs, strict=True):
        row = match_row(made.pk)
        assert row == match_row(reference.pk), spec
        assert row["status"] == MatchStatus.RUNNING and row["state"] is not None
    toy = match_row(batch[-1].pk)
    assert [entry[4] for entry in toy["log"]] == ["forced", "forced"]
    assert toy["ply"] == 2 and toy["seats"][0][2] == 60_000 + 2 * 5_000
    assert match_row(batch[2].pk)["deadline_after_turn_start"] is not None  # a human to act


def test_a_batch_schedules_after_its_commit_what_one_by_one_schedules(
    forced_toy, django_capture_on_commit_callbacks, settings
):
    settings.BOT_TASK_SPREAD = 1  # one task a queue (the search bots' turns have their own)
    specs = varied_specs(forced_toy)
    with published_tasks() as sent, django_capture_on_commit_callbacks(execute=True):
        batch = create_matches(specs)
        assert sent == []  # nothing before the commit
    with published_tasks() as sent_single, django_capture_on_commit_callbacks(execute=True):
        single = [services.create_match(**spec.as_kwargs()) for spec in specs]

    assert scheduled(sent, batch) == scheduled(sent_single, single)
    names = {name for name, _, _ in sent}
    assert names == {"games.tasks.play_bot_matches", "games.tasks.enforce_deadline"}
    turns = [t for name, args, _ in sent if name == "games.tasks.play_bot_matches" for t in args[0]]
    assert len(turns) >= 2
    # the batch's bot turns left together: no more tasks than one by one, a few matches each
    one_by_one = [n for n, _, _ in sent_single if n == "games.tasks.play_bot_matches"]
    batched = [n for n, _, _ in sent if n == "games.tasks.play_bot_matches"]
    assert len(batched) <= min(len(one_by_one), 2) < len(turns)


def test_matches_that_must_wait_are_made_as_create_match_makes_them():
    owner = HumanPlayerFactory()
    invited = HumanPlayerFactory()
    specs = [
        MatchSpec(game="silkroad", players=[owner, None], created_by=owner.user, seed=1),
        MatchSpec(game="silkroad", players=[owner, invited], created_by=owner.user, seed=2),
        MatchSpec(
            game="silkroad", players=[EngineBotFactory(), EngineBotFactory()], seed=3, start=False
        ),
        MatchSpec(game="silkroad", players=[EngineBotFactory(), EngineBotFactory()], seed=4),
    ]
    batch = create_matches(specs)
    single = [services.create_match(**spec.as_kwargs()) for spec in specs]
    statuses = [match_row(m.pk)["status"] for m in batch]
    assert statuses == ["pending", "pending", "pending", "running"]
    for made, reference in zip(batch, single, strict=True):
        assert match_row(made.pk) == match_row(reference.pk)


def test_each_match_gets_its_own_options():
    bots = [EngineBotFactory() for _ in range(4)]
    options = {"board_side": "blank"}
    first, second = create_matches(
        [MatchSpec(game="silkroad", players=bots[:2], options=options),
         MatchSpec(game="silkroad", players=bots[2:], options=options)]
    )  # fmt: skip
    assert first.options == second.options and first.options is not second.options
    first.options["board_side"] = "changed"
    assert second.options["board_side"] == "blank" and options == {"board_side": "blank"}
    assert (
        Match.objects.get(pk=second.pk).options
        == services.create_match(game="silkroad", players=bots[:2], options=options).options
    )
    assert first.seed != second.seed  # a server seed each


def _bad_specs():
    """(what is wrong, a function making the spec's arguments)."""

    def bots(n=2, **kwargs):
        return [EngineBotFactory(**kwargs) for _ in range(n)]

    def two_seats_one_person():
        human = HumanPlayerFactory()
        bot = ExternalBotFactory(owner=human.user)
        return {"game": "silkroad", "players": [human, bot], "rated": True,
                "created_by": human.user}  # fmt: skip

    return [
        ("unknown game", lambda: {"game": "chess", "players": bots()}),
        ("variant of another game", lambda: {
            "game": "silkroad", "players": bots(),
            "variant": Variant.objects.create(game="greatwall", name="other", options={})}),
        ("too few players", lambda: {"game": "silkroad", "players": bots(1)}),
        ("bad options", lambda: {"game": "silkroad", "players": bots(), "options": {"zzz": 1}}),
        ("bad time control", lambda: {"game": "silkroad", "players": bots(),
                                      "time_control": {"per_move_s": 0}}),
        ("open seat without a creator", lambda: {"game": "silkroad",
                                                 "players": [*bots(1), None]}),
        ("every seat open", lambda: {"game": "silkroad", "players": [None, None],
                                     "created_by": UserFactory()}),
        ("inactive player", lambda: {"game": "silkroad",
                                     "players": [*bots(1), *bots(1, is_active=False)]}),
        ("player of another game", lambda: {"game": "silkroad",
                                            "players": bots(2, game="greatwall")}),
        ("unknown bot", lambda: {"game": "silkroad", "players": bots(2, bot_name="zzz")}),
        ("bad bot parameters", lambda: {"game": "silkroad",
                                        "players": bots(2, bot_params={"zzz": 1})}),
        ("bot thinking longer than the time limit", lambda: {
            "game": "silkroad", "time_control": {"per_move_s": 2},
            "players": bots(2, bot_name="ismcts", bot_params={"time_s": 3})}),
        ("bad time-out policy", lambda: {"game": "silkroad", "players": bots(),
                                         "timeout_policy": "zzz"}),
        ("chosen seed, rated", lambda: {"game": "silkroad", "players": bots(), "seed": 5,
                                        "rated": True}),
        ("two seats of one person, rated", two_seats_one_person),
    ]  # fmt: skip


@pytest.mark.parametrize(("case", "make"), _bad_specs(), ids=[c for c, _ in _bad_specs()])
def test_a_bad_spec_raises_what_create_match_raises_and_nothing_is_written(case, make):
    kwargs = make()
    with pytest.raises(ValidationError) as single:
        services.create_match(**kwargs)
    # A valid spec sharing its settings before it (cached verdicts must not hide the error).
    good = {**kwargs, "players": [EngineBotFactory() for _ in kwargs["players"]], "seed": None,
            "rated": False, "created_by": None}  # fmt: skip
    if case in ("unknown game", "variant of another game", "too few players", "bad options",
                "bad time control", "bad time-out policy"):  # fmt: skip
        good = {"game": "silkroad", "players": [EngineBotFactory(), EngineBotFactory()]}
    if case == "bot thinking longer than the time limit":  # the same bot, without the limit
        good = {**kwargs, "time_control": None}
    before = Match.objects.count()
    with pytest.raises(ValidationError) as batch:
        create_matches([MatchSpec(**good), MatchSpec(**kwargs)])
    assert batch.value.message_dict == single.value.message_dict
    assert Match.objects.count() == before
