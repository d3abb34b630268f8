"""Just enough of the protobuf wire format to write tfplugin6 messages by field number.

Field numbers come from Terraform's docs/plugin-protocol/tfplugin6.8.proto. Values equal to
the proto3 default (empty string, False, 0, None) are left out, exactly as a protobuf library
would leave them out.
"""

from __future__ import annotations

from collections.abc import Iterable

_VARINT = 0
_LEN = 2
_MASK64 = (1 << 64) - 1


def varint(value: int) -> bytes:
    value &= _MASK64  # negative int64 values take ten bytes, as in protobuf
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _tag(field: int, wire_type: int) -> bytes:
    return varint(field << 3 | wire_type)


def length_delimited(field: int, payload: bytes) -> bytes:
    return _tag(field, _LEN) + varint(len(payload)) + payload


def string(field: int, value: str | None) -> bytes:
    return length_delimited(field, value.encode("utf-8")) if value else b""


def raw(field: int, value: bytes | None) -> bytes:
    return length_delimited(field, value) if value else b""


def boolean(field: int, value: bool | None) -> bytes:
    return _tag(field, _VARINT) + b"\x01" if value else b""


def integer(field: int, value: int | None) -> bytes:
    """int64 and enum fields."""
    return _tag(field, _VARINT) + varint(value) if value else b""


def message(field: int, payload: bytes | None) -> bytes:
    """A sub-message; an empty one is still written (it is present, just all defaults)."""
    return b"" if payload is None else length_delimited(field, payload)


def repeated(field: int, payloads: Iterable[bytes]) -> bytes:
    return b"".join(length_delimited(field, p) for p in payloads)


def map_of_messages(field: int, entries: Iterable[tuple[str, bytes]]) -> bytes:
    """``map<string, Message>``: each entry is a message with key = 1 and value = 2."""
    return b"".join(
        length_delimited(field, string(1, key) + length_delimited(2, value))
        for key, value in entries
    )


def error_diagnostic(summary: str, detail: str) -> bytes:
    """tfplugin6.Diagnostic with severity ERROR (1), summary (2) and detail (3)."""
    return integer(1, 1) + string(2, summary) + string(3, detail)


def fields(data: bytes) -> dict[int, list[bytes | int]]:
    """Decode one message level into field number -> values (varints as int, others as bytes).

    Only used to read the few request fields the stand-in looks at and in tests.
    """
    out: dict[int, list[bytes | int]] = {}
    pos = 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        number, wire_type = key >> 3, key & 7
        value: bytes | int
        if wire_type == _VARINT:
            value, pos = _read_varint(data, pos)
        elif wire_type == _LEN:
            size, pos = _read_varint(data, pos)
            value, pos = data[pos : pos + size], pos + size
        elif wire_type == 1:  # fixed64
            value, pos = data[pos : pos + 8], pos + 8
        elif wire_type == 5:  # fixed32
            value, pos = data[pos : pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire_type}")
        out.setdefault(number, []).append(value)
    return out


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
