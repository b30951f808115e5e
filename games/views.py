"""The home page: the three games and the site's bots."""

from django.shortcuts import render

from games import selectors
from games.bot_labels import bot_kind_name
from games.engines.registry import ENGINES


def home(request):
    engines = sorted(ENGINES.values(), key=lambda e: e.title)
    context = {
        # Each game with its built-in bots named as the chips and the lobby name them.
        "games": [(e, [bot_kind_name(b) for b in e.bot_names()]) for e in engines],
        "bots": selectors.engine_bots()[:12],
        "me": selectors.player_for_user(request.user),
    }
    return render(request, "home.html", context)
