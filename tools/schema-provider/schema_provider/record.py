"""Record mode: terraform apply against the stand-in, with nothing behind it.

Off by default. ``SCHEMA_PROVIDER_MODE=record`` in the provider process's environment (Terraform
passes its own environment to the providers it starts) turns it on. Then:

* ApplyResourceChange returns the planned state with every unknown value replaced by a fixed
  placeholder of its type (:func:`known`), so Terraform stores the objects exactly as planned; a
  destroy returns a null state. Nothing is created anywhere.
* ReadResource returns the current state unchanged: there is nothing to drift.
* UpgradeResourceState returns the stored JSON as it is (the schema version never changes).
* ReadDataSource returns the configuration with every computed value it leaves null set to a
  placeholder, so a root that reads a data source can be planned and applied.

With ``SCHEMA_PROVIDER_RECORD_LOG=PATH`` each ApplyResourceChange also appends one JSON line to
PATH (provider, resource type, action, the recorded state), in the order the calls arrive, so a
test can read what was applied, and in which order, across several terraform runs.

This proves Terraform's side only: the objects as planned, the order of the applies, the state
in the backend. It cannot prove that anything ran, nor server-side defaults, admission or
readiness. The placeholders say so by their value: ``""``, ``0``, ``false``, empty collections,
an empty object for a dynamic value (``kubernetes_manifest.object``) and ``recorded-<hash>``
for an unknown ``id``.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import threading
from pathlib import Path

import msgpack

from . import plan, wire

MODE_ENV = "SCHEMA_PROVIDER_MODE"
RECORD = "record"
LOG_ENV = "SCHEMA_PROVIDER_RECORD_LOG"
# An unknown value is extension 0; Terraform 1.6+ may send a refined unknown as extension 12.
_UNKNOWN_CODES = (0, 12)


def mode_error(value: str | None) -> str | None:
    """Why ``SCHEMA_PROVIDER_MODE=value`` is not usable, or None when it is (unset or "record")."""
    if value in (None, "", RECORD):
        return None
    return f"{MODE_ENV}={value!r} is not a mode of the schema stand-in: unset it or set {RECORD!r}"


def _unknown(value: object) -> bool:
    return isinstance(value, msgpack.ExtType) and value.code in _UNKNOWN_CODES


def placeholder(cty_type: object) -> object:
    """The fixed known value that stands for an unknown one of ``cty_type``."""
    if cty_type == "string":
        return ""
    if cty_type == "number":
        return 0
    if cty_type == "bool":
        return False
    if isinstance(cty_type, list) and cty_type:
        kind = cty_type[0]
        if kind in ("list", "set"):
            return []
        if kind == "map":
            return {}
        if kind == "object":
            return {k: placeholder(t) for k, t in cty_type[1].items()}
        if kind == "tuple":
            return [placeholder(t) for t in cty_type[1]]
    # "dynamic": an empty object, as a dynamic value travels: [type JSON, value]. Not null: a
    # computed attribute left null is planned unknown again, a diff on every plan.
    return [b'["object",{}]', {}]


def _filled(cty_type: object, value: object) -> object:
    """``value`` of ``cty_type`` with every unknown inside it replaced by its placeholder."""
    if _unknown(value):
        return placeholder(cty_type)
    if value is None or not isinstance(cty_type, list) or not cty_type:
        if cty_type == "dynamic" and isinstance(value, list) and len(value) == 2:
            # A dynamic value travels as [type JSON, value] (object-wire-format.md).
            raw_type = value[0]
            inner = json.loads(raw_type.decode() if isinstance(raw_type, bytes) else raw_type)
            return [raw_type, _filled(inner, value[1])]
        return value
    kind, inner_type = cty_type[0], cty_type[1]
    if kind in ("list", "set") and isinstance(value, list):
        return [_filled(inner_type, v) for v in value]
    if kind == "map" and isinstance(value, dict):
        return {k: _filled(inner_type, v) for k, v in value.items()}
    if kind == "object" and isinstance(value, dict):
        return {k: _filled(inner_type.get(k, "dynamic"), v) for k, v in value.items()}
    if kind == "tuple" and isinstance(value, list):
        return [_filled(t, v) for t, v in zip(inner_type, value, strict=False)]
    return value


def _block_placeholder(schema: plan.Block) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, attr in schema.attributes.items():
        out[name] = _nested_placeholder(attr) if attr.nested else placeholder(attr.type)
    for name, (nesting, inner) in schema.blocks.items():
        out[name] = _collection_placeholder(nesting, inner)
    return out


def _nested_placeholder(attr: plan.Attribute) -> object:
    assert attr.nested is not None
    return _collection_placeholder(attr.nesting, attr.nested)


def _collection_placeholder(nesting: int, inner: plan.Block) -> object:
    if nesting in (plan.LIST, plan.SET):
        return []
    if nesting == plan.MAP:
        return {}
    return _block_placeholder(inner)  # single, group


def known(schema: plan.Block, value: object, id_value: str = "") -> object:
    """One block's value wholly known: each unknown becomes the placeholder of its type.

    ``id_value`` stands for an unknown top-level ``id`` string (nested ones get ``""``).
    """
    if _unknown(value):
        return _block_placeholder(schema)
    if not isinstance(value, dict):
        return value
    out: dict[object, object] = {}
    for name, item in value.items():
        attr = schema.attributes.get(name)
        if attr is not None and attr.nested is not None:
            nested = attr.nested
            item = (
                _nested_placeholder(attr)
                if _unknown(item)
                else plan.each(attr.nesting, item, lambda v, n=nested: known(n, v))
            )
        elif attr is not None:
            unknown_id = name == "id" and attr.type == "string" and _unknown(item)
            item = id_value if unknown_id and id_value else _filled(attr.type, item)
        elif name in schema.blocks:
            nesting, inner = schema.blocks[name]
            item = (
                _collection_placeholder(nesting, inner)
                if _unknown(item)
                else plan.each(nesting, item, lambda v, b=inner: known(b, v))
            )
        out[name] = item
    return out


def _decode(dynamic_value: bytes | int | None) -> object:
    """A DynamicValue (msgpack = 1, json = 2) as a Python value; None when absent or null."""
    if not isinstance(dynamic_value, bytes):
        return None
    msg = wire.fields(dynamic_value)
    if 1 in msg:
        return msgpack.unpackb(plan.as_bytes(msg[1][0]), raw=False)
    if 2 in msg:
        return json.loads(plan.as_bytes(msg[2][0]))
    return None


def _encode(value: object) -> bytes:
    """DynamicValue{msgpack = 1}."""
    return wire.length_delimited(1, msgpack.packb(value, use_bin_type=True))


def _recorded_id(type_name: str, value: object) -> str:
    """``recorded-<hash>``: from the type and the value as planned, so the same in every run."""
    digest = hashlib.sha256(type_name.encode() + msgpack.packb(value, use_bin_type=True))
    return "recorded-" + digest.hexdigest()[:12]


def _first(msg: dict[int, list[bytes | int]], number: int) -> bytes | int | None:
    return msg[number][0] if number in msg else None


class Recorder:
    """The record-mode answers for one provider process."""

    def __init__(self, name: str, schema_response: bytes, log: Path | None) -> None:
        self.name = name
        self.resources = plan.resource_blocks(schema_response, plan.RESOURCES)
        self.data_sources = plan.resource_blocks(schema_response, plan.DATA_SOURCES)
        self.log = log
        self._lock = threading.Lock()

    @classmethod
    def from_environment(cls, name: str, schema_response: bytes) -> Recorder:
        log = os.environ.get(LOG_ENV)
        return cls(name, schema_response, Path(log) if log else None)

    def apply(self, request: bytes) -> bytes:
        """ApplyResourceChange.Response (new_state = 1; private = 2 stays empty)."""
        msg = wire.fields(request)
        type_name = plan.text(msg[1][0])
        prior = _decode(_first(msg, 2))
        planned = _decode(_first(msg, 3))
        if planned is None:
            new_state: object = None
        else:
            schema = self.resources.get(type_name, plan.Block())
            new_state = known(schema, planned, _recorded_id(type_name, planned))
        action = "delete" if planned is None else "create" if prior is None else "update"
        self._append(
            {
                "provider": self.name,
                "type": type_name,
                "action": action,
                # Terraform starts providers in the root it runs in: which root applied this.
                "cwd": str(Path.cwd()),
                "state": new_state if planned is not None else prior,
            }
        )
        return wire.length_delimited(1, _encode(new_state))

    def read(self, request: bytes) -> bytes:
        """ReadResource.Response: new_state (1) = current_state (2), private (3) passed back."""
        msg = wire.fields(request)
        current = _first(msg, 2)
        private = _first(msg, 3)
        return wire.raw(1, current if isinstance(current, bytes) else None) + wire.raw(
            3, private if isinstance(private, bytes) else None
        )

    def upgrade(self, request: bytes) -> bytes:
        """UpgradeResourceState.Response: upgraded_state (1) = DynamicValue{json = raw_state.json}."""
        raw_state = _first(wire.fields(request), 3)
        stored = _first(wire.fields(raw_state), 1) if isinstance(raw_state, bytes) else None
        if not isinstance(stored, bytes):  # only the legacy (Terraform < 0.12) flatmap form
            # UpgradeResourceState.Response.diagnostics = 2; a null state would drop the object.
            return wire.length_delimited(
                2,
                wire.error_diagnostic(
                    f"terraform-provider-{self.name} in record mode reads only JSON state",
                    "This state holds the object in the legacy flatmap form, which no state "
                    "recorded by the stand-in has.",
                ),
            )
        return wire.length_delimited(1, wire.length_delimited(2, stored))

    def read_data_source(self, request: bytes) -> bytes:
        """ReadDataSource.Response: state (1) = the config, computed nulls as placeholders."""
        msg = wire.fields(request)
        type_name = plan.text(msg[1][0])
        schema = self.data_sources.get(type_name, plan.Block())
        config = _decode(_first(msg, 2))
        state = known(schema, plan.planned(schema, config), _recorded_id(type_name, config))
        return wire.length_delimited(1, _encode(state))

    def _append(self, entry: dict[str, object]) -> None:
        if self.log is None:
            return
        line = json.dumps(entry, sort_keys=True, default=_json_default) + "\n"
        with self._lock, self.log.open("a", encoding="utf-8") as out:
            # Several provider processes may share one log (one per provider and run).
            fcntl.flock(out, fcntl.LOCK_EX)
            out.write(line)


def _json_default(value: object) -> object:
    if isinstance(value, bytes):  # the type JSON inside a dynamic value
        return value.decode("utf-8")
    raise TypeError(f"cannot record {type(value).__name__}")
