"""Map key paths of a loaded spec back to where they were written."""

from __future__ import annotations

from collections.abc import Sequence

from gpuplat.spec.diagnostics import Diagnostic, KeyPath, Mark, Related, Severity
from gpuplat.spec.source import Node


class Locator:
    """Builds diagnostics for key paths of one merged tree.

    Each file a tree was assembled from has a rank, so that diagnostics sort with the base spec
    first and overlays after it.
    """

    def __init__(self, root: Node, ranks: dict[str, int]) -> None:
        self.root = root
        self.ranks = ranks

    def node(self, path: KeyPath, start: tuple[Node, int] | None = None) -> tuple[Node, bool]:
        """The node at ``path``, or its nearest existing ancestor and False.

        ``start`` is a node already found at the first parts of ``path`` and how many parts
        it stands for: the walk goes on from there (checks that look up many paths under one
        cluster walk to the cluster once).
        """
        node, skip = start if start is not None else (self.root, 0)
        for part in path[skip:]:
            value = node.value
            if isinstance(value, dict) and isinstance(part, str) and part in value:
                node = value[part]
            elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
                node = value[part]
            else:
                return node, False
        return node, True

    def mark(self, path: KeyPath, *, at_key: bool = False) -> Mark:
        """Where to point for ``path``: the value, or with ``at_key`` the key that holds it."""
        node, exact = self.node(path)
        if exact and at_key and node.key_mark is not None:
            return node.key_mark
        return node.mark

    def diag(
        self,
        severity: Severity,
        path: KeyPath,
        message: str,
        hint: str | None = None,
        *,
        details: tuple[str, ...] = (),
        at_key: bool = False,
        related: Sequence[tuple[KeyPath, str]] = (),
    ) -> Diagnostic:
        """A diagnostic at ``path``; ``related`` names the other values it depends on."""
        mark = self.mark(path, at_key=at_key)
        others = tuple(Related(self.mark(p), p, note) for p, note in related if p != path)
        return Diagnostic(
            severity,
            message,
            mark,
            path,
            hint,
            details,
            file_rank=self.ranks.get(mark.file, 9),
            related=others,
        )

    def error(
        self,
        path: KeyPath,
        message: str,
        hint: str | None = None,
        *,
        details: tuple[str, ...] = (),
        at_key: bool = False,
        related: Sequence[tuple[KeyPath, str]] = (),
    ) -> Diagnostic:
        return self.diag(
            Severity.ERROR, path, message, hint, details=details, at_key=at_key, related=related
        )

    def warning(
        self,
        path: KeyPath,
        message: str,
        hint: str | None = None,
        *,
        details: tuple[str, ...] = (),
        at_key: bool = False,
        related: Sequence[tuple[KeyPath, str]] = (),
    ) -> Diagnostic:
        return self.diag(
            Severity.WARNING, path, message, hint, details=details, at_key=at_key, related=related
        )
