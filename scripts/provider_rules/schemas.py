"""Evaluated schemas (SDKv2 ``schema.Schema`` maps, framework ``schema.Schema`` values) turned
into rule records, and what could not be turned into one."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import library
from .goeval import Evaluator, External, FuncLit, FuncRef, Opaque, Struct, Unknown, Validator
from .library import reduce_validator

_SDK_LISTS = {
    "ConflictsWith": "conflicts_with",
    "ExactlyOneOf": "exactly_one_of",
    "AtLeastOneOf": "at_least_one_of",
    "RequiredWith": "required_with",
}


def sdk_path(reference: str) -> str:
    """An SDKv2 attribute reference (``upgrade_settings.0.max_surge``) without list indexes."""
    return ".".join(p for p in reference.split(".") if not re.fullmatch(r"\d+", p))


@dataclass
class Collected:
    """Rules and unresolved items of one type."""

    root: Path
    rules: list[dict[str, Any]] = field(default_factory=list)
    unresolved: list[dict[str, Any]] = field(default_factory=list)

    def where(self, struct: Struct | None) -> dict[str, Any]:
        if struct is None or struct.file is None:
            return {"file": "", "line": 0}
        return {"file": struct.file.relative_to(self.root).as_posix(), "line": struct.line}

    def add(self, path: str, spec: dict[str, Any], at: Struct | None, **extra: Any) -> None:
        if spec.get("check") == "all":
            for sub in spec["of"]:
                self.add(path, sub, at, **extra)
            return
        self.rules.append({"path": path, **spec, **extra, **self.where(at)})

    def missing(self, path: str, what: str, at: Struct | None, file: Path | None = None,
                line: int = 0) -> None:  # fmt: skip
        where = self.where(at)
        if file is not None:
            where = {"file": file.relative_to(self.root).as_posix(), "line": line}
        self.unresolved.append({"path": path, "what": what, **where})


def validator(ev: Evaluator, out: Collected, path: str, value: Any, at: Struct | None,
              **extra: Any) -> None:  # fmt: skip
    """Record one validator value: its checks, or why it cannot be one."""
    if value is None:
        return
    if isinstance(value, External):  # a validator function named, not called
        value = library.call(ev, value, [], None, None)  # type: ignore[arg-type]
    reduced = reduce_validator(ev, value)
    if isinstance(reduced, Validator):
        out.add(path, reduced.spec, at, **extra)
    elif isinstance(reduced, Opaque):
        out.missing(path, f"custom validator {reduced.what}", at, reduced.file, reduced.line)
    elif isinstance(reduced, Unknown):
        out.missing(path, reduced.reason, at)
    elif isinstance(reduced, External):
        out.missing(path, f"{reduced.package.rsplit('/', 1)[-1]}.{reduced.name}", at)
    elif isinstance(reduced, FuncRef | FuncLit):
        out.missing(path, "a validator function", at)
    else:
        out.missing(path, f"validator of kind {type(reduced).__name__}", at)


def sdk_schema(ev: Evaluator, out: Collected, schema: Any, prefix: str = "") -> None:
    """Walk an SDKv2 ``map[string]*schema.Schema``."""
    if not isinstance(schema, dict):
        out.missing(prefix.rstrip(".") or "(root)", _why(schema, "schema map"), None)
        return
    for name in sorted(schema):
        attr = schema[name]
        path = f"{prefix}{name}"
        if not isinstance(attr, Struct):
            out.missing(path, _why(attr, "attribute schema"), None)
            continue
        fields = attr.fields
        for key in ("ValidateFunc", "ValidateDiagFunc"):
            if key in fields:
                validator(ev, out, path, fields[key], attr)
        for key, check in _SDK_LISTS.items():
            if key not in fields:
                continue
            refs = fields[key]
            if isinstance(refs, list) and all(isinstance(r, str) for r in refs):
                out.add(path, {"check": check, "paths": sorted(sdk_path(r) for r in refs)}, attr)
            else:
                out.missing(path, f"{key}: {_why(refs, 'list of attribute paths')}", attr)
        elem = fields.get("Elem")
        if isinstance(elem, Struct) and "Schema" in elem.fields and elem.type.endswith("Resource"):
            sdk_schema(ev, out, elem.fields["Schema"], f"{path}.")
        elif isinstance(elem, Struct):
            for key in ("ValidateFunc", "ValidateDiagFunc"):
                if key in elem.fields:
                    validator(ev, out, path, elem.fields[key], elem, elements=True)
        elif elem is not None and not isinstance(elem, External):
            out.missing(path, f"Elem: {_why(elem, 'nested schema')}", attr)


def framework_schema(ev: Evaluator, out: Collected, schema: Any, prefix: str = "") -> None:
    """Walk a plugin-framework ``schema.Schema`` (or a nested object) value."""
    if not isinstance(schema, Struct):
        out.missing(prefix.rstrip(".") or "(root)", _why(schema, "framework schema"), None)
        return
    for group in ("Attributes", "Blocks"):
        members = schema.fields.get(group)
        if members is None:
            continue
        if not isinstance(members, dict):
            out.missing(prefix.rstrip(".") or "(root)", _why(members, group), schema)
            continue
        for name in sorted(members):
            member = members[name]
            path = f"{prefix}{name}"
            if not isinstance(member, Struct):
                out.missing(path, _why(member, "framework attribute"), None)
                continue
            values = member.fields.get("Validators")
            if isinstance(values, list):
                for value in values:
                    _framework_validator(ev, out, path, value, member)
            elif values is not None:
                out.missing(path, _why(values, "validator list"), member)
            nested = member.fields.get("NestedObject")
            if isinstance(nested, Struct):
                framework_schema(ev, out, nested, f"{path}.")
            elif "Attributes" in member.fields or "Blocks" in member.fields:
                framework_schema(ev, out, member, f"{path}.")


def _framework_validator(ev: Evaluator, out: Collected, path: str, value: Any,
                         at: Struct) -> None:  # fmt: skip
    if isinstance(value, Validator) and value.spec["check"] in (
        "conflicts_with", "exactly_one_of", "at_least_one_of", "required_with"
    ):  # fmt: skip
        paths = sorted(".".join(p) for p in value.spec["paths"])
        out.add(path, {"check": value.spec["check"], "paths": paths}, at)
        return
    validator(ev, out, path, value, at)


def _why(value: Any, what: str) -> str:
    if isinstance(value, Unknown):
        return f"{what} not evaluated: {value.reason}"
    return f"{what} not evaluated: got {type(value).__name__}"
