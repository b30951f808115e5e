"""A PostgreSQL cluster of the test's own, in a temporary folder: a test may stop and start
it (an outage) without touching the machine's shared server or another test's database.

initdb and pg_ctl come from /usr/lib/postgresql/*/bin (Debian's packages, on this machine
and in CI). PostgreSQL refuses to run as root: then the cluster runs as `postgres`."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from config.worker_process import free_port


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder, None when there is no initdb."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)  # fmt: skip
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Cluster:
    def __init__(self, bin_dir: Path, root: Path, port: int):
        self.bin_dir, self.root, self.port = bin_dir, root, port
        self.data = root / "data"
        self.log = root / "server.log"
        self._as = {"user": "postgres", "group": "postgres"} if os.geteuid() == 0 else {}

    def _run(self, *args: str, timeout: float = 60) -> None:
        result = subprocess.run([str(self.bin_dir / args[0]), *args[1:]], capture_output=True,
                                text=True, timeout=timeout, **self._as)  # fmt: skip
        if result.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{args[0]} failed: {result.stderr}{result.stdout}\n{log[-2000:]}")

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync",
                  "-E", "UTF8", "--locale=C.UTF-8")  # fmt: skip

    def start(self) -> None:
        # Durability is not the point here: no fsync; sockets only in its own folder.
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")  # fmt: skip
        self._run("pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "30",
                  "-o", options)  # fmt: skip

    def stop(self, mode: str = "immediate") -> None:
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", mode, "-w", "-t", "30")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres", dbname="postgres",
                             autocommit=True, connect_timeout=5) as conn:  # fmt: skip
            conn.execute(f'CREATE DATABASE "{name}"')


@contextmanager
def throwaway_cluster(bin_dir: Path):
    """An initialised and started cluster on a free port; stopped and deleted afterwards."""
    root = Path(tempfile.mkdtemp(prefix="caravan-pg-"))
    try:
        if os.geteuid() == 0:
            shutil.chown(root, "postgres", "postgres")
        cluster = Cluster(bin_dir, root, free_port())
        cluster.init()
        for attempt in range(3):  # the free port may be taken meanwhile: pick another
            try:
                cluster.start()
                break
            except RuntimeError:
                if attempt == 2:
                    raise
                cluster.port = free_port()
                time.sleep(0.2)
        yield cluster
    finally:
        try:
            if (root / "data" / "postmaster.pid").exists():
                Cluster(bin_dir, root, 0).stop()
        finally:
            shutil.rmtree(root, ignore_errors=True)
