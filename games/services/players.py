"""Write-side operations on players. Views, API and commands call these."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy

from core import names, tokens
from core.errors import DomainError
from core.timezones import check_zone, forget_preference
from games.engines.base import InvalidOptions
from games.engines.registry import ENGINES
from games.models import Player, PlayerKind, looks_taken, name_taken
from games.receivers import bot_account
from games.time_limits import bot_max_think_s

User = get_user_model()
NAME_MAX = Player._meta.get_field("name").max_length
TAKEN = gettext_lazy("That name is taken (names ignore case and look-alike letters).")
LOOKS_TAKEN = names.LOOKS_TAKEN


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


def _looks_reserved(name: str) -> bool:
    # "rand0m" would pass for the shared built-in bot "random" in every list.
    return any(names.looks_alike(name, b) for e in ENGINES.values() for b in e.bot_names())


def check_new_name(name: str, *, field: str, label) -> None:
    """A name someone chooses (an account's, a bot's): no invisible characters, and none
    that looks like a name already taken (core.names), else a ValidationError on `field`."""
    try:
        names.check_text(name, field_label=label)
    except ValidationError as exc:
        raise ValidationError({field: exc}) from None
    if looks_taken(name) or _looks_reserved(name):
        raise ValidationError({field: ValidationError(LOOKS_TAKEN, code="looks_taken")})


def register_human(*, username: str, password: str, email: str = "") -> Player:
    """A person's account and their player, in one step (the sign-up page)."""
    if len(username) > NAME_MAX:
        raise ValidationError({"username": gettext("At most %(n)s characters.") % {"n": NAME_MAX}})
    name = _player_name_for(username)
    taken = User.objects.filter(username__iexact=username).exists() or name_taken(name)
    if taken or _reserved(name):
        raise ValidationError({"username": TAKEN})
    check_new_name(username, field="username", label=gettext("User name"))
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


@transaction.atomic
def create_engine_bot(
    *,
    name: str,
    bot_name: str,
    params: dict | None = None,
    game: str = "",
    description: str = "",
    look_alikes: bool = True,
) -> Player:
    """``look_alikes=False``: the platform's own shared bots (builtin_bot_player), whose
    made-up names are not chosen by anyone."""
    _check_bot_name(bot_name, game, params)
    if name_taken(name):
        raise ValidationError({"name": TAKEN})
    if look_alikes:
        check_new_name(name, field="name", label=gettext("Name"))
    _check_description(description)
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
    _check_bot_owner(owner)
    if name_taken(name) or User.objects.filter(username__iexact=name).exists():
        raise ValidationError({"name": TAKEN})
    check_new_name(name, field="name", label=gettext("Name"))
    _check_description(description)
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
    _token, key = tokens.issue(user)
    return player, key


class BotNotAllowed(DomainError):
    status_code = 403
    code = "bot_not_allowed"


class TooManyBots(DomainError):
    status_code = 409
    code = "too_many_bots"


def _check_bot_owner(owner) -> None:
    """Bots are registered by people, each up to MAX_BOTS_PER_OWNER: a bot registering bots
    would multiply its owner's limits (every account has its own rate limits)."""
    if owner is None:
        return
    own = Player.objects.filter(user=owner).values_list("kind", flat=True).first()
    if own in (PlayerKind.EXTERNAL_BOT, PlayerKind.ENGINE_BOT):
        raise BotNotAllowed(gettext("A bot can't register bots: its owner can."))
    # Locked, so that two registrations at once can't both take the last place.
    User.objects.select_for_update().filter(pk=owner.pk).first()
    most = settings.MAX_BOTS_PER_OWNER
    if (
        most is not None
        and Player.objects.filter(owner=owner, kind=PlayerKind.EXTERNAL_BOT).count() >= most
    ):
        raise TooManyBots(
            gettext("You already have %(n)d bots, the most allowed: remove one first.")
            % {"n": most}
        )


@transaction.atomic
def rotate_token(*, player: Player) -> str:
    if player.user is None:
        raise ValidationError(gettext("Built-in bots have no token."))
    # A bot program's account holds one token: the new one replaces it (core/tokens.py).
    return tokens.issue(player.user, replace=True)[1]


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
    return create_engine_bot(name=name, bot_name=bot_name, params=params, look_alikes=False)


def _check_description(description: str) -> None:
    try:
        names.check_text(description or "", field_label=gettext("Description"), multiline=True)
    except ValidationError as exc:
        raise ValidationError({"description": exc}) from None


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
