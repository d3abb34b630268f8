"""A front door on Azure Traffic Manager: what the roots hold, and what the module plans.

The golden example failover-gke-aks (GKE serves, AKS is the cold standby) is rendered from the
spec; its roots are type-checked by real `terraform validate` against the azurerm 4.79.0
schemas in tests/fidelity/test_schema_provider.py. Here real terraform plans the module on the
schema-serving stand-in, which shows how gpuplat's weights land on Traffic Manager's endpoints
(weights 1..1000, no 0: a standby's endpoint is disabled). What no stand-in shows: Azure's
probing agents reaching the load balancers, and the alias record resolving.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplat.releases.versions import latest, release_files
from tests.support.realparts import REPO
from tests.support.standin import build_stand_ins, run

GOLDEN = REPO / "tests" / "golden" / "failover-gke-aks"


def _serving(env: str, cluster: str, name: str) -> str:
    return (GOLDEN / "envs" / env / cluster / "serving" / name).read_text()


def test_each_root_holds_its_own_endpoint_and_the_first_cluster_the_profile() -> None:
    home = _serving("prod", "inference-us", "main.tf")
    standby = _serving("prod", "inference-eus", "main.tf")
    for text in (home, standby):
        assert "modules/traffic-manager-endpoint/1.0.0" in text
        assert "azurerm = azurerm.front_door" in text
        assert 'name                = "chat-prod-example-com"' in text
        # The scale-to-zero placements are probed over TCP on the interceptor's port.
        assert 'type              = "TCP"' in text
        assert "port              = 8080" in text
    assert "create              = true" in home and "weight   = 100" in home
    assert 'record              = "chat-prod"' in home
    assert "create              = false" in standby and "weight   = 0" in standby
    assert "dns_zone" not in standby
    for cluster in ("inference-us", "inference-eus"):
        providers = _serving("prod", cluster, "providers.tf")
        assert 'provider "azurerm" {\n  alias           = "front_door"' in providers
        assert "aws" not in providers


ROOT = """\
terraform {
  required_providers {
    azurerm = {
      source  = "hashicorp/azurerm"
      version = ">= 4.79, < 5"
    }
  }
}

provider "azurerm" {
  features {}
}

module "home" {
  source = "./door"
  profile = {
    name                = "chat-example-com"
    resource_group_name = "front"
    subscription_id     = "00000000-0000-0000-0000-000000000000"
    create              = true
  }
  name     = "chat.example.com"
  endpoint = "chat-gke"
  address  = "203.0.113.10"
  weight   = 100
  ttl      = 60
  health   = { path = "/health", port = 8000, interval = 10, failure_threshold = 3 }
  dns_zone = { name = "example.com", resource_group_name = "dns", record = "chat" }
}

module "standby" {
  source = "./door"
  profile = {
    name                = "chat-example-com"
    resource_group_name = "front"
    subscription_id     = "00000000-0000-0000-0000-000000000000"
    create              = false
  }
  name     = "chat.example.com"
  endpoint = "chat-aks"
  address  = "lb.eastus.cloudapp.azure.com"
  weight   = 0
  ttl      = 60
  health   = { path = "/health", port = 8080, interval = 30, failure_threshold = 3, type = "TCP" }
}
"""


@pytest.mark.terraform
def test_weights_map_onto_enabled_endpoints_and_one_profile(tmp_path: Path) -> None:
    cli_config = build_stand_ins()
    root = tmp_path / "root"
    (root / "door").mkdir(parents=True)
    (root / "main.tf").write_text(ROOT)
    for name, text in release_files(latest("traffic-manager-endpoint")).items():
        (root / "door" / name).write_text(text)
    init = run(cli_config, root, "init", "-backend=false", "-input=false")
    assert init.returncode == 0, init.stderr
    planned = run(cli_config, root, "plan", "-input=false", "-out=plan.tfplan")
    assert planned.returncode == 0, planned.stderr
    shown = run(cli_config, root, "show", "-json", "plan.tfplan")
    changes = {
        c["address"]: c["change"]["after"] for c in json.loads(shown.stdout)["resource_changes"]
    }
    profile_id = (
        "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/front/providers/"
        "Microsoft.Network/trafficManagerProfiles/chat-example-com"
    )
    serving = changes["module.home.azurerm_traffic_manager_external_endpoint.placement"]
    assert (serving["enabled"], serving["weight"], serving["profile_id"]) == (True, 100, profile_id)
    cold = changes["module.standby.azurerm_traffic_manager_external_endpoint.placement"]
    assert (cold["enabled"], cold["weight"], cold["profile_id"]) == (False, 1, profile_id)
    assert cold["target"] == "lb.eastus.cloudapp.azure.com"
    # One profile, created by the home placement, with the home placement's monitor.
    profiles = [a for a in changes if a.endswith("azurerm_traffic_manager_profile.this[0]")]
    assert profiles == ["module.home.azurerm_traffic_manager_profile.this[0]"]
    profile = changes[profiles[0]]
    assert profile["traffic_routing_method"] == "Weighted"
    monitor = profile["monitor_config"][0]
    assert (monitor["protocol"], monitor["port"], monitor["path"]) == ("HTTP", 8000, "/health")
    # A 10 s interval needs a timeout of 5..9 s (the provider refuses 10 at create).
    assert (monitor["interval_in_seconds"], monitor["timeout_in_seconds"]) == (10, 9)
    assert monitor["tolerated_number_of_failures"] == 2
    alias = changes["module.home.azurerm_dns_cname_record.door[0]"]
    assert (alias["name"], alias["zone_name"], alias["resource_group_name"]) == (
        "chat",
        "example.com",
        "dns",
    )
    assert "module.standby.azurerm_dns_cname_record.door[0]" not in changes


@pytest.mark.terraform
def test_a_weight_traffic_manager_cannot_hold_is_refused(tmp_path: Path) -> None:
    cli_config = build_stand_ins()
    root = tmp_path / "root"
    (root / "door").mkdir(parents=True)
    for name, text in release_files(latest("traffic-manager-endpoint")).items():
        (root / "door" / name).write_text(text)
    (root / "main.tf").write_text(ROOT.replace("weight   = 100", "weight   = 1001"))
    assert run(cli_config, root, "init", "-backend=false", "-input=false").returncode == 0
    done = run(cli_config, root, "validate")
    assert done.returncode == 1
    assert "Traffic Manager weights are 1..1000; 0 disables the endpoint." in done.stderr
