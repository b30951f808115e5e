"""Board ids (``data-target``): the stable names of what a player clicks on a board.

Each engine's labels.py names its kinds of id with ``board_id``, so that the picture
and ``action_targets`` build them the same way (docs/architecture.md, "Playing on the board").
"""

from __future__ import annotations

from collections.abc import Callable


def board_id(kind: str) -> Callable[..., str]:
    """The maker of one kind of id: ``board_id("wall")("c3/d3")`` is ``"wall:c3/d3"``;
    several parts are joined with ":" (``board_id("field")(1, "tea")`` is ``"field:1:tea"``)."""
    prefix = f"{kind}:"

    def make(*parts: object) -> str:
        return prefix + ":".join(str(p) for p in parts)

    return make
