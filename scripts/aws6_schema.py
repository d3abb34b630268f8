"""Write the aws 6.x schema of the types gpuplat's templates use, from cdktf's prebuilt bindings.

    npm pack @cdktf/provider-aws@21.22.1      # aws 6.25.0 (package.json: cdktf.provider)
    tar xzf cdktf-provider-aws-21.22.1.tgz package/.jsii package/package.json
    python scripts/aws6_schema.py package/    # writes tests/data/provider-schemas/aws-<v>.json

Only hashicorp/aws 5.100.0 is in the filesystem mirror here, so ``terraform providers schema``
cannot be run for 6.x. The cdktf bindings are generated from that command's output: every
resource and data source has a ``...Config`` interface whose properties are the arguments
(required unless optional) and whose struct-typed properties are nested blocks, each linking to
its Terraform name. This script turns those interfaces back into a ``providers schema -json``
shaped file, arguments only (computed-only attributes are not in the Config interfaces, and the
conformance checker reports setting one as unknown either way), for the types in the vendored
aws schema. Nesting is a list (max 1 where cdktf makes the block a single struct); sets and
list lengths are not recorded, so the checker does not count blocks of this schema.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
VENDORED = REPO / "src" / "gpuplat" / "conformance" / "schemas"
OUT = REPO / "tests" / "data" / "provider-schemas"
SOURCE = "registry.terraform.io/hashicorp/aws"
_LINK = re.compile(r"#([a-z0-9_]+) ")


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _struct(ty: dict[str, Any]) -> tuple[str | None, bool]:
    """(struct fqn, is a list) of a property type, or (None, False) for a primitive."""
    if "fqn" in ty:
        return (None if ty["fqn"].startswith("cdktf.") else ty["fqn"]), False
    if "collection" in ty:
        inner, _ = _struct(ty["collection"]["elementtype"])
        return inner, ty["collection"]["kind"] == "array" and inner is not None
    if "union" in ty:
        for option in ty["union"]["types"]:
            inner, many = _struct(option)
            if inner is not None:
                return inner, many or True
    return None, False


def _block(types: dict[str, Any], fqn: str) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    blocks: dict[str, Any] = {}
    for prop in types[fqn].get("properties", []):
        docs = prop["docs"].get("summary", "") + " " + prop["docs"].get("remarks", "")
        found = _LINK.search(docs)
        name = found.group(1) if found else prop["name"]
        required = not prop.get("optional")
        struct, many = _struct(prop["type"])
        if struct is None:
            attributes[name] = {"type": "dynamic", "required" if required else "optional": True}
            continue
        nested: dict[str, Any] = {"nesting_mode": "list", "block": _block(types, struct)}
        if not many:
            nested["max_items"] = 1
        if required:
            nested["min_items"] = 1
        blocks[name] = nested
    return {"attributes": attributes, "block_types": blocks}


def config_fqn(types: dict[str, Any], kind: str, name: str) -> str | None:
    base = name.removeprefix("aws_")
    module = re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), base)
    cls = _camel(base)
    if kind == "data":
        module, cls = "dataAws" + _camel(base), "DataAws" + _camel(base)
    for candidate in (f"{cls}Config", f"{cls}AConfig"):  # cdktf renames clashing classes
        fqn = f"@cdktf/provider-aws.{module}.{candidate}"
        if fqn in types:
            return fqn
    return None


def main(package: Path) -> int:
    version = json.loads((package / "package.json").read_text())["cdktf"]["provider"]["version"]
    types = json.loads((package / ".jsii").read_text())["types"]
    vendored = json.loads(next(VENDORED.glob("aws-*.json")).read_text())
    wanted = vendored["provider_schemas"][SOURCE]
    out: dict[str, Any] = {"resource_schemas": {}, "data_source_schemas": {}}
    for kind, key in (("resource", "resource_schemas"), ("data", "data_source_schemas")):
        for name in sorted(wanted.get(key, {})):
            fqn = config_fqn(types, kind, name)
            if fqn is None:
                print(f"{kind} {name}: not in aws {version}", file=sys.stderr)
                continue
            out[key][name] = {"version": 0, "block": _block(types, fqn)}
    out["version"] = version
    doc = {"format_version": "1.0", "provider_schemas": {SOURCE: out}}
    OUT.mkdir(parents=True, exist_ok=True)
    target = OUT / f"aws-{version}.json"
    target.write_text(json.dumps(doc, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"wrote {target.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "package")))
