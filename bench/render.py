"""Benchmarks: CLI cold start, render time and peak memory, no-op re-render.

Run: ``make bench`` (or ``.venv/bin/python bench/render.py``). Every figure is the median of
several fresh processes, measured side by side in one run; the machine is noisy, so compare
ratios within a run, not absolute numbers across runs.

``--baseline DIR`` also measures the gpuplat of another source checkout (e.g. ``git worktree
add --detach /tmp/base main``), alternating with this one run by run, and prints both.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

GPUPLAT = [sys.executable, "-m", "gpuplat"]
ENVS = ("dev", "staging", "qa", "perf", "prod")
SHAPES = (("g2-standard-8", None), ("a2-ultragpu-1g", None), ("a3-highgpu-8g", "3g.40gb"))
POOLS_PER_CLUSTER = 50


def spec(pools: int) -> str:
    """A spec with ``pools`` GPU pools spread over clusters of 50, one workload per cluster."""
    clusters = max(1, pools // POOLS_PER_CLUSTER)
    lines = ["version: 1", "project: bench", "clusters:"]
    made = 0
    for c in range(clusters):
        count = pools // clusters + (1 if c < pools % clusters else 0)
        lines += [
            f"  - name: c{c}",
            "    cloud: gke",
            "    region: us-central1",
            "    zones: [us-central1-a]",
            "    gcp: {project: bench-project-1}",
            "    node_pools:",
        ]
        for p in range(count):
            machine, mig = SHAPES[(made + p) % len(SHAPES)]
            lines += [
                f"      - name: p{p}",
                f"        machine_type: {machine}",
                "        capacity: {type: spot}",
                "        autoscaling: {min_nodes: 0, max_nodes: 4}",
                f"        labels: {{team: t{p % 7}}}",
            ]
            if mig:
                lines.append(f"        sharing: {{mode: mig, profile: {mig}}}")
        made += count
    lines.append("workloads:")
    for c in range(clusters):
        lines += [
            f"  - name: w{c}",
            "    image: vllm/vllm-openai:v0.11.0",
            "    model: {source: gs://bench/model, size_gb: 10}",
            "    pool: p0",
            "    replicas: {min: 1, max: 4}",
            f"    clusters: [c{c}]",
        ]
    lines.append("environments:")
    lines += [f"  - name: {e}" for e in ENVS]
    return "\n".join(lines) + "\n"


def overlay(env: str) -> str:
    return f"clusters:\n  - name: c0\n    labels: {{stage: {env}}}\n"


@dataclass(frozen=True)
class Gpuplat:
    """One gpuplat to measure: a label and the PYTHONPATH that selects its source."""

    label: str
    pythonpath: str | None = None

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        if self.pythonpath is not None:
            env["PYTHONPATH"] = self.pythonpath
        return env


def run(args: list[str], gpuplat: Gpuplat, cwd: Path | None = None) -> tuple[float, int]:
    """(wall seconds, peak RSS in MiB) of one fresh gpuplat process."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*GPUPLAT, *args],
        cwd=cwd,
        env=gpuplat.env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"gpuplat ({gpuplat.label}) {' '.join(args)} failed")
    return elapsed, usage.ru_maxrss // 1024


def files_of(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file() and ".gpuplat" not in p.parts
    }


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--baseline", type=Path, help="source checkout of a gpuplat to compare")
    options = parser.parse_args()
    repeat = options.repeat
    gpuplats = [Gpuplat("this")]
    if options.baseline is not None:
        gpuplats.insert(0, Gpuplat("baseline", str(options.baseline.resolve() / "src")))
    width = max(len(g.label) for g in gpuplats)
    starts: dict[Gpuplat, list[float]] = {g: [] for g in gpuplats}
    for _ in range(repeat * 2):
        for g in gpuplats:
            starts[g].append(run(["--version"], g)[0])
    for g in gpuplats:
        print(
            f"{g.label:<{width}}  cold start  gpuplat --version            median "
            f"{_ms(starts[g])}   (min {min(starts[g]) * 1000:.1f}, {len(starts[g])} runs)"
        )
    for size in (int(s) for s in options.sizes.split(",")):
        times: dict[Gpuplat, list[float]] = {g: [] for g in gpuplats}
        noops: dict[Gpuplat, list[float]] = {g: [] for g in gpuplats}
        peaks: dict[Gpuplat, list[int]] = {g: [] for g in gpuplats}
        written: dict[Gpuplat, list[int]] = {g: [] for g in gpuplats}
        with tempfile.TemporaryDirectory() as scratch:
            for i in range(repeat):
                for g in gpuplats:  # alternating, so the machine's noise hits every one
                    project = Path(scratch) / f"p{i}-{g.label}"
                    (project / "envs").mkdir(parents=True)
                    (project / "gpuplat.yaml").write_text(spec(size))
                    for env in ENVS:
                        (project / "envs" / f"{env}.yaml").write_text(overlay(env))
                    elapsed, peak = run(["-C", str(project), "render"], g)
                    times[g].append(elapsed)
                    peaks[g].append(peak)
                    before = files_of(project)
                    noops[g].append(run(["-C", str(project), "render"], g)[0])
                    after = files_of(project)
                    written[g].append(sum(1 for k in after if after[k] != before.get(k)))
                    shutil.rmtree(project)
        for g in gpuplats:
            print(
                f"{g.label:<{width}}  render      {size:>5} pools x {len(ENVS)} envs      median "
                f"{_ms(times[g])}   peak RSS {statistics.median(peaks[g]):4.0f} MiB"
            )
        for g in gpuplats:
            print(
                f"{g.label:<{width}}  no-op       {size:>5} pools x {len(ENVS)} envs      median "
                f"{_ms(noops[g])}   files written {max(written[g])}"
            )


if __name__ == "__main__":
    main()
