import pytest


@pytest.fixture
def server_log(tmp_path):
    return tmp_path / "server.log"
