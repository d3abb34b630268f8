"""EFA node groups of a capacity ladder: each rung is a node group of its own, in its zones.

EFA traffic does not cross availability zones (EC2 EFA docs), so every node group with EFA
interfaces must be in one zone. A rung's own ``zones:`` makes its node group span them, so the
one-zone refusal must look at each rung, not only at the pool. The test is the spec check
itself: nothing here can launch an instance, so it shows only what gpuplat refuses.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat import catalog
from gpuplat.catalog import ChartPin
from gpuplat.spec.diagnostics import format_path
from gpuplat.spec.load import load_project
from tests.support.cli import run

P5_POOL = """\
      - name: h100
        machine_type: p5.48xlarge
        zones: [us-east-1a]
        efa: true
        autoscaling:
          min_nodes: 0
          max_nodes: 4
        capacity:
          - capacity-block: cr-0123456789abcdef0
          - on-demand
          - spot:
            zones: SPOT_ZONES
"""


def _project(tmp_path: Path, spot_zones: str) -> Path:
    assert run("init", "--example", "eks-l4-vllm", tmp_path).exit_code == 0
    spec = tmp_path / "gpuplat.yaml"
    text = spec.read_text()
    anchor = "        labels:\n          team: ml-platform\n"
    assert anchor in text
    pool = P5_POOL.replace("          - spot:\n            zones: SPOT_ZONES\n", spot_zones)
    spec.write_text(text.replace(anchor, anchor + pool, 1))
    return tmp_path


def test_spot_rung_over_three_zones_is_refused_at_its_zones(tmp_path: Path) -> None:
    rung = "          - spot: {}\n            zones: [us-east-1a, us-east-1b, us-east-1c]\n"
    result = run("validate", cwd=_project(tmp_path, rung))
    assert result.exit_code == 4, result.stderr
    assert 'EFA node group "h100-spot" must be in one availability zone; it has 3 zones' in (
        result.stderr
    )
    assert "clusters[0].node_pools[1].capacity[2].zones" in result.stderr


def test_rungs_in_the_pool_zone_pass(tmp_path: Path) -> None:
    rung = "          - spot\n"
    result = run("validate", cwd=_project(tmp_path, rung))
    assert "availability zone" not in result.stderr, result.stderr


def test_rung_instance_type_is_checked_against_the_efa_chart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rung's own machine_type is a node group on that type: the pinned EFA device plugin
    chart must list it too (v0.5.5 lists p5e but not p5en, which came in v0.5.6)."""
    rung = "          - spot:\n            machine_type: p5en.48xlarge\n"
    folder = _project(tmp_path, rung)
    spec = folder / "gpuplat.yaml"
    spec.write_text(
        spec.read_text().replace("machine_type: p5.48xlarge", "machine_type: p5e.48xlarge")
    )
    pinned = catalog.chart("aws-efa-k8s-device-plugin")
    old = pinned.model_copy(update={"version": "v0.5.5"})
    real = catalog.chart

    def chart(name: str) -> ChartPin:
        return old if name == "aws-efa-k8s-device-plugin" else real(name)

    monkeypatch.setattr("gpuplat.addons.catalog.chart", chart)
    found = [w for w in load_project(folder).warnings if "EFA device plugin chart" in w.message]
    assert [format_path(w.path) for w in found] == [
        "clusters[0].node_pools[1].capacity[2].machine_type"
    ]
    assert "(v0.5.5) does not list p5en.48xlarge" in found[0].message
