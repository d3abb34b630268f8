"""Every line of the bill, worked by hand per cloud: a GPU pool, its boot disks, NAT or the load
balancer, public IPv4 and the fee, each price restated from the catalog (and checked against it
first), 730 h a month, rounded to cents at the end as `gpuplat cost` does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplat import catalog
from tests.support.cli import run
from tests.support.specs import project

H = 730
PD_SSD, PD_BALANCED = 0.17, 0.10  # $/GB-month, us-central1 (billing.yaml)
GP3 = 0.08  # $/GB-month, us-east-1
P10, P15 = 19.71, 38.01  # $/month, Premium SSD tiers, eastus
AWS_NAT, AWS_IPV4 = 0.045, 0.005  # $/h
CLOUD_NAT_PER_VM, CLOUD_NAT_MOST, GCP_IPV4 = 0.0014, 0.044, 0.005
AZURE_LB, AZURE_IPV4 = 0.025, 0.005


def test_the_prices_used_here_are_the_catalogs() -> None:
    def per_gb(cloud: catalog.Cloud, kind: str) -> float | None:
        disk = catalog.disk_price(cloud, kind)
        assert disk is not None
        return disk.usd_per_gb_month

    assert (per_gb("gke", "pd-ssd"), per_gb("gke", "pd-balanced"), per_gb("eks", "gp3")) == (
        PD_SSD,
        PD_BALANCED,
        GP3,
    )
    managed = catalog.disk_price("aks", "Managed")
    assert managed is not None
    assert [(t.name, t.usd_per_month) for t in managed.tiers[:2]] == [("P10", P10), ("P15", P15)]
    hourly = {
        (cloud, item): catalog.network_price(cloud, item)
        for cloud, item in (
            ("eks", "nat_gateway"),
            ("eks", "public_ipv4"),
            ("gke", "nat_gateway"),
            ("gke", "public_ipv4"),
            ("aks", "load_balancer"),
            ("aks", "public_ipv4"),
        )
    }
    assert all(p is not None for p in hourly.values())
    assert hourly[("eks", "nat_gateway")].usd_per_hour == AWS_NAT  # type: ignore[union-attr]
    assert hourly[("eks", "public_ipv4")].usd_per_hour == AWS_IPV4  # type: ignore[union-attr]
    gke_nat = hourly[("gke", "nat_gateway")]
    assert gke_nat is not None
    assert (gke_nat.usd_per_vm_hour, gke_nat.most_per_hour) == (CLOUD_NAT_PER_VM, CLOUD_NAT_MOST)
    assert hourly[("gke", "public_ipv4")].usd_per_hour == GCP_IPV4  # type: ignore[union-attr]
    assert hourly[("aks", "load_balancer")].usd_per_hour == AZURE_LB  # type: ignore[union-attr]
    assert hourly[("aks", "public_ipv4")].usd_per_hour == AZURE_IPV4  # type: ignore[union-attr]
    known = {s.id for s in catalog.sources()}
    for kind in ("pd-ssd", "pd-balanced", "hyperdisk-balanced"):
        disk = catalog.disk_price("gke", kind)
        assert disk is not None and disk.source in known
    assert all(p is not None and p.source in known for p in hourly.values())


def cluster(tmp_path: Path, example: str, env: str = "prod") -> dict[str, object]:
    done = run("cost", env, "--json", cwd=project(tmp_path, example=example))
    assert done.exit_code == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)["environments"][0]["clusters"][0]
    return found


def lines(found: dict[str, object]) -> dict[str, tuple[float, float]]:
    items = found["lines"]
    assert isinstance(items, list)
    return {
        line["name"]: (line["floor"]["usd_per_month"], line["ceiling"]["usd_per_month"])
        for line in items
    }


def month(usd_per_hour: float) -> float:
    return round(usd_per_hour * H, 2)


def test_gke_h100_mig_prod_boot_disks_and_node_addresses(tmp_path: Path) -> None:
    """gke-h100-mig prod: 200 GB pd-balanced a3 boot disks, 1..2 on-demand and 0..2 spot nodes;
    100 GB pd-balanced system disks on 1..3 nodes; the 16 local SSDs an a3-highgpu-8g comes
    with are in its machine price; public nodes (no private_nodes) each hold an external IPv4.
    A disk a month: 200 x 0.10 = $20.00."""
    found = cluster(tmp_path, "gke-h100-mig")
    got = lines(found)
    assert got["boot disks h100-mig (200 GB pd-balanced)"] == (20.00, 2 * 20.00)
    assert got["boot disks h100-mig-spot (200 GB pd-balanced)"] == (0.0, 2 * 20.00)
    assert got["boot disks system pool (100 GB pd-balanced)"] == (10.00, 3 * 10.00)
    assert got["local SSDs h100-mig (16 x 375 GB, in the machine's price)"] == (0.0, 0.0)
    # Nodes at the floor: 1 GPU + 1 system; at the ceiling 2 + 2 + 3 = 7.
    assert got["node public IPv4"] == (month(2 * GCP_IPV4), month(7 * GCP_IPV4)) == (7.30, 25.55)
    # Counted in the cluster's total: GPU pools + system + fee + these lines.
    od, spot, system = 88.49, 35.396, 0.13402
    ceiling = (
        2 * od
        + 2 * spot
        + 3 * system
        + 0.10
        + (4 * 200 * PD_BALANCED + 3 * 100 * PD_BALANCED) / H
        + 7 * GCP_IPV4
    )
    total = found["total"]["ceiling"]  # type: ignore[index]
    assert total["usd_per_month"] == month(ceiling) == 181375.61


def test_local_ssds_a_machine_does_not_come_with_are_billed(tmp_path: Path) -> None:
    """gke-l4-vllm prod with one local SSD on each g2-standard-8 (G2 comes with none):
    375 GB x 0.08 $/GB-month = $30.00 a node a month, 2..8 nodes."""
    patch = (
        (
            "        driver:\n          install: managed\n",
            "        disk:\n          local_ssd_count: 1\n        driver:\n          install: managed\n",
        ),
    )
    done = run("cost", "prod", "--json", cwd=project(tmp_path, patch))
    assert done.exit_code == 0, done.stderr
    found = json.loads(done.stdout)["environments"][0]["clusters"][0]
    assert lines(found)["local SSDs l4-shared (1 x 375 GB)"] == (2 * 30.00, 8 * 30.00)


def test_gke_l4_cloud_nat_is_billed_per_vm_up_to_its_cap(tmp_path: Path) -> None:
    """gke-l4-vllm prod: private nodes with Cloud NAT. At the floor 2 GPU + 2 system nodes use
    the gateway: 4 x 0.0014 = 0.0056 $/h, $4.09 a month; at the ceiling 8 + 3 = 11 VMs,
    0.0154 $/h, $11.24 (under the 0.044 cap). One external IP for the gateway: $3.65."""
    got = lines(cluster(tmp_path, "gke-l4-vllm"))
    assert got["NAT gateways (1)"] == (month(4 * CLOUD_NAT_PER_VM), month(11 * CLOUD_NAT_PER_VM))
    assert got["NAT gateways (1)"] == (4.09, 11.24)
    assert got["NAT public IPv4 (1)"] == (3.65, 3.65)
    assert "node public IPv4" not in got
    assert got["boot disks l4-shared (200 GB pd-balanced)"] == (2 * 20.00, 8 * 20.00)


def test_eks_prod_has_a_nat_gateway_per_zone_with_its_address(tmp_path: Path) -> None:
    """eks-l4-vllm prod: gpuplat creates the VPC; a protected environment gets a NAT gateway in
    each of its 3 zones: 3 x 0.045 x 730 = $98.55, and their 3 Elastic IPs 3 x 0.005 x 730 =
    $10.95, whatever the node count. gp3 boot disks: 200 GB x 0.08 = $16.00 a node."""
    found = cluster(tmp_path, "eks-l4-vllm")
    got = lines(found)
    assert got["NAT gateways (3)"] == (month(3 * AWS_NAT),) * 2 == (98.55, 98.55)
    assert got["NAT public IPv4 (3)"] == (10.95, 10.95)
    assert got["boot disks l4-shared (200 GB gp3)"] == (16.00, 8 * 16.00)
    assert got["boot disks system pool (50 GB gp3)"] == (4.00, 12.00)
    # The floor, redone: 1 g6.xlarge + 1 m6i.large + fee + disks + NAT + IPs.
    floor = 0.8048 + 0.096 + 0.10 + (200 + 50) * GP3 / H + 3 * AWS_NAT + 3 * AWS_IPV4
    assert found["total"]["floor"]["usd_per_month"] == month(floor) == 860.08  # type: ignore[index]
    # dev is not protected: one NAT gateway.
    dev = lines(cluster(tmp_path / "dev", "eks-l4-vllm", "dev"))
    assert dev["NAT gateways (1)"] == (32.85, 32.85)


def test_aks_managed_os_disks_are_billed_by_their_premium_tier(tmp_path: Path) -> None:
    """aks-a100-vllm prod: a 256 GB Managed OS disk is a P15 ($38.01 a month), the system pool's
    128 GB a P10 ($19.71); egress goes through the Standard load balancer ($0.025 an hour,
    $18.25 a month) and its public IP ($3.65)."""
    found = cluster(tmp_path, "aks-a100-vllm")
    got = lines(found)
    assert got["boot disks a100mig (256 GB Managed)"] == (P15, 8 * P15)
    assert got["boot disks system pool (128 GB Managed)"] == (P10, round(3 * P10, 2))
    assert got["outbound load balancer (1)"] == (month(AZURE_LB),) * 2 == (18.25, 18.25)
    assert got["its IPv4 (1)"] == (3.65, 3.65)
    ceiling = 8 * 3.673 + 3 * 0.192 + (8 * P15 + 3 * P10) / H + AZURE_LB + AZURE_IPV4
    assert found["total"]["ceiling"]["usd_per_month"] == month(ceiling) == 22255.91  # type: ignore[index]


@pytest.mark.parametrize("example", ["gke-l4-vllm", "eks-l4-vllm", "aks-a100-vllm"])
def test_what_depends_on_traffic_is_named_not_counted(tmp_path: Path, example: str) -> None:
    found = cluster(tmp_path, example)
    not_counted = found["not_counted"]
    assert isinstance(not_counted, list)
    assert any("egress to the internet" in line for line in not_counted)
    assert not any(line.startswith("boot disks") for line in not_counted)
