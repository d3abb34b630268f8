"""An address outside each cluster: the cloud's LoadBalancer annotations, in both renderings.

The two-cloud spec (chat on EKS and GKE) with ``address``: each cluster's model server gets the
annotations its cloud reads for the scheme (GKE's "LoadBalancer Service parameters"; EKS's
in-tree service controller, gpuplat installing no AWS Load Balancer Controller), the serving
roots' ``placements`` report the address, and the plain manifests carry the same Service.
"""

from __future__ import annotations

from pathlib import Path

import hcl2
import pytest
import yaml

from tests.app.test_failover import failover_project
from tests.support.cli import run
from tests.support.hclread import modules, plain

EXPECTED = {
    ("internal", "inference-us"): {"networking.gke.io/load-balancer-type": "Internal"},
    ("internal", "inference-use1"): {
        "service.beta.kubernetes.io/aws-load-balancer-type": "nlb",
        "service.beta.kubernetes.io/aws-load-balancer-internal": "true",
    },
    ("external", "inference-us"): {"cloud.google.com/l4-rbs": "enabled"},
    ("external", "inference-use1"): {"service.beta.kubernetes.io/aws-load-balancer-type": "nlb"},
}


@pytest.mark.parametrize("scheme", ["internal", "external"])
def test_each_cloud_gets_its_load_balancer_annotations_and_placements_the_address(
    tmp_path: Path, scheme: str
) -> None:
    folder = failover_project(tmp_path / "p", address={"scheme": scheme})
    assert run("render", "--manifests", "k8s", cwd=folder).exit_code == 0
    for cluster in ("inference-us", "inference-use1"):
        root = folder / "envs" / "dev" / cluster / "serving"
        server = modules(root / "main.tf")[f"serve_chat_{cluster}"]
        assert server["load_balancer"] == {"annotations": EXPECTED[scheme, cluster]}
        outputs = {
            k: v
            for block in plain(hcl2.loads((root / "outputs.tf").read_text()))["output"]  # type: ignore[index]
            for k, v in block.items()
        }
        placed = outputs["placements"]["value"][f"chat@{cluster}"]  # type: ignore[index]
        assert placed["address"] == f"${{module.serve_chat_{cluster}.address}}"
        manifest = folder / "k8s" / "dev" / cluster / "serving" / "chat.yaml"
        services = [
            doc
            for doc in yaml.safe_load_all(manifest.read_text(encoding="utf-8"))
            if doc and doc.get("kind") == "Service" and doc["metadata"]["name"] == "chat"
        ]
        assert [(s["spec"]["type"], s["metadata"]["annotations"]) for s in services] == [
            ("LoadBalancer", EXPECTED[scheme, cluster])
        ], services


def test_without_an_address_the_service_stays_in_the_cluster(tmp_path: Path) -> None:
    folder = failover_project(tmp_path / "p")
    assert run("render", cwd=folder).exit_code == 0
    root = folder / "envs" / "dev" / "inference-us" / "serving"
    assert "load_balancer" not in modules(root / "main.tf")["serve_chat_inference-us"]
    assert "address" not in (root / "outputs.tf").read_text(encoding="utf-8")
