from games.models import Player
from tests.games.factories import EngineBotFactory
from tournaments import services


def tournament_with_bots(*, n: int, game: str = "silkroad", format: str = "swiss", bot: str = "random",
                         organiser=None, **kwargs):  # fmt: skip
    """A tournament in registration with `n` built-in bot entrants."""
    t = services.create_tournament(name=f"{format} {n}", game=game, format=format, organiser=organiser,
                                   seed=kwargs.pop("seed", 7), **kwargs)  # fmt: skip
    players: list[Player] = [EngineBotFactory(bot_name=bot) for _ in range(n)]
    for p in players:
        services.add_entry(tournament=t, player=p)
    return t
