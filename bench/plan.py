"""Benchmark: `gpuplat plan` against a raw `terraform plan` of the same roots, and parallel envs.

Run: ``make bench`` (or ``.venv/bin/python bench/plan.py``). Needs the real terraform and the
hashicorp/aws provider in a filesystem mirror (as the tests do). A moto server on 127.0.0.1
stands in for AWS; the EKS example's infra roots are planned against it.

Side by side, in one run, alternating so the machine's noise hits both:
- gpuplat plan ENV --stage infra   (render check, init, plan -out, show -json, summary)
- terraform init + plan -out + show -json of the same root, called directly
- N environments planned with --parallel N against --parallel 1
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.eks.moto_eks import aws_managed_policies, node_groups_own_autoscaling_groups  # noqa: E402
from tests.support.moto import aws_env, moto_server, write_cli_config  # noqa: E402

GPUPLAT = [sys.executable, "-m", "gpuplat"]
CLUSTER = "inference-use1"
ENVS = ("dev", "staging", "qa", "prod")


def timed(
    argv: list[str], env: dict[str, str], cwd: Path | None = None, ok: tuple[int, ...] = (0,)
) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return elapsed


def project(folder: Path, endpoint: str) -> Path:
    subprocess.run(
        [*GPUPLAT, "init", "--example", "eks-l4-vllm", str(folder)], check=True, capture_output=True
    )
    spec_file = folder / "gpuplat.yaml"
    spec = yaml.safe_load(spec_file.read_text())
    spec["clusters"][0].setdefault("aws", {})["endpoint"] = endpoint
    backend = dict(spec["environments"][0]["backend"], endpoint=endpoint)
    spec["environments"] = [{"name": name, "backend": backend, "protected": False} for name in ENVS]
    spec_file.write_text(yaml.safe_dump(spec, sort_keys=False))
    subprocess.run([*GPUPLAT, "-C", str(folder), "render"], check=True, capture_output=True)
    for name in ENVS:
        (folder / "envs" / name / "inference-use1" / "infra" / "moto_override.tf").write_text(
            f'module "cluster_{CLUSTER}" {{\n  addons             = {{}}\n'
            "  cluster_autoscaler = { enabled = false }\n}\n"
        )
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
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
        env["TF_PLUGIN_CACHE_DIR"] = str(base / "plugins")
        (base / "plugins").mkdir()
        folder = project(base / "p", moto.endpoint)
        root = folder / "envs" / "dev" / "inference-use1" / "infra"
        raw_env = dict(env, TF_DATA_DIR=str(base / "raw-data"), TF_IN_AUTOMATION="1")
        terraform = os.environ.get("GPUPLAT_TERRAFORM", "terraform")
        raw = [
            [terraform, "init", "-input=false", "-no-color"],
            [
                terraform,
                "plan",
                "-input=false",
                "-no-color",
                "-lock-timeout=0s",
                f"-out={base / 'raw.tfplan'}",
            ],
            [terraform, "show", "-json", "-no-color", str(base / "raw.tfplan")],
        ]
        ours = [*GPUPLAT, "-C", str(folder), "plan", "dev", "--stage", "infra"]
        # Warm both (provider unpacked into the cache, data dirs initialised) before measuring.
        timed(ours, env, ok=(10,))
        for argv in raw:
            timed(argv, raw_env, cwd=root)
        gp, tf = [], []
        for _ in range(options.repeat):
            gp.append(timed(ours, env, ok=(10,)))
            tf.append(sum(timed(argv, raw_env, cwd=root) for argv in raw))
        print(
            f"plan dev/infra   gpuplat median {statistics.median(gp):6.2f} s   "
            f"raw terraform (init+plan+show) median {statistics.median(tf):6.2f} s   "
            f"ratio {statistics.median(gp) / statistics.median(tf):.3f}x   ({options.repeat} runs each)"
        )
        every = [*GPUPLAT, "-C", str(folder), "plan", *ENVS, "--stage", "infra"]
        timed([*every, "--parallel", str(len(ENVS))], env, ok=(10,))
        serial, parallel = [], []
        for _ in range(max(2, options.repeat // 2)):
            serial.append(timed([*every, "--parallel", "1"], env, ok=(10,)))
            parallel.append(timed([*every, "--parallel", str(len(ENVS))], env, ok=(10,)))
        print(
            f"plan {len(ENVS)} envs     one after another median {statistics.median(serial):6.2f} s   "
            f"--parallel {len(ENVS)} median {statistics.median(parallel):6.2f} s   "
            f"speed-up {statistics.median(serial) / statistics.median(parallel):.2f}x   (on {os.cpu_count()} CPUs)"
        )


if __name__ == "__main__":
    main()
