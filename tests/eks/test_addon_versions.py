"""EKS add-ons move with the cluster's minor: the eks-cluster module, run by ``terraform test``.

``aws_eks_addon.addon_version`` is Optional+Computed in the aws provider: left null, an add-on
keeps the version it was created with when the control plane's minor goes up, while the EKS
upgrade guide requires VPC CNI, CoreDNS and kube-proxy to move with it. The module reads each
unpinned add-on's version for ``kubernetes_version`` from ``aws_eks_addon_version``.

The real terraform evaluates the real module with the real aws provider's schema, but under
``mock_provider``: moto has no EKS add-on API (DescribeAddonVersions), so which version EKS
answers for a minor is not run here; the mock answers per add-on name, and the test proves the
minor the module asks for and that the answer is what each add-on is set to.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.releases.versions import latest, release_files
from tests.eks.terraform import mirror_env, terraform

pytestmark = pytest.mark.terraform

TEST = """\
mock_provider "aws" {
  mock_data "aws_eks_addon_version" {
    defaults = {
      version = "v1.35.0-eksbuild.1"
    }
  }
  mock_data "aws_partition" {
    defaults = {
      partition  = "aws"
      dns_suffix = "amazonaws.com"
    }
  }
  mock_data "aws_iam_policy_document" {
    defaults = {
      json = "{}"
    }
  }
}

variables {
  name               = "c"
  kubernetes_version = "1.35"
  network            = { subnet_ids = ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"] }
}

run "unpinned_addons_follow_the_minor" {
  command = plan

  assert {
    condition     = alltrue([for name, v in data.aws_eks_addon_version.this : v.kubernetes_version == "1.35" && v.most_recent])
    error_message = "each add-on's version is read for the cluster's minor, newest first"
  }
  assert {
    condition     = alltrue([for a in aws_eks_addon.before_nodes : a.addon_version == "v1.35.0-eksbuild.1"])
    error_message = "the add-ons nodes need get the version read for the minor"
  }
  assert {
    condition     = aws_eks_addon.after_nodes["coredns"].addon_version == "v1.35.0-eksbuild.1"
    error_message = "CoreDNS gets the version read for the minor"
  }
  assert {
    condition     = toset(keys(aws_eks_addon.before_nodes)) == toset(["eks-pod-identity-agent", "kube-proxy", "vpc-cni"])
    error_message = "the add-ons nodes need are created before any node"
  }
}

run "a_pinned_version_wins" {
  command = plan

  variables {
    kubernetes_version = "1.34"
    addons_most_recent = false
    addons = {
      vpc-cni    = { version = "v1.20.4-eksbuild.2" }
      kube-proxy = {}
    }
  }

  assert {
    condition     = aws_eks_addon.before_nodes["vpc-cni"].addon_version == "v1.20.4-eksbuild.2"
    error_message = "a version the call pins is used as given"
  }
  assert {
    condition     = data.aws_eks_addon_version.this["kube-proxy"].kubernetes_version == "1.34" && !data.aws_eks_addon_version.this["kube-proxy"].most_recent
    error_message = "addons_most_recent = false asks for EKS's default version of the minor"
  }
}
"""


def test_addon_versions_follow_the_cluster_minor(tmp_path: Path) -> None:
    module = tmp_path / "eks-cluster"
    (module / "tests").mkdir(parents=True)
    for name, text in release_files(latest("eks-cluster")).items():
        if name.endswith(".tf"):
            (module / name).write_text(text, encoding="utf-8")
    (module / "tests" / "addons.tftest.hcl").write_text(TEST, encoding="utf-8")
    env = mirror_env(tmp_path / "tf")
    init = terraform(["init", "-backend=false", "-input=false", "-no-color"], module, env)
    assert init.returncode == 0, init.stderr
    done = terraform(["test", "-no-color"], module, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed, 0 failed" in done.stdout, done.stdout
