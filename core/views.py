"""Accounts pages (sign-up, log-in, settings) and /health/."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core import throttling, timezones
from core.errors import add_to_form
from core.forms import SignUpForm, TimeZoneForm
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
            login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class ThrottledAuthenticationForm(AuthenticationForm):
    """Log-in failures are limited per account and per address; a success is not counted."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        blocked = throttling.login_blocked(self.request, username)
        if blocked:
            raise ValidationError(blocked, code="throttled")
        try:
            return super().clean()
        except ValidationError:
            throttling.login_failed(self.request, username)
            raise


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
    """The signed-in person's settings: the time zone pages show times in."""
    saved = timezones.saved_zone(request.user)
    form = TimeZoneForm(
        request.POST if request.method == "POST" else None,
        initial={"time_zone": saved},
        site_zone=settings.TIME_ZONE,
    )
    limited = (
        throttling.page_limit(request, "account_settings") if request.method == "POST" else None
    )
    if limited:
        form.add_error(None, limited)
    elif request.method == "POST" and form.is_valid():
        try:
            services.set_time_zone(user=request.user, time_zone=form.cleaned_data["time_zone"])
        except ValidationError as exc:
            add_to_form(form, exc)  # a dict of field errors lands on its fields
        else:
            messages.success(request, _("Time zone saved."))
            return redirect("account-settings")
    context = {"form": form, "now": timezone.now(), "site_zone": settings.TIME_ZONE}
    return render(request, "registration/settings.html", context)
