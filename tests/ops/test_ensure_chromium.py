"""scripts/ensure-chromium, the step `make test` runs first. The system Chromium is
never removed: the script is pointed at a missing path, and apt-get / id are
stand-ins on PATH that record how they were called."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "ensure-chromium"


def _stub(bin_dir: Path, name: str, body: str) -> None:
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def _run(tmp_path: Path, chromium: Path, *, uid: int) -> subprocess.CompletedProcess:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    _stub(bin_dir, "id", f'[ "$1" = "-u" ] && echo {uid}')
    # apt-get records its arguments; "install" puts an executable where Chromium belongs.
    _stub(bin_dir, "apt-get", f'echo "$@" >> {tmp_path}/apt.log\n'
          f'case "$*" in *install*) printf "#!/bin/sh\\n" > {chromium}; chmod +x {chromium};; esac')  # fmt: skip
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "CHROMIUM": str(chromium)}
    env.pop("CHROMIUM_NO_INSTALL", None)
    return subprocess.run([str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)


def test_present_chromium_needs_nothing(tmp_path):
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    result = _run(tmp_path, chromium, uid=0)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "apt.log").exists()


def test_missing_chromium_is_installed_with_apt_get_when_root(tmp_path):
    chromium = tmp_path / "chromium"
    result = _run(tmp_path, chromium, uid=0)
    assert result.returncode == 0, result.stderr
    calls = (tmp_path / "apt.log").read_text().splitlines()
    assert calls[0] == "update -qq"
    assert calls[1].startswith("install") and calls[1].split()[-1] == "chromium"
    assert os.access(chromium, os.X_OK)


def test_missing_chromium_without_root_names_the_command(tmp_path):
    chromium = tmp_path / "chromium"
    result = _run(tmp_path, chromium, uid=1000)
    assert result.returncode == 1
    assert str(chromium) in result.stderr
    assert "apt-get install -y -qq chromium" in result.stderr
    assert not (tmp_path / "apt.log").exists()
