"""The toy card game with a clickable board: data-target ids in its SVG and
action_targets/action_choice, as the real engines provide them. For page and
browser tests of moving by clicking the board."""

from __future__ import annotations

from html import escape

from tests.games.engines.toy import ToyEngine


class ToyBoardEngine(ToyEngine):
    slug = "toy-board"
    title = "Toy Bank on a board"

    def action_targets(self, state, action: dict) -> list[str]:
        kind = action.get("type")
        if kind == "take":
            return [f"display:{action['slot']}"]
        if kind == "draw":
            return ["deck"]
        if kind in ("bank", "discard"):
            # A hand card, then where it goes: two clicks.
            return [f"hand:{action['card']}", kind]
        return []  # block / pass: nothing on the board

    def action_choice(self, state, action: dict) -> str | None:
        return {"block": "Block", "pass": "Let it pass"}.get(action.get("type"))

    def render_svg(self, observation: dict) -> str:
        seat = observation.get("seat")
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 260">']

        def card(x, y, target, text):
            parts.append(
                f'<g data-target="{escape(target)}"><rect x="{x}" y="{y}" width="70" height="90" '
                f'rx="6" fill="#f4ecd8" stroke="#555"/><text x="{x + 35}" y="{y + 52}" '
                f'font-size="20" text-anchor="middle">{escape(text)}</text></g>'
            )

        for i, c in enumerate(observation["display"]):
            card(20 + 80 * i, 20, f"display:{i}", c)
        card(200, 20, "deck", f"deck {observation['deck_count']}")
        card(300, 20, "bank", "bank")
        card(400, 20, "discard", "discard")
        if seat is not None:
            for i, c in enumerate(observation["hands"][seat].get("cards", [])):
                card(20 + 80 * i, 150, f"hand:{c}", c)
        scores = " · ".join(str(s) for s in observation["scores"])
        parts.append(f'<text x="500" y="200" font-size="16">{escape(scores)}</text></svg>')
        return "".join(parts)


TOY_BOARD = ToyBoardEngine()
