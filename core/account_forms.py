"""Forms of the account-recovery pages (issue #30): the e-mail change and the password
reset, whose mail goes through mail.services (a Celery task, never inside the request)."""

from django import forms
from django.contrib.auth.forms import PasswordResetForm
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core import accounts


class EmailChangeForm(forms.Form):
    """A new address, and the password: whoever has the address can reset the password,
    so a session left open must not be enough to change it."""

    email = forms.EmailField(label=_("New e-mail address"))
    password = forms.CharField(
        label=_("Your password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )  # fmt: skip

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        if email.casefold() == (self.user.email or "").casefold():
            raise forms.ValidationError(_("This is your address already."), code="same")
        if accounts.email_taken(email, other_than=self.user):
            raise forms.ValidationError(accounts.EMAIL_TAKEN, code="taken")
        return email

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("The password is not right."), code="password")
        return password


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's reset form (the same answer whether the address is known or not), its
    mail rendered in the recipient's language and queued by mail.services."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email,
                  to_email, html_email_template_name=None):  # fmt: skip
        from mail.links import absolute_url
        from mail.services import mail_user

        user = context["user"]
        path = reverse("password_reset_confirm",
                       kwargs={"uidb64": context["uid"], "token": context["token"]})  # fmt: skip
        mail_user(user=user, template="password_reset", to=to_email, kind="password_reset",
                  context={"reset_url": absolute_url(path)})  # fmt: skip
