"""Every model registered in the admin has working list, add and change pages."""

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

MODELS = sorted(admin.site._registry, key=lambda m: m._meta.label)


@pytest.fixture
def admin_client(client):
    user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(user)
    HumanPlayerFactory()
    EngineBotFactory()
    return client


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m._meta.label)
def test_admin_pages_load(admin_client, model):
    prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert admin_client.get(reverse(f"{prefix}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"{prefix}_changelist"), {"q": "a"}).status_code == 200
    # Some third-party admins forbid adding by hand (403); none may fail (500).
    assert admin_client.get(reverse(f"{prefix}_add")).status_code in (200, 403)
    obj = model._default_manager.first()
    if obj is not None:
        url = reverse(f"{prefix}_change", args=[obj.pk])
        assert admin_client.get(url).status_code == 200


def test_admin_covers_every_project_model():
    from django.apps import apps

    ours = [
        m
        for app in ("games", "tournaments", "ratings")
        for m in apps.get_app_config(app).get_models()
    ]
    missing = [m._meta.label for m in ours if m not in admin.site._registry]
    assert not missing
