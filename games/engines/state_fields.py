"""The JSON form of a state's plain fields, shared by the engines' state.py.

A state names its fields in three groups: scalars (stored as they are), flat lists
(copied) and lists of lists (each inner list copied); its to_json / from_json add
what does not fit (random generator, options, pieces with a shape of their own).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def fields_to_json(
    state: Any, scalars: Iterable[str], lists: Iterable[str], nested: Iterable[str]
) -> dict:
    """The named fields of ``state`` as JSON values, in the order named."""
    out: dict = {name: getattr(state, name) for name in scalars}
    for name in lists:
        out[name] = list(getattr(state, name))
    for name in nested:
        out[name] = [list(x) for x in getattr(state, name)]
    return out


def fields_from_json(
    data: dict, scalars: Iterable[str], lists: Iterable[str], nested: Iterable[str]
) -> dict:
    """The named fields read back from ``data`` (fresh lists), as keyword arguments."""
    fields = {name: data[name] for name in scalars}
    for name in lists:
        fields[name] = list(data[name])
    for name in nested:
        fields[name] = [list(x) for x in data[name]]
    return fields
