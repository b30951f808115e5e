"""The OpenAPI schema says what the API refuses: request bodies take no unknown field.

Every request-body serializer derives from ``games.api.inputs.InputSerializer``, which
answers a key it does not know with a 400 (``unknown_field``); this hook writes that into
the schema as ``additionalProperties: false`` on each component a request body refers to
(nested ones too), so clients and schemathesis generate the bodies the API takes.
Free-form objects (engine options, bot parameters, actions) are inline, not components,
and keep ``additionalProperties`` open.
"""

from __future__ import annotations

REF_PREFIX = "#/components/schemas/"


def _refs(node, found: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(REF_PREFIX):
            found.add(ref[len(REF_PREFIX) :])
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def closed_request_bodies(result, generator, request, public):
    """drf-spectacular post-processing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    schemas = result.get("components", {}).get("schemas", {})
    pending: set[str] = set()
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                _refs(operation["requestBody"], pending)
    closed: set[str] = set()
    while pending:
        name = pending.pop()
        schema = schemas.get(name)
        if name in closed or not isinstance(schema, dict):
            continue
        closed.add(name)
        if schema.get("type") == "object" and "properties" in schema:
            schema.setdefault("additionalProperties", False)
        _refs(schema, pending)
    return result
