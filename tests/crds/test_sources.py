"""The vendored CRDs and documented rules: where each came from, that the chart pins and the
vendored CRDs move together, and that every custom resource gpuplat renders has a CRD."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
import yaml

from gpuplat import catalog, crds
from gpuplat.app.init import list_examples
from gpuplat.crds import cel
from tests.support.cli import run
from tests.support.specs import GKE_LADDER_PATCH, project

DATA = resources.files("gpuplat.crds").joinpath("data")
SOURCES = yaml.safe_load(DATA.joinpath("sources.yaml").read_text(encoding="utf-8"))["crds"]
REPO = Path(__file__).resolve().parents[2]
MIRRORS = Path(os.environ.get("GPUPLAT_UPSTREAM_MIRRORS", "/work/.mirror"))


@pytest.mark.parametrize("entry", SOURCES, ids=[e["file"] for e in SOURCES])
def test_each_vendored_crd_names_its_source(entry: dict[str, str]) -> None:
    doc = json.loads(DATA.joinpath(entry["file"]).read_text(encoding="utf-8"))
    assert doc["source"] == {k: v for k, v in entry.items() if k != "file"}
    assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"])
    assert entry["repository"].startswith("https://github.com/")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry["read"])
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry["committed"])
    # The folder is the CRD's name: <plural>.<group>.
    assert entry["file"].split("/")[0].endswith(f".{doc['group']}")
    assert doc["versions"], "no served version"
    for schema in doc["versions"].values():
        assert schema.get("type") == "object"
        assert not _texts(schema), "vendor_crds.py drops the documentation texts"


def _texts(node: object) -> list[str]:
    """``description`` texts left in a schema (a property of that name is not one)."""
    if isinstance(node, dict):
        found = [v for k, v in node.items() if k == "description" and isinstance(v, str)]
        return found + [t for v in node.values() for t in _texts(v)]
    if isinstance(node, list):
        return [t for v in node for t in _texts(v)]
    return []


def test_chart_pins_and_vendored_crds_move_together() -> None:
    """A chart pin that moves without its CRD re-vendored (or a stated gap) fails here."""
    pins = {pin.chart: pin for pin in catalog.charts()}
    charted = [e for e in SOURCES if "chart" in e]
    assert {e["chart"] for e in charted} == {
        "keda",
        "keda-add-ons-http",
        "kube-prometheus-stack",
        "kueue",
        "lws",
        "network-operator",
    }
    for entry in charted:
        pin = pins[entry["chart"]]
        assert entry["pin"] == pin.version, f"{entry['file']}: pinned {pin.version} now"
        vendored = entry["release"].rsplit(" ", 1)[-1]
        assert vendored == pin.version or entry.get("gap"), (
            f"{entry['file']} is {vendored}, the pin {pin.version}: re-vendor, or say why not"
        )


def test_documented_rules_compile_and_name_their_source() -> None:
    kinds = {(d.group, d.kind) for d in crds.definitions()}
    for rule in crds.documented():
        assert rule.kind == "*" or (rule.group, rule.kind) in kinds, rule.id
        assert rule.source.where.startswith("https://"), rule.id
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", rule.source.read), rule.id
        compiled = cel.Rule(rule.path, rule.rule, rule.message)
        assert not compiled.extensions, f"{rule.id} calls what cel-python lacks"
        assert not compiled.transition


def _rendered_kinds(tmp_path: Path) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    variants = [(name, ()) for name, _ in list_examples()] + [("gke-l4-vllm", GKE_LADDER_PATCH)]
    for index, (example, patches) in enumerate(variants):
        folder = project(tmp_path / str(index), patches, example=example)
        for layout in ("argocd", "flux"):
            out = folder / f"k8s-{layout}"
            done = run(
                "render",
                "--manifests",
                out,
                "--layout",
                layout,
                "--repo-url",
                "https://example.com/p.git",
                cwd=folder,
            )
            assert done.exit_code == 0, done.stderr
            for path in out.rglob("*.yaml"):
                for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
                    if isinstance(doc, dict) and "apiVersion" in doc:
                        found.add((doc["apiVersion"], doc["kind"]))
    for path in (REPO / "templates").rglob("*.j2"):
        text = path.read_text(encoding="utf-8")
        for api, kind in re.findall(r'apiVersion = "([^"]+)"\n\s+kind\s+= "([^"]+)"', text):
            found.add((api, kind))
    return found


def test_every_custom_resource_gpuplat_renders_has_a_vendored_crd(tmp_path: Path) -> None:
    rendered = _rendered_kinds(tmp_path)
    custom = {(api, kind) for api, kind in rendered if crds.is_custom(api)}
    assert {kind for _, kind in custom} >= {"ComputeClass", "ScaledObject", "HTTPScaledObject"}
    assert {kind for _, kind in custom} >= {"Application", "ApplicationSet", "GitRepository"}
    missing = sorted(f"{kind} ({api})" for api, kind in custom if not crds.lookup(api, kind))
    assert missing == [], "vendor their CRDs (src/gpuplat/crds/data/sources.yaml)"


def _mirrors_missing() -> list[str]:
    names = {e["repository"].removeprefix("https://github.com/").replace("/", "+") for e in SOURCES}
    return sorted(n for n in names if not (MIRRORS / n / "repo").is_dir())


@pytest.mark.upstream
def test_vendored_files_match_their_sources() -> None:
    """Re-extracted from the git copies, the vendored files come out byte for byte.

    Needs a bare git copy of every source repository (``$GPUPLAT_UPSTREAM_MIRRORS/<owner>+<name>/
    repo``), which a clone of gpuplat does not have: `make upstream-check` runs it, `make test`
    leaves it out (marker ``upstream``).
    """
    absent = _mirrors_missing()
    assert not absent, f"no git copy of {', '.join(absent)} under {MIRRORS}"
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "vendor_crds.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
