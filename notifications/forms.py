from django import forms

from notifications.models import Delivery, NoticeKind


class PreferencesForm(forms.Form):
    """One select per kind of notice."""

    def __init__(self, *args, current: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        for kind in NoticeKind:
            self.fields[kind.value] = forms.ChoiceField(
                label=kind.label, choices=Delivery.choices, initial=current[kind.value]
            )
