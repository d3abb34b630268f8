"""The value checks of provider rules: length, enum, range, size, regex and format, on one
value. Standard library only, like ``ruleeval.py``, which imports it (by path in the schema
stand-in)."""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import re
from dataclasses import dataclass
from typing import Any


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()
"""A value that is only known later (an expression, or unknown in a plan)."""


@dataclass(frozen=True)
class Bounded:
    """A string whose exact value is unknown but whose length lies in [low, high]."""

    low: int
    high: int


_GO_ONLY = ("[[:", r"\p{", r"\P{", r"\z", "(?U)", r"\Q", r"\C")


def validate(value: Any, spec: dict[str, Any]) -> str | None:
    kind = spec["check"]
    if kind == "length":
        return _length(value, spec.get("min"), spec.get("max"))
    if isinstance(value, Bounded) or value is UNKNOWN:
        return None
    if kind in ("enum", "not_in"):
        wanted = spec["values"]
        if spec.get("ignore_case") and isinstance(value, str):
            found = value.lower() in [str(v).lower() for v in wanted]
        else:
            found = value in wanted
        if kind == "enum" and not found:
            return f"is {value!r}; the provider accepts {', '.join(map(repr, wanted))}"
        if kind == "not_in" and found:
            return f"is {value!r}, which the provider refuses"
        return None
    if kind == "range":
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        lo, hi = spec.get("min"), spec.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return f"is {value}; the provider accepts {_bounds(lo, hi)}"
        return None
    if kind == "size":
        if not isinstance(value, list):
            return None
        lo, hi = spec.get("min"), spec.get("max")
        if (lo is not None and len(value) < lo) or (hi is not None and len(value) > hi):
            return f"has {len(value)} elements; the provider accepts {_bounds(lo, hi)}"
        return None
    if kind == "regex" and isinstance(value, str):
        return _regex(value, spec)
    if kind == "format" and isinstance(value, str):
        return _format(value, spec)
    return None


def _bounds(lo: Any, hi: Any) -> str:
    if lo is not None and hi is not None:
        return f"{lo} to {hi}"
    return f"at least {lo}" if lo is not None else f"at most {hi}"


def _length(value: Any, lo: int | None, hi: int | None) -> str | None:
    if isinstance(value, Bounded):
        if hi is not None and value.high > hi:
            return (
                f"can be {value.high} characters long (from its substr bounds); "
                f"the provider accepts {_bounds(lo, hi)}"
            )
        if lo is not None and value.high < lo:
            return f"is at most {value.high} characters; the provider accepts {_bounds(lo, hi)}"
        return None
    if not isinstance(value, str):
        return None
    if (lo is not None and len(value) < lo) or (hi is not None and len(value) > hi):
        return f"is {len(value)} characters long; the provider accepts {_bounds(lo, hi)}"
    return None


def portable(pattern: str) -> bool:
    """True when a Go (RE2) pattern means the same to Python's ``re``."""
    if any(token in pattern for token in _GO_ONLY):
        return False
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def _regex(value: str, spec: dict[str, Any]) -> str | None:
    pattern = spec["pattern"]
    if not portable(pattern):
        return None
    found = re.search(pattern, value) is not None
    if spec.get("match", True) and not found:
        return f"{value!r} does not match {pattern}"
    if not spec.get("match", True) and found:
        return f"{value!r} matches {pattern}, which the provider refuses"
    return None


def _format(value: str, spec: dict[str, Any]) -> str | None:
    kind = spec["format"]
    try:
        if kind == "json":
            json.loads(value)
        elif kind == "cidr":
            return _cidr(value, spec.get("prefix"))
        elif kind == "rfc3339":
            _rfc3339(value)
        elif kind in ("ip", "ipv4", "ipv6"):
            address = ipaddress.ip_address(value)
            if kind[-1] in "46" and address.version != int(kind[-1]):
                raise ValueError(value)
        elif kind == "uuid":
            if not re.fullmatch(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}", value):
                raise ValueError(value)
        elif kind == "base64":
            base64.b64decode(value, validate=True)
        else:
            return None
    except ValueError:
        return f"{value!r} is not a valid {kind} value"
    return None


def _cidr(value: str, prefix: list[int] | None) -> str | None:
    """A CIDR as ``net.ParseCIDR`` reads it; with bounds (``IsCIDRNetwork``) also a network
    address itself, its prefix length within them."""
    if "/" not in value:
        return f"{value!r} is not a valid cidr value"
    try:
        network = ipaddress.ip_network(value, strict=False)
    except ValueError:
        return f"{value!r} is not a valid cidr value"
    if prefix is None:
        return None
    if str(network) != value.lower():
        return f"{value!r} is not a network address (the network is {network})"
    low, high = prefix
    if not low <= network.prefixlen <= high:
        return f"{value!r} has a /{network.prefixlen} prefix, not between /{low} and /{high}"
    return None


_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))"
)


def _rfc3339(value: str) -> None:
    """Raise ValueError unless ``time.Parse(time.RFC3339, value)`` would accept the value."""
    found = _RFC3339.fullmatch(value)
    if not found:
        raise ValueError(value)
    year, month, day, hour, minute, second = (int(found.group(i)) for i in range(1, 7))
    datetime.datetime(year, month, day, hour, minute, second)  # raises on day 31 of June etc.
    if found.group(9) is not None and (int(found.group(9)) > 23 or int(found.group(10)) > 59):
        raise ValueError(value)
