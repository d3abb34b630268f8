"""The vendored CRDs and the documented rules, as loaded from ``crds/data``.

A kind may have several vendored definitions (GKE serves a different ComputeClass CRD on each
minor). A definition may say which minors serve it (``serves``): an object bound for a cluster of
a known minor is checked against the definitions serving that minor; otherwise against each, and
must pass them all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from gpuplat.crds.values import api_group

Schema = dict[str, Any]


@dataclass(frozen=True)
class Source:
    """Where a definition or a rule was read, and when."""

    where: str
    """A repository, commit and path, or a documentation URL."""
    read: str
    """The date it was read."""


@dataclass(frozen=True)
class Definition:
    """One served version of one vendored CRD."""

    group: str
    kind: str
    version: str
    release: str
    """What serves it: ``GKE 1.34``, ``keda chart 2.20.2``."""
    schema: Schema = field(repr=False, compare=False)
    source: Source
    serves: tuple[str, ...] = ()
    """Minors that serve it: ``1.33``, or ``1.35+`` for that minor and later; empty: any."""

    def serves_minor(self, minor: tuple[int, int]) -> bool:
        """True when a cluster of this ``(major, minor)`` serves the definition."""
        for served in self.serves:
            major, _, rest = served.partition(".")
            low = (int(major), int(rest.rstrip("+")))
            if low == minor or (served.endswith("+") and minor >= low):
                return True
        return False

    @property
    def api_version(self) -> str:
        """``group/version``."""
        return f"{self.group}/{self.version}"


@dataclass(frozen=True)
class DocumentedRule:
    """A rule a product's documentation states that its CRD does not encode, as CEL.

    ``path`` is where ``self`` is bound, in the schema's terms: property names, ``*`` for every
    item of a list. A rule with ``needs_objects`` also reads ``objects``, the other objects
    applied to the same cluster; it is checked only where those are known.
    """

    id: str
    group: str
    kind: str
    """A kind, or ``*`` for every custom resource."""
    path: tuple[str, ...]
    rule: str
    message: str
    source: Source
    needs_objects: bool = False

    def applies(self, api_version: str, kind: str) -> bool:
        """True when the rule is about objects of this apiVersion and kind."""
        if self.kind == "*":
            return True
        return self.kind == kind and self.group == api_group(api_version)


def _data() -> resources.abc.Traversable:
    return resources.files("gpuplat.crds").joinpath("data")


@cache
def definitions() -> tuple[Definition, ...]:
    """Every vendored definition, in the order ``sources.yaml`` lists them."""
    data = _data()
    entries = yaml.safe_load(data.joinpath("sources.yaml").read_text(encoding="utf-8"))["crds"]
    out: list[Definition] = []
    for entry in entries:
        doc = json.loads(data.joinpath(entry["file"]).read_text(encoding="utf-8"))
        where = f"{entry['repository']} {entry['ref']} ({entry['commit'][:12]}) {entry['path']}"
        source = Source(where, str(entry["read"]))
        for version, schema in sorted(doc["versions"].items()):
            serves = tuple(str(m) for m in entry.get("serves", ()))
            out.append(
                Definition(
                    doc["group"], doc["kind"], version, entry["release"], schema, source, serves
                )
            )
    return tuple(out)


def lookup(
    api_version: str, kind: str, minor: tuple[int, int] | None = None
) -> tuple[Definition, ...]:
    """The vendored definitions of one apiVersion and kind (empty when none is vendored).

    With ``minor``, only those a cluster of that minor serves, when any says it does; every
    definition of the kind when none does (a minor older or newer than what is vendored).
    """
    found = tuple(d for d in definitions() if d.api_version == api_version and d.kind == kind)
    if minor is None:
        return found
    served = tuple(d for d in found if d.serves_minor(minor))
    return served or found


def known_kinds() -> list[str]:
    """``Kind (group/version)`` of every vendored definition, for messages."""
    return sorted({f"{d.kind} ({d.api_version})" for d in definitions()})


@cache
def documented() -> tuple[DocumentedRule, ...]:
    """Every documented rule of ``documented.yaml``."""
    text = _data().joinpath("documented.yaml").read_text(encoding="utf-8")
    out = []
    for entry in yaml.safe_load(text)["rules"]:
        out.append(
            DocumentedRule(
                id=entry["id"],
                group=entry.get("group", ""),
                kind=entry["kind"],
                path=tuple(entry["path"].split(".")) if entry.get("path") else (),
                rule=entry["rule"],
                message=entry["message"],
                source=Source(entry["source"], str(entry["read"])),
                needs_objects=bool(entry.get("needs_objects", False)),
            )
        )
    return tuple(out)
