"""Write the trimmed provider schemas that ship with gpuplat's conformance checker.

    python scripts/trim_schemas.py            # or: make vendored-schemas
    python scripts/trim_schemas.py --check    # exit 1 when the vendored files are out of date

Full ``terraform providers schema -json`` files are tens of megabytes. gpuplat ships, as package
data of ``gpuplat.conformance`` (``src/gpuplat/conformance/schemas/``), a copy of each provider's
schema that keeps:

* the provider configuration block schema, when the source has one;
* exactly the resource and data-source types the templates declare (``resource "T"`` and
  ``data "T"`` blocks under ``templates/``), plus the short ``EXTRA`` list below;
* no ``description`` texts (half the bytes; nothing checks them);
* the names (only) of every other type, under the top-level ``gpuplat_trimmed`` key, so the
  checker can tell a type that exists but was left out (a note) from one that does not exist
  (an error, with a suggestion drawn from all the provider's names).

Each source is the first ``<name>-<version>.json`` found in ``$GPUPLAT_PROVIDER_SCHEMAS``, then
``../shared/provider-schemas`` beside the repository, then ``build/provider-schemas``. A provider
found in none of them is fetched with real terraform by ``scripts/provider-schemas.sh`` (the
filesystem mirror first, e.g. the hashicorp/aws provider in ``/opt/tf-plugins``, else the
registry) into ``build/provider-schemas``. Output is compact JSON with sorted keys: the same
sources give the same bytes.

After adding a resource or data block to a template: run ``make vendored-schemas`` and commit
``src/gpuplat/conformance/schemas/``. ``tests/conformance/test_vendored.py`` fails, naming that
target, when a template uses a type the vendored set lacks.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TEMPLATES = REPO / "templates"
OUT = REPO / "src" / "gpuplat" / "conformance" / "schemas"
BUILD = REPO / "build" / "provider-schemas"

# The provider versions gpuplat's templates are written and checked against. Keep in step with
# the default PROVIDERS of scripts/provider-schemas.sh and the templates' version constraints.
VERSIONS: Mapping[str, str] = {
    "aws": "5.100.0",
    "azurerm": "4.79.0",
    "google": "6.50.0",
    "helm": "3.0.2",
    "kubernetes": "2.38.0",
}

# Types kept although no template declares them, each with the reason.
EXTRA: frozenset[tuple[str, str]] = frozenset(
    {
        # tests/fidelity/test_schema_provider.py: a hand-written platform root reads the cluster
        # through this data source (the way users' own roots often do) and is validated by real
        # terraform against the stand-in provider built from the vendored google schema.
        ("data", "google_container_cluster"),
        # src/gpuplat/vendoring/existing.py: `vendor --calls --existing-cluster` attaches pools to
        # a cluster the repository has through these data sources (GKE's is the one above);
        # tests/vendoring/test_existing_cluster.py validates them against the stand-ins.
        ("data", "aws_eks_cluster"),
        ("data", "azurerm_kubernetes_cluster"),
    }
)

KIND_KEYS: Mapping[str, str] = {
    "resource": "resource_schemas",
    "data": "data_source_schemas",
    "ephemeral": "ephemeral_resource_schemas",
}
TRIMMED_KEY = "gpuplat_trimmed"
_BLOCK = re.compile(r'^\s*(resource|data|ephemeral)\s+"([A-Za-z0-9_]+)"\s+"', re.MULTILINE)


class TrimError(Exception):
    """A source is missing or does not have a type the templates use."""


def template_types(templates: Path = TEMPLATES) -> dict[tuple[str, str], list[str]]:
    """Every ``(kind, type)`` a template declares, with the ``file:line`` places that do.

    Args:
        templates: The template tree.

    Returns:
        ``{("resource", "google_container_node_pool"): ["templates/...:12", ...], ...}``.
    """
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted(p for p in templates.rglob("*") if p.is_file()):
        text = path.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            line = text.count("\n", 0, match.start(2)) + 1
            where = f"{_shown(path)}:{line}"
            found.setdefault((match.group(1), match.group(2)), []).append(where)
    return found


def wanted_types(templates: Path = TEMPLATES) -> dict[tuple[str, str], list[str]]:
    """The template types plus :data:`EXTRA` (whose place reads ``EXTRA``)."""
    found = template_types(templates)
    for key in EXTRA:
        found.setdefault(key, []).append("scripts/trim_schemas.py EXTRA")
    return found


def provider_of(type_name: str) -> str:
    """The provider local name a type belongs to, by Terraform's prefix rule."""
    return type_name.split("_", 1)[0]


def trim(
    doc: Mapping[str, Any],
    name: str,
    version: str,
    wanted: Mapping[tuple[str, str], list[str]],
) -> dict[str, Any]:
    """The trimmed schema document of provider ``name``.

    Args:
        doc: A full ``terraform providers schema -json`` document holding the provider.
        name: The provider's local name (``google``).
        version: The provider version the document describes (terraform's own output does not
            say; ``scripts/provider-schemas.sh`` records it).
        wanted: The types to keep, with where they are used (for error messages).

    Returns:
        A document in the same format, with the left-out type names under ``gpuplat_trimmed``.

    Raises:
        TrimError: The document lacks the provider or a wanted type of it, or says another
            version.
    """
    entries = doc.get("provider_schemas") or {}
    address = next((a for a in entries if a.rsplit("/", 1)[-1] == name), None)
    if address is None:
        raise TrimError(f"no schema for provider {name} in the source")
    full = entries[address]
    if full.get("version", version) != version:
        raise TrimError(f"the {name} source is version {full['version']}, not {version}")
    kept: dict[str, Any] = {"version": version}
    if "provider" in full:
        kept["provider"] = _undescribed(full["provider"])
    omitted: dict[str, list[str]] = {}
    problems = []
    for kind, key in KIND_KEYS.items():
        types = full.get(key) or {}
        mine = {t for k, t in wanted if k == kind and provider_of(t) == name}
        for missing in sorted(mine - set(types)):
            places = ", ".join(wanted[(kind, missing)])
            problems.append(f"{kind} {missing!r} ({places}) is not in {name}'s schema")
        kept[key] = {t: _undescribed(types[t]) for t in sorted(mine & set(types))}
        omitted[key] = sorted(set(types) - mine)
    if problems:
        raise TrimError("; ".join(problems))
    return {
        "format_version": doc.get("format_version", "1.0"),
        "provider_schemas": {address: kept},
        TRIMMED_KEY: {
            "generator": "scripts/trim_schemas.py (make vendored-schemas)",
            "omitted": {address: omitted},
        },
    }


