"""Command line: ``compile`` a schema reply once, ``serve`` it to Terraform.

    python -m schema_provider compile --schema google-6.50.0.json \
        --provider-config provider_config/google.json --out build/.../google-6.50.0.bin
    python -m schema_provider serve --name google --compiled build/.../google-6.50.0.bin

``compile`` turns the JSON schema into the exact GetProviderSchema reply bytes so that each
provider process Terraform starts only reads a file. It is skipped when its inputs (schema,
provider block schema, converter source) are unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

from . import convert, wire

PACKAGE = Path(__file__).resolve().parent


def _digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def compile_schema(
    schema: Path, provider_config: Path | None, out: Path, address: str | None
) -> bool:
    """Write ``out``; False when it was already up to date."""
    sources = sorted(PACKAGE.glob("*.py"))
    inputs = [schema, *([provider_config] if provider_config else []), *sources]
    stamp = out.with_name(out.name + ".inputs")
    digest = _digest(inputs)
    if out.is_file() and stamp.is_file() and stamp.read_text().strip() == digest:
        return False
    _address, provider = convert.load_provider(schema, address)
    if "provider" in provider:
        block = provider["provider"]  # a full `providers schema -json` has the real one
    elif provider_config is not None:
        block = json.loads(provider_config.read_text(encoding="utf-8"))
    else:
        raise convert.SchemaFormatError(
            f"{schema} has no `provider` block schema and no --provider-config was given"
        )
    payload = convert.provider_schema_response(provider, block)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(payload)
    tmp.replace(out)
    stamp.write_text(digest + "\n")
    return True


def metadata_from_schema_response(payload: bytes) -> bytes:
    """GetMetadata.Response derived from a GetProviderSchema.Response (type names only)."""
    top = wire.fields(payload)

    def names(field: int) -> list[str]:
        out = []
        for entry in top.get(field, []):
            assert isinstance(entry, bytes)
            key = wire.fields(entry)[1][0]
            assert isinstance(key, bytes)
            out.append(key.decode("utf-8"))
        return out

    def listing(field: int, type_names: list[str]) -> bytes:
        return wire.repeated(field, (wire.string(1, n) for n in type_names))

    return b"".join(
        (
            wire.message(1, convert.server_capabilities()),
            listing(3, names(3)),  # data sources
            listing(4, names(2)),  # managed resources
            listing(6, names(8)),  # ephemeral resources
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="schema_provider")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compile", help="JSON schema -> GetProviderSchema reply bytes")
    c.add_argument("--schema", type=Path, required=True)
    c.add_argument("--provider-config", type=Path)
    c.add_argument("--address", help="provider address, when the file holds several")
    c.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("serve", help="run as the provider process Terraform starts")
    s.add_argument("--name", required=True)
    s.add_argument("--compiled", type=Path, required=True)
    args = parser.parse_args(argv)

    if args.command == "compile":
        try:
            built = compile_schema(args.schema, args.provider_config, args.out, args.address)
        except (OSError, ValueError) as exc:
            print(f"schema_provider compile: {exc}", file=sys.stderr)
            return 1
        print(f"{'compiled' if built else 'up to date'}: {args.out}")
        return 0

    from .record import MODE_ENV
    from .server import SchemaProvider, serve

    try:
        payload = args.compiled.read_bytes()
    except OSError as exc:
        print(
            f"terraform-provider-{args.name}: {exc}; run tools/schema-provider/setup.sh",
            file=sys.stderr,
        )
        return 1
    metadata = metadata_from_schema_response(payload)
    version = args.compiled.stem.removeprefix(f"{args.name}-")  # compiled/NAME-VERSION.bin
    provider = SchemaProvider(args.name, payload, metadata, os.environ.get(MODE_ENV), version)
    return serve(provider)


if __name__ == "__main__":
    sys.exit(main())
