"""The README's main job: gpuplat end to end on the default example, with no cloud credentials."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "build" / "demo"
GPUPLAT = [sys.executable, "-m", "gpuplat"]


def step(*args: str) -> None:
    print(f"\n$ gpuplat {' '.join(args)}", flush=True)
    done = subprocess.run([*GPUPLAT, *args], check=False)
    if done.returncode != 0:
        sys.exit(f"demo failed: `gpuplat {' '.join(args)}` exited {done.returncode}")


def main() -> None:
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    step("init", "--example", "gke-l4-vllm", str(WORK))
    step("-C", str(WORK), "validate", "--strict")
    print(f"\ndemo OK: the project is in {WORK.relative_to(REPO)}")


if __name__ == "__main__":
    main()
