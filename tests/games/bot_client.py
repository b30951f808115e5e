"""A small external bot program: it plays only through the HTTP API with its token.

Run standalone: python -m tests.games.bot_client URL TOKEN
"""

from __future__ import annotations

import json
import random
import sys
import time
import urllib.error
import urllib.request


class ApiBot:
    def __init__(self, base_url: str, token: str, seed: int = 0):
        self.base = base_url.rstrip("/")
        self.token = token
        self.rng = random.Random(seed)
        self.moves = 0

    def _call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict | list]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.base + path, data=data, method=method,
            headers={"Authorization": f"Token {self.token}", "Content-Type": "application/json"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def play(self, match_id: int, *, timeout_s: float = 120) -> dict:
        """Answer every decision of ours in `match_id` until it ends; return the match."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            _, match = self._call("GET", f"/api/matches/{match_id}/")
            if match["status"] != "running":
                return match
            _, turns = self._call("GET", "/api/me/turns/")
            if not any(t["id"] == match_id for t in turns):
                time.sleep(0.05)
                continue
            _, state = self._call("GET", f"/api/matches/{match_id}/state/")
            if not state["legal_actions"]:
                continue
            choice = self.rng.choice(state["legal_actions"])["action"]
            status, body = self._call(
                "POST", f"/api/matches/{match_id}/actions/", {"ply": state["ply"], "action": choice}
            )
            if status == 201:
                self.moves += 1
            elif status != 409:  # stale: someone else moved first, look again
                raise RuntimeError(f"unexpected answer {status}: {body}")
        raise TimeoutError("the match did not end in time")


if __name__ == "__main__":
    base, token, match = sys.argv[1], sys.argv[2], int(sys.argv[3])
    print(ApiBot(base, token).play(match))
