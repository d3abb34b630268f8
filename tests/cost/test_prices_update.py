"""`gpuplat prices update`: the clouds' public price lists into a dated price file `cost` reads.

The parsers read excerpts in each API's documented shape (tests/cost/fixtures/pricelists/,
README there says where every figure comes from). The excerpts are HAND-MADE, not recorded
responses: this machine has no network, so no real answer could be recorded; their fields are
checked against each provider's documentation in test_pricelist_shapes.py; the network path runs against a real HTTP
server on 127.0.0.1 serving those excerpts at the APIs' paths, and against a closed port for
"offline". Every figure below can be redone by hand from the excerpt.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from gpuplat.cost import pricelists
from tests.support.cli import run
from tests.support.specs import project

FIXTURES = Path(__file__).parent / "fixtures" / "pricelists"
TODAY = "2026-12-02"


def load(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((FIXTURES / name).read_text("utf-8"))
    return data


def test_aws_offer_file_gives_linux_on_demand_of_running_instances() -> None:
    figures = pricelists.aws_offer(
        load("aws-ec2-us-east-1.json"), "us-east-1", ["g6.xlarge", "m6i.large"], "u", TODAY
    )
    # The Windows product (0.9888) and the idle capacity reservation product are left out.
    got = {(f.machine_type, f.capacity): (f.usd_per_hour, f.price_date) for f in figures}
    assert got == {
        ("g6.xlarge", "on-demand"): (0.8048, "2026-07-01"),
        ("m6i.large", "on-demand"): (0.096, "2026-07-01"),
    }
    g6 = next(f for f in figures if f.machine_type == "g6.xlarge")
    assert g6.skus == ("G6XLARGELINUX001", "G6XLARGELINUX001.JRTCKXETXF.6YS6EN2CT7")


def test_azure_retail_gives_on_demand_and_spot_not_low_priority_windows_or_reserved() -> None:
    items = load("azure-retail-eastus.json")["Items"]
    assert isinstance(items, list)
    figures = pricelists.azure_retail(items, ["Standard_NC24ads_A100_v4"], "u", TODAY)
    got = {(f.capacity, f.region): (f.usd_per_hour, f.price_date, f.skus[0]) for f in figures}
    assert got == {
        ("on-demand", "eastus"): (3.673, "2026-06-01", "DZH318Z08M9Z/0001"),
        ("spot", "eastus"): (0.444433, "2026-06-01", "DZH318Z08M9Z/0002"),
    }


def test_gcp_billing_catalog_sums_a_machine_from_its_part_skus() -> None:
    """g2-standard-8 (8 vCPU, 32 GiB, 1 L4) in us-central1:
    8 x 0.024988 + 32 x 0.002927 + 1 x 0.56004 = 0.199904 + 0.093664 + 0.56004 = 0.853608.
    e2-standard-4 (4 vCPU, 16 GiB): 4 x 0.02181159 + 16 x 0.00292353 = 0.134023.
    No spot L4 SKU in the excerpt: g2-standard-8 spot is left out, not guessed; the
    europe-west4 L4 SKU is not us-central1's."""
    skus = load("gcp-skus-us-central1.json")["skus"]
    assert isinstance(skus, list)
    shapes = [
        pricelists.GceShape("g2-standard-8", 8, 32.0, "L4", 1),
        pricelists.GceShape("e2-standard-4", 4, 16.0, None, 0),
    ]
    figures = pricelists.gcp_catalog(skus, "us-central1", shapes, "u", TODAY)
    got = {(f.machine_type, f.capacity): f.usd_per_hour for f in figures}
    assert got == {
        ("g2-standard-8", "on-demand"): round(8 * 0.024988 + 32 * 0.002927 + 0.56004, 6),
        ("e2-standard-4", "on-demand"): round(4 * 0.02181159 + 16 * 0.00292353, 6),
    }
    assert got[("g2-standard-8", "on-demand")] == 0.853608
    g2 = next(f for f in figures if f.machine_type == "g2-standard-8")
    assert g2.skus == ("G2CORE-AMERICAS", "G2RAM-AMERICAS", "A88A-5A60-E821")
    assert g2.price_date == "2026-09-01"


