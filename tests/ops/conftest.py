import pytest
from django.conf import settings


def postgres_and_redis() -> bool:
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
def server_log(tmp_path):
    return tmp_path / "server.log"
