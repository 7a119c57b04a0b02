"""The published JSON Schema (draft 2020-12) of the protocol, generated from the engine's types.

Every command class, every event class of every rulebook, and the message types of
``core.wire`` go through msgspec's schema generator; this module only names them and ties
them together: a ``Command`` is one of the commands (told apart by ``cmd``), a ``Record`` one
of the events (told apart by ``type``, its data as that event's class has it), a ``Message``
anything serve writes or a game server's WebSocket sends. ``docs/schema/regiment.json`` is
this document as ``regiment schema`` prints it; the game server serves it at ``GET /schema``;
a test fails when the two differ, so a type never changes without the published schema.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from regiment.core import wire, wire_http
from regiment.core.commands import COMMANDS
from regiment.core.events import EVENTS, load_rulebooks

DIALECT = "https://json-schema.org/draft/2020-12/schema"
OURS = "regiment."


def _components(types: list[Any], prefix: str
                ) -> tuple[tuple[dict[str, Any], ...], dict[str, Any]]:
    return msgspec.json.schema_components(types, ref_template=f"#/$defs/{prefix}{{name}}")


def _prefixed(defs: dict[str, Any], prefix: str, classes: list[Any]) -> dict[str, Any]:
    """The components under their names, each field by its name on the wire (a field named
    like a Python keyword, ``from_``, is ``from``)."""
    aliases = {cls.__name__: cls.schema.aliases for cls in classes if cls.schema.aliases}
    out = {}
    for name, body in defs.items():
        for field, said in aliases.get(name, {}).items():
            body["properties"][said] = body["properties"].pop(field)
            body["required"] = [said if r == field else r for r in body.get("required", [])]
        out[f"{prefix}{name}"] = body
    return out


def document() -> dict[str, Any]:
    """The whole schema: one document, every part under ``$defs``."""
    import regiment.phases  # noqa: F401 - the bundled rulebooks register themselves

    load_rulebooks()
    # the engine's own (a program's own rulebook, registered in the same process, is not)
    commands = sorted((n, c) for n, c in COMMANDS.items() if c.__module__.startswith(OURS))
    events = sorted((n, c) for n, c in EVENTS.items() if c.__module__.startswith(OURS))
    defs: dict[str, Any] = {}
    refs, made = _components([cls for _, cls in commands], "command.")
    defs.update(_prefixed(made, "command.", [cls for _, cls in commands]))
    one_of = []
    for (name, _), ref in zip(commands, refs, strict=True):
        one_of.append({"allOf": [ref, {"properties": {"cmd": {"const": name}},
                                        "required": ["cmd"]}]})
    defs["Command"] = {"description": "A command, as a client sends it: its name in ``cmd``, "
                                      "who sends it in ``by``, and its own fields.",
                       "type": "object", "required": ["cmd", "by"], "oneOf": one_of}
    refs, made = _components([cls for _, cls in events], "event.")
    defs.update(_prefixed(made, "event.", [cls for _, cls in events]))
    defs["Event"] = {
        "description": "An event: its type and version, and its data as that type has it "
                       "(always the current version's: older records are upcast).",
        "type": "object", "required": ["type", "v", "data"],
        "properties": {"type": {"type": "string"}, "v": {"type": "integer", "minimum": 1},
                       "data": {"type": "object"}, "text": {"type": ["string", "null"]}},
        "oneOf": [{"properties": {"type": {"const": name}, "v": {"const": cls.v},
                                  "data": ref}}
                  for (name, cls), ref in zip(events, refs, strict=True)]}
    defs["Record"] = {
        "description": "A record of the log as a client gets it: its place (seq, and the "
                       "step it belongs to: one command and all it caused) and its event.",
        "allOf": [{"$ref": "#/$defs/Event"},
                  {"type": "object", "required": ["seq", "step"],
                   "properties": {"seq": {"type": "integer", "minimum": 0},
                                  "step": {"type": "integer", "minimum": 0}}}]}
    refs, made = _components([*wire.PENDINGS, *wire.MESSAGES, wire.Request, wire.SeatMessage,
                              wire.Error, *wire_http.HTTP], "")
    defs.update(made)
    n = len(wire.PENDINGS)
    defs["Pending"] = {"oneOf": list(refs[:n]), "description": "What the game waits for, told "
                       "apart by ``kind``: a decision, a roll, a measurement, or nothing."}
    defs["Message"] = {"anyOf": list(refs[n:n + len(wire.MESSAGES)]), "description": "Anything "
                       "serve writes or a game server's WebSocket sends."}
    return {"$schema": DIALECT,
            "$id": f"urn:regiment:protocol:{wire.PROTOCOL}",
            "title": f"regiment protocol {wire.PROTOCOL}",
            "description": "What a client sends (a Command, a Request: a query, or a "
                           "SeatMessage: its part of shared dice) and what it gets (a "
                           "Message). Each part is under $defs.",
            "protocol": wire.PROTOCOL,
            "anyOf": [{"$ref": "#/$defs/Message"}, {"$ref": "#/$defs/Request"},
                      {"$ref": "#/$defs/SeatMessage"}, {"$ref": "#/$defs/Command"}],
            "$defs": dict(sorted(defs.items()))}


def text() -> str:
    """The document as it is published: sorted keys, two-space indents, one final newline."""
    return json.dumps(document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
