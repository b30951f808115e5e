"""Write-side operations on players. Views, API and commands call these."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy
from rest_framework.authtoken.models import Token

from core.timezones import check_zone, forget_preference
from games.engines.base import InvalidOptions
from games.engines.registry import ENGINES
from games.models import Player, PlayerKind, name_taken
from games.receivers import bot_account

User = get_user_model()
NAME_MAX = Player._meta.get_field("name").max_length
TAKEN = gettext_lazy("That name is taken (names ignore case and look-alike letters).")


def _player_name_for(username: str) -> str:
    return slugify(username)[:NAME_MAX] or "player"


def _reserved(name: str) -> bool:
    # The shared built-in bot players are named after their bot (see builtin_bot_player);
    # "deleted-..." names are the departed's (games.services.departures).
    if name.startswith("deleted-"):
        return True
    return any(name in e.bot_names() for e in ENGINES.values())


def ensure_human_player(user) -> Player:
    """The human player of `user`, made if missing, named after the account; a free
    variant of the name ("name-2", ...) if another player holds it already."""
    existing = Player.objects.filter(user=user).first()
    if existing is not None:
        return existing
    base = _player_name_for(user.username)
    for n in range(1, 1000):
        suffix = "" if n == 1 else f"-{n}"
        name = base[: NAME_MAX - len(suffix)] + suffix
        if name_taken(name) or _reserved(name):
            continue
        try:
            # A savepoint: a concurrent sign-up may take the name between check and insert.
            with transaction.atomic():
                return Player.objects.create(name=name, kind=PlayerKind.HUMAN, user=user)
        except IntegrityError:
            if Player.objects.filter(user=user).exists():
                return Player.objects.get(user=user)
    raise ValidationError(gettext("No free player name for this account."))


def register_human(*, username: str, password: str, email: str = "") -> Player:
    """A person's account and their player, in one step (the sign-up page)."""
    if len(username) > NAME_MAX:
        raise ValidationError({"username": gettext("At most %(n)s characters.") % {"n": NAME_MAX}})
    name = _player_name_for(username)
    taken = User.objects.filter(username__iexact=username).exists() or name_taken(name)
    if taken or _reserved(name):
        raise ValidationError({"username": TAKEN})
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password, email=email)
            player = Player.objects.get(user=user)  # made by the post_save receiver
            if player.name != name:  # another sign-up took the name meanwhile
                raise IntegrityError
    except IntegrityError:
        raise ValidationError({"username": TAKEN}) from None
    return player


def _check_bot_name(bot_name: str, game: str, params: dict | None = None) -> None:
    if game and game not in ENGINES:
        raise ValidationError({"game": gettext("Unknown game %(game)r.") % {"game": game}})
    engines = [ENGINES[game]] if game else list(ENGINES.values())
    if not any(bot_name in e.bot_names() for e in engines):
        raise ValidationError(
            {"bot_name": gettext("No built-in bot called %(bot)r.") % {"bot": bot_name}}
        )
    if params is not None and not isinstance(params, dict):
        raise ValidationError({"params": gettext("Bot parameters are a JSON object.")})
    for engine in engines:  # a player for any game must suit every game
        if bot_name in engine.bot_names():
            try:
                engine.check_bot_params(bot_name, params, max_time_s=bot_max_think_s())
            except InvalidOptions as exc:
                raise ValidationError({"params": str(exc)}) from None


def bot_max_think_s() -> float:
    """The server's ceiling on a built-in bot's thinking time per decision."""
    from django.conf import settings

    from games.engines.bots import MAX_TIME_S

    return min(MAX_TIME_S, getattr(settings, "BOT_MAX_THINK_S", MAX_TIME_S))


