"""The settings page's API tokens (core.tokens): make one (its key shown once, on the page
that answers the form, and stored nowhere), revoke one after a question."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core import throttling, tokens
from core.errors import message_of


class TokenForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, required=False,
                           help_text=gettext_lazy("What the token is for, e.g. “laptop”."))  # fmt: skip


def _settings_tokens() -> str:
    return reverse("account-settings") + "#api-tokens"


@login_required
@require_POST
@never_cache
def token_create(request):
    form = TokenForm(request.POST)
    limited = throttling.page_limit(request, "account_settings")
    if limited or not form.is_valid():
        messages.error(request, limited or " ".join(e for es in form.errors.values() for e in es))
        return redirect(_settings_tokens())
    try:
        token, key = tokens.issue(
            request.user, name=form.cleaned_data["name"],
            replace=tokens.one_token_only(request.user),
        )  # fmt: skip
    except ValidationError as exc:
        messages.error(request, message_of(exc))
        return redirect(_settings_tokens())
    # Not a redirect: the key would have to wait in the session for the next page.
    return render(request, "registration/token_created.html", {"token": token, "key": key})


@login_required
@never_cache
def token_revoke(request, token_id: int):
    token = tokens.tokens_of(request.user).filter(pk=token_id).first()
    if token is None:
        raise Http404(_("No such token."))
    if request.method == "POST":
        limited = throttling.page_limit(request, "account_settings")
        if limited:
            messages.error(request, limited)
        elif tokens.revoke(request.user, token.pk):
            messages.success(
                request,
                _("Token %(prefix)s… revoked: it no longer works.") % {"prefix": token.prefix},
            )
        return redirect(_settings_tokens())
    return render(request, "registration/token_revoke.html", {"token": token})
