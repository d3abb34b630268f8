"""The AWS offer file read as a stream: the figures of the whole-file reader, in the memory of
one product, and nothing read past the on-demand terms.

The offer file here is the hand-made excerpt of tests/cost/fixtures/pricelists/ (not a recorded
response: see the README there) and files written in the same documented shape.
"""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path

import pytest

from gpuplat.cost import offerfile, pricelists

FIXTURE = Path(__file__).parent / "fixtures" / "pricelists" / "aws-ec2-us-east-1.json"
NAMES = ["g6.xlarge", "m6i.large"]


def _figures(stream: io.BufferedIOBase) -> list[tuple[str, float, str, tuple[str, ...]]]:
    found = offerfile.read_offer(stream, "us-east-1", NAMES, "u", "2026-12-03")  # type: ignore[arg-type]
    return [(f.machine_type, f.usd_per_hour, f.price_date, f.skus) for f in found]


def test_the_stream_gives_the_whole_file_readers_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    text = FIXTURE.read_bytes()
    whole = pricelists.aws_offer(json.loads(text), "us-east-1", NAMES, "u", "2026-12-03")
    expected = [(f.machine_type, f.usd_per_hour, f.price_date, f.skus) for f in whole]
    assert [e[:2] for e in expected] == [("g6.xlarge", 0.8048), ("m6i.large", 0.096)]
    # Chunks of 1, 7 and 4096 bytes: every token and number cut somewhere.
    for size in (1, 7, 4096):
        monkeypatch.setattr(offerfile, "CHUNK", size)
        assert _figures(io.BytesIO(text)) == expected, size


def _offer(skus: int) -> bytes:
    """An offer file of ``skus`` products of another type, then the two wanted ones."""
    product = json.loads(FIXTURE.read_text("utf-8"))["products"]["G6XLARGELINUX001"]
    term = json.loads(FIXTURE.read_text("utf-8"))["terms"]["OnDemand"]["G6XLARGELINUX001"]
    out = io.StringIO()
    out.write('{"formatVersion": "v1.0", "publicationDate": "2026-07-20T00:00:00Z", "products": {')
    names = [f"other{i % 300}.xlarge" for i in range(skus)] + NAMES
    for i, name in enumerate(names):
        one = {**product, "sku": f"S{i}", "attributes": {**product["attributes"]}}
        one["attributes"]["instanceType"] = name
        out.write(("," if i else "") + f'"S{i}": ' + json.dumps(one))
    out.write('}, "terms": {"OnDemand": {')
    for i in range(len(names)):
        out.write(("," if i else "") + f'"S{i}": ' + json.dumps(term))
    # Anything after the on-demand terms is never read: not even whether it is JSON.
    out.write('}, "Reserved": {this is not read')
    return out.getvalue().encode()


def test_memory_is_one_products_not_the_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's own allocations while reading: bounded by a chunk and the products kept, the
    same for a file four times the size (a whole-file read holds several times the file)."""
    monkeypatch.setattr(offerfile, "CHUNK", 64 * 2**10)
    peaks = []
    for skus in (2_000, 8_000):
        data = _offer(skus)
        tracemalloc.start()
        found = _figures(io.BytesIO(data))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert [f[0] for f in found] == NAMES
        peaks.append((len(data), peak))
    (small, small_peak), (big, big_peak) = peaks
    assert big > 3.5 * small and big > 5 * 2**20
    assert big_peak < 4 * offerfile.CHUNK + 2**20, peaks  # a few chunks, whatever the file
    assert big_peak < 1.5 * small_peak + 2**20, peaks


def test_what_is_not_an_offer_file_is_refused() -> None:
    for bad in (b"[1, 2]", b'{"products": {"a": ', b'{"terms": {}, "products": {}}'):
        with pytest.raises(offerfile.OfferFileError):
            _figures(io.BytesIO(bad))
