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
