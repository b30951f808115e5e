from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class SignUpForm(UserCreationForm):
    """Validates the name and the password; the account is made by services.register_human."""

    email = forms.EmailField(required=False, label=_("E-mail"))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
