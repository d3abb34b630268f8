"""Start-up benchmark: `gpuplat --version` and `gpuplat validate` of an example, beside a baseline.

Run: ``make bench`` (or ``.venv/bin/python bench/startup.py``). Every figure is the median of
fresh processes; the baseline commit (``--baseline REF``, default ``HEAD~1``; ``none`` to skip)
is exported from git into a temporary folder and measured in the same run, alternating with this
checkout process by process, so the machine's noise hits both alike. CPU time (user + system)
moves far less than wall time when other work shares the machine: compare it first.

Each gpuplat gets a catalog cache folder of its own (``GPUPLAT_CACHE_DIR``), filled by the
warm-up run, as a second run on a user's machine finds it. ``--cold`` measures with an empty
cache folder every time instead. ``--imports N`` also prints the N imports of ``validate`` that
cost the most (``python -X importtime``, cumulative microseconds, this checkout only).
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
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = "gke-l4-vllm"


@dataclass
class Gpuplat:
    """One gpuplat to measure: its source folder, its cache folder, and its samples."""

    label: str
    src: Path
    cache: Path
    samples: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    def env(self, cold: bool) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # measured as installed: with .pyc files
        env["PYTHONPATH"] = str(self.src)
        if cold:
            shutil.rmtree(self.cache, ignore_errors=True)
        env["GPUPLAT_CACHE_DIR"] = str(self.cache)
        return env

    def run(self, args: list[str], *, cold: bool = False) -> tuple[float, float]:
        """One fresh process: (wall, CPU) seconds."""
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "gpuplat", *args],
            env=self.env(cold),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"gpuplat ({self.label}) {' '.join(args)} failed")
        return wall, usage.ru_utime + usage.ru_stime

    def median(self, what: str) -> tuple[float, float]:
        rows = self.samples[what]
        return statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows)


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


def importtime(gpuplat: Gpuplat, args: list[str], top: int) -> list[str]:
    """The ``top`` imports with the largest cumulative time, as ``-X importtime`` prints them."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "gpuplat", *args],
        env=gpuplat.env(False),
        capture_output=True,
        text=True,
        check=True,
    )
    rows = []
    for line in proc.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    return [f"{us / 1000:7.1f} ms {name}" for us, name in sorted(rows, reverse=True)[:top]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--baseline", default="HEAD~1", help="git commit to compare, or none")
    parser.add_argument("--cold", action="store_true", help="empty catalog cache every run")
    parser.add_argument("--imports", type=int, default=0, help="print the N costliest imports")
    options = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="gpuplat-startup-"))
    try:
        gpuplats = [Gpuplat("this", REPO / "src", scratch / "cache-this")]
        if options.baseline != "none":
            commit = subprocess.run(
                ["git", "-C", str(REPO), "rev-parse", "--short", options.baseline],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
            base = export(options.baseline, scratch / "base")
            gpuplats.insert(0, Gpuplat(f"{options.baseline} ({commit})", base, scratch / "cb"))
        project = scratch / "example"
        gpuplats[-1].run(["init", "-x", EXAMPLE, str(project)])
        cases = {
            "gpuplat --version": (["--version"], 0.08),
            f"gpuplat validate ({EXAMPLE})": (["-C", str(project), "validate"], 0.15),
        }
        for g in gpuplats:  # warm-up: bytecode caches and the catalog cache
            for args, _ in cases.values():
                g.run(args)
        load = os.getloadavg()[0]
        for _ in range(options.repeat):
            for what, (args, _) in cases.items():
                for g in gpuplats:  # alternating, so the machine's noise hits every one
                    g.samples.setdefault(what, []).append(g.run(args, cold=options.cold))
        print(
            f"gpuplat start-up: medians of {options.repeat} fresh processes, wall / CPU "
            f"(user+system); {os.cpu_count()} CPUs, load {load:.1f} -> {os.getloadavg()[0]:.1f}"
            + ("; catalog cache emptied before every run" if options.cold else "")
        )
        print(f"{'what':<34} {'target':<10} " + " ".join(f"{g.label:<22}" for g in gpuplats))
        for what, (_, limit) in cases.items():
            cells = []
            for g in gpuplats:
                wall, cpu = g.median(what)
                cells.append(f"{wall * 1000:.0f} / {cpu * 1000:.0f} ms".ljust(22))
            wall = gpuplats[-1].median(what)[0]
            verdict = "met" if wall <= limit else "MISSED"
            line = f"{what:<34} {f'<= {limit * 1000:.0f} ms':<10} " + " ".join(cells)
            if len(gpuplats) > 1:
                ratios = [
                    b / a
                    for a, b in zip(
                        gpuplats[0].median(what), gpuplats[-1].median(what), strict=True
                    )
                ]
                line += f" this/base {ratios[0]:.2f}x wall, {ratios[1]:.2f}x CPU"
            print(f"{line} {verdict}")
        if options.imports:
            print("\ncostliest imports of validate (this checkout, cumulative, one run):")
            validate = cases[f"gpuplat validate ({EXAMPLE})"][0]
            print("\n".join(importtime(gpuplats[-1], validate, options.imports)))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
