"""Shared pieces of the spec models: the frozen strict base class and value types."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

_DURATION = re.compile(r"^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$")


class SpecModel(BaseModel):
    """Base of every spec model: immutable, strict types, unknown keys rejected."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        strict=True,
        populate_by_name=False,
        use_attribute_docstrings=False,
        defer_build=True,
    )


def parse_duration(value: object) -> object:
    """Turn ``90s``, ``10m``, ``1h30m`` or ``7d`` (or a number of seconds) into seconds.

    Raises:
        ValueError: The text is not a duration.
    """
    if isinstance(value, bool):
        return value  # let strict int validation reject it with the usual message
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        match = _DURATION.match(value.strip())
        if value.strip() and match:
            days, hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
            return ((days * 24 + hours) * 60 + minutes) * 60 + seconds
        raise ValueError(f"{value!r} is not a duration; write it like 90s, 10m, 1h30m or 7d")
    return value


Duration = Annotated[
    int,
    BeforeValidator(parse_duration),
    Field(ge=0),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string", "pattern": r"^(\d+d)?(\d+h)?(\d+m)?(\d+s)?$"},
                {"type": "integer", "minimum": 0},
            ],
            "description": "A duration: 90s, 10m, 1h30m, 7d, or a number of seconds.",
        }
    ),
]
"""Seconds, written in the spec as ``90s`` / ``10m`` / ``1h30m`` / ``7d`` or an integer."""

Labels = dict[str, str]


def format_duration(seconds: int) -> str:
    """Shortest spelling of a duration in the spec's own notation, e.g. ``1h30m``."""
    if seconds == 0:
        return "0s"
    parts: list[str] = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count}{unit}")
    return "".join(parts)
