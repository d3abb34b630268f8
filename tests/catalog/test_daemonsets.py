"""The catalog's account of what runs on every GPU node (daemonsets.yaml): shape and honesty.

A figure not read from a manifest or a chart must say so (``unverified``), an estimate must say
what it stands for, a feature name must be one the code knows, and the pod's request is what
the scheduler counts (the largest init container or the sum of the others).
"""

from __future__ import annotations

import typing
from typing import Any

import pydantic
import pytest

from gpuplat import catalog
from gpuplat.catalog import CLOUDS, NodeDaemonSet, NodeMargin

GOOD: dict[str, Any] = {
    "name": "agent",
    "namespace": "kube-system",
    "clouds": ["gke"],
    "owner": "cloud",
    "containers": [{"name": "agent", "cpu": "10m", "memory": "20Mi"}],
    "basis": "manifest",
    "source": ["gke_dataplane_v2_docs"],
    "as_of": "2026-12-02",
}


def every_entry() -> list[NodeDaemonSet]:
    seen: dict[int, NodeDaemonSet] = {}
    for cloud in CLOUDS:
        for entry in catalog.node_daemonsets(cloud):
            seen[id(entry)] = entry
    return list(seen.values())


def test_a_good_entry_loads() -> None:
    assert NodeDaemonSet.model_validate(GOOD).cpu_millis == 10


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"basis": "observed"}, "must be marked unverified"),
        ({"basis": "estimate", "unverified": True}, "needs a note"),
        ({"runs_when": ["gke_dataplane_2"]}, "Input should be"),
        ({"runs_when": ["gke_logging"], "unless": ["gke_logging"]}, "both in runs_when"),
        ({"containers": [{"name": "a", "cpu": "ten"}]}, "String should match"),
        ({"containers": []}, "at least 1 item"),
        ({"source": []}, "at least 1 item"),
        ({"colour": "red"}, "Extra inputs are not permitted"),
    ],
)
def test_bad_entries_are_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(pydantic.ValidationError, match=message):
        NodeDaemonSet.model_validate({**GOOD, **change})


def test_the_scheduler_counts_the_largest_init_container_or_the_sum_of_the_rest() -> None:
    entry = NodeDaemonSet.model_validate(
        {
            **GOOD,
            "containers": [
                {"name": "install", "cpu": "150m", "memory": "10Mi", "init": True},
                {"name": "a", "cpu": "20m", "memory": "4M"},
                {"name": "b", "cpu": "30m", "memory": "32M"},
            ],
        }
    )
    # CPU: max(150, 20 + 30); memory: max(10, 4M (3.8 -> 4) + 32M (30.5 -> 31)).
    assert (entry.cpu_millis, entry.memory_mib) == (150, 35)


def test_the_margin_is_its_fixed_part_and_its_percentage_rounded_up() -> None:
    margin = NodeMargin.model_validate(
        {"cpu": "100m", "memory": "256Mi", "percent": 1, "reason": "x", "as_of": "2026-12-02"}
    )
    assert margin.cpu_millis(7910) == 100 + 80
    assert margin.memory_mib(26565) == 256 + 266
    with pytest.raises(pydantic.ValidationError):
        NodeMargin.model_validate({**margin.model_dump(), "percent": 50})


def test_every_feature_is_used_and_every_figure_not_read_is_unverified() -> None:
    entries = every_entry()
    named = {f for e in entries for f in (*e.runs_when, *e.unless)}
    assert named == set(typing.get_args(catalog.Feature))
    for entry in entries:
        if entry.basis in ("manifest", "chart"):
            assert entry.file, entry.name  # where in the source repository it was read
        else:
            assert entry.unverified, entry.name


def test_the_margin_states_its_reason() -> None:
    margin = catalog.node_margin()
    assert margin.cpu_millis(0) >= 100 and margin.percent > 0
    assert "last millicore" in margin.reason
