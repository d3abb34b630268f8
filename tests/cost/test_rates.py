"""Per-node rates by capacity type, and the catalog's pricing data that feeds them."""

from __future__ import annotations

import json

import pytest

from gpuplat import catalog
from gpuplat.catalog import CatalogDataError
from gpuplat.catalog import files as catalog_files
from gpuplat.catalog import pricing as pricing_module
from gpuplat.cost.rates import pool_rungs, shape_rate
from gpuplat.spec.model import Cluster


def test_every_pricing_source_exists_and_nothing_unknown_is_zero() -> None:
    known = {s.id for s in catalog.sources()}
    for fee in catalog.cluster_fees():
        assert fee.source in known, fee
        assert fee.usd_per_hour is not None or fee.unknown, fee
    for cloud in catalog.CLOUDS:
        default = catalog.cluster_fee(cloud)
        assert default is not None and default.default
        system = catalog.system_shape(cloud)
        assert system is not None and set(system.source) <= known
        for kind in ("on-demand", "spot"):
            billing = catalog.capacity_billing(cloud, kind)
            assert billing is not None and billing.source in known


@pytest.mark.parametrize(
    ("capacity", "usd"),
    [
        ("on-demand", 0.85363),
        ("spot", 0.34057),
        ("reservation", 0.85363),  # billed at the on-demand rate (gce_reservations_docs)
        ("flex-start", None),
        ("queued", None),
    ],
)
def test_gke_capacity_types(capacity: str, usd: float | None) -> None:
    rate = shape_rate("gke", "g2-standard-8", capacity, "us-central1")
    assert rate.usd_per_hour == usd
    if usd is None:
        assert rate.unknown is not None and rate.unknown.startswith(f"{capacity}: ")


def test_eks_capacity_block_and_reservation() -> None:
    block = shape_rate("eks", "p5.48xlarge", "capacity-block", "us-east-1")
    assert block.usd_per_hour is None and "Capacity Blocks" in (block.unknown or "")
    odcr = shape_rate("eks", "g6.xlarge", "reservation", "us-east-1")
    assert odcr.usd_per_hour == 0.8048 and "use it or not" in (odcr.note or "")


def test_n1_hosts_add_their_attached_gpus() -> None:
    rate = shape_rate("gke", "n1-standard-8", "on-demand", "us-central1", ("nvidia-tesla-t4", 2))
    # n1-standard-8 0.38 + 2 x T4 0.35 (gke.yaml).
    assert rate.usd_per_hour == pytest.approx(0.38 + 2 * 0.35)
    assert "host plus 2 x nvidia-tesla-t4" in (rate.note or "")


def test_another_region_is_priced_at_the_catalogs_and_flagged() -> None:
    rate = shape_rate("gke", "g2-standard-8", "on-demand", "europe-west4")
    assert rate.usd_per_hour == 0.85363 and rate.unverified
    assert (rate.note or "").endswith(
        "; list price of us-central1; europe-west4 is not in the catalog"
    )


def test_unknown_shape_is_unknown_with_a_reason() -> None:
    assert shape_rate("gke", "g9-imaginary", "on-demand", None).unknown == (
        "g9-imaginary is not in the catalog"
    )


def test_the_aks_default_system_shape_is_priced() -> None:
    """Standard_D4s_v5 in eastus, Linux pay-as-you-go: 0.192 $/h (Azure Retail Prices API
    through karpenter-provider-azure, generated 2026-06-18)."""
    aks = shape_rate("aks", "Standard_D4s_v5", "on-demand", "eastus")
    assert (aks.usd_per_hour, aks.unknown, aks.as_of) == (0.192, None, "2026-06-18")


def test_rungs_are_a_tuple_of_one_capacity_today() -> None:
    cluster = Cluster.model_validate(
        {
            "name": "c",
            "cloud": "eks",
            "region": "us-east-1",
            "node_pools": [
                {
                    "name": "p",
                    "machine_type": "g4dn.xlarge",
                    "capacity": {"type": "spot"},
                    "autoscaling": {"min_nodes": 0, "max_nodes": 2},
                }
            ],
        }
    )
    rungs = pool_rungs(cluster, cluster.node_pools[0])
    assert [(r.capacity, r.usd_per_hour, r.source) for r in rungs] == [
        ("spot", 0.1824, "skypilot_catalog_aws_v7")
    ]


def test_loader_refuses_a_zero_that_is_not_free_and_a_null_without_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def data(fee: dict[str, object]) -> bytes:  # a data file's bytes (JSON is YAML)
        return json.dumps({"cluster_fees": [fee], "capacity": [], "system_shapes": []}).encode()

    base = {"cloud": "gke", "tier": "x", "default": True, "source": "s", "as_of": "2026-11-30"}
    for fee, message in (
        ({**base, "usd_per_hour": 0}, "a zero price needs `free: true`"),
        ({**base, "usd_per_hour": None}, "null without `unknown`"),
    ):
        monkeypatch.setattr(catalog_files, "data_file", lambda stem, fee=fee: data(fee))
        pricing_module._pricing.cache_clear()
        with pytest.raises(CatalogDataError, match=message):
            pricing_module._pricing()
    monkeypatch.undo()
    pricing_module._pricing.cache_clear()
    assert catalog.cluster_fee("gke") is not None


@pytest.mark.parametrize(
    ("example", "cloud", "key"),
    [("gke-l4-vllm", "gke", "machine_type"), ("eks-l4-vllm", "eks", "instance_type")],
)
def test_priced_system_shape_is_the_one_rendered(example: str, cloud: str, key: str) -> None:
    """The cost model prices the catalog's default system shape: it must be what render writes."""
    import re
    from pathlib import Path

    envs = Path(__file__).resolve().parents[1] / "golden" / example / "envs/prod"
    main = next(envs.glob("*/infra/main.tf"))
    block = re.search(r"system_pool = \{(.*?)\}", main.read_text(), re.S)
    assert block is not None
    rendered = re.search(rf'{key}\s*=\s*"([^"]+)"', block.group(1))
    shape = catalog.system_shape(cloud)  # type: ignore[arg-type]
    assert rendered is not None and shape is not None
    assert rendered.group(1) == shape.name
