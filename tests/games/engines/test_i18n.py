"""The engines' words go through one translation function (games/engines/i18n.py)."""

from __future__ import annotations

import struct

import pytest

from games.engines import i18n
from games.engines.registry import get_engine


def write_mo(path, messages: dict[str, str]) -> None:
    """A GNU gettext catalog (.mo) with these translations."""
    messages = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    keys = sorted(messages)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(messages[k].encode() + b"\0" for k in keys)
    n = len(keys)
    start = 7 * 4 + 16 * n
    offsets, o = [], 0
    for k in keys:
        offsets.append((len(k.encode()), start + o))
        o += len(k.encode()) + 1
    t_offsets, o = [], 0
    for k in keys:
        v = messages[k].encode()
        t_offsets.append((len(v), start + len(ids) + o))
        o += len(v) + 1
    header = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    table = b"".join(struct.pack("<2I", *x) for x in offsets + t_offsets)
    path.parent.mkdir(parents=True)
    path.write_bytes(header + table + ids + strs)


@pytest.fixture
def czech(tmp_path):
    write_mo(
        tmp_path / "cs" / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo",
        {"pass": "pas", "Game over": "Konec hry", "Tashkent": "Taškent"},
    )
    i18n.set_language("cs", tmp_path)
    yield
    i18n.set_language(None)


def test_english_is_returned_unchanged():
    assert i18n._("take {good} from the display") == "take {good} from the display"


def test_a_catalog_translates_labels_and_board_text(czech):
    engine = get_engine("silkroad")
    state = engine.new_game(players=2, seed=1)
    assert engine.describe(state, {"type": "pass"}) == "pas"
    assert "Taškent" in engine.render_svg(engine.observation(state, 0))


def test_a_missing_catalog_falls_back_to_english(tmp_path):
    i18n.set_language("cs", tmp_path)
    try:
        assert i18n._("pass") == "pass"
    finally:
        i18n.set_language(None)


def test_no_engine_text_is_translated_inside_an_f_string():
    """xgettext does not look inside f-strings: a `_("...")` there never reaches the
    catalog, so the text stays English in Czech (as the board tooltips did)."""
    import ast
    from pathlib import Path

    import games.engines

    root = Path(games.engines.__file__).parent
    hidden = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.JoinedStr):
                continue
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and inner.func.id in ("_", "ngettext", "pgettext")
                    and any(isinstance(a, ast.Constant) for a in inner.args)
                ):
                    hidden.append(f"{path.relative_to(root)}:{inner.lineno}")
    assert hidden == []
