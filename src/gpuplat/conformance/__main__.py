"""``python -m gpuplat.conformance [--schemas DIR] [--extra FILE] [PATH...]``.

The same check as ``gpuplat conformance``, with the same exit codes, for scripts that want the
checker without the rest of the command line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from gpuplat.conformance.run import check_conformance
from gpuplat.errors import GpuplatError


def main(argv: Sequence[str] | None = None) -> int:
    """Check .tf files and print ``file:line: message`` for each violation.

    Violations go to stdout; notes (things not checked) and the summary go to stderr.

    Args:
        argv: Arguments without the program name; defaults to ``sys.argv[1:]``.

    Returns:
        ``ExitCode.OK``, ``NONCONFORMANT`` when there are violations, ``ERROR`` when a path or
        the schemas cannot be read (argparse exits with ``USAGE`` on bad usage).
    """
    parser = argparse.ArgumentParser(
        prog="python -m gpuplat.conformance",
        description="Check Terraform files against provider schemas "
        "(default: ./envs and ./modules against the schemas bundled with gpuplat).",
    )
    parser.add_argument("paths", nargs="*", type=Path, help=".tf files or directories")
    parser.add_argument("--schemas", type=Path, help="directory of provider schema JSON files")
    parser.add_argument(
        "--extra", type=Path, action="append", default=[], help="another schema file (repeatable)"
    )
    parser.add_argument("--quiet", action="store_true", help="do not print notes or the summary")
    args = parser.parse_args(argv)
    try:
        result = check_conformance(Path(), args.paths, schemas=args.schemas, extra=args.extra)
    except GpuplatError as exc:
        print(f"error: {exc}", file=sys.stderr)
        if exc.hint:
            print(f"hint: {exc.hint}", file=sys.stderr)
        return int(exc.exit_code)
    for violation in result.report.violations:
        print(violation)
    if not args.quiet:
        for note in result.report.notes:
            print(note, file=sys.stderr)
        for line in result.crd_lines():
            print(line, file=sys.stderr)
        print(result.summary(), file=sys.stderr)
    return int(result.exit_code)


if __name__ == "__main__":
    sys.exit(main())
