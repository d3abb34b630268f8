"""Reading the catalog data files, with typed, checked access to their fields."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from types import MappingProxyType
from typing import Any, TypeVar

from gpuplat.catalog.model import CLOUDS, Cloud

_AS_OF = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")
_T = TypeVar("_T")


class CatalogDataError(ValueError):
    """A catalog data file is malformed (a packaging or editing error, never user input)."""


# --------------------------------------------------------------------------- reading


@functools.cache
def _read(stem: str) -> Mapping[str, Any]:
    """Parse one data file; cached, so each file is read at most once per process."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    path = resources.files("gpuplat.catalog").joinpath("data").joinpath(f"{stem}.yaml")
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    if not isinstance(data, dict):
        raise CatalogDataError(f"{stem}.yaml: expected a mapping at the top level")
    return data


class _Fields:
    """Typed, checked access to one mapping of a data file; unknown keys are errors."""

    def __init__(self, raw: object, where: str) -> None:
        if not isinstance(raw, dict):
            raise CatalogDataError(f"{where}: expected a mapping, got {type(raw).__name__}")
        self._raw: dict[str, Any] = raw
        self._where = where
        self._used: set[str] = set()

    def _get(self, key: str, required: bool) -> Any:
        self._used.add(key)
        if key not in self._raw and required:
            raise CatalogDataError(f"{self._where}: missing {key!r}")
        return self._raw.get(key)

    def _fail(self, key: str, want: str) -> CatalogDataError:
        return CatalogDataError(f"{self._where}: {key!r} must be {want}")

    def text(self, key: str) -> str:
        value = self._get(key, required=True)
        if not isinstance(value, str) or not value:
            raise self._fail(key, "a non-empty string")
        return value

    def opt_text(self, key: str) -> str | None:
        return self.text(key) if self._get(key, required=False) is not None else None

    def integer(self, key: str) -> int:
        value = self._get(key, required=True)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(key, "an integer")
        return value

    def opt_integer(self, key: str) -> int | None:
        return self.integer(key) if self._get(key, required=False) is not None else None

    def number(self, key: str) -> float:
        value = self._get(key, required=True)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._fail(key, "a number")
        return value

    def opt_number(self, key: str) -> float | None:
        return self.number(key) if self._get(key, required=False) is not None else None

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._get(key, required=False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self._fail(key, "true or false")
        return value

    def opt_flag(self, key: str) -> bool | None:
        return self.flag(key) if self._get(key, required=False) is not None else None

    def texts(self, key: str) -> tuple[str, ...]:
        value = self._get(key, required=True)
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self._fail(key, "a list of strings")
        return tuple(value)

    def opt_texts(self, key: str) -> tuple[str, ...] | None:
        return self.texts(key) if self._get(key, required=False) is not None else None

    def opt_integers(self, key: str) -> tuple[int, ...] | None:
        value = self._get(key, required=False)
        if value is None:
            return None
        if not isinstance(value, list) or not all(_is_int(v) for v in value):
            raise self._fail(key, "a list of integers")
        return tuple(value)

    def int_map(self, key: str) -> Mapping[Any, int]:
        value = self._get(key, required=False)
        if value is None:
            return MappingProxyType({})
        if not isinstance(value, dict) or not all(_is_int(v) for v in value.values()):
            raise self._fail(key, "a mapping to integers")
        return MappingProxyType(dict(value))

    def sub(self, key: str) -> _Fields | None:
        value = self._get(key, required=False)
        return None if value is None else _Fields(value, f"{self._where}.{key}")

    def items(self, key: str) -> list[_Fields]:
        value = self._get(key, required=True)
        if not isinstance(value, list):
            raise self._fail(key, "a list")
        return [_Fields(v, f"{self._where}.{key}[{i}]") for i, v in enumerate(value)]

    def choice(self, key: str, allowed: tuple[str, ...], default: str | None = None) -> str:
        value = self._get(key, required=default is None)
        value = default if value is None else value
        if value not in allowed:
            raise self._fail(key, f"one of {', '.join(allowed)}")
        assert isinstance(value, str)
        return value

    def sources(self) -> tuple[str, ...]:
        return self.texts("source")

    def as_of(self, key: str = "as_of") -> str:
        value = self.text(key)
        if not _AS_OF.match(value):
            raise self._fail(key, "a date YYYY-MM-DD or YYYY-MM")
        return value

    def unverified(self) -> tuple[bool, tuple[str, ...]]:
        value = self._get("unverified", required=False)
        if value is None or value is False:
            return False, ()
        if value is True:
            return True, ()
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return True, tuple(value)
        raise self._fail("unverified", "true, false or a list of field names")

    def done(self) -> None:
        extra = sorted(set(self._raw) - self._used)
        if extra:
            raise CatalogDataError(f"{self._where}: unknown keys {', '.join(extra)}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _index(items: Iterable[_T], key: str, where: str) -> Mapping[str, _T]:
    table: dict[str, _T] = {}
    for item in items:
        name = getattr(item, key)
        if name in table:
            raise CatalogDataError(f"{where}: duplicate {key} {name!r}")
        table[name] = item
    return MappingProxyType(table)


def _cloud(value: str) -> Cloud:
    if value not in CLOUDS:
        raise ValueError(f"unknown cloud {value!r}; expected one of {', '.join(CLOUDS)}")
    return value
