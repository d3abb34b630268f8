"""Provider rules in the stand-in: what the real provider checks beyond its schema.

The rules are gpuplat's data (``src/gpuplat/conformance/rules/<provider>-<version>.json`` and
``conditional.json``), applied by gpuplat's standard-library module ``ruleeval.py``, loaded by
path since the stand-in runs in its own virtualenv. They answer:

* ValidateResourceConfig / ValidateDataResourceConfig: extracted rules (ConflictsWith,
  ExactlyOneOf, AtLeastOneOf, RequiredWith, validators) and the conditional rules of phase
  ``plan``. Unknown values are deferred as the SDK does: an unknown value is no conflict and is
  not validated. Terraform calls these again during ``plan`` with the values known.
* PlanResourceChange: the conditional rules of phase ``update`` (they compare with the prior
  state, e.g. azurerm's ``temporary_name_for_rotation``), when there is a prior state.

Each finding is an error diagnostic with its attribute path, as a real provider returns it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import msgpack

from . import plan, wire

RULES_ENV = "SCHEMA_PROVIDER_RULES"
"""A directory of rule files to use instead of gpuplat's (``off``: no rules)."""
_GPUPLAT = Path(__file__).resolve().parents[3] / "src" / "gpuplat" / "conformance"


def _ruleeval() -> ModuleType:
    path = _GPUPLAT / "ruleeval.py"
    spec = importlib.util.spec_from_file_location("gpuplat_ruleeval", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


class Rules:
    """The rules of one provider version, applied to msgpack values."""

    def __init__(self, name: str, version: str, schema_response: bytes) -> None:
        setting = os.environ.get(RULES_ENV, "")
        self.enabled = setting != "off"
        if not self.enabled:
            return
        self.ev = _ruleeval()
        base = Path(setting) if setting else _GPUPLAT / "rules"
        files = sorted(base.glob(f"{name}-{version}.json"))
        self.book = self.ev.load(files, base / "conditional.json")
        self.name = name
        self.resources = plan.resource_blocks(schema_response)
        self.data_sources = plan.resource_blocks(schema_response, plan.DATA_SOURCES)

    def _obj(self, schema: plan.Block, value: Any) -> Any:
        if not isinstance(value, dict):
            return self.ev.UNKNOWN if isinstance(value, msgpack.ExtType) else value
        values: dict[str, Any] = {}
        for key, item in value.items():
            if key in schema.blocks:
                nesting, inner = schema.blocks[key]
                if isinstance(item, msgpack.ExtType):
                    values[key] = self.ev.UNKNOWN
                elif item is None or item == [] or item == {}:
                    values[key] = None  # no block: absent, not an empty value
                elif nesting == plan.MAP and isinstance(item, dict):
                    values[key] = [self._obj(inner, v) for v in item.values()]
                elif isinstance(item, list):
                    values[key] = [self._obj(inner, v) for v in item]
                else:
                    values[key] = [self._obj(inner, item)]
            else:
                values[key] = self._plain(item)
        return self.ev.Obj(values)

    def _plain(self, value: Any) -> Any:
        if isinstance(value, msgpack.ExtType):
            return self.ev.UNKNOWN
        if isinstance(value, list):
            return [self._plain(v) for v in value]
        if isinstance(value, dict):
            return {k: self._plain(v) for k, v in value.items()}
        return value

    def _decode(self, payload: bytes | int | None, schema: plan.Block) -> Any:
        if not isinstance(payload, bytes):
            return None
        msg = wire.fields(payload)  # DynamicValue{msgpack = 1}
        raw = msg.get(1, [b"\xc0"])[0]
        value = msgpack.unpackb(raw if isinstance(raw, bytes) else b"\xc0", raw=False)
        return self._obj(schema, value) if isinstance(value, dict) else None

    def validate(self, request: bytes, data: bool) -> bytes:
        """Diagnostics (field 1) of a Validate{Resource,DataResource}Config.Request."""
        if not self.enabled:
            return b""
        msg = wire.fields(request)
        type_name = plan.text(msg[1][0])
        blocks = self.data_sources if data else self.resources
        config = self._decode(msg.get(2, [None])[0], blocks.get(type_name, plan.Block()))
        if config is None:
            return b""
        key = f"{'data' if data else 'resource'}.{type_name}"
        conditional = [
            r for r in self.book.conditional.get((self.name, key), []) if r["phase"] == "plan"
        ]
        found = self.ev.check(config, self.book.for_type(self.name, key))
        found += self.ev.check_conditional(config, conditional)
        return wire.repeated(1, (self._diagnostic(f) for f in found))

    def plan(self, request: bytes) -> bytes:
        """Diagnostics of the update rules for a PlanResourceChange.Request (response field 4)."""
        if not self.enabled:
            return b""
        msg = wire.fields(request)
        type_name = plan.text(msg[1][0])
        schema = self.resources.get(type_name, plan.Block())
        prior = self._decode(msg.get(2, [None])[0], schema)
        proposed = self._decode(msg.get(3, [None])[0], schema)
        if prior is None or proposed is None:
            return b""
        rules = [
            r
            for r in self.book.conditional.get((self.name, f"resource.{type_name}"), [])
            if r["phase"] == "update"
        ]
        found = self.ev.check_conditional(proposed, rules, prior)
        return wire.repeated(4, (self._diagnostic(f) for f in found))

    def _diagnostic(self, finding: Any) -> bytes:
        steps = []
        for part in finding.path.split("."):
            name, _, index = part.partition("[")
            steps.append(wire.message(1, wire.string(1, name)))
            if index:
                # element_key_int (3) is a oneof member: written even when it is 0.
                key = wire.varint(3 << 3) + wire.varint(int(index.rstrip("]")))
                steps.append(wire.message(1, key))
        detail = (
            f"{finding.message}. The real {self.name} provider refuses this "
            f"({finding.rule}); gpuplat's schema stand-in applies the same rule."
        )
        return wire.error_diagnostic(f"{finding.code}: {finding.message}", detail) + wire.message(
            4, b"".join(steps)
        )
