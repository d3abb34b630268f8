"""The trimmed provider schemas vendored in the package: complete, canonical and real.

``scripts/trim_schemas.py`` (``make vendored-schemas``) writes them from full
``terraform providers schema -json`` files. The aws file is compared here with a trim of the real
provider's own schema (from the filesystem mirror, like every aws test). The other providers'
full files are not part of the repository; where they are on the machine
(``$GPUPLAT_PROVIDER_SCHEMAS`` or ``../shared/provider-schemas``) their comparison runs too, and
elsewhere it is not collected, because nothing could be compared.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from gpuplat.conformance import load_schemas
from gpuplat.conformance.files import BUNDLED
from gpuplat.conformance.schema import Kind, ProviderSchemas
from tests.conformance.test_checker import aws_schema  # noqa: F401  (a session fixture)
from tests.support.realparts import REPO


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "trim_schemas", REPO / "scripts" / "trim_schemas.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["trim_schemas"] = module  # dataclasses and the like look themselves up here
    spec.loader.exec_module(module)
    return module


trim_schemas = _script()


def not_vendored(templates: Path, schemas: ProviderSchemas) -> list[str]:
    """``kind type (file:line)`` for every template type the schemas do not fully hold."""
    out = []
    for (kind, type_name), places in sorted(trim_schemas.template_types(templates).items()):
        hit = schemas.lookup(kind, type_name)
        if hit is None:
            out.append(f"{kind} {type_name} ({places[0]})")
    return out


def test_every_template_type_is_in_the_vendored_schemas() -> None:
    missing = not_vendored(REPO / "templates", load_schemas(BUNDLED))
    assert not missing, (
        "templates use types whose schemas are not vendored: "
        + "; ".join(missing)
        + ". Run `make vendored-schemas` and commit src/gpuplat/conformance/schemas/."
    )


def test_the_template_scan_finds_a_new_type(tmp_path: Path) -> None:
    (tmp_path / "modules" / "net").mkdir(parents=True)
    (tmp_path / "modules" / "net" / "main.tf.j2").write_text(
        '# resource "google_not_a_block" "x" {}\n'
        'resource "google_compute_route" "this" {\n  name = "{{ name }}"\n}\n\n'
        '  data "google_container_cluster" "c" {\n  }\n',
        encoding="utf-8",
    )
    found = trim_schemas.template_types(tmp_path)
    where = f"{tmp_path}/modules/net/main.tf.j2"
    assert found == {
        ("resource", "google_compute_route"): [f"{where}:2"],
        ("data", "google_container_cluster"): [f"{where}:6"],
    }
    # google_compute_route is real but not vendored: the check names it.
    assert not_vendored(tmp_path, load_schemas(BUNDLED)) == [
        f"resource google_compute_route ({where}:2)"
    ]


def test_extra_types_are_vendored() -> None:
    schemas = load_schemas(BUNDLED)
    for kind, type_name in sorted(trim_schemas.EXTRA):
        assert schemas.lookup(kind, type_name) is not None, type_name


def test_vendored_files_are_canonical_small_and_named_by_version() -> None:
    files = sorted(BUNDLED.glob("*.json"))
    assert [f.name for f in files] == [
        f"{name}-{version}.json" for name, version in sorted(trim_schemas.VERSIONS.items())
    ]
    total = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        doc = json.loads(text)
        assert trim_schemas.dumps(doc) == text, f"{path.name} was edited by hand"
        ((address, entry),) = doc["provider_schemas"].items()
        name, version = path.stem.split("-", 1)
        assert (address, entry["version"]) == (f"registry.terraform.io/hashicorp/{name}", version)
        omitted = doc[trim_schemas.TRIMMED_KEY]["omitted"][address]
        for key in trim_schemas.KIND_KEYS.values():
            assert not set(omitted[key]) & set(entry[key]), f"{path.name} {key}"
        total += len(text.encode("utf-8"))
    assert total < 1024 * 1024, f"the vendored schemas grew to {total:,} bytes"


def test_trim_keeps_attributes_named_description_and_drops_description_texts() -> None:
    block = {
        "description": "A service account.",
        "description_kind": "plain",
        "attributes": {
            "description": {"type": "string", "optional": True, "description": "Free text."},
            "name": {"type": "string", "required": True},
        },
    }
    doc = {
        "format_version": "1.0",
        "provider_schemas": {
            "registry.terraform.io/hashicorp/google": {
                "resource_schemas": {"google_a": {"version": 0, "block": block}, "google_b": {}},
                "data_source_schemas": {"google_c": {}},
            }
        },
    }
    wanted = {("resource", "google_a"): ["t:1"]}
    out = trim_schemas.trim(doc, "google", "6.50.0", wanted)
    entry = out["provider_schemas"]["registry.terraform.io/hashicorp/google"]
    assert entry["resource_schemas"] == {
        "google_a": {
            "version": 0,
            "block": {
                "description_kind": "plain",
                "attributes": {
                    "description": {"type": "string", "optional": True},
                    "name": {"type": "string", "required": True},
                },
            },
        }
    }
    assert entry["data_source_schemas"] == {} and entry["version"] == "6.50.0"
    assert out[trim_schemas.TRIMMED_KEY]["omitted"]["registry.terraform.io/hashicorp/google"] == {
        "resource_schemas": ["google_b"],
        "data_source_schemas": ["google_c"],
        "ephemeral_resource_schemas": [],
    }
    with pytest.raises(trim_schemas.TrimError, match=r"resource 'google_z' \(t:9\) is not in"):
        trim_schemas.trim(doc, "google", "6.50.0", {("resource", "google_z"): ["t:9"]})


@pytest.mark.terraform
def test_vendored_aws_is_the_trim_of_the_real_provider(aws_schema: Path) -> None:  # noqa: F811
    vendored = (BUNDLED / "aws-5.100.0.json").read_text(encoding="utf-8")
    assert trim_schemas.trim_file(aws_schema, "aws") == vendored, "run `make vendored-schemas`"
    # And what the checker reads from it is the real schema, less descriptions.
    full = load_schemas(BUNDLED, [aws_schema])
    trimmed = load_schemas(BUNDLED)
    kinds: dict[str, Kind] = {"resource_schemas": "resource", "data_source_schemas": "data"}
    doc = json.loads(vendored)
    entry = doc["provider_schemas"]["registry.terraform.io/hashicorp/aws"]
    for key, kind in kinds.items():
        for type_name in entry[key]:
            assert trimmed.lookup(kind, type_name) == full.lookup(kind, type_name), type_name
    assert trimmed.provider_config("aws") == full.provider_config("aws")


def _full_sources() -> dict[str, Path]:
    dirs = [Path(d) for d in [os.environ.get("GPUPLAT_PROVIDER_SCHEMAS", "")] if d]
    dirs.append(REPO.parent / "shared" / "provider-schemas")
    found = {}
    for name, version in trim_schemas.VERSIONS.items():
        for directory in dirs:
            path = directory / f"{name}-{version}.json"
            if (
                path.is_file()
                and trim_schemas.TRIMMED_KEY not in path.read_text(encoding="utf-8")[:4096]
            ):
                found.setdefault(name, path)
    found.pop("aws", None)  # compared with the real provider above
    return found


FULL = _full_sources()

if FULL:

    @pytest.mark.parametrize("name", sorted(FULL))
    def test_vendored_file_is_the_trim_of_the_full_schema(name: str) -> None:
        vendored = (BUNDLED / f"{name}-{trim_schemas.VERSIONS[name]}.json").read_text(
            encoding="utf-8"
        )
        assert trim_schemas.trim_file(FULL[name], name) == vendored, "run `make vendored-schemas`"
