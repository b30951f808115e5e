"""Account recovery pages (issue #30): the password reset in the site's look, the links
that verify an address, "send again", and the e-mail change. The rules are in
core/accounts.py; mail goes through mail.services, after the request."""

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import accounts, throttling
from core.account_forms import EmailChangeForm, QueuedPasswordResetForm

RESET_SCOPE, VERIFY_SCOPE = "password_reset", "email_verification"


class PasswordResetView(auth_views.PasswordResetView):
    """The same answer for a known and an unknown address (no account enumeration); limited
    per client and, silently, per address (one mailbox is not flooded from many clients)."""

    form_class = QueuedPasswordResetForm
    # QueuedPasswordResetForm.send_mail renders these through mail.services.mail_user.
    subject_template_name = "mail/password_reset.subject.txt"
    email_template_name = "mail/password_reset.txt"
    html_email_template_name = "mail/password_reset.html"
    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form):
        limited = throttling.page_limit(self.request, RESET_SCOPE)
        if limited:
            form.add_error(None, limited)
            return self.form_invalid(form)
        address = form.cleaned_data["email"].strip().casefold()
        if throttling.hit(RESET_SCOPE, f"email:{address}") is not None:
            return redirect(self.success_url)  # as if sent: the answer tells nothing
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form):
        response = super().form_valid(form)
        # The link came to the account's address: that proves the address too.
        player = getattr(form.user, "player", None)
        if form.user.email and player is not None and player.email_verified_at is None:
            accounts.mark_verified(form.user)
        return response


def _link_page(request, state: str, *, email: str = "", token: str = "", status: int = 200):
    context = {"state": state, "email": email, "token": token}
    return render(request, "registration/verify_email.html", context, status=status)


def verify_email(request, token: str):
    """Following a link from a verification or e-mail-change mail."""
    try:
        followed = accounts.follow_link(token)
    except accounts.LinkRefused as refused:
        # An expired link of ours may ask for a new one; any other refusal may not.
        keep = token if refused.reason == "expired" else ""
        return _link_page(request, refused.reason, token=keep, status=400)
    state = "changed" if followed.changed_from is not None else "verified"
    return _link_page(request, state, email=followed.user.email)


@require_POST
def resend_verification(request):
    """ "Send again": from a refused (expired) link, or from the settings page."""
    limited = throttling.page_limit(request, VERIFY_SCOPE)
    token = request.POST.get("token", "")
    if token:
        if limited:
            return _link_page(request, "expired", token=token, status=429)
        try:
            sent = accounts.resend_for(token)
        except accounts.LinkRefused as refused:
            return _link_page(request, refused.reason, status=400)
        return _link_page(request, "sent", email=sent.to if sent else "")
    if not request.user.is_authenticated:
        return redirect("login")
    if limited:
        messages.error(request, limited)
    elif not request.user.email:
        messages.error(request, _("Your account has no e-mail address. Add one below."))
    else:
        accounts.send_verification(request.user)
        messages.success(
            request, _("We sent a new link to %(email)s.") % {"email": request.user.email}
        )
    return redirect("account-settings")


@login_required
def change_email(request):
    """A new address is stored only when the link mailed to it is followed."""
    form = EmailChangeForm(request.POST if request.method == "POST" else None, user=request.user)
    limited = throttling.page_limit(request, VERIFY_SCOPE) if request.method == "POST" else None
    if limited:
        form.add_error(None, limited)
    elif request.method == "POST" and form.is_valid():
        try:
            accounts.request_email_change(request.user, form.cleaned_data["email"])
        except ValueError as exc:  # taken meanwhile
            form.add_error("email", str(exc))
        else:
            messages.success(request, _(
                "We sent a link to %(email)s. Your address changes when you follow it."
            ) % {"email": form.cleaned_data["email"]})  # fmt: skip
            return redirect("account-settings")
    return render(request, "registration/email_change.html", {"form": form})
