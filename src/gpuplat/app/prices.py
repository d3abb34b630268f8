"""`gpuplat prices update`: fetch the clouds' public list prices for the shapes a project uses.

For every environment's clusters it asks each cloud's public price interface for the machine
shapes (GPU pools, ladder rungs, system pools) in the cluster's region, and writes what it read
to a dated price file (cost/pricefile.py) that ``gpuplat cost`` then prices from:

- EKS: the AWS Price List bulk API's EC2 offer file of the region (no credentials; a large file);
- AKS: the Azure Retail Prices API (no credentials), one query per VM size and region;
- GKE: the Google Cloud Billing Catalog API, which needs an API key: read from
  ``GPUPLAT_GCP_API_KEY``; without it GKE shapes are not fetched (said, not an error) and keep
  the catalog's figures.

``GPUPLAT_PRICE_API_BASE`` points all three at one other host (a mirror or a test server).
When a price interface cannot be reached, nothing is written and the command says which URL
failed; ``cost`` keeps pricing from the catalog (or the last price file).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpuplat import catalog, clock
from gpuplat.cost import offerfile, pricefile, pricelists
from gpuplat.cost.pricefile import Figure
from gpuplat.errors import ExitCode, GpuplatError
from gpuplat.spec.load import load_project
from gpuplat.targets import target

API_KEY_ENV = "GPUPLAT_GCP_API_KEY"
BASE_ENV = "GPUPLAT_PRICE_API_BASE"
HOSTS = {
    "eks": "https://pricing.us-east-1.amazonaws.com",
    "aks": "https://prices.azure.com",
    "gke": "https://cloudbilling.googleapis.com",
}
TIMEOUT_S = 60

Getter = Callable[[str], Any]


@dataclass(frozen=True)
class PricesResult:
    """The price file written, how many figures it holds, and what was not fetched."""

    path: Path
    figures: int
    skipped: tuple[str, ...]


class PriceListUnreachable(GpuplatError):
    """A cloud's price interface could not be reached or did not answer with JSON."""


def get_json(url: str) -> Any:
    """GET ``url`` and parse its JSON body.

    Raises:
        PriceListUnreachable: No answer, an HTTP error, or a body that is not JSON.
    """
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        why = f"HTTP {exc.code} {exc.reason}"
    except (urllib.error.URLError, OSError) as exc:
        why = str(getattr(exc, "reason", exc))
    except ValueError:
        why = "the answer is not JSON"
    raise _unreachable(url, why)


def _unreachable(url: str, why: str) -> PriceListUnreachable:
    return PriceListUnreachable(
        f"cannot read the price list at {_redact(url)}: {why}",
        hint="check the network (or GPUPLAT_PRICE_API_BASE); nothing was written, and "
        "`gpuplat cost` keeps pricing from the shipped catalog or the last price file",
        exit_code=ExitCode.ERROR,
    )


def update_prices(root: Path, envs: Sequence[str] = (), *, get: Getter = get_json) -> PricesResult:
    """Fetch list prices for the shapes of the project in ``root`` and write a price file.

    Args:
        root: Project folder.
        envs: Environments whose shapes to fetch; empty means all.
        get: Reads a URL's JSON (the network; tests pass a local server's URL instead).

    Returns:
        The file written and what it holds.

    Raises:
        SpecError: The spec is invalid.
        PriceListUnreachable: A price interface could not be read (nothing is written).
        GpuplatError: No figure was fetched, e.g. GKE only and no API key (nothing is written).
    """
    project = load_project(root, envs)
    wanted: dict[tuple[str, str], set[str]] = {}
    for env in project.envs.values():
        for cluster in env.spec.clusters:
            names = wanted.setdefault((cluster.cloud, cluster.region), set())
            for pool in cluster.node_pools:
                names.update(
                    r.pool.machine_type for r in target(cluster.cloud).ladder(cluster, pool).rungs
                )
            system = cluster.system_pool.machine_type or _default_system(cluster.cloud)
            if system:
                names.add(system)
    fetched = clock.today().isoformat()
    figures: list[Figure] = []
    skipped: list[str] = []
    for (cloud, region), names in sorted(wanted.items()):
        fetch = FETCHERS[cloud]
        if fetch is _gcp and not os.environ.get(API_KEY_ENV):
            skipped.append(
                f"{cloud} {region}: not fetched, the Cloud Billing Catalog API needs an API key "
                f"in {API_KEY_ENV}; the catalog's figures price these shapes"
            )
            continue
        figures += fetch(region, sorted(names), fetched, get)
    if not figures:
        # A file without a figure would only change what `cost` says it priced from.
        raise GpuplatError(
            "no price was fetched: " + "; ".join(skipped or ["the spec names no shape"]),
            hint="nothing was written, and `gpuplat cost` keeps pricing from the shipped "
            "catalog or the last price file",
            exit_code=ExitCode.ERROR,
        )
    path = pricefile.write(root, fetched, figures, skipped)
    return PricesResult(path, len(figures), tuple(skipped))


