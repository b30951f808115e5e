"""Write-side operations on players. Views, API and commands call these."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from rest_framework.authtoken.models import Token

from games.engines.registry import ENGINES
from games.models import Player, PlayerKind

User = get_user_model()


@transaction.atomic
def register_human(*, username: str, password: str, email: str = "") -> Player:
    """A person's account and their player, in one step (the sign-up page)."""
    name_length = Player._meta.get_field("name").max_length
    if len(username) > name_length:
        raise ValidationError({"username": f"At most {name_length} characters."})
    # Bots have players without accounts: their names are taken too.
    if (
        User.objects.filter(username__iexact=username).exists()
        or Player.objects.filter(name__iexact=username).exists()
    ):
        raise ValidationError({"username": "That name is taken."})
    user = User.objects.create_user(username=username, password=password, email=email)
    return Player.objects.create(name=username.lower(), kind=PlayerKind.HUMAN, user=user)


def _check_bot_name(bot_name: str, game: str) -> None:
    if game and game not in ENGINES:
        raise ValidationError({"game": f"Unknown game {game!r}."})
    engines = [ENGINES[game]] if game else list(ENGINES.values())
    if not any(bot_name in e.bot_names() for e in engines):
        raise ValidationError({"bot_name": f"No built-in bot called {bot_name!r}."})


@transaction.atomic
def create_engine_bot(
    *, name: str, bot_name: str, params: dict | None = None, game: str = "", description: str = ""
) -> Player:
    _check_bot_name(bot_name, game)
    if Player.objects.filter(name=name).exists():
        raise ValidationError({"name": "That name is taken."})
    return Player.objects.create(
        name=name,
        kind=PlayerKind.ENGINE_BOT,
        bot_name=bot_name,
        bot_params=params or {},
        game=game,
        description=description,
    )


@transaction.atomic
def create_external_bot(*, name: str, owner=None, description: str = "") -> tuple[Player, str]:
    """A bot program's account: a user with no password and an API token."""
    if Player.objects.filter(name=name).exists() or User.objects.filter(username=name).exists():
        raise ValidationError({"name": "That name is taken."})
    user = User(username=name)
    user.set_unusable_password()
    user.save()
    player = Player.objects.create(
        name=name, kind=PlayerKind.EXTERNAL_BOT, user=user, owner=owner, description=description
    )
    token = Token.objects.create(user=user)
    return player, token.key


@transaction.atomic
def rotate_token(*, player: Player) -> str:
    if player.user is None:
        raise ValidationError("Built-in bots have no token.")
    Token.objects.filter(user=player.user).delete()
    return Token.objects.create(user=player.user).key


def builtin_bot_player(*, bot_name: str, params: dict | None = None) -> Player:
    """The shared player for a built-in bot with these parameters (made on first use)."""
    import hashlib
    import json

    params = params or {}
    name = bot_name
    if params:
        digest = hashlib.sha1(json.dumps(params, sort_keys=True).encode()).hexdigest()[:8]
        name = f"{bot_name}-{digest}"
    existing = Player.objects.filter(name=name, kind=PlayerKind.ENGINE_BOT).first()
    if existing:
        return existing
    return create_engine_bot(name=name, bot_name=bot_name, params=params)
