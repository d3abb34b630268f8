"""Command line: ``python -m gpuplat.conformance [--schemas DIR] [--extra FILE] PATH...``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from gpuplat.conformance.checker import check
from gpuplat.conformance.schema import find_schema_dir, load_schemas


def main(argv: Sequence[str] | None = None) -> int:
    """Check .tf files and print ``file:line: message`` for each violation.

    Violations go to stdout; notes (things not checked) and the summary go to stderr.

    Args:
        argv: Arguments without the program name; defaults to ``sys.argv[1:]``.

    Returns:
        0 when there are no violations, 1 when there are, 2 on a usage or setup error.
    """
    parser = argparse.ArgumentParser(
        prog="python -m gpuplat.conformance",
        description="Check Terraform files against provider schemas.",
    )
    parser.add_argument("paths", nargs="+", type=Path, help=".tf files or directories")
    parser.add_argument("--schemas", type=Path, help="directory of provider schema JSON files")
    parser.add_argument(
        "--extra", type=Path, action="append", default=[], help="another schema file (repeatable)"
    )
    parser.add_argument("--quiet", action="store_true", help="do not print notes or the summary")
    args = parser.parse_args(argv)
    schema_dir = args.schemas or find_schema_dir()
    if schema_dir is None:
        print(
            "error: no provider schemas; pass --schemas DIR or set GPUPLAT_PROVIDER_SCHEMAS",
            file=sys.stderr,
        )
        return 2
    started = time.perf_counter()
    try:
        schemas = load_schemas(schema_dir, args.extra)
        report = check(args.paths, schemas)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for violation in report.violations:
        print(violation)
    if not args.quiet:
        for note in report.notes:
            print(note, file=sys.stderr)
        elapsed = time.perf_counter() - started
        print(f"{report.summary()} in {elapsed:.2f}s", file=sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
