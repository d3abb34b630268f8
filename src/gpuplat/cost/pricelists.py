"""Reading the clouds' public price lists into per-node figures (no network here).

- AWS Price List bulk API: the EC2 offer file of one region
  (``/offers/v1.0/aws/AmazonEC2/current/<region>/index.json``, no credentials). On-demand
  only: EC2 spot prices are not in the Price List.
- Azure Retail Prices API (``/api/retail/prices``, no credentials): the ``Consumption`` meters of
  a VM size in a region; a meter whose ``skuName`` ends in ``Spot`` is the spot price, Windows
  and Low Priority meters are left out.
- Google Cloud Billing Catalog API (``/v1/services/6F81-5844-456A/skus``, Compute Engine; an
  API key): GCE bills a machine by its parts, so a node is its vCPUs x the series' core SKU +
  its GiB x the RAM SKU + its GPUs x the GPU SKU, each for the region (``serviceRegions``);
  spot from the ``Spot Preemptible`` SKUs.

Field names as the APIs document them; every figure keeps the SKU (meter) ids it was read from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpuplat.cost.pricefile import Figure

AWS_OFFER_PATH = "/offers/v1.0/aws/AmazonEC2/current/{region}/index.json"
AZURE_RETAIL_PATH = "/api/retail/prices"
GCE_SERVICE = "6F81-5844-456A"
GCP_SKUS_PATH = f"/v1/services/{GCE_SERVICE}/skus"

GCE_GPU_SKU = {
    "L4": "Nvidia L4 GPU",
    "H100-80GB": "Nvidia H100 80GB GPU",
    "A100-40GB": "Nvidia Tesla A100 GPU",
    "A100-80GB": "Nvidia Tesla A100 80GB GPU",
    "T4": "Nvidia Tesla T4 GPU",
}
"""The Billing Catalog's description of each GPU model's SKU (before `` running in ...``)."""


@dataclass(frozen=True, slots=True)
class GceShape:
    """What a GCE machine type is billed for: its series' core and RAM SKUs, and its GPUs."""

    name: str
    vcpus: int
    memory_gib: float
    gpu_model: str | None
    gpus: int


def aws_offer(
    offer: Mapping[str, Any], region: str, names: Iterable[str], url: str, fetched: str
) -> list[Figure]:
    """On-demand Linux figures of ``names`` from an EC2 region offer file.

    Only shared-tenancy Linux products with no pre-installed software and capacity status
    ``Used`` (the price of a running instance, not of an idle reservation) count.
    """
    wanted = set(names)
    products = offer.get("products", {})
    terms = offer.get("terms", {}).get("OnDemand", {})
    published = str(offer.get("publicationDate", ""))[:10]
    out = []
    for sku, product in sorted(products.items()):
        a = product.get("attributes", {})
        if (
            a.get("instanceType") not in wanted
            or a.get("operatingSystem") != "Linux"
            or a.get("tenancy") != "Shared"
            or a.get("preInstalledSw", "NA") != "NA"
            or a.get("capacitystatus", "Used") != "Used"
            or a.get("regionCode", region) != region
        ):
            continue
        for term in terms.get(sku, {}).values():
            for dim in term.get("priceDimensions", {}).values():
                if dim.get("unit") != "Hrs":
                    continue
                usd = float(dim["pricePerUnit"]["USD"])
                date = str(term.get("effectiveDate", ""))[:10] or published
                out.append(
                    Figure(
                        "eks",
                        a["instanceType"],
                        "on-demand",
                        region,
                        usd,
                        (sku, str(dim.get("rateCode", ""))),
                        url,
                        date,
                        fetched,
                    )
                )
    return out


def azure_retail(
    items: Sequence[Mapping[str, Any]], names: Iterable[str], url: str, fetched: str
) -> list[Figure]:
    """On-demand and spot Linux figures of the VM sizes ``names`` from Retail Prices items."""
    wanted = set(names)
    out = []
    for item in items:
        sku_name = str(item.get("skuName", ""))
        if (
            item.get("armSkuName") not in wanted
            or item.get("type") != "Consumption"
            or item.get("unitOfMeasure") != "1 Hour"
            or "Windows" in str(item.get("productName", ""))
            or sku_name.endswith("Low Priority")
            or item.get("currencyCode", "USD") != "USD"
        ):
            continue
        capacity = "spot" if sku_name.endswith("Spot") else "on-demand"
        out.append(
            Figure(
                "aks",
                str(item["armSkuName"]),
                capacity,
                str(item["armRegionName"]),
                float(item["retailPrice"]),
                (str(item.get("skuId", "")), str(item.get("meterId", ""))),
                url,
                str(item.get("effectiveStartDate", ""))[:10],
                fetched,
            )
        )
    return out


def gcp_catalog(
    skus: Sequence[Mapping[str, Any]],
    region: str,
    shapes: Iterable[GceShape],
    url: str,
    fetched: str,
) -> list[Figure]:
    """On-demand and spot figures of GCE machine types, summed from their part SKUs.

    A shape is left out (not guessed) when any of its parts has no SKU in the region.
    """
    here = [s for s in skus if region in s.get("serviceRegions", [])]
    out = []
    for shape in shapes:
        series = shape.name.split("-")[0].upper()
        for capacity, prefix, usage in (
            ("on-demand", "", "OnDemand"),
            ("spot", "Spot Preemptible ", "Preemptible"),
        ):
            parts = [
                (f"{prefix}{series} Instance Core running in", shape.vcpus),
                (f"{prefix}{series} Instance Ram running in", shape.memory_gib),
            ]
            if shape.gpu_model is not None and shape.gpus:
                gpu = GCE_GPU_SKU.get(shape.gpu_model)
                if gpu is None:
                    continue
                parts.append((f"{prefix}{gpu} running in", shape.gpus))
            found = [(_sku(here, start, usage), count) for start, count in parts]
            if any(sku is None for sku, _ in found):
                continue
            usd = 0.0
            ids, dates = [], []
            for sku, count in found:
                assert sku is not None
                price, date = _unit_price(sku)
                usd += price * count
                ids.append(str(sku["skuId"]))
                dates.append(date)
            out.append(
                Figure(
                    "gke",
                    shape.name,
                    capacity,
                    region,
                    round(usd, 6),
                    tuple(ids),
                    url,
                    max(dates),
                    fetched,
                    _parts_note(found),
                )
            )
    return out


def _sku(skus: Sequence[Mapping[str, Any]], start: str, usage: str) -> Mapping[str, Any] | None:
    for sku in skus:
        category = sku.get("category", {})
        if str(sku.get("description", "")).startswith(start) and category.get("usageType") == usage:
            return sku
    return None


def _unit_price(sku: Mapping[str, Any]) -> tuple[float, str]:
    info = sku["pricingInfo"][0]
    rate = info["pricingExpression"]["tieredRates"][-1]["unitPrice"]
    return int(rate.get("units", 0) or 0) + int(rate.get("nanos", 0)) / 1e9, str(
        info.get("effectiveTime", "")
    )[:10]


def _parts_note(found: Sequence[tuple[Mapping[str, Any] | None, float]]) -> str:
    return " + ".join(
        f"{count:g} x {_unit_price(sku)[0]:g} ({sku['description']})"
        for sku, count in found
        if sku is not None
    )
