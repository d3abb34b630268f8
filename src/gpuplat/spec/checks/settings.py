"""Settings of one cloud written on another cloud's cluster: one table, from the targets."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gpuplat.spec.diagnostics import Diagnostic, KeyPath, with_article
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, Spec
from gpuplat.targets import TARGETS, Setting, target


@dataclass(frozen=True)
class Owned:
    """A cluster-relative key path and the clouds that read it."""

    setting: Setting
    clouds: tuple[str, ...]

    def owners(self) -> str:
        titles = [TARGETS[c].title for c in self.clouds]
        return " and ".join(titles)


def owned_settings() -> tuple[Owned, ...]:
    """Every cloud-only setting and its clouds: the targets' tables, plus the account blocks."""
    table: dict[tuple[str, ...], tuple[Setting, list[str]]] = {}
    for one in TARGETS.values():
        for setting in (Setting((one.account,)), *one.settings):
            entry = table.setdefault(setting.path, (setting, []))
            entry[1].append(one.cloud)
    return tuple(Owned(s, tuple(clouds)) for s, clouds in table.values())


def check(spec: Spec, loc: Locator) -> Iterator[Diagnostic]:
    for i, cluster in enumerate(spec.clusters):
        yield from cluster_settings(spec, i, cluster, loc)


def cluster_settings(spec: Spec, i: int, cluster: Cluster, loc: Locator) -> Iterator[Diagnostic]:
    """The settings of one cluster (``clusters[i]``); it reads nothing else of the spec."""
    written_cluster, exact = loc.node(("clusters", i))
    start = (written_cluster, 2) if exact else None
    for owned in owned_settings():
        if cluster.cloud in owned.clouds:
            continue
        for path in _expand(cluster, ("clusters", i), owned.setting.path):
            _, written = loc.node(path, start)
            if written:
                yield _misplaced(cluster, path, owned, loc)


def _expand(value: object, base: KeyPath, pattern: tuple[str, ...]) -> Iterator[KeyPath]:
    """The concrete key paths of a pattern in one cluster: each ``*`` over the items of the
    list written there (none where the value there is not a list)."""
    for k, part in enumerate(pattern):
        if part == "*":
            items = value if isinstance(value, list) else []
            for j, item in enumerate(items):
                yield from _expand(item, (*base, *pattern[:k], j), pattern[k + 1 :])
            return
        value = getattr(value, part, None)
    yield (*base, *pattern)


def _misplaced(cluster: Cluster, path: KeyPath, owned: Owned, loc: Locator) -> Diagnostic:
    own = target(cluster.cloud)
    hint = owned.setting.hint
    if owned.setting.path == (TARGETS[owned.clouds[0]].account,):
        hint = f"a {own.title} cluster takes {own.account}: instead"
    return loc.error(
        path,
        f'{owned.setting.label} is {with_article(owned.owners())} setting; cluster "{cluster.name}" is on {own.title}',
        hint,
        at_key=True,
    )
