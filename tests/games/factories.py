import factory
from django.contrib.auth import get_user_model

from games.models import Player, PlayerKind


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("correct-horse-battery")


class HumanPlayerFactory(factory.django.DjangoModelFactory):
    """The player every account gets (made by games.receivers); fields given are set on it."""

    class Meta:
        model = Player

    user = factory.SubFactory(UserFactory)
    name = factory.LazyAttribute(lambda p: p.user.username)
    kind = PlayerKind.HUMAN

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        player = Player.objects.get(user=kwargs.pop("user"))
        for field, value in kwargs.items():
            setattr(player, field, value)
        player.save()
        return player


class BotUserFactory(UserFactory):
    """An account for an external bot program: no human player is made for it."""

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        from games.receivers import bot_account

        with bot_account():
            return super()._create(model_class, *args, **kwargs)


class EngineBotFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"bot{n}")
    kind = PlayerKind.ENGINE_BOT
    bot_name = "random"
    user = None


class ExternalBotFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    user = factory.SubFactory(BotUserFactory, username=factory.Sequence(lambda n: f"extbot{n}"))
    name = factory.LazyAttribute(lambda p: p.user.username)
    kind = PlayerKind.EXTERNAL_BOT


class MatchFactory:
    """Matches through the service, as the platform makes them (not raw rows)."""

    @staticmethod
    def create(*, game="silkroad", players=None, seats=2, seed=1, **kwargs):
        from games import services

        players = players or [EngineBotFactory() for _ in range(seats)]
        return services.create_match(game=game, players=players, seed=seed, **kwargs)


def logged(match, **where) -> list:
    """The match's logged decisions (read back as the pages read them) whose attributes
    equal `where`'s, e.g. `logged(match, source="player", seat=0)`."""
    from games.models import Match
    from games.selectors import match_decisions

    decisions = match_decisions(Match.objects.get(pk=getattr(match, "pk", match)))
    return [d for d in decisions if all(getattr(d, k) == v for k, v in where.items())]


def play_out(match):
    """A match of built-in bots played to its end in this process (no worker); returns it
    read again."""
    from games import services

    match.refresh_from_db()
    while services.play_bot_decisions(match_id=match.pk, ply=match.ply) is not None:
        match.refresh_from_db()
    match.refresh_from_db()
    return match


def play_random_move(match, players, rng):
    """The seat to act (one of `players`, by seat) makes a random legal decision through
    the service; returns the match read again."""
    from games import services
    from games.engines.registry import get_engine

    match.refresh_from_db()
    engine = get_engine(match.game)
    legal = engine.legal_actions(engine.from_json(match.state))
    services.submit_action(match_id=match.pk, user=players[match.to_act].user, ply=match.ply,
                           action=rng.choice(legal))  # fmt: skip
    match.refresh_from_db()
    return match
