"""The accounts pages' forms: sign-up and the settings page's time zone."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from core.timezones import zone_choices


class SignUpForm(UserCreationForm):
    """Validates the name and the password; the account is made by services.register_human."""

    email = forms.EmailField(required=False, label=_("E-mail"))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class TimeZoneForm(forms.Form):
    """The settings page's zone picker; the service (services.set_time_zone) checks it too."""

    time_zone = forms.ChoiceField(required=False, label=_("Time zone"))

    def __init__(self, *args, site_zone: str, **kwargs):
        super().__init__(*args, **kwargs)
        # Here, not on the class: the reader's language, and the list read once per process.
        automatic = _("Automatic: this browser's zone, else %(zone)s") % {"zone": site_zone}
        self.fields["time_zone"].choices = [("", automatic), *zone_choices()]
        self.fields["time_zone"].error_messages["invalid_choice"] = _(
            '"%(value)s" is not a time zone. Choose one from the list.'
        )
        self.fields["time_zone"].widget.attrs["data-time-zone-select"] = ""