def _base(cloud: str) -> str:
    return os.environ.get(BASE_ENV, "").rstrip("/") or HOSTS[cloud]


def _aws(region: str, names: list[str], fetched: str, get: Getter) -> list[Figure]:
    url = _base("eks") + pricelists.AWS_OFFER_PATH.format(region=region)
    if get is not get_json:
        return pricelists.aws_offer(get(url), region, names, url, fetched)
    # The offer file is several GB: read as a stream, never whole (cost/offerfile.py).
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as answer:
            return offerfile.read_offer(answer, region, names, url, fetched)
    except urllib.error.HTTPError as exc:
        why = f"HTTP {exc.code} {exc.reason}"
    except (urllib.error.URLError, OSError) as exc:
        why = str(getattr(exc, "reason", exc))
    except offerfile.OfferFileError as exc:
        why = f"the answer is not an offer file ({exc})"
    raise _unreachable(url, why)


def _azure(region: str, names: list[str], fetched: str, get: Getter) -> list[Figure]:
    out: list[Figure] = []
    for name in names:
        query = (
            f"serviceName eq 'Virtual Machines' and armRegionName eq '{region}' "
            f"and armSkuName eq '{name}' and priceType eq 'Consumption'"
        )
        url: str | None = (
            _base("aks")
            + pricelists.AZURE_RETAIL_PATH
            + "?"
            + urllib.parse.urlencode({"$filter": query})
        )
        first = url
        items: list[Any] = []
        while url:
            page = get(url)
            items += page.get("Items", [])
            url = page.get("NextPageLink") or None
        assert first is not None
        out += pricelists.azure_retail(items, [name], first, fetched)
    return out


def _gcp(region: str, names: list[str], fetched: str, get: Getter) -> list[Figure]:
    key = os.environ[API_KEY_ENV]
    base = _base("gke") + pricelists.GCP_SKUS_PATH
    skus: list[Any] = []
    token = ""
    while True:
        query = {"key": key, "currencyCode": "USD", "pageSize": "5000"}
        if token:
            query["pageToken"] = token
        page = get(base + "?" + urllib.parse.urlencode(query))
        skus += page.get("skus", [])
        token = page.get("nextPageToken") or ""
        if not token:
            break
    shapes = []
    for name in names:
        shape = catalog.shape("gke", name)
        system = catalog.system_shape("gke", name)
        if shape is not None:
            shapes.append(
                pricelists.GceShape(
                    name, shape.vcpus, float(shape.memory_gib), shape.gpu_model, int(shape.gpus)
                )
            )
        elif system is not None:
            shapes.append(
                pricelists.GceShape(name, system.vcpus, float(system.memory_gib), None, 0)
            )
    return pricelists.gcp_catalog(skus, region, shapes, base, fetched)


FETCHERS: dict[str, Callable[[str, list[str], str, Getter], list[Figure]]] = {
    "eks": _aws,
    "aks": _azure,
    "gke": _gcp,
}
"""Each cloud's public price list reader."""


def _default_system(cloud: str) -> str | None:
    default = catalog.system_shape(cloud)  # type: ignore[arg-type]
    return default.name if default is not None else None


def _redact(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    query = [(k, "REDACTED" if k == "key" else v) for k, v in urllib.parse.parse_qsl(parts.query)]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
