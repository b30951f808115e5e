"""The pages of a person's own data: her calendar feed (and its address), the download of
everything the site holds about her, and deleting her account. The work is in
core.calendar_feed, core.personal_data and games.services.players."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from core import calendar_feed, personal_data, throttling
from core.errors import add_to_form, message_of


@require_safe
def feed(request, token: str):
    """/calendar/<token>.ics: no log-in, the secret address is the key; 404 once rotated."""
    player = calendar_feed.player_for_token(token)
    if player is None:
        raise Http404(_("No such calendar."))
    body = calendar_feed.feed_text(
        player, absolute=request.build_absolute_uri,
        host=request.get_host().split(":")[0] or "localhost",
    )  # fmt: skip
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    # Private: the address is a secret, no shared cache may keep the answer.
    response["Cache-Control"] = f"private, max-age={int(calendar_feed.REFRESH.total_seconds())}"
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _new_token(request) -> bool:
    from games.services.players import new_calendar_token

    limited = throttling.page_limit(request, "account_settings")
    if limited:
        messages.error(request, limited)
        return False
    try:
        new_calendar_token(user=request.user)
    except ValidationError as exc:
        messages.error(request, message_of(exc))
        return False
    return True


@login_required
@require_POST
def calendar_create(request):
    """The first address (nothing subscribes yet, so nothing to ask); with one already,
    the question of calendar_rotate."""
    player = getattr(request.user, "player", None)
    if player is not None and player.calendar_token:
        return redirect("calendar-rotate")
    if _new_token(request):
        messages.success(
            request, _("Your calendar feed is ready: add its address to your calendar.")
        )
    return redirect("account-settings")


@login_required
def calendar_rotate(request):
    """A new address for her feed; asks first, since calendars subscribed to the old one
    stop updating."""
    if request.method == "POST":
        if _new_token(request):
            messages.success(
                request,
                _("Your calendar feed has a new address. The old one no longer works."),
            )
        return redirect("account-settings")
    return render(request, "registration/calendar_rotate.html")


@login_required
@require_safe
@never_cache
def export_download(request):
    """Everything about her as one JSON file (the same as GET /api/me/export/)."""
    data = personal_data.export_for(request.user)
    body = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    name = "".join(c for c in request.user.get_username() if c.isalnum() or c in "-_.") or "me"
    response["Content-Disposition"] = f'attachment; filename="caravan-club-{name}.json"'
    return response


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=gettext_lazy("Your password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )  # fmt: skip


@login_required
@never_cache
def delete_account(request):
    """What deleting does, the password, then the deletion and a log-out."""
    form = DeleteAccountForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        limited = throttling.page_limit(request, "account_settings")
        try:
            if limited:
                raise ValidationError(limited)
            personal_data.check_deletion(
                request.user, confirm=request.user.get_username(),
                password=form.cleaned_data["password"],
            )  # fmt: skip
        except ValidationError as exc:
            add_to_form(form, exc)
        else:
            personal_data.delete_account(request.user)
            logout(request)
            messages.success(request, _("Your account has been deleted."))
            return redirect("home")
    return render(request, "registration/delete_account.html",
                  {"form": form, "organised": personal_data.organised_and_open(request.user)})  # fmt: skip
