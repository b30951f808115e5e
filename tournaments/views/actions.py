"""What every button on a tournament's page shares: POST only (a final one asks first on
a page of its own), signed in, rate-limited, the organiser's rights checked, and the
service's refusal shown as the page's message."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from core import permissions, throttling
from core.errors import message_of
from tournaments.models import Tournament


def limited(scope: str):
    """A button over its rate limit changes nothing and says so."""

    def decorate(view):
        @wraps(view)
        def limited_view(request, pk: int, *args, **kwargs):
            message = throttling.page_limit(request, scope)
            if message:
                messages.error(request, message)
                return redirect("tournament-detail", pk=pk)
            return view(request, pk, *args, **kwargs)

        return limited_view

    return decorate


def button(scope: str):
    """A tournament page's button: POST, signed in, limited by ``scope``."""

    def decorate(view):
        return require_POST(login_required(limited(scope)(view)))

    return decorate


def managed(request, pk: int) -> Tournament:
    """The tournament, if the reader may manage it (else 403)."""
    t = get_object_or_404(Tournament, pk=pk)
    if not permissions.may_manage_tournament(request.user, t):
        raise PermissionDenied
    return t


def run(request, action, done) -> None:
    """Run an organiser's action; its refusal (ValidationError) becomes the page's error
    message, its success `done` — a message, or a function of what the action returned that
    gives one (PermissionDenied passes on: a 403)."""
    try:
        made = action()
    except ValidationError as exc:
        messages.error(request, message_of(exc))
    else:
        messages.success(request, done(made) if callable(done) else done)


def run_then_show(request, pk: int, action, done):
    """``run``, then back to the tournament's page."""
    run(request, action, done)
    return redirect("tournament-detail", pk=pk)


def final(scope: str, ask):
    """A final action (cancel, start, withdraw, forfeit, unpair, delete a result): GET shows
    a page that says what will happen and asks; POST acts as ``button`` does.

    ``ask(request, pk, *args, **kwargs)`` checks the reader's rights as the action would
    (PermissionDenied: 403) and returns the page's words: ``title``, ``consequences`` (a
    list of sentences), ``button`` (its label) and optionally ``fields`` (hidden inputs
    the POST repeats, name -> value) and ``undo`` (a sentence on how to undo it)."""

    def decorate(view):
        posted = button(scope)(view)

        @wraps(view)
        @login_required
        def final_view(request, pk: int, *args, **kwargs):
            if request.method == "GET":
                words = ask(request, pk, *args, **kwargs)
                return confirm_page(request, get_object_or_404(Tournament, pk=pk), words)
            return posted(request, pk, *args, **kwargs)

        return final_view

    return decorate


CONFIRMED = "confirmed"


def confirm_page(request, t: Tournament, words: dict, *, repost: dict | None = None):
    """The page that says what will happen and asks (``final``'s words, plus optionally
    ``back``: where "Go back" leads). With ``repost`` (a form's values) it asks for a POST
    that carries a form (a correction): its button posts the same values again to the same
    address with ``CONFIRMED`` set, which the view checks (``confirmed``) before acting."""
    fields = dict(words.get("fields") or {})
    if repost is not None:
        fields |= {**repost, CONFIRMED: "1"}
    return render(request, "tournaments/confirm.html",
                  {"t": t, "action": request.path, **words, "fields": fields})  # fmt: skip


def confirmed(request) -> bool:
    """Whether the POST comes from ``confirm_page``'s button."""
    return request.POST.get(CONFIRMED) == "1"
