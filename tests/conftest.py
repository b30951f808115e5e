import pytest
from rest_framework.test import APIClient


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The cache outlives a test's database; start every test without stale entries."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _no_language_left_over():
    """A Czech request leaves Django's language active in the thread (LocaleMiddleware does
    not switch back): the next test starts in the default language, whatever ran before."""
    yield
    from django.utils import translation

    translation.deactivate()
