"""Accounts pages (sign-up, log-in, settings) and /health/."""

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpResponse, HttpResponseNotModified, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_safe

from core import accounts, live_header, throttling, timezones
from core.errors import add_to_form
from core.forms import SettingsForm, SignUpForm
from core.health import health_report
from games import services


def signup(request):
    form = SignUpForm(request.POST if request.method == "POST" else None)
    limited = throttling.page_limit(request, "signup") if request.method == "POST" else None
    if limited:
        form.add_error(None, limited)
    elif request.method == "POST" and form.is_valid():
        try:
            player = services.register_human(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data.get("email", ""),
            )
        except ValidationError as exc:
            add_to_form(form, exc)
        else:
            # Her mails in the page's language; the link proving her address (if she gave one).
            accounts.start_account(player, language=accounts.page_language())
            login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class ThrottledLoginMixin:
    """Log-in failures are limited per account and address pair and per address; an
    account that failed often is slowed, never blocked (core.throttling); a success is
    not counted. For the site's log-in and the admin's."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        blocked = throttling.login_blocked(self.request, username)
        if blocked:
            raise ValidationError(blocked, code="throttled")
        delay = throttling.login_delay(username)
        if delay:
            time.sleep(delay)
        try:
            return super().clean()
        except ValidationError:
            throttling.login_failed(self.request, username)
            raise


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """admin.site.login_form (config/urls.py): /admin/login/ limited as /accounts/login/."""


class LoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm


@never_cache
@require_GET
def health(request):
    report = health_report()
    # Only a missing database makes the site unusable; the rest degrades (see core/health.py).
    return JsonResponse(report, status=503 if report["status"] == "error" else 200)


@login_required
def account_settings(request):
    """The signed-in person's settings: the time zone pages show times in, the turn sound."""
    saved = timezones.saved_zone(request.user)
    player = getattr(request.user, "player", None)
    form = SettingsForm(
        request.POST if request.method == "POST" else None,
        initial={"time_zone": saved, "turn_sound": bool(player and player.turn_sound)},
        site_zone=settings.TIME_ZONE,
    )
    limited = (
        throttling.page_limit(request, "account_settings") if request.method == "POST" else None
    )
    if limited:
        form.add_error(None, limited)
    elif request.method == "POST" and form.is_valid():
        zone = form.cleaned_data["time_zone"]
        try:
            services.set_time_zone(user=request.user, time_zone=zone)
            sound_changed = services.set_turn_sound(
                user=request.user, on=form.cleaned_data["turn_sound"]
            )
        except ValidationError as exc:
            add_to_form(form, exc)  # a dict of field errors lands on its fields
        else:
            accounts.remember_language(request.user)  # the language of her mails
            if zone != saved:
                messages.success(request, _("Time zone saved."))
            if sound_changed:
                messages.success(request, _("Sound setting saved."))
            if zone == saved and not sound_changed:
                messages.success(request, _("Settings saved."))
            return redirect("account-settings")
    context = {"form": form, "now": timezone.now(), "site_zone": settings.TIME_ZONE,
               "email": accounts.email_status(request.user)}  # fmt: skip
    return render(request, "registration/settings.html", context)


@require_safe
def header_counts(request):
    """The header's counts for static/js/live-header.js, which asks every few seconds from
    every open page of a signed-in person: {"turns":n,"invitations":n,"notifications":n},
    or 304 with no body while they match the ETag the page sends back. 204 for a visitor
    who is not signed in (any more): the page stops asking."""
    user = request.user
    if not user.is_authenticated:
        return HttpResponse(status=204)
    numbers = live_header.counts(user)  # the same as the live feed "user" pushes
    etag = f'"{live_header.version(numbers)}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = JsonResponse(numbers, json_dumps_params={"separators": (",", ":")})
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


@require_safe
def favicon(request):
    """/favicon.ico, for the browsers and tools that ask for it without reading the page's
    icon link: the SVG mark. Not permanent: its hashed name changes with the drawing."""
    response = HttpResponseRedirect(static("img/favicon.svg"))
    response["Cache-Control"] = "public, max-age=86400"
    return response
