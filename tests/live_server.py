"""The push server for tests: the production web server (gunicorn with uvicorn workers,
config/gunicorn.conf.py, serving config/asgi.py) on the test database, and a small
server-sent-events reader. The test writes through the services (committed: the tests
that use it are transactional) and reads what the server pushes."""

from __future__ import annotations

import http.client
import json
import socket
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from config.worker_process import gunicorn_process, project_env


@contextmanager
def push_server(log_dir: Path, **extra: str):
    """Yields the base URL ("http://127.0.0.1:<port>") of one web process."""
    env = project_env("config.settings.test", WEB_WORKERS="1", WEB_THREADS="8",
                      WEB_ACCESS_LOG="", LIVE_TABLE_POLL_S="0.1", **extra)  # fmt: skip
    with gunicorn_process(env, log_dir / "push-server.log") as port:
        yield f"http://127.0.0.1:{port}"


@dataclass
class Event:
    id: str | None
    name: str
    data: str

    @property
    def json(self):
        return json.loads(self.data)


@dataclass
class Stream:
    """One open `/events/` stream over a raw socket (no client library: what is read is
    exactly what the server wrote)."""

    sock: socket.socket
    status: int
    headers: dict
    buffer: bytes = b""
    comments: list[str] = field(default_factory=list)

    def next_event(self, timeout: float = 10.0) -> Event | None:
        """The next event (comments and retry lines are kept aside); None on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            while b"\n\n" in self.buffer:
                block, self.buffer = self.buffer.split(b"\n\n", 1)
                event = _parse(block.decode(), self.comments)
                if event is not None:
                    return event
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return None
            if not chunk:
                raise ConnectionError("the server closed the stream")
            self.buffer += chunk

    def events(self, count: int, timeout: float = 10.0) -> list[Event]:
        found = []
        for _ in range(count):
            event = self.next_event(timeout)
            if event is None:
                break
            found.append(event)
        return found

    def close(self) -> None:
        self.sock.close()


def _parse(block: str, comments: list[str]) -> Event | None:
    id_, name, data = None, "message", []
    for line in block.split("\n"):
        if line.startswith(":"):
            comments.append(line[1:].strip())
        elif line.startswith("id: "):
            id_ = line[4:]
        elif line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
    return Event(id_, name, "\n".join(data)) if data else None


def open_stream(base_url: str, feeds: list[str], *, cookies: dict | None = None,
                last_event_id: str | None = None, headers: dict | None = None) -> Stream:  # fmt: skip
    """GET /events/?f=… ; the response's head is read, the body is left to `next_event`."""
    headers = dict(headers or {})
    if cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    if last_event_id:
        headers["Last-Event-ID"] = last_event_id
    return open_path(base_url, "/events/?" + "&".join(f"f={f}" for f in feeds), headers)


def open_path(base_url: str, path: str, headers: dict | None = None) -> Stream:
    """GET `path` as an EventSource client would (any stream: /events/, the API's)."""
    host, port = base_url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    # One request a connection: a refusal's body ends with the connection.
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Accept: text/event-stream",
             "Connection: close"]  # fmt: skip
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("no answer")
        head += chunk
    head, rest = head.split(b"\r\n\r\n", 1)
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers_read = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers_read[name.strip().lower()] = value.strip()
    stream = Stream(sock=sock, status=int(status_line.split()[1]), headers=headers_read)
    if headers_read.get("transfer-encoding") == "chunked":
        stream.sock = _Dechunk(sock, rest)
    else:
        stream.buffer = rest
    return stream


class _Dechunk:
    """A socket-like reader that strips HTTP/1.1 chunked framing."""

    def __init__(self, sock, pending: bytes):
        self.sock, self.pending, self.out = sock, pending, b""

    def settimeout(self, value):
        self.sock.settimeout(value)

    def close(self):
        self.sock.close()

    def recv(self, size: int) -> bytes:
        while True:
            while b"\r\n" in self.pending:
                size_line, rest = self.pending.split(b"\r\n", 1)
                length = int(size_line.split(b";")[0] or b"0", 16)
                if length == 0:  # the end: what came before it first
                    data, self.out, self.pending = self.out, b"", b""
                    return data
                if len(rest) < length + 2:
                    break
                self.out += rest[:length]
                self.pending = rest[length + 2 :]
            if self.out:
                data, self.out = self.out, b""
                return data
            chunk = self.sock.recv(size)
            if not chunk:
                return b""
            self.pending += chunk


def get(base_url: str, path: str, cookies: dict | None = None) -> tuple[int, bytes]:
    host, port = base_url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=20)
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in (cookies or {}).items())}
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body