class _PriceLists(BaseHTTPRequestHandler):
    """The three price interfaces at their paths, answering from the excerpts."""

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        if parts.path == pricelists.AWS_OFFER_PATH.format(region="us-east-1"):
            body = (FIXTURES / "aws-ec2-us-east-1.json").read_bytes()
        elif parts.path == pricelists.AZURE_RETAIL_PATH:
            # One item a page, each page linking the next, as the API pages its answers.
            query = parse_qs(parts.query)
            wanted = query["$filter"][0]
            skip = int(query.get("$skip", ["0"])[0])
            data = load("azure-retail-eastus.json")
            items = data["Items"]
            assert isinstance(items, list)
            mine = [i for i in items if f"'{i['armSkuName']}'" in wanted]
            data["Items"] = mine[skip : skip + 1]
            more = skip + 1 < len(mine)
            host = self.headers["Host"]
            data["NextPageLink"] = (
                f"http://{host}{parts.path}?{parts.query.split('&$skip')[0]}&$skip={skip + 1}"
                if more
                else None
            )
            body = json.dumps(data).encode()
        elif parts.path == pricelists.GCP_SKUS_PATH and parse_qs(parts.query).get("key"):
            body = (FIXTURES / "gcp-skus-us-central1.json").read_bytes()
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def price_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _PriceLists)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    monkeypatch.setenv("GPUPLAT_PRICE_API_BASE", base)
    monkeypatch.setenv("GPUPLAT_TODAY", TODAY)
    monkeypatch.delenv("GPUPLAT_GCP_API_KEY", raising=False)
    yield base
    server.shutdown()


def test_update_writes_a_dated_file_that_cost_prices_from(
    tmp_path: Path, price_server: str
) -> None:
    root = project(tmp_path, example="eks-l4-vllm")
    done = run("prices", "update", cwd=root)
    assert done.exit_code == 0, done.stderr
    path = root / "prices" / f"prices-{TODAY}.json"
    assert f"wrote {path} (2 figures)" in done.stderr
    data = json.loads(path.read_text("utf-8"))
    g6 = next(f for f in data["figures"] if f["machine_type"] == "g6.xlarge")
    assert (g6["usd_per_hour"], g6["price_date"], g6["fetched"]) == (0.8048, "2026-07-01", TODAY)
    assert (
        g6["source_url"] == f"{price_server}/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.json"
    )
    # The file's figure is the one `cost` uses: make it differ from the catalog's 0.8048.
    g6["usd_per_hour"] = 0.9
    path.write_text(json.dumps(data), "utf-8")
    report = json.loads(run("cost", "prod", "--json", cwd=root).stdout)
    assert report["price_file"] == {
        "path": f"prices/prices-{TODAY}.json",
        "fetched": TODAY,
        "skipped": [],
    }
    pool = report["environments"][0]["clusters"][0]["pools"][0]
    rung = pool["rungs"][0]
    assert (rung["usd_per_hour"], rung["as_of"], rung["unverified"]) == (0.9, "2026-07-01", False)
    assert rung["source"].endswith("/AmazonEC2/current/us-east-1/index.json")
    # prod's GPU pool floor: 1 node x 0.9 x 730 h = $657.00 (at 0.8048 it was $587.50).
    assert pool["min_nodes"] == 1
    assert pool["floor"]["usd_per_month"] == round(0.9 * 730, 2) == 657.00
    table = run("cost", "prod", cwd=root).stdout
    assert f"Priced from prices/prices-{TODAY}.json (fetched {TODAY})" in table
    # The picture prices from the same file: 8 nodes x 0.9 x 730 h = $5,256.00 at max.
    assert "$5,256.00 ceiling a month" in run("graph", "prod", cwd=root).stdout
    # The catalog stays one flag away.
    catalog = json.loads(run("cost", "prod", "--json", "--prices", "catalog", cwd=root).stdout)
    assert catalog["price_file"] is None
    assert (
        catalog["environments"][0]["clusters"][0]["pools"][0]["rungs"][0]["usd_per_hour"] == 0.8048
    )


