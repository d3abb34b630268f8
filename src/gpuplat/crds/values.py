"""The values a custom resource is checked as: JSON-like data in which some leaves may be
:class:`Unknown` (an expression Terraform evaluates only at plan or apply), and the key paths
that point into them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

Key = str | int
Path = tuple[Key, ...]


MINOR_LABEL = "gpuplat.dev/kubernetes-minor"
"""Label of an object rendered for one Kubernetes minor (``1.35``): where no caller names the
cluster's minor, the object is checked against the definitions that minor serves."""


@dataclass(frozen=True)
class Unknown:
    """A value the check cannot know: an expression, or a value Terraform computes later."""

    expression: str

    def __str__(self) -> str:
        return self.expression


def dotted(path: Path) -> str:
    """``spec.priorities[0].nodepools`` for ``("spec", "priorities", 0, "nodepools")``."""
    out = ""
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        else:
            out += f".{key}" if out else key
    return out or "(the object)"


def unknowns(value: object, at: Path = ()) -> Iterator[Path]:
    """The paths of every :class:`Unknown` inside ``value``."""
    if isinstance(value, Unknown):
        yield at
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from unknowns(item, (*at, str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from unknowns(item, (*at, index))


def api_group(api_version: str) -> str:
    """The group of an ``apiVersion`` (empty for the core group, ``v1``)."""
    return api_version.rsplit("/", 1)[0] if "/" in api_version else ""


def is_custom(api_version: str) -> bool:
    """True for a group no Kubernetes release serves itself: a CRD must define it.

    The built-in groups are the core group and named groups without a dot (``apps``,
    ``batch``, ``policy``, ``autoscaling``) or under ``k8s.io`` (``resource.k8s.io``,
    ``scheduling.k8s.io``, ...). ``x-k8s.io`` groups (Kueue, LeaderWorkerSet, JobSet) are
    SIG projects installed as CRDs.
    """
    group = api_group(api_version)
    if "." not in group:
        return False
    return not (group == "k8s.io" or group.endswith(".k8s.io"))
