"""One Azure storage account, one resource group in every environment.

An account name is unique in Azure; the read role on its weights container is scoped by a
resource id that names the account's group. The aks-a100-vllm example used to name the group in
prod only, so dev resolved the account to the cluster's group and its role assignment would
fail at apply. No Azure API is reachable here: the check compares the scopes gpuplat renders.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.support.cli import run
from tests.support.specs import project

GROUP = "      storage_resource_group: acme-models\n"


def _scope(folder: Path, env: str) -> str:
    text = (folder / "envs" / env / "inference-eus" / "infra" / "main.tf").read_text()
    (line,) = [ln for ln in text.splitlines() if "Microsoft.Storage/storageAccounts" in ln]
    return line.split('"')[1]


def test_the_example_resolves_its_account_to_one_group_in_every_environment(
    tmp_path: Path,
) -> None:
    folder = project(tmp_path, (), "aks-a100-vllm")
    validated = run("validate", "--strict", cwd=folder)
    assert validated.exit_code == 0, validated.stderr
    assert run("render", cwd=folder).exit_code == 0
    assert _scope(folder, "dev") == _scope(folder, "prod")
    assert "/resourceGroups/acme-models/providers/Microsoft.Storage/" in _scope(folder, "dev")
    serving = (folder / "envs" / "dev" / "inference-eus" / "serving" / "main.tf").read_text()
    assert '"acme-models"' in serving  # the Blob CSI volume's resourcegroup


def test_an_account_in_two_groups_is_warned_where_the_second_is_written(tmp_path: Path) -> None:
    """The example as it was: the group named in prod's overlay only."""
    folder = project(tmp_path, (), "aks-a100-vllm")
    spec = folder / "gpuplat.yaml"
    text = spec.read_text(encoding="utf-8")
    assert GROUP in text
    spec.write_text(text.replace(GROUP, ""), encoding="utf-8")
    prod = folder / "envs" / "prod.yaml"
    overlay = yaml.safe_load(prod.read_text(encoding="utf-8"))
    overlay["workloads"][0]["model"] = {"storage_resource_group": "acme-models"}
    prod.write_text(yaml.safe_dump(overlay, sort_keys=False), encoding="utf-8")
    result = run("validate", cwd=folder)
    assert result.exit_code == 0, result.stderr
    assert (
        'Warning: storage account "acmemodels" resolves to resource group "acme-models" here '
        'and "acme-inference-dev" in dev' in result.stderr
    )
    assert "workloads[0].model.storage_resource_group  (in prod)" in result.stderr
    assert "envs/prod.yaml:" in result.stderr
    assert run("validate", "--strict", cwd=folder).exit_code == 4
