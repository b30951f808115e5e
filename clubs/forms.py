"""The club pages' forms: only the widgets and labels; clubs.services.membership checks
the values (its refusals land on these forms through core.errors.add_to_form)."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from clubs.models import Visibility
from clubs.services import membership


class ClubForm(forms.Form):
    name = forms.CharField(max_length=membership.MAX_NAME, label=_("Name"))
    city = forms.CharField(max_length=membership.MAX_CITY, required=False, label=_("City"))
    description = forms.CharField(
        max_length=membership.MAX_DESCRIPTION, required=False, label=_("Description"),
        widget=forms.Textarea(attrs={"rows": 5}),
    )  # fmt: skip
    logo_url = forms.CharField(
        max_length=membership.MAX_LOGO_URL, required=False, label=_("Logo"),
        help_text=_("An image's https address (optional)."),
        widget=forms.URLInput(attrs={"placeholder": "https://"}),
    )  # fmt: skip
    languages = forms.MultipleChoiceField(
        choices=settings.LANGUAGES, required=False, label=_("Languages spoken"),
        widget=forms.CheckboxSelectMultiple,
    )  # fmt: skip
    visibility = forms.ChoiceField(
        choices=Visibility.choices, initial=Visibility.PUBLIC, label=_("Who sees the club"),
        help_text=_("A members-only club shows outsiders only its name, city and how to join."),
    )  # fmt: skip


class ClubEditForm(ClubForm):
    slug = forms.CharField(
        max_length=membership.MAX_SLUG, label=_("Address"),
        help_text=_("The club's page is /clubs/<address>/: lower-case letters, digits, hyphens."),
    )  # fmt: skip

    field_order = ["name", "slug", "city", "description", "logo_url", "languages", "visibility"]


class InviteForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("User name"))


class DirectorySearch(forms.Form):
    q = forms.CharField(max_length=membership.MAX_NAME, required=False, label=_("Name"))
    city = forms.CharField(max_length=membership.MAX_CITY, required=False, label=_("City"))
