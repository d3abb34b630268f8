"""Reading an AWS Price List offer file as a stream: memory of one product, not of the file.

An EC2 region offer file (``/offers/v1.0/aws/AmazonEC2/current/<region>/index.json``) is one
JSON object of several GB: ``products`` by SKU, then ``terms`` (``OnDemand``, ``Reserved``) by
SKU. Loading it whole takes several times its size in memory. Here the top two levels are walked
token by token and each SKU's entry is decoded alone by the standard library's JSON decoder:
products of other instance types are dropped as soon as they are read, ``OnDemand`` terms are
kept only for the products kept, and reading stops once both are done (``Reserved`` is never
read). What is kept then goes through :func:`gpuplat.cost.pricelists.aws_offer`, the one place
that says which products count.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable, Iterator
from typing import IO, Any

from gpuplat.cost.pricefile import Figure
from gpuplat.cost.pricelists import aws_offer

CHUNK = 1 << 20
"""Bytes read at a time."""

_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


class OfferFileError(ValueError):
    """The stream is not an offer file (not a JSON object of the documented shape)."""


class _Tokens:
    """A JSON text read in chunks, walked one member or value at a time."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self._buf = ""
        self._pos = 0
        self._eof = False

    def _more(self) -> bool:
        if self._eof:
            return False
        data = self._stream.read(CHUNK)
        self._eof = not data
        self._buf = self._buf[self._pos :] + self._utf8.decode(data, final=self._eof)
        self._pos = 0
        return True

    def peek(self) -> str:
        """The next character that is not white space ("" at the end)."""
        while True:
            while self._pos < len(self._buf) and self._buf[self._pos] in _SPACE:
                self._pos += 1
            if self._pos < len(self._buf):
                return self._buf[self._pos]
            if not self._more():
                return ""

    def take(self, char: str) -> None:
        if self.peek() != char:
            raise OfferFileError(f"expected {char!r} at character {self._pos} of a chunk")
        self._pos += 1

    def value(self) -> Any:
        """Decode the next value whole (one SKU's entry: small)."""
        self.peek()
        while True:
            try:
                found, end = _DECODER.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                if self._more():
                    continue
                raise OfferFileError(f"not JSON: {exc.msg}") from None
            # A number may go on in the next chunk: decode it again with more text.
            if end == len(self._buf) and not self._eof and self._more():
                continue
            self._pos = end
            return found

    def members(self) -> Iterator[str]:
        """The keys of the object that starts here; the caller reads or skips each value."""
        self.take("{")
        if self.peek() == "}":
            self._pos += 1
            return
        while True:
            key = self.value()
            if not isinstance(key, str):
                raise OfferFileError("an object key is not a string")
            self.take(":")
            yield key
            if self.peek() == ",":
                self._pos += 1
                continue
            self.take("}")
            return

    def skip(self) -> None:
        """Skip the next value, member by member when it is an object (a whole section)."""
        if self.peek() != "{":
            self.value()
            return
        for _ in self.members():
            self.value()


def read_offer(
    stream: IO[bytes], region: str, names: Iterable[str], url: str, fetched: str
) -> list[Figure]:
    """On-demand Linux figures of the instance types ``names`` from an EC2 offer file stream.

    Raises:
        OfferFileError: The stream is not a JSON object of the offer file's shape.
    """
    wanted = set(names)
    tokens = _Tokens(stream)
    kept: dict[str, Any] = {"products": {}, "terms": {"OnDemand": {}}}
    done: set[str] = set()
    for key in tokens.members():
        if key == "products":
            for sku in tokens.members():
                product = tokens.value()
                attributes = product.get("attributes", {}) if isinstance(product, dict) else {}
                if attributes.get("instanceType") in wanted:
                    kept["products"][sku] = product
            done.add(key)
        elif key == "terms":
            if "products" not in done:
                raise OfferFileError("terms come before products (AWS writes products first)")
            for kind in tokens.members():
                if kind != "OnDemand":
                    tokens.skip()
                    continue
                for sku in tokens.members():
                    if sku in kept["products"]:
                        kept["terms"]["OnDemand"][sku] = tokens.value()
                    else:
                        tokens.value()
                break  # Reserved and the rest are not read
            done.add(key)
        elif key in ("publicationDate", "version", "offerCode", "formatVersion"):
            kept[key] = tokens.value()
        else:
            tokens.skip()
        if done == {"products", "terms"}:
            break
    return aws_offer(kept, region, wanted, url, fetched)