@transaction.atomic
def create_engine_bot(
    *, name: str, bot_name: str, params: dict | None = None, game: str = "", description: str = ""
) -> Player:
    _check_bot_name(bot_name, game, params)
    if name_taken(name):
        raise ValidationError({"name": TAKEN})
    try:
        with transaction.atomic():
            return Player.objects.create(
                name=name,
                kind=PlayerKind.ENGINE_BOT,
                bot_name=bot_name,
                bot_params=params or {},
                game=game,
                description=description,
            )
    except IntegrityError:
        raise ValidationError({"name": TAKEN}) from None


@transaction.atomic
def create_external_bot(*, name: str, owner=None, description: str = "") -> tuple[Player, str]:
    """A bot program's account: a user with no password and an API token."""
    if name_taken(name) or User.objects.filter(username__iexact=name).exists():
        raise ValidationError({"name": TAKEN})
    try:
        with transaction.atomic(), bot_account():
            # The account is the bot's: no human player is made for it.
            user = User(username=name)
            user.set_unusable_password()
            user.save()
            player = Player.objects.create(
                name=name, kind=PlayerKind.EXTERNAL_BOT, user=user, owner=owner,
                description=description,
            )  # fmt: skip
    except IntegrityError:
        raise ValidationError({"name": TAKEN}) from None
    token = Token.objects.create(user=user)
    return player, token.key


@transaction.atomic
def rotate_token(*, player: Player) -> str:
    if player.user is None:
        raise ValidationError(gettext("Built-in bots have no token."))
    Token.objects.filter(user=player.user).delete()
    return Token.objects.create(user=player.user).key


def builtin_bot_player(*, bot_name: str, params: dict | None = None) -> Player:
    """The shared player for a built-in bot with these parameters (made on first use)."""
    import hashlib
    import json

    params = params or {}
    _check_bot_name(bot_name, "", params)
    name = bot_name
    if params:
        digest = hashlib.sha1(json.dumps(params, sort_keys=True).encode()).hexdigest()[:8]
        name = f"{bot_name}-{digest}"
    existing = Player.objects.filter(name=name, kind=PlayerKind.ENGINE_BOT).first()
    if existing:
        return existing
    return create_engine_bot(name=name, bot_name=bot_name, params=params)


def set_turn_sound(*, user, on: bool) -> bool:
    """Switch the short sound on one's move or invitation (static/js/live-header.js) on or
    off; True when this changed it. An account without a player is a ValidationError."""
    player = Player.objects.filter(user=user, kind=PlayerKind.HUMAN).first()
    if player is None:
        raise ValidationError(gettext("This account has no player."))
    if player.turn_sound == bool(on):
        return False
    player.turn_sound = bool(on)
    player.save(update_fields=["turn_sound"])
    return True


def set_time_zone(*, user, time_zone: str) -> Player:
    """A person's time zone for pages ("" for automatic: the browser's, else the site's);
    an unknown name is a ValidationError on the field, nothing is saved."""
    if not isinstance(time_zone, str):
        raise ValidationError({"time_zone": gettext("Give a time zone name.")})
    try:
        time_zone = check_zone(time_zone.strip())
    except ValidationError as exc:
        raise ValidationError({"time_zone": exc.messages}) from None
    player = Player.objects.filter(user=user, kind=PlayerKind.HUMAN).first()
    if player is None:
        raise ValidationError(gettext("This account has no player."))
    player.time_zone = time_zone
    player.save(update_fields=["time_zone"])
    # After the commit, or a reader between the two could cache the old value again.
    transaction.on_commit(lambda: forget_preference(user.pk))
    forget_preference(user.pk)
    return player


def new_calendar_token(*, user) -> str:
    """A fresh secret for her calendar feed's address (core.calendar_feed); the old address
    stops working at once (404)."""
    import secrets

    player = Player.objects.filter(user=user, kind=PlayerKind.HUMAN, is_active=True).first()
    if player is None:
        raise ValidationError(gettext("This account has no player."))
    player.calendar_token = secrets.token_urlsafe(32)
    player.save(update_fields=["calendar_token"])
    return player.calendar_token
