"""Benchmarks: each target of the render path beside its measured figure and the previous commit's.

Run: ``make bench`` (or ``.venv/bin/python bench/render.py``). Every figure is the median of
fresh processes. The previous commit (``--baseline REF``, default ``HEAD~1``; ``none`` to skip)
is exported from git into a temporary folder and measured in the same run, alternating with
this checkout process by process, so the machine's noise hits both alike; compare the ratios,
not absolute numbers across runs. Wall time is what the targets speak of; CPU time (user +
system) is printed beside it because it moves far less when other work shares the machine.

Processes run with bytecode caching on (as an installed gpuplat does), after one warm-up.
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GPUPLAT = [sys.executable, "-m", "gpuplat"]
ENVS = ("dev", "staging", "qa", "perf", "prod")
SHAPES = (("g2-standard-8", None), ("a2-ultragpu-1g", None), ("a3-highgpu-8g", "3g.40gb"))
POOLS_PER_CLUSTER = 50
EXAMPLE = "gke-l4-vllm"


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


def write_project(project: Path, pools: int) -> Path:
    (project / "envs").mkdir(parents=True)
    (project / "gpuplat.yaml").write_text(spec(pools))
    for env in ENVS:
        (project / "envs" / f"{env}.yaml").write_text(overlay(env))
    return project


@dataclass(frozen=True)
class Gpuplat:
    """One gpuplat to measure: a label and the PYTHONPATH that selects its source."""

    label: str
    pythonpath: str | None = None

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # measured as installed: with .pyc files
        if self.pythonpath is not None:
            env["PYTHONPATH"] = self.pythonpath
        return env


@dataclass
class Sample:
    wall: float
    cpu: float
    rss: int
    """Peak resident memory in MiB."""


def run(args: list[str], gpuplat: Gpuplat, cwd: Path | None = None) -> Sample:
    """One fresh gpuplat process: wall and CPU seconds, peak RSS."""
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
    return Sample(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024)


@dataclass
class Row:
    """One measured figure: per gpuplat, its samples."""

    what: str
    target: str
    samples: dict[str, list[Sample]] = field(default_factory=dict)
    limit_s: float | None = None
    limit_mib: int | None = None
    rss: bool = False

    def add(self, label: str, sample: Sample) -> None:
        self.samples.setdefault(label, []).append(sample)

    def wall(self, label: str) -> float:
        return statistics.median(s.wall for s in self.samples[label])

    def cpu(self, label: str) -> float:
        return statistics.median(s.cpu for s in self.samples[label])

    def peak(self, label: str) -> float:
        return statistics.median(s.rss for s in self.samples[label])

    def verdict(self, label: str) -> str:
        ok = self.limit_s is None or self.wall(label) <= self.limit_s
        ok = ok and (self.limit_mib is None or self.peak(label) <= self.limit_mib)
        return "met" if ok else "MISSED"


def _time(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def measure(
    row: Row,
    gpuplats: list[Gpuplat],
    repeat: int,
    once: Callable[[Gpuplat, int], Sample],
) -> Row:
    for i in range(repeat):
        for g in gpuplats:  # alternating, so the machine's noise hits every one
            row.add(g.label, once(g, i))
    return row


def export(ref: str, into: Path) -> Path:
    """The gpuplat source (src/, templates/) of a git commit, in a folder of its own."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", ref, "src", "templates"],
        capture_output=True,
        check=True,
    ).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def synth(python: str, pools: int, scratch: Path) -> Sample:
    """One CDKTF synth of the same pools (bench/cdktf_app.py) in a fresh process."""
    out = scratch / f"cdktf-{pools}"
    said = scratch / f"cdktf-{pools}.err"
    start = time.perf_counter()
    with said.open("wb") as err:
        proc = subprocess.Popen(
            [python, str(Path(__file__).with_name("cdktf_app.py")), str(pools), str(out)],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        tail = said.read_text(errors="replace").splitlines()[-20:]
        raise SystemExit(f"cdktf synth of {pools} pools failed:\n" + "\n".join(tail))
    # wait4's usage covers the node process jsii starts (CPU summed; memory: the larger one).
    shutil.rmtree(out, ignore_errors=True)
    return Sample(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024)


def slope(points: list[tuple[int, float]]) -> tuple[float, float, float]:
    """Least-squares line through (x, y): (intercept, slope, worst relative residual)."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    b = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    a = my - b * mx
    worst = max(abs(y - (a + b * x)) / y for x, y in points)
    return a, b, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", default="HEAD~1", help="git commit to compare, or none")
    parser.add_argument("--big", type=int, default=10000, help="pools of the large render")
    parser.add_argument("--big-repeat", type=int, default=3)
    parser.add_argument("--slope", default="1000,2500,5000", help="pool counts of the slope")
    parser.add_argument(
        "--cdktf-python",
        default=os.environ.get("GPUPLAT_BENCH_CDKTF_PYTHON"),
        help="Python of a virtualenv with cdktf and the google bindings (bench/README.md)",
    )
    parser.add_argument("--cdktf-pools", default="1000", help="pool counts CDKTF synthesises")
    parser.add_argument(
        "--cdktf-repeat", type=int, default=3, help="CDKTF synths per size (median; each is slow)"
    )
    options = parser.parse_args()
    repeat = options.repeat
    scratch = Path(tempfile.mkdtemp(prefix="gpuplat-bench-"))
    gpuplats = [Gpuplat("this", str(REPO / "src"))]
    base_label = ""
    if options.baseline != "none":
        commit = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", options.baseline],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        base_label = f"{options.baseline} ({commit})"
        gpuplats.insert(0, Gpuplat("base", str(export(options.baseline, scratch / "base"))))
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(REPO), "status", "--porcelain", "src", "templates"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    load_before = os.getloadavg()[0]
    for g in gpuplats:  # warm-up: write the bytecode caches
        run(["--version"], g)
    rows: list[Row] = []
    try:
        rows.append(
            measure(
                Row("gpuplat --version", "<= 80 ms", limit_s=0.08),
                gpuplats,
                repeat * 2,
                lambda g, _i: run(["--version"], g),
            )
        )
        examples: dict[str, Path] = {}
        for g in gpuplats:
            examples[g.label] = scratch / f"example-{g.label}"
            run(["init", "-x", EXAMPLE, str(examples[g.label])], g)
            run(["-C", str(examples[g.label]), "validate"], g)
        rows.append(
            measure(
                Row(f"validate {EXAMPLE}", "<= 150 ms", limit_s=0.15),
                gpuplats,
                repeat * 2,
                lambda g, _i: run(["-C", str(examples[g.label]), "validate"], g),
            )
        )

        def renders(pools: int, times: int, noop: Row | None = None) -> Row:
            row = Row(f"render {pools:,} pools x {len(ENVS)} envs", "", rss=True)

            def once(g: Gpuplat, i: int) -> Sample:
                project = write_project(scratch / f"r{pools}-{i}-{g.label}", pools)
                sample = run(["-C", str(project), "render"], g)
                if noop is not None:
                    noop.add(g.label, run(["-C", str(project), "render"], g))
                shutil.rmtree(project)
                return sample

            return measure(row, gpuplats, times, once)

        for size in (10, 100):
            rows.append(renders(size, repeat))
        noop = Row(f"no-op re-render 1,000 pools x {len(ENVS)}", "<= 120 ms", limit_s=0.12)
        big1000 = renders(1000, repeat, noop)
        big1000.target, big1000.limit_s, big1000.limit_mib = "<= 0.9 s, <= 100 MiB", 0.9, 100
        rows += [big1000, noop]
        slope_rows = {1000: big1000}
        for size in (int(s) for s in options.slope.split(",") if s and int(s) != 1000):
            slope_rows[size] = renders(size, max(1, options.big_repeat))
        if options.big:
            big = renders(options.big, options.big_repeat)
            big.target, big.limit_s = "<= 8 s", 8.0
            rows.append(big)
            slope_rows[options.big] = big
        cdktf: list[tuple[int, Row, Row]] = []
        if options.cdktf_python:
            for size in (int(s) for s in options.cdktf_pools.split(",") if s):
                ours = {10: rows[2], 100: rows[3], 1000: big1000}.get(size)
                if ours is None:
                    ours = renders(size, repeat)
                theirs = Row(f"CDKTF synth {size:,}", "", rss=True)
                for _ in range(max(1, options.cdktf_repeat)):
                    theirs.add("cdktf", synth(options.cdktf_python, size, scratch))
                cdktf.append((size, theirs, ours))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    load_after = os.getloadavg()[0]

    labels = [g.label for g in gpuplats]
    print(
        f"gpuplat bench: this = HEAD {head}{' + uncommitted changes' if dirty else ''}"
        + (f", base = {base_label}" if base_label else "")
        + f"; {os.cpu_count()} CPUs, load average {load_before:.1f} -> {load_after:.1f}"
    )
    print(f"medians of fresh processes ({repeat} or more each; wall, then CPU user+system)")
    print()
    head_cols = f"{'what':<38} {'target':<21} {'this: wall / CPU / peak':<30} {'verdict':<7}"
    if base_label:
        head_cols += f" {'base: wall / CPU':<22} {'this / base':<11}"
    print(head_cols)
    for row in rows:
        this = f"{_time(row.wall('this'))} / {_time(row.cpu('this'))}"
        if row.rss:
            this += f" / {row.peak('this'):.0f} MiB"
        line = f"{row.what:<38} {row.target or '-':<21} {this:<30} "
        line += f"{row.verdict('this') if row.target else '-':<7}"
        if base_label:
            base = f"{_time(row.wall('base'))} / {_time(row.cpu('base'))}"
            ratio = row.wall("this") / row.wall("base")
            line += f" {base:<22} {ratio:.2f}x"
        print(line)
    print()
    for label in labels:
        if len(slope_rows) < 2:
            break
        pe = [(n * len(ENVS), r) for n, r in sorted(slope_rows.items())]
        a, b, worst = slope([(x, r.wall(label)) for x, r in pe])
        am, bm, worst_m = slope([(x, r.peak(label)) for x, r in pe])
        _, cb, worst_c = slope([(x, r.cpu(label)) for x, r in pe])
        sizes = ", ".join(f"{n:,}" for n in sorted(slope_rows))
        linear = "linear" if max(worst, worst_m) <= 0.15 else "NOT linear"
        print(
            f"{label}: slope over {sizes} pools x {len(ENVS)} envs: "
            f"{b * 1e6:.0f} us wall ({cb * 1e6:.0f} us CPU) and {bm * 1024:.1f} KiB per "
            f"pool-environment, fixed {a:.2f} s / {am:.0f} MiB; worst distance from the line "
            f"{worst:.0%} (time), {worst_c:.0%} (CPU), {worst_m:.0%} (memory): {linear}"
        )
    print()
    if not cdktf:
        print(
            "CDKTF synth of the same pools: not measured in this run (no --cdktf-python / "
            "GPUPLAT_BENCH_CDKTF_PYTHON: the cdktf virtualenv is set up by hand, see "
            "bench/README.md)"
        )
        return
    print(
        "gpuplat render (all three stages) against CDKTF 0.21 synth (infra only) of the same "
        "GKE pools, medians in this run (wall / CPU / peak):"
    )
    print()
    print("| pools x envs | gpuplat render | CDKTF synth | CDKTF / gpuplat (wall, CPU) |")
    print("|---|---|---|---|")
    for size, theirs, ours in cdktf:
        figures = []
        for row, label in ((ours, "this"), (theirs, "cdktf")):
            runs = len(row.samples[label])
            figures.append(
                f"{_time(row.wall(label))} / {_time(row.cpu(label))} / "
                f"{row.peak(label):.0f} MiB (n={runs})"
            )
        ratio_wall = theirs.wall("cdktf") / ours.wall("this")
        ratio_cpu = theirs.cpu("cdktf") / ours.cpu("this")
        verdict = (
            (" (target >= 30x: " + ("met" if ratio_wall >= 30 else "MISSED") + ")")
            if size == 1000
            else ""
        )
        print(
            f"| {size:,} x {len(ENVS)} | {figures[0]} | {figures[1]} | "
            f"{ratio_wall:.1f}x, {ratio_cpu:.1f}x{verdict} |"
        )


if __name__ == "__main__":
    main()
