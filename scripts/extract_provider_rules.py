"""Extract the rules a Terraform provider checks that its schema does not show, as data.

    python scripts/extract_provider_rules.py --provider azurerm --version 4.79.0 \\
        --git /work/.mirror/hashicorp+terraform-provider-azurerm/repo --tag v4.79.0 \\
        --repository hashicorp/terraform-provider-azurerm \\
        --paths go.mod internal vendor/github.com/hashicorp
    python scripts/extract_provider_rules.py --provider kubernetes --version 2.38.0 \\
        --git /work/.mirror/hashicorp+terraform-provider-kubernetes/repo --tag v2.38.0 \\
        --repository hashicorp/terraform-provider-kubernetes --paths go.mod kubernetes \\
        --go-module k8s.io/api=/work/.mirror/kubernetes+api/repo@v0.28.6 \\
        --go-module k8s.io/apimachinery=/work/.mirror/kubernetes+apimachinery/repo@v0.28.6
    python scripts/extract_provider_rules.py --provider aws --version 5.100.0 \\
        --source DIR --repository hashicorp/terraform-provider-aws --tag v5.100.0 \\
        --commit SHA --file-commits commits.json --exclude \\
        scripts/provider_rules/aws-5.100.0-excluded.json \\
        --register resource.aws_route_table_association=internal/service/ec2/...:Function

Reads the provider's Go source (``--source``: a checked-out tree; or ``--git`` + ``--tag``: a
git directory, of which the tag is exported to a temporary folder) with tree-sitter's Go
grammar, finds the definition of every resource and data source type gpuplat's templates use,
evaluates its schema (following schema helper functions, nested ``Elem`` resources, constants
and enum helpers such as azurerm's ``PossibleValuesFor…`` in vendored go-azure-sdk, and
packages of other Go modules given with ``--go-module``, such as k8s.io/api's constants and
apimachinery's name checks), and
writes ``src/gpuplat/conformance/rules/<provider>-<version>.json``:

* per type, the rules: ``ConflictsWith``, ``ExactlyOneOf``, ``AtLeastOneOf``, ``RequiredWith``
  (SDKv2 fields or framework path validators), and validators reduced to ``length``, ``enum``,
  ``not_in``, ``regex``, ``range``, ``size`` or ``format`` checks, each with file and line;
* ``unresolved``: every validator or schema part it could not reduce (a custom function, an
  unmodelled library call), with file and line, so nothing is dropped silently;
* ``not_found``: wanted types it could not locate;
* ``excluded`` (with ``--exclude``): rules a referee run against the release's binary showed it
  does not enforce as read, each with the reason (a version difference between the release and
  the commit a file was read at).

Output is sorted JSON: the same source gives the same bytes. The conditional rules a provider
enforces in CustomizeDiff or in its update code are not extracted; they are kept by hand in
``src/gpuplat/conformance/rules/conditional.json``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provider_rules import library, registry
from provider_rules.goeval import Evaluator, Frame, FuncLit, Struct, Unknown
from provider_rules.gosource import SourceTree
from provider_rules.schemas import Collected, framework_schema, sdk_schema

REPO = Path(__file__).resolve().parents[1]
OUT_DIR = REPO / "src" / "gpuplat" / "conformance" / "rules"
_BLOCK = re.compile(r'^\s*(resource|data) "([a-z0-9_]+)"', re.MULTILINE)


def template_types(templates: Path, provider: str) -> set[tuple[str, str]]:
    """(kind, type) of every resource and data block in the templates for one provider."""
    found = set()
    for path in sorted(templates.rglob("*")):
        if path.is_file():
            for kind, type_name in _BLOCK.findall(path.read_text(encoding="utf-8")):
                if type_name.startswith(provider + "_"):
                    found.add((kind, type_name))
    return found


def _schema_of(ev: Evaluator, d: registry.Definition) -> tuple[str, Any]:
    """("sdk" | "framework", the evaluated schema) of one definition."""
    frame = Frame(d.package, d.file)
    if d.style == "sdk-expr":
        return "sdk", _resource_schema(ev, ev.expr(d.node, frame))
    if d.style == "sdk-func":
        if d.decl is None:
            return "sdk", Unknown("annotated function not found")
        return "sdk", _resource_schema(ev, ev.call(d.decl, []))
    if d.style == "typed":
        method = d.package.methods.get((d.receiver, "Arguments"))
        if method is None:
            return "sdk", Unknown(f"{d.receiver}.Arguments not found")
        return "sdk", ev.call(method, [], receiver=Struct(d.receiver))
    receiver = d.receiver
    if d.style == "framework-factory":
        made = ev.call(d.decl, [Unknown("ctx")]) if d.decl else Unknown("factory not found")
        if not isinstance(made, Struct):
            return "framework", Unknown(f"factory result: {getattr(made, 'reason', made)}")
        receiver = made.type.rsplit(".", 1)[-1]
    method = d.package.methods.get((receiver, "Schema"))
    if method is None:
        return "framework", Unknown(f"{receiver}.Schema not found")
    response = Struct("SchemaResponse")
    ev.call(method, [Unknown("ctx"), Struct("SchemaRequest"), response], receiver=Struct(receiver))
    return "framework", response.fields.get("Schema", Unknown("Schema method set no schema"))


def _resource_schema(ev: Evaluator, resource: Any) -> Any:
    if not isinstance(resource, Struct):
        return resource
    schema = resource.fields.get("Schema")
    if schema is None and isinstance(resource.fields.get("SchemaFunc"), FuncLit):
        schema = ev.call_literal(resource.fields["SchemaFunc"])
    if schema is None:
        return Unknown("resource has neither Schema nor SchemaFunc")
    return schema


def _config_validators(ev: Evaluator, d: registry.Definition, out: Collected) -> None:
    method = d.package.methods.get((d.receiver, "ConfigValidators"))
    if method is None:
        return
    result = ev.call(method, [Unknown("ctx")], receiver=Struct(d.receiver))
    for value in result if isinstance(result, list) else [result]:
        spec = getattr(value, "spec", None)
        if isinstance(spec, dict) and spec.get("check", "").startswith("resource:"):
            paths = sorted(".".join(p) for p in spec["paths"])
            check = {"resource:Conflicting": "conflicts_with",
                     "resource:ExactlyOneOf": "exactly_one_of",
                     "resource:AtLeastOneOf": "at_least_one_of",
                     "resource:RequiredTogether": "required_together"}[spec["check"]]  # fmt: skip
            out.rules.append({"path": "", "check": check, "paths": paths,
                              **out.where(Struct("", {}, method.file, method.line))})  # fmt: skip
        else:
            out.missing("(resource)", "a config validator that is not a path rule", None,
                        method.file, method.line)  # fmt: skip


def _sort(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    unique = {json.dumps(i, sort_keys=True): i for i in items}
    return [unique[k] for k in sorted(unique)]


def _registered(tree: SourceTree, wanted: set[tuple[str, str]],
                registrations: list[str]) -> dict[tuple[str, str], registry.Definition]:  # fmt: skip
    """``kind.type=path/file.go:Function`` registrations of types whose files predate the
    provider's annotations (the provider then listed them in its own registration map)."""
    out = {}
    for item in registrations:
        ident, _, where = item.partition("=")
        kind, _, type_name = ident.partition(".")
        rel, _, func = where.partition(":")
        path = tree.root / rel
        pkg = tree.package(path.parent)
        decl = pkg.funcs.get(func) if pkg is not None else None
        if pkg is None or decl is None or (kind, type_name) not in wanted:
            raise SystemExit(f"--register {item}: no function {func} in {rel}, or not wanted")
        out[(kind, type_name)] = registry.Definition(kind, type_name, "sdk-func", pkg, path,
                                                     decl=decl)  # fmt: skip
    return out


