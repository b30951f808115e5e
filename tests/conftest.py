import socket

import pytest
from django.conf import settings
from rest_framework.test import APIClient

# The real SMTP server of the mail tests (the `smtp_server` fixture).
pytest_plugins = ["tests.mail_server"]


def postgres_and_redis() -> bool:
    """True in CI's PostgreSQL + Redis pass (the production back-ends)."""
    engine = settings.DATABASES["default"]["ENGINE"]
    return engine.endswith("postgresql") and bool(settings.REDIS_URL)


def pytest_collection_modifyitems(config, items):
    """Tests marked `postgres_redis` exercise the production back-ends: they run in the
    PostgreSQL + Redis pass (CI's first) and are left out of the embedded one."""
    if postgres_and_redis():
        return
    keep, drop = [], []
    for item in items:
        (drop if item.get_closest_marker("postgres_redis") else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


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


@pytest.fixture
def refused_port():
    """A local port where connections are refused for the whole test: bound here and never
    listened on. A port found free and let go could be taken meanwhile (a server the test
    starts, the other back-end's run beside it), and a client of the "missing" service
    then talked to that server and waited for an answer that never came."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    """The production web server with the live pages' push (tests/live_server.py), one per
    test module, on the test database: its tests are transactional (the server reads
    what they commit). A module that needs other limits defines its own."""
    from tests.live_server import push_server

    with push_server(tmp_path_factory.mktemp("push")) as url:
        yield url
