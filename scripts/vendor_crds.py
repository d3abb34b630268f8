"""Write the CRD schemas gpuplat checks its custom resources against.

    python scripts/vendor_crds.py [--mirrors DIR]          # write src/gpuplat/crds/data/<file>
    python scripts/vendor_crds.py [--mirrors DIR] --check  # exit 1 when a file is out of date

Every entry of ``src/gpuplat/crds/data/sources.yaml`` names a CRD file in a public repository at
one commit. The file is read from a local bare git copy of that repository,
``DIR/<owner>+<name>/repo`` (the layout the search tool's ``fetch`` leaves; default
``/work/.mirror``), with ``git show <commit>:<path>``. Helm chart templates keep their CRDs
between ``{{ if ... }}`` lines and label them with ``{{ ... }}`` values: lines that hold a
template action are dropped before the YAML is read (none of them is inside a schema).

For each served version the file keeps, as compact JSON with sorted keys:
``group``, ``kind``, ``version``, ``scope``, the source entry, and ``schema`` (the version's
``openAPIV3Schema`` with every ``description`` text removed and nothing else changed). The same
sources give the same bytes.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "src" / "gpuplat" / "crds" / "data"
SOURCES = DATA / "sources.yaml"
MIRRORS = Path("/work/.mirror")


def _strip(node: Any) -> Any:
    """The schema without its documentation texts (a property named ``description`` stays)."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                continue
            if key == "properties" and isinstance(value, dict):
                out[key] = {name: _strip(sub) for name, sub in value.items()}
            else:
                out[key] = _strip(value)
        return out
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def _read(mirrors: Path, entry: dict[str, Any]) -> str:
    owner, name = entry["repository"].removeprefix("https://github.com/").split("/")
    git_dir = mirrors / f"{owner}+{name}" / "repo"
    if not git_dir.is_dir():
        raise SystemExit(f"no git copy of {entry['repository']} at {git_dir}")
    spec = f"{entry['commit']}:{entry['path']}"
    done = subprocess.run(
        ["git", "-C", str(git_dir), "show", spec], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"git show {spec} in {git_dir}: {done.stderr.strip()}")
    return done.stdout


def _without_template_actions(text: str) -> str:
    """The text without template actions, and without template comments (``{{/* ... */}}``,
    which may span lines: Kueue's chart opens its CRDs with the license in one)."""
    text = re.sub(r"\{\{-?\s*/\*.*?\*/\s*-?\}\}", "", text, flags=re.DOTALL)
    return "\n".join(line for line in text.splitlines() if "{{" not in line) + "\n"


def extract(text: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The vendored document of one CRD file: its served versions' schemas and their source."""
    crds = [
        doc
        for doc in yaml.safe_load_all(_without_template_actions(text))
        if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition"
    ]
    if len(crds) != 1:
        raise SystemExit(f"{entry['path']}: want one CustomResourceDefinition, found {len(crds)}")
    spec = crds[0]["spec"]
    versions = {
        v["name"]: _strip(v["schema"]["openAPIV3Schema"])
        for v in spec["versions"]
        if v.get("served", False)
    }
    # ``serves`` says where gpuplat checks a definition, not where it was read.
    source = {k: v for k, v in entry.items() if k not in ("file", "serves")}
    return {
        "group": spec["group"],
        "kind": spec["names"]["kind"],
        "scope": spec["scope"],
        "source": source,
        "versions": versions,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, default=MIRRORS)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    entries = yaml.safe_load(SOURCES.read_text(encoding="utf-8"))["crds"]
    stale = []
    for entry in entries:
        doc = extract(_read(args.mirrors, entry), entry)
        text = json.dumps(doc, sort_keys=True, separators=(",", ":")) + "\n"
        out = DATA / entry["file"]
        if args.check:
            if not out.is_file() or out.read_text(encoding="utf-8") != text:
                stale.append(entry["file"])
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out.relative_to(REPO)} ({len(text)} bytes)")
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