def _undescribed(schema: Any) -> Any:
    """The schema without ``description`` texts (``description_kind`` stays: terraform's own
    rendering of a schema always has it, so a served copy reads back equal)."""
    if isinstance(schema, dict):
        # A text, not an attribute that happens to be called `description` (a schema object);
        # a `type` is left whole: its object fields are names, `"description": "string"` too.
        return {
            k: v if k == "type" and not isinstance(v, dict) else _undescribed(v)
            for k, v in schema.items()
            if not (k == "description" and isinstance(v, str))
        }
    if isinstance(schema, list):
        return [_undescribed(v) for v in schema]
    return schema


def dumps(doc: Mapping[str, Any]) -> str:
    """Compact, key-sorted JSON with one trailing newline: the vendored files' exact bytes."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def source_dirs() -> list[Path]:
    """Where full schema files are looked for, in order."""
    dirs = []
    if os.environ.get("GPUPLAT_PROVIDER_SCHEMAS"):
        dirs.append(Path(os.environ["GPUPLAT_PROVIDER_SCHEMAS"]))
    dirs += [REPO.parent / "shared" / "provider-schemas", BUILD]
    return dirs


def find_sources(
    versions: Mapping[str, str], dirs: Iterable[Path], fetch: bool = True
) -> dict[str, Path]:
    """The full schema file of each provider; fetch the ones no directory has.

    Raises:
        TrimError: A provider could not be found or fetched.
    """
    dirs = list(dirs)
    found: dict[str, Path] = {}
    for name, version in versions.items():
        for directory in dirs:
            candidate = directory / f"{name}-{version}.json"
            if candidate.is_file():
                found[name] = candidate
                break
    absent = [n for n in versions if n not in found]
    if absent and fetch:
        _fetch({n: versions[n] for n in absent})
        for name in absent:
            candidate = BUILD / f"{name}-{versions[name]}.json"
            if candidate.is_file():
                found[name] = candidate
    absent = [n for n in versions if n not in found]
    if absent:
        looked = ", ".join(str(d) for d in dirs)
        raise TrimError(f"no full schema for {', '.join(absent)} (looked in {looked})")
    return found


def _fetch(versions: Mapping[str, str]) -> None:
    providers = " ".join(f"{n}={v}" for n, v in versions.items())
    print(
        f"fetching {providers} with real terraform (scripts/provider-schemas.sh)", file=sys.stderr
    )
    env = {**os.environ, "PROVIDERS": providers, "PYTHON": sys.executable}
    subprocess.run(
        ["bash", str(REPO / "scripts" / "provider-schemas.sh"), str(BUILD)], env=env, check=False
    )


def trim_file(path: Path, name: str, templates: Path = TEMPLATES) -> str:
    """The vendored text of provider ``name`` (at its :data:`VERSIONS` entry) from a full file.

    Raises:
        TrimError: The file lacks the provider or a type the templates use.
    """
    doc = json.loads(path.read_text(encoding="utf-8"))
    return dumps(trim(doc, name, VERSIONS[name], wanted_types(templates)))


def build(sources: Mapping[str, Path], templates: Path = TEMPLATES) -> dict[str, str]:
    """``{file name: text}`` of the trimmed set.

    Raises:
        TrimError: A source lacks its provider or a type the templates use, or the templates
            use a provider with no source.
    """
    wanted = wanted_types(templates)
    unknown = sorted({provider_of(t) for _, t in wanted} - set(sources) - {"terraform"})
    if unknown:
        raise TrimError(f"templates use providers with no source: {', '.join(unknown)}")
    return {
        f"{name}-{VERSIONS[name]}.json": trim_file(path, name, templates)
        for name, path in sorted(sources.items())
    }


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the vendored schemas; print their sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"default: {_shown(OUT)}")
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 when stale")
    args = parser.parse_args(argv)
    try:
        sources = find_sources(VERSIONS, source_dirs())
        files = build(sources)
    except (TrimError, OSError, ValueError) as exc:
        print(f"trim_schemas: {exc}", file=sys.stderr)
        return 1
    out: Path = args.out
    current = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.json")}
    if args.check:
        stale = sorted(n for n in {*files, *current} if files.get(n) != current.get(n))
        for name in stale:
            print(f"stale: {_shown(out / name)} (run `make vendored-schemas`)", file=sys.stderr)
        return 1 if stale else 0
    out.mkdir(parents=True, exist_ok=True)
    for name in sorted(set(current) - set(files)):
        (out / name).unlink()
        print(f"removed {_shown(out / name)}", file=sys.stderr)
    total = 0
    for name, text in files.items():
        if current.get(name) != text:
            (out / name).write_text(text, encoding="utf-8")
        size = len(text.encode("utf-8"))
        total += size
        print(f"{_shown(out / name)}  {size:>9,} bytes  from {_shown(sources[name.split('-')[0]])}")
    print(f"total {total:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
