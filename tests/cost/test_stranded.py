"""Stranded GPUs: 8-GPU nodes serving 3-GPU replicas, idle pools, workloads that do not fit."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import run
from tests.support.specs import project, scaled_prod

A2_HIGHGPU_8G = 29.38708  # on-demand USD/h, us-central1, catalog gke.yaml (8 x A100-40GB)

EIGHT_GPU_POOL = (
    (
        "        machine_type: g2-standard-8 # 1x NVIDIA L4 (24 GB), 8 vCPU, 32 GiB\n"
        "        capacity:\n          type: spot\n",
        "        machine_type: a2-highgpu-8g\n        capacity:\n          type: on-demand\n",
    ),
    (
        "        sharing:\n          mode: time-slicing # two servers take turns on each L4\n"
        "          max_clients: 2\n",
        "",
    ),
    ("    gpus: 1\n    pool: l4-shared\n", "    gpus: 3\n    pool: l4-shared\n"),
)


def findings(root: Path, env: str = "prod") -> list[dict[str, object]]:
    done = run("cost", env, "--json", cwd=root)
    assert done.exit_code == 0, done.stderr
    stranded: list[dict[str, object]] = json.loads(done.stdout)["environments"][0]["stranded"]
    return stranded


def test_eight_gpu_nodes_serving_three_gpu_replicas(tmp_path: Path) -> None:
    root = scaled_prod(project(tmp_path, EIGHT_GPU_POOL))
    # prod: 1..8 nodes x 8 GPUs; chat wants 2..16 replicas of 3 GPUs. A node holds 2 replicas
    # (6 GPUs) and strands 2; 16 replicas need all 8 nodes.
    found = findings(root)
    assert [(f["kind"], f["units"]) for f in found] == [("indivisible", 16)]
    wasted = found[0]["wasted"]
    # 2 of 8 GPUs of every node at the ceiling: a quarter of 8 nodes' cost.
    by_hand = round(8 * A2_HIGHGPU_8G * 730 * 2 / 8, 2)
    assert by_hand == 42905.14
    assert wasted["usd_per_month"] == by_hand  # type: ignore[index]
    assert found[0]["detail"] == (
        "8 units per node, replicas of 3: 2 per node never used (16 at 8 nodes)"
    )
    table = run("cost", "prod", "--stranded", cwd=root)
    assert table.stdout.splitlines() == [
        "Stranded GPUs in prod (USD/month at the ceiling's prices):",
        "                                          paid idle  free headroom",
        "  inference-us/l4-shared  indivisible    $42,905.14              -  8 units per node, "
        "replicas of 3: 2 per node never used (16 at 8 nodes)",
        "  paid idle / free headroom              $42,905.14          $0.00",
    ]


def test_fewer_replicas_than_the_pool_holds_leaves_nodes_unused(tmp_path: Path) -> None:
    root = scaled_prod(project(tmp_path, EIGHT_GPU_POOL))
    overlay = root / "envs" / "prod.yaml"
    overlay.write_text(overlay.read_text().replace("      max: 16\n", "      max: 5\n"))
    found = {f["kind"]: f for f in findings(root)}
    # 5 replicas fill 2 nodes and half of a third: 15 GPUs used, 16 stranded by the remainder,
    # 64 - 15 - 16 = 33 more idle. Of those, 3 are on the third node, which runs (paid); the
    # other 30 are the 5 nodes never created at 5 replicas: headroom, free until used.
    assert found["indivisible"]["units"] == 16
    unused = found["unused-at-max"]
    assert (unused["units"], unused["headroom_units"]) == (3, 30)
    assert unused["wasted"]["usd_per_month"] == round(  # type: ignore[index]
        8 * A2_HIGHGPU_8G * 730 * 3 / 64, 2
    )
    assert unused["headroom"]["usd_per_month"] == round(  # type: ignore[index]
        8 * A2_HIGHGPU_8G * 730 * 30 / 64, 2
    )


def test_a_pool_no_workload_uses_and_a_workload_that_does_not_fit(tmp_path: Path) -> None:
    extra_pool = (
        (
            "        labels:\n          team: ml-platform\n",
            "        labels:\n          team: ml-platform\n"
            "      - name: idle\n        machine_type: g2-standard-8\n"
            "        autoscaling:\n          min_nodes: 0\n          max_nodes: 3\n",
        ),
    )
    root = scaled_prod(project(tmp_path, extra_pool))
    overlay = root / "envs" / "prod.yaml"
    overlay.write_text(overlay.read_text().replace("      max: 16\n", "      max: 20\n"))
    found = findings(root)
    kinds = {(f["kind"], f["pool"]): f for f in found}
    idle = kinds[("untargeted", "idle")]
    # min_nodes 0: no node runs until a pod needs one, so its 3 units are free headroom.
    assert (idle["units"], idle["headroom_units"]) == (0, 3)
    assert idle["wasted"]["usd_per_month"] == 0.0  # type: ignore[index]
    assert idle["headroom"]["usd_per_month"] == round(3 * 0.85363 * 730, 2)  # type: ignore[index]
    short = kinds[("short", "l4-shared")]
    # 8 nodes x 2 slices hold 16 of chat's 20 replicas; 4 more need 2 nodes.
    assert (short["workload"], short["units"]) == ("chat", 4)
    assert short["wasted"]["usd_per_month"] == round(2 * 0.85363 * 730, 2)  # type: ignore[index]


def test_examples_as_shipped(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert findings(root, "dev") == [] and findings(root, "prod") == []


def test_the_mig_example_strands_no_slice_in_prod(tmp_path: Path) -> None:
    """gke-h100-mig prod as shipped: h100-mig on-demand 1..2 nodes x 16 slices (8 H100 x 2 x
    3g.40gb) and h100-mig-spot 0..2 nodes x 16; coder scales to 64 replicas, one slice each =
    32 on-demand + 32 spot slices, every slice of every node the ceiling pays for. (It used to
    stop at 24: 8 slices idle on the second on-demand node, $32,298.85 a month paid for
    nothing, and 64 spot slices nobody could fill.)"""
    root = project(tmp_path, example="gke-h100-mig")
    assert findings(root, "prod") == []
    table = run("cost", "prod", "--stranded", cwd=root).stdout
    assert "Stranded GPUs in prod: none" in table


def test_the_mig_example_pays_for_no_idle_slice_in_dev(tmp_path: Path) -> None:
    """gke-h100-mig dev as shipped, redone by hand. a3-highgpu-8g on-demand is 88.49 $/h:
    88.49 x 730 h = $64,597.70 a month for one node, billed whole. It has 16 MIG slices (8
    H100 x 2 x 3g.40gb); coder's 2 warm replicas start it, one slice each. With coder held at
    2 replicas, 14 of the 16 slices were idle on that running node: 14/16 x 64,597.70 =
    $56,522.99 a month paid for nothing. Coder now scales 2..16: the node it pays for fills
    before anything else, so nothing is paid idle. The spot node (0..1) is headroom, created
    only when a 17th slice were asked for: 16 slices at most 40 % of on-demand, 0.4 x 88.49 x
    730 = $25,839.08 a month once used, nothing until then."""
    assert round(88.49 * 730, 2) == 64597.70
    assert round(14 / 16 * 88.49 * 730, 2) == 56522.99
    assert round(0.4 * 88.49 * 730, 2) == 25839.08
    root = project(tmp_path, example="gke-h100-mig")
    (spot,) = findings(root, "dev")
    assert (spot["pool"], spot["units"], spot["headroom_units"]) == ("h100-mig-spot", 0, 16)
    assert spot["wasted"]["usd_per_month"] == 0  # type: ignore[index]
    assert spot["headroom"]["usd_per_month"] == 25839.08  # type: ignore[index]
    table = run("cost", "dev", "--stranded", cwd=root).stdout
    assert "  paid idle / free headroom                        $0.00     $25,839.08" in table


def test_mig_slices_idle_on_running_nodes_are_paid_spot_headroom_is_not(tmp_path: Path) -> None:
    """gke-h100-mig prod with coder capped at 24 replicas and the spot pool at 0..4: 8 slices
    idle on nodes that run, 8/32 of 2 x 88.49 x 730 h = $32,298.85 paid. h100-mig-spot is
    overflow nobody fills at max: its 64 slices are headroom (4 x 35.396 x 730 h =
    $103,356.32 at the spot ceiling, 40 % of on-demand), free until used, never "waste"."""
    root = project(tmp_path, example="gke-h100-mig")
    overlay = root / "envs" / "prod.yaml"
    text = overlay.read_text(encoding="utf-8")
    for old, new in (
        ("      max: 64\n", "      max: 24\n"),
        ("max_nodes: 2 # one", "max_nodes: 4 #"),
    ):
        assert old in text, old
        text = text.replace(old, new)
    overlay.write_text(text, encoding="utf-8")
    found = {f["pool"]: f for f in findings(root)}
    od, spot = found["h100-mig"], found["h100-mig-spot"]
    assert (od["units"], od["headroom_units"]) == (8, 0)
    assert od["wasted"]["usd_per_month"] == round(2 * 88.49 * 730 * 8 / 32, 2) == 32298.85  # type: ignore[index]
    assert (spot["units"], spot["headroom_units"]) == (0, 64)
    assert spot["wasted"]["usd_per_month"] == 0.0  # type: ignore[index]
    assert spot["headroom"]["usd_per_month"] == round(4 * 35.396 * 730, 2) == 103356.32  # type: ignore[index]
