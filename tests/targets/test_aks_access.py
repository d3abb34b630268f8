"""Who reaches an AKS cluster's API after the infra stage: the platform and serving stages sign
in through kubelogin as an Entra identity, which must be authorized by an Azure role (the
deploying identity's) or an admins group; a spec where neither holds is refused, located.

The infra root is planned by real terraform through the azurerm schema stand-in in record mode,
so the ``azurerm_client_config`` data source is read (its ``object_id`` is a placeholder). What an
emulator cannot show: that AKS answers the identity's requests once the role has propagated
(Azure documents up to a few minutes), and that the applying identity may write role
assignments (Owner or User Access Administrator); both are said in the README.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.aksplan import plan_golden
from tests.support.cli import run
from tests.support.specs import project

CLUSTER = "inference-eus"
RBAC_ADMIN = "Azure Kubernetes Service RBAC Cluster Admin"
NO_DEPLOYER = (
    (
        "      resource_group: acme-inference-dev\n",
        "      resource_group: acme-inference-dev\n      deployer_admin: false\n",
    ),
)


def test_a_spec_where_nobody_could_run_the_later_stages_is_refused_at_the_key(
    tmp_path: Path,
) -> None:
    folder = project(tmp_path, NO_DEPLOYER, "aks-a100-vllm")
    result = run("validate", cwd=folder)
    assert result.exit_code == 4, result.stderr
    assert "Error: nobody could run the platform and serving stages" in result.stderr
    assert "gpuplat.yaml:18:23  clusters[0].azure.deployer_admin  (in dev)" in result.stderr
    assert "Azure Kubernetes Service RBAC Cluster Admin" in result.stderr
    # prod lists an admins group: its stages are authorized through the group.
    assert "(in prod)" not in result.stderr


def test_an_admins_group_alone_is_enough(tmp_path: Path) -> None:
    patch = (
        (
            NO_DEPLOYER[0][0],
            NO_DEPLOYER[0][1] + "      admins:\n        - 11111111-2222-3333-4444-555555555555\n",
        ),
    )
    folder = project(tmp_path, patch, "aks-a100-vllm")
    result = run("validate", cwd=folder)
    assert result.exit_code == 0, result.stderr


@pytest.mark.terraform
@pytest.mark.parametrize("env", ["dev", "prod"])
def test_the_deploying_identity_is_cluster_admin_through_azure_rbac(
    env: str, tmp_path: Path
) -> None:
    """dev (Kubernetes RBAC and no admins group before) and prod (Azure RBAC, no local
    accounts) alike: the identity that applies the infra stage, and so runs the next ones, holds
    the AKS RBAC Cluster Admin role on the cluster, and Azure RBAC authorizes the API."""
    planned = plan_golden(tmp_path, env)
    module = f"module.cluster_{CLUSTER}"
    role = planned[f"{module}.azurerm_role_assignment.deployer[0]"]
    assert role["role_definition_name"] == RBAC_ADMIN
    assert role["principal_id"] is not None  # the client config's object id, read at plan
    cluster = planned[f"{module}.azurerm_kubernetes_cluster.this"]
    (entra,) = cluster["azure_active_directory_role_based_access_control"]  # type: ignore[misc]
    assert entra["azure_rbac_enabled"] is True
    assert cluster["local_account_disabled"] is (env == "prod")
