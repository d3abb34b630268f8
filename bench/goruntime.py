"""Benchmark: Go runtime settings (GOGC, GOMAXPROCS) for terraform and its providers.

Run: ``.venv/bin/python bench/goruntime.py [--repeat N]``. Needs what bench/plan.py needs (the
real terraform, the hashicorp/aws provider in a filesystem mirror); a moto server stands in for
AWS. The EKS example's dev infra root is initialised once, then ``terraform plan -out`` of it runs
under each setting in turn, round after round (the machine's noise hits every setting alike).
The setting is in terraform's environment; the providers terraform starts inherit it.

Printed per setting: median wall, median CPU (user + system of terraform and the providers it
waited for) and the largest peak RSS of one process (the aws provider's), with the CPU ratio to
the default.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.plan import project  # noqa: E402
from tests.eks.moto_eks import aws_managed_policies, node_groups_own_autoscaling_groups  # noqa: E402
from tests.support.moto import aws_env, moto_server, write_cli_config  # noqa: E402

SETTINGS: dict[str, dict[str, str]] = {
    "default": {},
    "GOGC=200": {"GOGC": "200"},
    "GOGC=400": {"GOGC": "400"},
    "GOGC=off": {"GOGC": "off"},
    "GOMAXPROCS=1": {"GOMAXPROCS": "1"},
    "GOMAXPROCS=2": {"GOMAXPROCS": "2"},
}


def measured(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """Wall s, CPU s (user + system, providers included) and peak RSS KiB of one run."""
    timing = ["/usr/bin/time", "-f", "%e %U %S %M", "--"]
    done = subprocess.run(
        [*timing, *argv], env=env, cwd=cwd, capture_output=True, text=True, check=False
    )
    if done.returncode not in (0, 2):
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    wall, user, system, rss = done.stderr.strip().splitlines()[-1].split()
    return float(wall), float(user) + float(system), int(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=list(SETTINGS), choices=list(SETTINGS))
    options = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with (
        tempfile.TemporaryDirectory() as scratch,
        aws_managed_policies(),
        node_groups_own_autoscaling_groups(),
        moto_server() as moto,
    ):
        base = Path(scratch)
        moto.create_bucket("acme-inference-tfstate")
        env = dict(os.environ, **aws_env())
        env["TF_CLI_CONFIG_FILE"] = str(write_cli_config(base / "terraformrc"))
        env.update(TF_DATA_DIR=str(base / "data"), TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1")
        for name in ("GOGC", "GOMAXPROCS", "GOMEMLIMIT"):
            env.pop(name, None)
        root = project(base / "p", moto.endpoint) / "envs" / "dev" / "inference-use1" / "infra"
        terraform = os.environ.get("GPUPLAT_TERRAFORM", "terraform")
        init = [terraform, "init", "-input=false", "-no-color"]
        plan = [terraform, "plan", "-input=false", "-no-color", f"-out={base / 'p.tfplan'}"]
        subprocess.run(init, env=env, cwd=root, check=True, capture_output=True)
        measured(plan, env, root)  # warm the page cache
        runs: dict[str, list[tuple[float, float, int]]] = {name: [] for name in options.only}
        for _ in range(options.repeat):
            for name in options.only:
                runs[name].append(measured(plan, dict(env, **SETTINGS[name]), root))
        base_cpu = statistics.median(c for _, c, _ in runs[options.only[0]])
        print(
            f"terraform plan of dev/inference-use1/infra (EKS example, moto), {options.repeat} runs each"
        )
        for name, values in runs.items():
            wall = statistics.median(w for w, _, _ in values)
            cpu = statistics.median(c for _, c, _ in values)
            rss = max(r for _, _, r in values) / 1024
            print(
                f"{name:14} wall {wall:6.2f} s   CPU {cpu:6.2f} s ({cpu / base_cpu:.2f}x)   "
                f"peak RSS {rss:7.0f} MiB   CPU runs {[round(c, 2) for _, c, _ in values]}"
            )


if __name__ == "__main__":
    main()
