"""Values worked out from immutable objects, kept by those objects' identity.

Loading and rendering ask for the same derived value (a pool's GPU, a pool's ladder, a pool's
module call) many times, and the environments of one load share the very objects no overlay
touches. Frozen models hash by value, which is slow and would also merge equal objects found at
different places of the spec; these memos key by identity instead. Each entry holds its objects,
so their ids cannot be reused by other objects while it lives, and a memo that reaches its bound
starts afresh: memory stays bounded whatever a long-lived process loads.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class ByIdentity(Generic[V]):
    """Values by the identity of the objects they were made from, plus plain values."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._found: dict[tuple[Hashable, ...], tuple[tuple[object, ...], V]] = {}

    def get(
        self, held: tuple[object, ...], plain: tuple[Hashable, ...], make: Callable[[], V]
    ) -> V:
        """The value ``make`` gives for the objects ``held`` (by identity) and ``plain`` (by
        equality): made once, then given back while the entry lives."""
        key = (*(id(o) for o in held), *plain)
        known = self._found.get(key)
        if known is not None and all(a is b for a, b in zip(known[0], held, strict=True)):
            return known[1]
        value = make()
        if len(self._found) >= self._limit:
            self._found.clear()
        self._found[key] = (held, value)
        return value
