from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import selectors, services
from games.engines.registry import ENGINES
from games.forms import SignUpForm
from games.health import health_report


def home(request):
    context = {
        "games": sorted(ENGINES.values(), key=lambda e: e.title),
        "bots": selectors.engine_bots()[:12],
        "me": selectors.player_for_user(request.user),
    }
    return render(request, "home.html", context)


def signup(request):
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.register_human(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data.get("email", ""),
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@never_cache
@require_GET
def health(request):
    report = health_report()
    # Only a missing database makes the site unusable; the rest degrades (see games/health.py).
    return JsonResponse(report, status=503 if report["status"] == "error" else 200)
