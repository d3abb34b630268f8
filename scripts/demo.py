"""The README's main job: gpuplat end to end on EKS, with no cloud credentials.

Starts a moto server (an AWS emulator) on 127.0.0.1, then: init the eks-l4-vllm example,
point it at the emulator, validate, render, plan, apply, plan again and destroy the dev
environment's infra stage with the real terraform and the real hashicorp/aws provider. The
platform and serving stages need a live Kubernetes API and the kubernetes/helm providers; they
are rendered and checked, but not applied here.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "build" / "demo"
GPUPLAT = [sys.executable, "-m", "gpuplat"]
MIRRORS = (os.environ.get("GPUPLAT_PROVIDER_MIRROR", ""), "/opt/tf-plugins")
ENV = "dev"


def step(
    title: str,
    *args: str,
    ok: tuple[int, ...] = (0,),
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> int:
    where = f"{cwd.relative_to(REPO)}$" if cwd is not None else "$"
    print(f"\n== {title}\n{where} gpuplat {' '.join(args)}", flush=True)
    done = subprocess.run([*GPUPLAT, *args], env=env, check=False, cwd=cwd)
    if done.returncode not in ok:
        raise SystemExit(f"demo failed: `gpuplat {' '.join(args)}` exited {done.returncode}")
    return done.returncode


def mirror() -> Path:
    for candidate in MIRRORS:
        if candidate and any(
            Path(candidate).glob("registry.terraform.io/hashicorp/aws/*/*/terraform-provider-aws*")
        ):
            return Path(candidate)
    raise SystemExit(
        "demo needs the hashicorp/aws provider in a filesystem mirror (looked in "
        f"{', '.join(m for m in MIRRORS if m)}); set GPUPLAT_PROVIDER_MIRROR"
    )


def point_at(project: Path, endpoint: str) -> list[str]:
    """Point every EKS cluster and every S3 state backend of the spec at the emulator."""
    spec_file = project / "gpuplat.yaml"
    spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
    for cluster in spec["clusters"]:
        cluster.setdefault("aws", {})["endpoint"] = endpoint
    buckets = []
    for env in spec["environments"]:
        backend = env["backend"]
        backend["endpoint"] = endpoint
        buckets.append(backend["bucket"])
    header = "# yaml-language-server: $schema=.gpuplat/schema/spec.json\n"
    header += (
        f"# The eks-l4-vllm example, pointed at a local AWS emulator ({endpoint}) by the demo.\n"
    )
    spec_file.write_text(header + yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    return sorted(set(buckets))


def moto_override(project: Path, cluster: str) -> None:
    """Turn off what calls EKS APIs moto does not implement (add-ons, Pod Identity).

    A Terraform override file beside the rendered root: gpuplat's render keeps files it did not
    write, and `render --check` ignores them. Against real AWS nothing of this is needed.
    """
    root = project / "envs" / ENV / cluster / "infra"
    (root / "moto_override.tf").write_text(
        "# Written by the demo: moto has no EKS add-on or Pod Identity API.\n"
        f'module "cluster_{cluster}" {{\n'
        "  addons             = {}\n"
        "  cluster_autoscaler = { enabled = false }\n"
        "}\n",
        encoding="utf-8",
    )


def main() -> None:
    import boto3
    from moto.server import ThreadedMotoServer

    sys.path.insert(0, str(REPO))
    # moto lacks two things EKS does by itself; the test suite's helpers fill them in.
    from tests.eks.moto_eks import aws_managed_policies, node_groups_own_autoscaling_groups

    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    config = WORK / "terraformrc"
    config.write_text(
        "disable_checkpoint = true\nprovider_installation {\n"
        f'  filesystem_mirror {{\n    path    = "{mirror()}"\n'
        '    include = ["registry.terraform.io/hashicorp/aws"]\n  }\n'
        '  direct {\n    exclude = ["registry.terraform.io/hashicorp/aws"]\n  }\n}\n',
        encoding="utf-8",
    )
    policies = aws_managed_policies()
    groups = node_groups_own_autoscaling_groups()
    policies.__enter__()
    groups.__enter__()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    logging.getLogger("werkzeug").disabled = True  # moto's access log, set up by its start
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    env = dict(
        os.environ,
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_REGION="us-east-1",
        AWS_DEFAULT_REGION="us-east-1",
        TF_CLI_CONFIG_FILE=str(config),
        NO_COLOR="1",
    )
    started = time.monotonic()
    try:
        print(f"moto (AWS emulator) listening on {endpoint}")
        step("init the EKS example", "init", "--example", "eks-l4-vllm", str(WORK / "project"))
        project = WORK / "project"
        for bucket in point_at(project, endpoint):
            boto3.client(
                "s3",
                endpoint_url=endpoint,
                region_name="us-east-1",
                aws_access_key_id="testing",
                aws_secret_access_key="testing",
            ).create_bucket(Bucket=bucket)
        # From here on, as a person works: inside the project folder, with relative paths.
        step("validate", "validate", "--strict", env=env, cwd=project)
        step(
            "render (all stages; plain manifests too)",
            "render",
            "--manifests",
            "k8s",
            env=env,
            cwd=project,
        )
        moto_override(project, "inference-use1")
        step(
            "plan dev (infra: the cluster and its GPU node group)",
            "plan",
            ENV,
            "--stage",
            "infra",
            ok=(10,),
            env=env,
            cwd=project,
        )
        step("apply dev", "apply", ENV, env=env, cwd=project)
        print(
            "\n(moto reads some fields back differently from AWS, so the next plan shows "
            "replacements a real account would not: see tests/eks/test_moto.py)"
        )
        step(
            "plan dev again",
            "plan",
            ENV,
            "--stage",
            "infra",
            ok=(0, 10),
            env=env,
            cwd=project,
        )
        step("destroy dev", "destroy", ENV, "--stage", "infra", "--yes", env=env, cwd=project)
    finally:
        server.stop()
        groups.__exit__(None, None, None)
        policies.__exit__(None, None, None)
    print(
        f"\ndemo OK in {time.monotonic() - started:.0f}s: the project is in {project.relative_to(REPO)}"
    )
    print("The platform and serving stages were rendered and checked, not applied: they need a")
    print("running Kubernetes API and the kubernetes/helm providers.")
    print("The gpuplat command is .venv/bin/gpuplat (or `source .venv/bin/activate`).")


if __name__ == "__main__":
    main()
