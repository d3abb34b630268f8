"""Peak memory and time of reading an AWS EC2 offer file: whole (json.load) against the stream.

No offer file can be downloaded here, so one is written in the documented shape
(``formatVersion``, ``publicationDate``, ``products`` by SKU with ``attributes``, ``terms`` with
``OnDemand`` and ``Reserved`` by SKU and offer term code, ``priceDimensions`` with
``pricePerUnit.USD``): ``--skus`` products of many instance types, one on-demand term and three
reserved terms each, about 3 KB a SKU (the real us-east-1 file has far more SKUs and is several
GB). Each reader runs in a fresh process that prints its own peak resident memory
(``ru_maxrss``) and time; both must find the same figures.

    .venv/bin/python bench/offerfile.py --skus 100000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

WANTED = ["g6.xlarge", "m6i.large"]

CHILD = r"""
import json, resource, sys, time
from gpuplat.cost import offerfile, pricelists
path, how = sys.argv[1], sys.argv[2]
names = ["g6.xlarge", "m6i.large"]
start = time.perf_counter()
with open(path, "rb") as stream:
    if how == "whole":
        figures = pricelists.aws_offer(json.load(stream), "us-east-1", names, "u", "2026-12-03")
    else:
        figures = offerfile.read_offer(stream, "us-east-1", names, "u", "2026-12-03")
took = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"seconds": took, "peak": peak,
                  "figures": sorted((f.machine_type, f.usd_per_hour) for f in figures)}))
"""


def _product(sku: str, instance: str) -> dict[str, object]:
    return {
        "sku": sku,
        "productFamily": "Compute Instance",
        "attributes": {
            "servicecode": "AmazonEC2",
            "location": "US East (N. Virginia)",
            "locationType": "AWS Region",
            "instanceType": instance,
            "currentGeneration": "Yes",
            "instanceFamily": "Accelerated Computing",
            "vcpu": "4",
            "physicalProcessor": "AMD EPYC 7R13 Processor",
            "memory": "16 GiB",
            "storage": "1 x 250 NVMe SSD",
            "networkPerformance": "Up to 10 Gigabit",
            "regionCode": "us-east-1",
            "tenancy": "Shared",
            "operatingSystem": "Linux",
            "licenseModel": "No License required",
            "usagetype": f"BoxUsage:{instance}",
            "operation": "RunInstances",
            "capacitystatus": "Used",
            "preInstalledSw": "NA",
        },
    }


def _term(sku: str, code: str, usd: str, unit: str = "Hrs") -> dict[str, object]:
    return {
        "offerTermCode": code,
        "sku": sku,
        "effectiveDate": "2026-07-01T00:00:00Z",
        "priceDimensions": {
            f"{sku}.{code}.6YS6EN2CT7": {
                "rateCode": f"{sku}.{code}.6YS6EN2CT7",
                "description": f"${usd} per On Demand Linux instance hour",
                "beginRange": "0",
                "endRange": "Inf",
                "unit": unit,
                "pricePerUnit": {"USD": usd},
                "appliesTo": [],
            }
        },
        "termAttributes": {},
    }


def write_offer(path: Path, skus: int) -> None:
    """An offer file of ``skus`` products in the documented shape, written piece by piece."""
    names = [f"synthetic{i % 500}.xlarge" for i in range(skus - 2)] + WANTED
    with path.open("w", encoding="utf-8") as out:
        out.write('{"formatVersion": "v1.0", "offerCode": "AmazonEC2", ')
        out.write('"publicationDate": "2026-07-20T00:00:00Z", "products": {')
        for i, name in enumerate(names):
            out.write(("," if i else "") + json.dumps(f"SKU{i:08d}") + ": ")
            out.write(json.dumps(_product(f"SKU{i:08d}", name)))
        out.write('}, "terms": {"OnDemand": {')
        for i, name in enumerate(names):
            sku = f"SKU{i:08d}"
            usd = {"g6.xlarge": "0.8048", "m6i.large": "0.0960"}.get(name, "1.0000")
            out.write(("," if i else "") + json.dumps(sku) + ": ")
            out.write(json.dumps({f"{sku}.JRTCKXETXF": _term(sku, "JRTCKXETXF", usd)}))
        out.write('}, "Reserved": {')
        for i in range(len(names)):
            sku = f"SKU{i:08d}"
            terms = {f"{sku}.{c}": _term(sku, c, "0.5000") for c in ("4NA7Y494T4", "38NPMPTW36")}
            terms[f"{sku}.6QCMYABX3D"] = _term(sku, "6QCMYABX3D", "4380", "Quantity")
            out.write(("," if i else "") + json.dumps(sku) + ": " + json.dumps(terms))
        out.write("}}}\n")


def measure(path: Path, how: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), how], capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skus", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "index.json"
        write_offer(path, args.skus)
        size = path.stat().st_size
        print(f"offer file: {args.skus:,} SKUs, {size / 2**20:,.0f} MiB")
        results = {how: measure(path, how) for how in ("whole", "stream")}
    if results["whole"]["figures"] != results["stream"]["figures"]:
        print("the two readers disagree:", results)
        return 1
    print(f"figures: {results['stream']['figures']}")
    for how, got in results.items():
        peak = float(got["peak"]) / 2**20  # type: ignore[arg-type]
        print(f"  {how:<6}  peak {peak:8,.1f} MiB  {float(got['seconds']):6.1f} s")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
