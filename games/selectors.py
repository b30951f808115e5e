"""Read-side queries for players."""

from django.db.models import QuerySet

from games.models import Player, PlayerKind


def player_list(*, kind: str | None = None, active_only: bool = True) -> QuerySet[Player]:
    qs = Player.objects.select_related("user", "owner")
    if active_only:
        qs = qs.filter(is_active=True)
    if kind:
        qs = qs.filter(kind=kind)
    return qs


def player_for_user(user) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def engine_bots() -> QuerySet[Player]:
    return player_list(kind=PlayerKind.ENGINE_BOT)
