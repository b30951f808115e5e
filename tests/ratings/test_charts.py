"""The rating chart's caption counts games with the right plural, in English and Czech."""

from django.utils import translation

from ratings.charts import rating_chart


def test_the_caption_counts_games_in_english():
    with translation.override("en"):
        assert ">Elo 1510.5 after 1 game</text>" in rating_chart([1500.0, 1510.5], label="Elo")
        assert ">Elo 1490.0 after 2 games</text>" in rating_chart(
            [1500.0, 1510.5, 1490.0], label="Elo"
        )
        assert 'aria-label="Elo rating history"' in rating_chart([1500.0], label="Elo")


def test_the_caption_counts_games_in_czech():
    with translation.override("cs"):
        assert ">Elo 1510,5 po 1 partii</text>" in rating_chart([1500.0, 1510.5], label="Elo")
        assert ">Elo 1490,0 po 5 partiích</text>" in rating_chart(
            [1500.0] * 5 + [1490.0], label="Elo"
        )
        assert "Zatím žádné hodnocené partie." in rating_chart([], label="Elo")
