"""The accounts pages' forms: sign-up and the settings page (time zone, turn sound)."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from core import accounts, names
from core.timezones import zone_choices


class SignUpForm(UserCreationForm):
    """Validates the name and the password; the account is made by services.register_human."""

    email = forms.EmailField(required=False, label=_("E-mail"))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Before the model's own check, whose "Enter a valid username" would not say why.
        # Look-alikes of taken names are refused by the service (register_human).
        self.fields["username"].validators.append(names.NoControlCharacters(_("User name")))
        # Required only where mail really leaves the server (core/accounts.py).
        email = self.fields["email"]
        email.required = accounts.email_required()
        email.help_text = (
            _(
                "We send you a link to confirm it. It lets you set a new password if you forget yours."
            )
            if email.required
            else _("Optional. Without it, a forgotten password cannot be reset.")
        )

    def clean_email(self):
        email = self.cleaned_data.get("email") or ""
        if email and accounts.email_taken(email):
            raise forms.ValidationError(accounts.EMAIL_TAKEN, code="taken")
        return email


class SettingsForm(forms.Form):
    """The settings page: the zone picker (the service, services.set_time_zone, checks it
    too) and the sound on one's move (off by default, like the model field)."""

    time_zone = forms.ChoiceField(required=False, label=_("Time zone"))
    turn_sound = forms.BooleanField(
        required=False,
        label=_("Play a short sound when it becomes my move or I am invited"),
        help_text=_(
            "Only while a page of this site is open, once you have clicked on it: browsers "
            "play sound only after that."
        ),
    )

    def __init__(self, *args, site_zone: str, **kwargs):
        super().__init__(*args, **kwargs)
        # Here, not on the class: the reader's language, and the list read once per process.
        automatic = _("Automatic: this browser's zone, else %(zone)s") % {"zone": site_zone}
        self.fields["time_zone"].choices = [("", automatic), *zone_choices()]
        self.fields["time_zone"].error_messages["invalid_choice"] = _(
            '"%(value)s" is not a time zone. Choose one from the list.'
        )
        self.fields["time_zone"].widget.attrs["data-time-zone-select"] = ""
