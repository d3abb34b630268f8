"""Plan an AKS infra root offline: real terraform, the azurerm schema stand-in in record mode
(so the aks-cluster module's ``azurerm_client_config`` is read), local state."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.support.golden import GOLDEN
from tests.support.standin import RECORD_ENV, build_stand_ins
from tests.support.standin import run as terraform


def plan_infra(root: Path) -> dict[str, dict[str, object]]:
    """Planned values by address of an AKS infra root (local state, data sources read)."""
    (root / "backend.tf").write_text("# local state for an offline plan\n", encoding="utf-8")
    cli = build_stand_ins()
    for args in (("init", "-input=false"), ("plan", "-input=false", "-out=p.tfplan")):
        done = terraform(cli, root, *args, timeout=600, env=RECORD_ENV)
        assert done.returncode == 0, f"terraform {args[0]}:\n{done.stderr}"
    shown = terraform(cli, root, "show", "-json", "p.tfplan", timeout=600, env=RECORD_ENV)
    assert shown.returncode == 0, shown.stderr
    changes = json.loads(shown.stdout)["resource_changes"]
    return {c["address"]: c["change"]["after"] for c in changes}


def plan_golden(
    tmp_path: Path, env: str, cluster: str = "inference-eus"
) -> dict[str, dict[str, object]]:
    """The aks-a100-vllm golden tree's infra root of ``env``, planned."""
    tree = tmp_path / "aks"
    shutil.copytree(GOLDEN / "aks-a100-vllm", tree, ignore=shutil.ignore_patterns(".terraform*"))
    return plan_infra(tree / "envs" / env / cluster / "infra")
