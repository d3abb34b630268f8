"""Per-cluster check results, found once per load and reused by the environments that share them.

The environments of one load share every cluster no overlay touches: the very same node of the
merged tree and the very same validated model (:mod:`gpuplat.spec.validation`). A check that reads
only one cluster, and what else it names as its context (the add-ons, the workloads), finds the
same problems at the same places in each of them: :class:`ClusterChecks` runs it for the first
environment and hands its problems to the next ones whose cluster and context are the same objects.
Everything is compared by identity, never by value: a value an overlay wrote has a place of its
own in that overlay, so only the very same node is the same problem at the same place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from gpuplat.spec.diagnostics import Diagnostic
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, Spec

ClusterCheck = Callable[[Spec, int, Cluster, Locator], Iterable[Diagnostic]]
"""A check of one cluster: the spec, the cluster's index, the cluster, the locator."""


class ClusterChecks:
    """The problems each per-cluster check found, with the objects they were found from."""

    def __init__(self) -> None:
        self._found: dict[tuple[str, int], tuple[tuple[object, ...], list[Diagnostic]]] = {}

    def run(
        self,
        name: str,
        check: ClusterCheck,
        spec: Spec,
        loc: Locator,
        context: tuple[object, ...] = (),
    ) -> list[Diagnostic]:
        """Every cluster's problems of ``check``, reused where the cluster and ``context``
        are the very objects a previous environment's were.

        ``context`` holds everything besides the cluster the check reads (its objects are
        compared by identity).
        """
        out: list[Diagnostic] = []
        # A workload names its clusters: which cluster a name finds is part of what is read.
        by_name = {c.name: c for c in spec.clusters}
        for i, cluster in enumerate(spec.clusters):
            node, exact = loc.node(("clusters", i))
            holds = (cluster, node if exact else None, by_name[cluster.name], *context)
            known = self._found.get((name, i))
            if known is not None and _same(known[0], holds):
                out.extend(known[1])
                continue
            found = list(check(spec, i, cluster, loc))
            self._found[(name, i)] = (holds, found)
            out.extend(found)
        return out


def pool_context(spec: Spec, loc: Locator) -> tuple[object, ...]:
    """What the pool checks read besides their cluster: the add-ons as written (the node;
    None where the spec leaves them out, which gives the same defaults) and every workload."""
    addons, written = loc.node(("addons",))
    return (addons if written else None, *spec.workloads)


def _same(one: tuple[object, ...], other: tuple[object, ...]) -> bool:
    return len(one) == len(other) and all(a is b for a, b in zip(one, other, strict=True))
