"""Rendered HCL read back as data (python-hcl2), for tests that check what terraform gets."""

from __future__ import annotations

from pathlib import Path

import hcl2


def plain(value: object) -> object:
    """python-hcl2's values with the quotes of strings and keys taken off."""
    if isinstance(value, dict):
        return {str(plain(k)): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value


def modules(path: Path) -> dict[str, dict[str, object]]:
    """The module blocks of a rendered file: label -> arguments (quotes off)."""
    parsed = hcl2.loads(path.read_text(encoding="utf-8"))
    out: dict[str, dict[str, object]] = {}
    for block in parsed.get("module", []):
        for name, body in plain(block).items():  # type: ignore[union-attr]
            out[name] = body
    return out
