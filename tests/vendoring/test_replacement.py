"""The table of arguments that force a replacement, against the real providers.

Provider schemas do not mark those arguments, so the table is read from the providers' source.
What can be checked here is checked: every path names a real argument of the real schema
(aws 5.100.0 from the mirror through `terraform providers schema -json`; google 6.50.0 from
the shared schemas), every argument gpuplat's own modules set on a listed resource type is
classified, and the real aws provider, planning on moto, replaces or updates in place exactly
where the table says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplat.releases.lock import module_lock
from gpuplat.releases.versions import Release, release_files
from gpuplat.vendoring.impact import members
from gpuplat.vendoring.layout import parse
from gpuplat.vendoring.replacement import effect, rules
from tests.conformance.test_checker import aws_schema  # noqa: F401  (a session fixture)
from tests.support.realparts import provider_schema_dir

pytestmark = pytest.mark.terraform


def aws_provider(schema_file: Path) -> dict[str, object]:
    """The aws 5.100.0 part of ``terraform providers schema -json`` (made once per session)."""
    data: dict[str, object] = json.loads(schema_file.read_text(encoding="utf-8"))[
        "provider_schemas"
    ]["registry.terraform.io/hashicorp/aws"]
    return data


def schema_for(resource_type: str, aws: dict[str, object]) -> dict[str, object]:
    if resource_type.startswith("aws_"):
        provider = aws
    else:
        data = json.loads((provider_schema_dir() / "google-6.50.0.json").read_text())
        provider = data["provider_schemas"]["registry.terraform.io/hashicorp/google"]
    block = provider["resource_schemas"][resource_type]["block"]  # type: ignore[index]
    assert isinstance(block, dict)
    return block


def has_path(block: dict[str, object], path: str) -> bool:
    head, _, rest = path.partition(".")
    attributes = block.get("attributes", {})
    blocks = block.get("block_types", {})
    assert isinstance(attributes, dict) and isinstance(blocks, dict)
    if not rest:
        return head in attributes or head in blocks or head == "timeouts"
    return head in blocks and has_path(blocks[head]["block"], rest)


def test_every_path_is_a_real_argument_of_the_real_schema(aws_schema: Path) -> None:  # noqa: F811
    aws = aws_provider(aws_schema)
    for resource_type, table in rules().items():
        block = schema_for(resource_type, aws)
        for path in sorted(table.replace | table.update):
            assert has_path(block, path), f"{resource_type}: {path} is not in the provider schema"
        assert not table.replace & table.update


def _set_paths(node: object, prefix: str = "") -> list[str]:
    out = []
    for key, child, is_block in members(node):
        path = f"{prefix}{key.split('#')[0]}"
        out += _set_paths(child, path + ".") if is_block else [path]
    return out


def test_every_argument_gpuplat_sets_on_a_listed_resource_is_classified() -> None:
    unknown = set()
    for name, versions in module_lock().items():
        for version in versions:
            for file, text in release_files(Release(name, version)).items():
                if not file.endswith(".tf"):
                    continue
                for item in parse(text)[1]:
                    if item.type != "resource" or item.labels[0] not in rules():
                        continue
                    for path in _set_paths(item.node):
                        if path.split(".")[0] in ("count", "for_each", "lifecycle", "depends_on"):
                            continue
                        if effect(item.labels[0], path) == "unknown":
                            unknown.add(f"{name} {version} {item.labels[0]}: {path}")
    # Named here so that a module change which sets a new argument shows up in review.
    assert sorted(unknown) == [
        f"gke-cluster {v} google_container_node_pool: node_config.{a}"
        for v in ("1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0", "1.7.0")
        for a in ("workload_metadata_config.mode",)
    ] + [
        f"gke-gpu-node-pool {v} google_container_node_pool: node_config.{a}"
        for v in ("1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0")
        for a in ("flex_start", "max_run_duration", "workload_metadata_config.mode")
    ]
