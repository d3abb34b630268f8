"""Worked examples of the startup arithmetic (numbers a platform engineer can redo by hand).

Probes start with the server container: after the image pull and, in copy mode, the init
container's copy. The startup probe allows the load and what load_time_budget leaves after the
pull; the progress deadline adds a new node's start, the pull and the copy to that window.
"""

from __future__ import annotations

import math
from pathlib import Path

from gpuplat.spec.load import load_project
from gpuplat.workload.budget import NODE_START_SECONDS, load_seconds, startup_budget
from gpuplat.workload.serving import plan_workload
from tests.support.cli import run


def test_copy_mode_gke_l4_example() -> None:
    # gke-l4-vllm: 6.5 GB at 400 MB/s = 16.25 s -> 17 s; image pull 4m = 240 s; budget 15m.
    budget = startup_budget(6.5, 400, pull_seconds=240, load_time_budget=900, copied=True)
    assert (budget.load_seconds, budget.copy_seconds) == (17, 17)
    assert budget.estimate_seconds == 240 + 17
    # The probe starts at 240 s + 17 s at the latest; it allows what the budget leaves after
    # the pull: 900 - 240 = 660 s = 66 periods of 10 s.
    assert budget.window_seconds == 660
    assert (budget.period_seconds, budget.failure_threshold) == (10, 66)
    # Deadline: a new node 600 s + pull 240 s + copy 17 s + probe 660 s = 1517 s.
    assert NODE_START_SECONDS == 600
    assert budget.progress_deadline_seconds == 600 + 240 + 17 + 660 == 1517


def test_mounted_weights_gke_h100_example() -> None:
    # gke-h100-mig: 29.6 GB at 800 MB/s = 37 s through Cloud Storage FUSE, no copy; pull 3m.
    budget = startup_budget(29.6, 800, pull_seconds=180, load_time_budget=1200)
    assert budget.copy_seconds == 0
    assert budget.failure_threshold * budget.period_seconds == 1200 - 180 == 1020
    assert budget.progress_deadline_seconds == 600 + 180 + 1020 == 1800


def test_without_slack_the_probe_still_covers_the_load() -> None:
    # 140 GB at 400 MB/s = 350 s; a 3m pull; a budget smaller than the estimate (refused by
    # validate) still gives the probe the whole load: 35 periods.
    budget = startup_budget(140, 400, pull_seconds=180, load_time_budget=0)
    assert budget.window_seconds == 350
    assert budget.failure_threshold == 35
    assert budget.progress_deadline_seconds == 600 + 180 + 350


def test_the_window_rounds_up_to_whole_periods() -> None:
    budget = startup_budget(1, 1000, pull_seconds=0, load_time_budget=95)
    assert budget.window_seconds == 95
    assert budget.probe_allows_seconds == 100


def test_the_explanation_says_when_probes_start() -> None:
    text = startup_budget(6.5, 400, pull_seconds=240, load_time_budget=900, copied=True).explain()
    assert text.startswith("probes start after the image pull (240s) and the weights copy (17s)")
    assert "10s x 66 = 660s" in text and "1517s" in text


def test_load_seconds_decimal_units() -> None:
    assert load_seconds(1, 1000) == 1
    assert load_seconds(29.6, 800) == 37


def test_eks_weights_copy_goes_at_the_gp3_rate_shared_by_the_node(tmp_path: Path) -> None:
    """The init container writes the weights to the node's gp3 boot volume, which the
    eks-gpu-node-group module provisions at 500 MiB/s; the two replicas a g6.xlarge holds
    (time-sliced L4) start together on a new node and share it: 500 x 1.048576 / 2 =
    262.1 MB/s each, so 6.5 GB take ceil(6500 / 262.144) = 25 s even when the workload says
    it loads at 1000 MB/s (which gave 7 s and a progress deadline 18 s short). What EBS really
    delivers is not run here: the rate is the provisioned one."""
    assert run("init", "--example", "eks-l4-vllm", tmp_path).exit_code == 0
    spec_file = tmp_path / "gpuplat.yaml"
    text = spec_file.read_text()
    spec_file.write_text(text.replace("load_bandwidth_mbps: 400", "load_bandwidth_mbps: 1000"))
    spec = load_project(tmp_path, ["prod"]).envs["prod"].spec
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert plan.weights.mode == "copy"
    assert plan.startup.load_seconds == 7  # the server's own load, at its bandwidth
    assert plan.startup.copy_seconds == math.ceil(6500 / (500 * 1.048576 / 2)) == 25
    assert plan.progress_deadline_seconds == 600 + 240 + 25 + plan.startup.probe_allows_seconds