def test_azure_figures_come_from_the_retail_prices_api(tmp_path: Path, price_server: str) -> None:
    """Every page is read (the server answers one item a page, linking the next)."""
    root = project(tmp_path, example="aks-a100-vllm")
    assert run("prices", "update", cwd=root).exit_code == 0
    data = json.loads((root / "prices" / f"prices-{TODAY}.json").read_text("utf-8"))
    got = {(f["machine_type"], f["capacity"]): f["usd_per_hour"] for f in data["figures"]}
    assert got == {
        ("Standard_NC24ads_A100_v4", "on-demand"): 3.673,
        ("Standard_NC24ads_A100_v4", "spot"): 0.444433,
        ("Standard_D4s_v5", "on-demand"): 0.192,
    }
    report = json.loads(run("cost", "dev", "--json", cwd=root).stdout)
    rung = report["environments"][0]["clusters"][0]["pools"][0]["rungs"][0]
    # dev's pool is spot: the Retail Prices spot meter, no longer the unverified catalog row.
    assert (rung["capacity"], rung["usd_per_hour"], rung["unverified"]) == ("spot", 0.444433, False)
    assert "DZH318Z08M9Z/0002" in rung["note"]


def test_gke_without_an_api_key_says_so_and_keeps_the_catalog(
    tmp_path: Path, price_server: str
) -> None:
    """Nothing fetched (the default example is GKE only): no empty file that `cost` would then
    name as its prices' source, and an exit code a script sees."""
    root = project(tmp_path)
    done = run("prices", "update", cwd=root)
    assert done.exit_code == 1, done.stderr
    assert "no price was fetched" in done.stderr
    assert "needs an API key in GPUPLAT_GCP_API_KEY" in done.stderr
    assert "nothing was written" in done.stderr
    assert not (root / "prices").exists()
    report = json.loads(run("cost", "prod", "--json", cwd=root).stdout)
    assert report["price_file"] is None
    assert report["environments"][0]["clusters"][0]["pools"][0]["rungs"][0]["source"] == (
        "skypilot_catalog_gcp_v7"
    )
    assert "Priced from gpuplat's shipped catalog" in run("cost", "prod", cwd=root).stdout


def test_gke_with_an_api_key_prices_from_the_billing_catalog(
    tmp_path: Path, price_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPUPLAT_GCP_API_KEY", "test-key")
    root = project(tmp_path)
    assert run("prices", "update", cwd=root).exit_code == 0
    data = json.loads((root / "prices" / f"prices-{TODAY}.json").read_text("utf-8"))
    got = {(f["machine_type"], f["capacity"]): f["usd_per_hour"] for f in data["figures"]}
    assert got == {
        ("g2-standard-8", "on-demand"): 0.853608,
        ("e2-standard-4", "on-demand"): 0.134023,
    }
    assert all("test-key" not in f["source_url"] for f in data["figures"])


def test_offline_fails_clearly_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("GPUPLAT_PRICE_API_BASE", f"http://127.0.0.1:{port}")
    root = project(tmp_path, example="eks-l4-vllm")
    done = run("prices", "update", cwd=root)
    assert done.exit_code == 1
    assert "cannot read the price list at http://127.0.0.1:" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "keeps pricing from the shipped catalog" in done.stderr
    assert not (root / "prices").exists()
    table = run("cost", "prod", cwd=root).stdout
    assert "Priced from gpuplat's shipped catalog" in table
