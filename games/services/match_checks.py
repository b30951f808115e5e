"""Checking a match before it is made: the time control, the seats, the options, the
bots' parameters and whether it may be rated. `create_match` checks one match with it,
`create_matches` a round's tables (remembering the costly verdicts they share)."""

from __future__ import annotations

import dataclasses
import json
import secrets
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from games import selectors
from games.engines.base import Engine, InvalidOptions
from games.models import Player, PlayerKind, TimeoutPolicy
from games.models import Variant as VariantModel
from games.time_limits import MAX_DECISION_S, MAX_INCREMENT_S

# The longest time controls the platform accepts (documented in the README): a week per
# decision or on a clock, at most a day added per decision. Every path that sets a
# time control (API, tournaments, admin presets) goes through `time_control_fields`.
TIME_CONTROL_MAXIMA = {
    "per_move_s": MAX_DECISION_S,
    "initial_s": MAX_DECISION_S,
    "increment_s": MAX_INCREMENT_S,
}


def time_control_fields(time_control: dict | None) -> dict:
    if not time_control:
        return {"per_move_s": None, "initial_s": None, "increment_s": 0}
    if not isinstance(time_control, dict):
        raise ValidationError({"time_control": gettext("Give a time control as an object.")})
    allowed = set(TIME_CONTROL_MAXIMA)
    if set(time_control) - allowed:
        raise ValidationError(
            {
                "time_control": gettext("Unknown keys; use %(keys)s.")
                % {"keys": ", ".join(sorted(allowed))}
            }
        )
    values = {}
    for key, high in TIME_CONTROL_MAXIMA.items():
        value = time_control.get(key)
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 0
        ):
            raise ValidationError(
                {
                    "time_control": gettext("%(key)s must be a whole number of seconds.")
                    % {"key": key}
                }
            )
        if value is not None and value > high:
            raise ValidationError(
                {
                    "time_control": gettext(
                        "%(key)s must be at most %(high)s seconds (%(hours)s hours)."
                    )
                    % {"key": key, "high": high, "hours": high // 3600}
                }
            )
        values[key] = value
    if (values["per_move_s"] is None) == (values["initial_s"] is None):
        raise ValidationError(
            {"time_control": gettext("Give either per_move_s or initial_s (+increment_s).")}
        )
    if (values["per_move_s"] or values["initial_s"] or 0) < 1:
        raise ValidationError(
            {"time_control": gettext("A time limit must be at least one second.")}
        )
    values["increment_s"] = values["increment_s"] or 0
    return values


def think_limit(tc: dict) -> float:
    """A bot's thinking time never exceeds the server's ceiling nor the match's time limit."""
    from games.time_limits import bot_max_think_s

    limits = [bot_max_think_s()] + [tc[k] for k in ("per_move_s", "initial_s") if tc[k]]
    return float(min(limits))


def needs_invitation(player: Player, user) -> bool:
    """Whether `user` may enter or seat `player` only with the player's consent: anyone
    but `user` himself, his own external bots and the built-in bots."""
    if player.kind == PlayerKind.ENGINE_BOT:
        return False
    if player.user_id == user.pk:
        return False
    return not (player.kind == PlayerKind.EXTERNAL_BOT and player.owner_id == user.pk)


def humans_to_invite(players: list[Player], created_by) -> list[Player]:
    """Those seated by someone else: they are asked first. Without a creator the
    platform seats players who agreed elsewhere (a tournament's entrants)."""
    if created_by is None:
        return []
    return [p for p in players if needs_invitation(p, created_by)]


def person_of(player: Player) -> int | None:
    """The account answerable for a seat: a human's own, an external bot's owner (else
    the bot's account); None for built-in bots, which anyone may seat several times."""
    if player.kind == PlayerKind.ENGINE_BOT:
        return None
    if player.kind == PlayerKind.EXTERNAL_BOT and player.owner_id is not None:
        return player.owner_id
    return player.user_id


def rating_objection(*, players: list[Player], created_by, invited: list[Player],
                     consented: bool = False, server_seed: bool) -> str | None:  # fmt: skip
    """Why a match with these seats may not count for ratings, or None if it may: every
    human consented (the creator, an invited player once he accepts, or entrants the
    platform seats), no two seats belong to one person, and the server chose the seed.

    A built-in bot is no objection: `rated` says the table may count, and each rating
    pool decides whether tables with built-in bots do (`RatingPool.rate_builtin_bots`,
    off by default, so the lobby says they are not rated)."""
    if not server_seed:
        return "the seed was chosen by the client"
    invited_ids = {p.pk for p in invited}
    for p in players:
        asked = consented or created_by is None or p.pk in invited_ids
        if p.kind == PlayerKind.HUMAN and not asked and p.user_id != created_by.pk:
            return f"{p.name} has not agreed to play"
    seen: dict[int, Player] = {}
    for p in players:
        person = person_of(p)
        if person is None:
            continue
        if person in seen:
            return f"two seats belong to one person ({seen[person].name} and {p.name})"
        seen[person] = p
    return None


@dataclass
class MatchSpec:
    """One match to create: the arguments of `create_match`, with the same meaning."""

    game: str
    players: list[Player | None]
    options: dict | None = None
    variant: VariantModel | None = None
    seed: int | None = None
    time_control: dict | None = None
    timeout_policy: str = TimeoutPolicy.AUTO
    rated: bool = False
    created_by: Any = None
    start: bool = True
    consented: bool = False

    def as_kwargs(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


@dataclass
class MatchPlan:
    """A spec once checked: everything needed to write it."""

    spec: MatchSpec
    engine: Engine
    options: dict
    tc: dict
    seed: int
    rated: bool
    starts_now: bool
    invitees: list[Player]
    open_indices: list[int]


def _key(value) -> str | None:
    """A cache key for JSON-like data; None (no caching) for anything else."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return None


class MatchChecks:
    """`create_match`'s validation, in its order and with its messages, remembering the
    costly verdicts (options, a bot's parameters: JSON Schema validations) across specs
    that share them: a round's tables share the options and most bots their settings."""

    def __init__(self) -> None:
        self._options: dict[tuple, dict | str] = {}
        self._bot_params: dict[tuple, str | None] = {}

    def resolved_options(self, engine: Engine, game: str, merged: dict) -> dict:
        key = _key(merged)
        verdict = self._options.get((game, key)) if key is not None else None
        if verdict is None:
            try:
                verdict = engine.validate_options(merged)
            except InvalidOptions as exc:
                verdict = str(exc)
            if key is not None:
                self._options[(game, key)] = verdict
        if isinstance(verdict, str):
            raise ValidationError({"options": verdict})
        # Each match gets its own copy, as the database would give it back.
        return json.loads(json.dumps(verdict))

    def bot_params_error(self, engine: Engine, game: str, p: Player, limit: float) -> str | None:
        key = _key(p.bot_params)
        cache_key = (game, p.bot_name, key, limit)
        if key is not None and cache_key in self._bot_params:
            return self._bot_params[cache_key]
        try:
            engine.check_bot_params(p.bot_name, p.bot_params, max_time_s=limit)
            error = None
        except InvalidOptions as exc:
            error = str(exc)
        if key is not None:
            self._bot_params[cache_key] = error
        return error

    def plan(self, spec: MatchSpec) -> MatchPlan:
        game, players, variant = spec.game, spec.players, spec.variant
        engine = selectors.engine_for(game)
        if variant is not None and variant.game != game:
            raise ValidationError({"variant": gettext("That variant belongs to another game.")})
        try:
            engine.check_players(len(players))
        except InvalidOptions as exc:
            raise ValidationError({"options": str(exc)}) from None
        resolved = self.resolved_options(
            engine, game, {**(variant.options if variant else {}), **(spec.options or {})}
        )
        tc = time_control_fields(spec.time_control)
        open_indices = [i for i, p in enumerate(players) if p is None]
        if open_indices and spec.created_by is None:
            raise ValidationError({"seats": gettext("Only a player can open a seat to others.")})
        if open_indices and len(open_indices) == len(players):
            raise ValidationError({"seats": gettext("Take a seat yourself or seat a bot.")})
        seated = [p for p in players if p is not None]
        limit = None
        for p in seated:
            if not p.is_active:
                raise ValidationError(
                    {"seats": gettext("%(player)s is not active.") % {"player": p.name}}
                )
            if p.game and p.game != game:
                raise ValidationError(
                    {
                        "seats": gettext("%(player)s plays only %(game)s.")
                        % {"player": p.name, "game": p.game}
                    }
                )
            if p.kind == PlayerKind.ENGINE_BOT and p.bot_name not in engine.bot_names():
                raise ValidationError(
                    {
                        "seats": gettext("%(game)s has no bot %(bot)r.")
                        % {"game": gettext(engine.title), "bot": p.bot_name}
                    }
                )
            if p.kind == PlayerKind.ENGINE_BOT:
                limit = think_limit(tc) if limit is None else limit
                error = self.bot_params_error(engine, game, p, limit)
                if error is not None:
                    raise ValidationError({"seats": f"{p.name}: {error}"})
        if spec.timeout_policy not in TimeoutPolicy.values:
            raise ValidationError(
                {
                    "timeout_policy": gettext("Use one of %(names)s.")
                    % {"names": ", ".join(TimeoutPolicy.values)}
                }
            )
        seed, rated = spec.seed, spec.rated
        if seed is not None and rated:
            raise ValidationError({"seed": gettext("seed may be chosen only for unrated matches")})
        server_seed = seed is None
        if seed is None:
            seed = secrets.randbits(48)
        invitees = [] if spec.consented else humans_to_invite(seated, spec.created_by)
        if rated:
            objection = rating_objection(
                players=seated, created_by=spec.created_by, invited=invitees,
                consented=spec.consented, server_seed=server_seed,
            )  # fmt: skip
            if objection and not spec.consented:
                raise ValidationError(
                    {
                        "rated": gettext("This match cannot be rated: %(reason)s.")
                        % {"reason": objection}
                    }
                )
            rated = objection is None
        starts_now = spec.start and not invitees and not open_indices
        return MatchPlan(spec=spec, engine=engine, options=resolved, tc=tc, seed=seed, rated=rated,
                         starts_now=starts_now, invitees=invitees,
                         open_indices=open_indices)  # fmt: skip
