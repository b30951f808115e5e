"""A task goes through a real broker to a real worker process and back (no eager mode)."""

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from celery import Celery

from config.settings.components import celery_config

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


@pytest.fixture(params=["redis", "embedded"])
def broker(request, tmp_path):
    redis_url = REDIS_URL if request.param == "redis" else None
    return request.param, redis_url, tmp_path


def test_task_round_trip_through_worker_process(broker):
    kind, redis_url, var_dir = broker
    queue = f"roundtrip-{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="config.settings.test")
    if redis_url:
        env["REDIS_URL"] = redis_url
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--without-gossip", "--without-mingle", "--loglevel=WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        conf = celery_config(redis_url, var_dir)
        client = Celery("roundtrip", broker=conf["broker_url"], backend=conf["result_backend"])
        client.conf.broker_transport_options = conf["broker_transport_options"]
        result = client.send_task("games.tasks.ping", args=[21], queue=queue)
        try:
            reply = result.get(timeout=60)
        except Exception:
            worker.kill()
            pytest.fail(f"no reply via {kind}; worker said:\n{worker.communicate()[0]}")
        assert reply["pong"] == 42, kind
        assert worker.poll() is None, "the worker process must still be running"
    finally:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