def _excluded(types: dict[str, Any], exclusions: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Remove the rules a referee showed the release does not enforce; list them with why."""
    out = []
    for item in exclusions:
        entry = types.get(item["type"], {"rules": []})
        keep = []
        for rule in entry["rules"]:
            if rule["path"] == item["path"] and rule["check"] == item["check"]:
                out.append({"type": item["type"], "rule": rule, "reason": item["reason"]})
            else:
                keep.append(rule)
        if len(keep) == len(entry["rules"]):
            raise SystemExit(f"--exclude: no {item['check']} rule on {item['type']} {item['path']}")
        entry["rules"] = keep
    return _sort(out)


def extract(source: Path, provider: str, wanted: set[tuple[str, str]],
            file_commits: dict[str, str], registrations: list[str] | None = None,
            exclusions: list[dict[str, str]] | None = None,
            modules: dict[str, Path] | None = None) -> dict[str, Any]:  # fmt: skip
    """The rules document of one source tree (without the header)."""
    tree = SourceTree(source, modules)
    ev = Evaluator(tree, library.call, library.CONSTANTS, library.MODELLED)
    found = registry.find(tree, provider, wanted)
    found.update(_registered(tree, wanted, registrations or []))
    types: dict[str, Any] = {}
    unresolved: list[dict[str, Any]] = []
    for kind, type_name in sorted(wanted):
        d = found.get((kind, type_name))
        if d is None:
            continue
        out = Collected(source)
        style, schema = _schema_of(ev, d)
        if style == "sdk":
            sdk_schema(ev, out, schema)
        else:
            framework_schema(ev, out, schema)
            _config_validators(ev, d, out)
        rel = d.file.relative_to(source).as_posix()
        entry: dict[str, Any] = {"file": rel, "rules": _sort(out.rules)}
        if rel in file_commits:
            entry["commit"] = file_commits[rel]
        types[f"{kind}.{type_name}"] = entry
        unresolved.extend({"type": f"{kind}.{type_name}", **u} for u in out.unresolved)
    excluded = _excluded(types, exclusions or [])
    return {
        "types": types,
        **({"excluded": excluded} if excluded else {}),
        "unresolved": _sort(unresolved),
        "not_found": sorted(f"{k}.{t}" for k, t in wanted if (k, t) not in found),
    }


def _export(git_dir: Path, tag: str, into: Path, paths: list[str]) -> str:
    archive = subprocess.run(
        ["git", "-C", str(git_dir), "archive", tag, *paths], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "x", "-C", str(into)], input=archive, check=True)
    return subprocess.run(
        ["git", "-C", str(git_dir), "rev-list", "-n", "1", tag],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip


def _modules(specs: list[str], into: Path) -> tuple[dict[str, Path], dict[str, Any]]:
    """``--go-module PATH=GITDIR@TAG`` (exported here) or ``PATH=DIR``: where another Go
    module's packages are, and their provenance."""
    dirs: dict[str, Path] = {}
    record: dict[str, Any] = {}
    for index, spec in enumerate(specs):
        module, _, where = spec.partition("=")
        location, _, tag = where.partition("@")
        if tag:
            target = into / f"module-{index}"
            target.mkdir()
            commit = _export(Path(location), tag, target, [])
            dirs[module] = target
            record[module] = {"tag": tag, "commit": commit}
        else:
            dirs[module] = Path(location)
            record[module] = {"directory": location}
    return dirs, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--provider", required=True, help="local name: google, aws, azurerm, ...")
    parser.add_argument("--version", required=True, help="the provider release, e.g. 4.79.0")
    parser.add_argument("--repository", required=True, help="owner/name of the source repository")
    parser.add_argument("--tag", required=True)
    parser.add_argument("--source", type=Path, help="a checked-out source tree")
    parser.add_argument("--git", type=Path, help="a git directory to export --tag from")
    parser.add_argument(
        "--paths", nargs="*", default=[], help="with --git: export only these paths (go.mod, ...)"
    )
    parser.add_argument("--commit", help="the tag's commit (found from --git when given)")
    parser.add_argument("--file-commits", type=Path, help="JSON {path: commit} of files read")
    parser.add_argument("--note", help="a sentence on how the source was obtained")
    parser.add_argument(
        "--register", action="append", default=[],
        help="kind.type=path/file.go:Function for a type whose file has no annotation",
    )  # fmt: skip
    parser.add_argument(
        "--go-module", action="append", default=[],
        help="MODULE=GITDIR@TAG or MODULE=DIR: another Go module the schemas use (k8s.io/api)",
    )  # fmt: skip
    parser.add_argument(
        "--exclude", type=Path,
        help="JSON [{type, path, check, reason}]: rules a referee showed this release lacks",
    )  # fmt: skip
    parser.add_argument("--templates", type=Path, default=REPO / "templates")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    wanted = template_types(args.templates, args.provider)
    file_commits = json.loads(args.file_commits.read_text()) if args.file_commits else {}
    with tempfile.TemporaryDirectory(prefix="provider-rules-") as tmp:
        commit = args.commit or ""
        source = args.source
        modules, module_record = _modules(args.go_module, Path(tmp))
        if args.git is not None:
            source = Path(tmp) / "source"
            source.mkdir()
            commit = _export(args.git, args.tag, source, args.paths)
        if source is None:
            parser.error("give --source or --git")
        exclusions = json.loads(args.exclude.read_text()) if args.exclude else []
        body = extract(
            source, args.provider, wanted, file_commits, args.register, exclusions, modules
        )
    doc = {
        "format": 1,
        "provider": args.provider,
        "version": args.version,
        "source": {
            "repository": args.repository,
            "tag": args.tag,
            "commit": commit,
            **({"file_commits": file_commits} if file_commits else {}),
            **({"go_modules": module_record} if module_record else {}),
        },
        "extracted_by": "scripts/extract_provider_rules.py",
        **({"note": args.note} if args.note else {}),
        **body,
    }
    out = args.out or OUT_DIR / f"{args.provider}-{args.version}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    rules = sum(len(t["rules"]) for t in body["types"].values())
    print(
        f"{out.relative_to(REPO) if out.is_relative_to(REPO) else out}: {len(body['types'])} types, "
        f"{rules} rules, {len(body['unresolved'])} unresolved, {len(body['not_found'])} not found",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
