"""A board's change from one ply to the next, small enough to send every second.

The live match page keeps the board it was sent (the engine's render_svg: one <svg>, or a
set of them in a <div>); a new ply usually moves a few pieces and rewrites a line of
text. Instead of the whole board (20-50 KB) the page is sent the changed nodes only, as a
patch static/js/live-match.js applies to the DOM of #board:

    {"patches": [[path, count, ops] or [path, count, ops, 1], ...], "markup": [...]}

`path` is a list of child-node indices from #board (after the earlier patches are
applied), `count` the number of child nodes that container has before this patch (the
client checks it and asks for the whole panel when it differs), and `ops` rebuild the
container's children in order: [i, j] keeps old children i..j-1, 0 takes the next
`markup` entry's nodes. A fourth item 1: the container's attributes change, to those of
the element in the next `markup` entry (taken before its ops'). `markup` holds
(in_svg, text) pairs: text to parse inside an <svg> (SVG elements) or not. The page is sent the markup in <template>s (not inside JSON,
where every `<` would cost six bytes).

Nodes are counted as the HTML parser makes them: elements, and the text between tags
(the renderers write no comments or CDATA). The markup is our own renderers' output, so
a tag's `<` and `>` never occur inside text or attribute values (they are escaped).
"""

from __future__ import annotations

import difflib
import json
import re

_TAG = re.compile(r"<(/?)([a-zA-Z][\w:-]*)[^>]*?(/?)>")
# HTML elements without a closing tag (a board set's wrapper could hold one).
_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "wbr",
}


def _nodes(body: str) -> list[str]:
    """The top-level nodes of an SVG fragment: each element whole, each run of text."""
    out: list[str] = []
    depth, start, text_from = 0, 0, 0
    for m in _TAG.finditer(body):
        if depth == 0 and m.start() > text_from:
            out.append(body[text_from : m.start()])
        if depth == 0:
            start = m.start()
        if m.group(1):
            depth -= 1
        elif not m.group(3) and m.group(2).lower() not in _VOID:
            depth += 1
        if depth == 0:
            out.append(body[start : m.end()])
            text_from = m.end()
        if depth < 0:
            raise ValueError("unbalanced SVG")
    if depth:
        raise ValueError("unbalanced SVG")
    if text_from < len(body):
        out.append(body[text_from:])
    return out


def _split(element: str) -> tuple[str, list[str]] | None:
    """(opening tag, child nodes) of an element with children; None for a leaf or text."""
    if not element.startswith("<") or element.endswith("/>") or "</" not in element:
        return None
    head_end = element.index(">") + 1
    close = element.rindex("</")
    return element[:head_end], _nodes(element[head_end:close])


def _name(head: str) -> str:
    return _TAG.match(head).group(2)


# What a <template> and its <svg> wrapper add to a piece of markup sent.
_TEMPLATE_BYTES = 27


def _cost(entries: list, markup: list) -> int:
    """About the bytes a patch costs on the wire."""
    indices = len(json.dumps(entries, separators=(",", ":")))
    return indices + sum(len(text) + _TEMPLATE_BYTES for _, text in markup)


def _diff(
    old: list[str],
    new: list[str],
    path: list[int],
    in_svg: bool,
    head: tuple[bool, str] | None = None,
) -> tuple[list, list]:
    """(entries, markup) turning the children `old` into `new`, this container's entry
    first, then those of the containers patched inside it (the order they apply in)."""
    ops: list = []
    subs: list = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append([i1, i2])
            continue
        for k in range(j2 - j1):
            i, node = i1 + k, new[j1 + k]
            mine = _split(node) if i < i2 else None
            theirs = _split(old[i]) if mine else None
            # The same kind of container with other contents (or attributes, as a picture's
            # new height): patch inside it and keep the node, unless sending it whole is
            # cheaper (many small changes cost more in indices than the markup itself).
            if mine and theirs and _name(mine[0]) == _name(theirs[0]):
                svg = in_svg or mine[0].startswith("<svg")
                new_head = None
                if mine[0] != theirs[0]:  # an element to copy the attributes from
                    name = _name(mine[0])
                    new_head = (in_svg and name != "svg", f"{mine[0]}</{name}>")
                sub = _diff(theirs[1], mine[1], [*path, j1 + k], svg, new_head)
                if _cost(*sub) < len(node) + _TEMPLATE_BYTES:
                    ops.append([i, i + 1])
                    subs.append(sub)
                    continue
            ops.append(node)
    ops = _merge(ops)
    markup: list = [head] if head else []
    for n, op in enumerate(ops):
        if isinstance(op, str):
            markup.append((in_svg, op))
            ops[n] = 0
    entries: list = []
    # A container whose children all stayed needs no entry of its own.
    if head or ops != [[0, len(old)]]:
        entries.append([path, len(old), ops, 1] if head else [path, len(old), ops])
    for sub_entries, sub_markup in subs:
        entries += sub_entries
        markup += sub_markup
    return entries, markup


def _merge(ops: list) -> list:
    """Adjacent kept ranges as one ([0, 3], [3, 5] -> [0, 5]), adjacent markup as one."""
    merged: list = []
    for op in ops:
        if (
            merged
            and isinstance(op, list)
            and isinstance(merged[-1], list)
            and merged[-1][1] == op[0]
        ):
            merged[-1] = [merged[-1][0], op[1]]
            continue
        if merged and isinstance(op, str) and isinstance(merged[-1], str):
            merged[-1] += op
            continue
        merged.append(op)
    return merged


def svg_patch(old_svg: str, new_svg: str) -> dict | None:
    """The patch turning the board `old_svg` into `new_svg`; None when either cannot be
    read, so the whole board is sent instead."""
    try:
        old_kids, new_kids = _nodes(old_svg), _nodes(new_svg)
    except ValueError:
        return None
    patches, markup = _diff(old_kids, new_kids, [], False)
    return {"patches": patches, "markup": markup}


def patch_size(patch: dict) -> int:
    """Bytes of new markup in a patch (what it costs beyond the indices)."""
    return sum(len(text) for _, text in patch["markup"])
