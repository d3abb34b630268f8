"""A dated price file fetched from the clouds' public price lists, and which one prices now.

``gpuplat prices update`` writes ``prices/prices-<fetched date>.json`` in the project: one
figure per (cloud, machine shape, capacity type, region), each with its provenance (the URL it
was read from, the cloud's SKU ids, the date the cloud gives the price, the date it was
fetched). ``gpuplat cost`` prices from the newest such file in place of the shipped catalog's
figures, shape by shape, and names the file; without one, the shipped catalog prices, as
before. A shape, capacity or region the file does not hold falls back to the catalog.

The file in use is held in a context variable for the duration of one report, so the rate
functions (cost/rates.py) need no extra argument.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from pathlib import Path

from gpuplat.errors import ExitCode, GpuplatError

SCHEMA_ID = "gpuplat.prices/1"
FOLDER = "prices"


@dataclass(frozen=True, slots=True)
class Figure:
    """One fetched hourly list price of one node of a machine shape, with its provenance."""

    cloud: str
    machine_type: str
    capacity: str
    """``on-demand`` or ``spot``."""
    region: str
    usd_per_hour: float
    skus: tuple[str, ...]
    """The cloud's ids of the SKUs (or meters) summed into the figure."""
    source_url: str
    price_date: str
    """The date the cloud gives for the price (effective / publication date)."""
    fetched: str
    note: str | None = None

    def to_json(self) -> dict[str, object]:
        out = asdict(self)
        out["skus"] = list(self.skus)
        return out


@dataclass(frozen=True, slots=True)
class PriceFile:
    """The figures of one fetch, and where they were written."""

    path: str
    fetched: str
    figures: tuple[Figure, ...]
    skipped: tuple[str, ...] = ()
    """What was not fetched, and why (e.g. GKE without an API key)."""

    def find(self, cloud: str, machine_type: str, capacity: str, region: str) -> Figure | None:
        for figure in self.figures:
            if (figure.cloud, figure.machine_type, figure.capacity, figure.region) == (
                cloud,
                machine_type,
                capacity,
                region,
            ):
                return figure
        return None

    def to_json(self) -> dict[str, object]:
        return {
            "schema": SCHEMA_ID,
            "fetched": self.fetched,
            "skipped": list(self.skipped),
            "figures": [f.to_json() for f in self.figures],
        }


_ACTIVE: ContextVar[PriceFile | None] = ContextVar("gpuplat_price_file", default=None)


def active() -> PriceFile | None:
    """The price file pricing now, or None for the shipped catalog."""
    return _ACTIVE.get()


@contextmanager
def using(prices: PriceFile | None) -> Iterator[None]:
    """Price from ``prices`` (None: the shipped catalog) inside the block."""
    token = _ACTIVE.set(prices)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def newest(root: Path) -> Path | None:
    """The newest price file of the project in ``root`` (by the date in its name), if any."""
    folder = root / FOLDER
    if not folder.is_dir():
        return None
    found = sorted(folder.glob("prices-*.json"))
    return found[-1] if found else None


def write(root: Path, fetched: str, figures: Sequence[Figure], skipped: Sequence[str]) -> Path:
    """Write the fetched figures as ``prices/prices-<fetched>.json`` under ``root``."""
    path = root / FOLDER / f"prices-{fetched}.json"
    prices = PriceFile(str(path), fetched, tuple(figures), tuple(skipped))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(prices.to_json(), indent=2, sort_keys=True) + "\n", "utf-8")
    return path


def read(path: Path, shown: str | None = None) -> PriceFile:
    """Read a price file.

    Args:
        path: The file.
        shown: How to name it in messages and reports (default: ``path``).

    Raises:
        GpuplatError: It is missing, not JSON, or not a gpuplat price file.
    """
    name = shown or str(path)
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise GpuplatError(f"price file {name} does not exist", exit_code=ExitCode.ERROR) from None
    except (OSError, ValueError) as exc:
        raise GpuplatError(f"price file {name} cannot be read: {exc}") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA_ID:
        raise GpuplatError(
            f"price file {name} is not a {SCHEMA_ID} file",
            hint="write one with `gpuplat prices update`",
        )
    try:
        figures = tuple(Figure(**{**f, "skus": tuple(f["skus"])}) for f in data.get("figures", []))
    except (TypeError, KeyError) as exc:
        raise GpuplatError(f"price file {name}: a figure is malformed ({exc})") from None
    return PriceFile(name, str(data["fetched"]), figures, tuple(data.get("skipped", [])))


def provenance(catalog_as_of: str) -> str:
    """The line that says what the report priced from: the price file and its date, or the
    shipped catalog and the date it was read."""
    prices = active()
    if prices is None:
        return (
            f"Priced from gpuplat's shipped catalog (read {catalog_as_of}); each price's "
            "source and date: `gpuplat cost --json`"
        )
    return (
        f"Priced from {prices.path} (fetched {prices.fetched}) where it has the shape, "
        f"region and capacity, else from gpuplat's shipped catalog (read {catalog_as_of}); "
        "each price's source and date: `gpuplat cost --json`"
    )


def provenance_json() -> dict[str, object] | None:
    """The price file in use as JSON (``price_file`` of the cost report), or None."""
    prices = active()
    if prices is None:
        return None
    return {"path": prices.path, "fetched": prices.fetched, "skipped": list(prices.skipped)}


def choose(root: Path, prices: str | None = None) -> PriceFile | None:
    """The price file to price the project in ``root`` from.

    Args:
        root: Project folder.
        prices: A file, ``catalog`` for the shipped catalog alone, or None for the newest file
            ``gpuplat prices update`` wrote in the project (none: the catalog).

    Raises:
        GpuplatError: The file cannot be read or is not a price file.
    """
    if prices == "catalog":
        return None
    if prices is not None:
        return read(Path(prices))
    found = newest(root)
    return None if found is None else read(found, str(found.relative_to(root)))
