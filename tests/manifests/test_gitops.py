"""GitOps layouts of `render --manifests`: a kustomization per environment and cluster, and
the Argo CD / Flux objects pointing at each folder.

The plain Kubernetes objects are validated strictly (kubernetes-validate, 1.34). The Argo CD
and Flux objects are checked field by field against what their controllers need (their CRD
schemas are not vendored here), and every path they name must be a folder of the tree with
a kustomization that lists exactly its files.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuplat.errors import ExitCode
from tests.manifests.test_manifests import validate_tree
from tests.support.cli import run
from tests.support.specs import project

URL = "https://git.example.com/acme/platform.git"
GITOPS_KINDS = {"Application", "ApplicationSet", "GitRepository", "Kustomization"}


def docs(path: Path) -> list[dict[str, object]]:
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]


def laid_out(tmp_path: Path, layout: str, *extra: str) -> tuple[Path, Path]:
    folder = project(tmp_path / "p", example="eks-l4-vllm")
    out = folder / "deploy" / "k8s"
    result = run(
        "render", "--manifests", out, "--layout", layout, "--repo-url", URL, *extra, cwd=folder
    )
    assert result.exit_code == 0, result.stderr
    return folder, out


def check_kustomizations(out: Path) -> list[str]:
    """Each env/cluster folder's kustomization lists exactly its manifests; returns them."""
    folders = sorted(p.parent for p in out.glob("*/*/kustomization.yaml"))
    assert [f.relative_to(out).as_posix() for f in folders] == [
        "dev/inference-use1",
        "prod/inference-use1",
    ]
    for folder in folders:
        (k,) = docs(folder / "kustomization.yaml")
        assert k["apiVersion"] == "kustomize.config.k8s.io/v1beta1" and k["kind"] == "Kustomization"
        files = sorted(
            p.relative_to(folder).as_posix()
            for p in folder.rglob("*.yaml")
            if p.name != "kustomization.yaml"
        )
        assert k["resources"] == files and files
    return [f.relative_to(out).as_posix() for f in folders]


def test_argocd_layout(tmp_path: Path) -> None:
    _, out = laid_out(tmp_path, "argocd", "--revision", "v1.4.0")
    folders = check_kustomizations(out)
    validated, _ = validate_tree_without(out, GITOPS_KINDS)
    assert validated >= 10
    (appset,) = docs(out / "argocd" / "applicationset.yaml")
    assert appset["apiVersion"] == "argoproj.io/v1alpha1" and appset["kind"] == "ApplicationSet"
    spec = appset["spec"]
    assert isinstance(spec, dict)
    elements = spec["generators"][0]["list"]["elements"]
    assert [e["path"] for e in elements] == [f"deploy/k8s/{f}" for f in folders]
    template = spec["template"]["spec"]
    assert template["source"] == {"repoURL": URL, "targetRevision": "v1.4.0", "path": "{{.path}}"}
    assert template["destination"] == {"name": "{{.env}}-{{.cluster}}"}
    assert spec["goTemplate"] is True
    apps = sorted((out / "argocd" / "applications").glob("*.yaml"))
    assert [a.name for a in apps] == ["dev-inference-use1.yaml", "prod-inference-use1.yaml"]
    for path, folder in zip(apps, folders, strict=True):
        (app,) = docs(path)
        assert app["kind"] == "Application"
        assert app["spec"]["source"] == {  # type: ignore[index]
            "repoURL": URL,
            "targetRevision": "v1.4.0",
            "path": f"deploy/k8s/{folder}",
        }
        assert app["spec"]["destination"] == {"name": folder.replace("/", "-")}  # type: ignore[index]
        assert app["metadata"]["namespace"] == "argocd"  # type: ignore[index]
    assert "&id" not in (out / "argocd" / "applicationset.yaml").read_text()  # no YAML aliases


@pytest.mark.parametrize(
    ("revision", "ref"),
    [
        ("main", {"branch": "main"}),
        ("refs/tags/v1.4.0", {"name": "refs/tags/v1.4.0"}),
        # A release tag: as ref.branch Flux never resolves it.
        ("v1.4.0", {"tag": "v1.4.0"}),
        ("2.0.0-rc.1", {"tag": "2.0.0-rc.1"}),
        ("release-1.4", {"branch": "release-1.4"}),
        (
            "0123456789abcdef0123456789abcdef01234567",
            {"commit": "0123456789abcdef0123456789abcdef01234567"},
        ),
    ],
)
def test_flux_layout(revision: str, ref: dict[str, str], tmp_path: Path) -> None:
    _, out = laid_out(tmp_path, "flux", "--revision", revision, "--repo-path", "clusters/k8s")
    folders = check_kustomizations(out)
    validate_tree_without(out, GITOPS_KINDS)
    for folder in folders:
        name = folder.replace("/", "-")
        repo, kustomization = docs(out / "flux" / f"{name}.yaml")
        assert (
            repo["apiVersion"] == "source.toolkit.fluxcd.io/v1" and repo["kind"] == "GitRepository"
        )
        assert repo["spec"] == {"interval": "5m", "url": URL, "ref": ref}
        assert kustomization["apiVersion"] == "kustomize.toolkit.fluxcd.io/v1"
        spec = kustomization["spec"]
        assert isinstance(spec, dict)
        assert spec["path"] == f"./clusters/k8s/{folder}"
        assert spec["sourceRef"] == {"kind": "GitRepository", "name": f"gpuplat-{name}"}
        assert spec["prune"] is True and spec["interval"]


def validate_tree_without(out: Path, kinds: set[str]) -> tuple[int, list[str]]:
    """kubernetes-validate on every plain object, outside the GitOps folders and kinds."""
    plain = out.parent / "plain-only"
    for path in out.rglob("*.yaml"):
        rel = path.relative_to(out)
        if rel.parts[0] in ("argocd", "flux") or path.name == "kustomization.yaml":
            continue
        assert not {d["kind"] for d in docs(path)} & kinds
        target = plain / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return validate_tree(plain)


def test_a_gitops_layout_needs_a_repository(tmp_path: Path) -> None:
    folder = project(tmp_path / "p", example="eks-l4-vllm")
    result = run("render", "--manifests", folder / "k8s", "--layout", "flux", cwd=folder)
    assert result.exit_code == ExitCode.ERROR
    assert "--layout flux needs --manifests DIR and --repo-url URL" in result.stderr
    assert not (folder / "k8s").exists()
    outside = run(
        "render",
        "--manifests",
        tmp_path / "elsewhere",
        "--layout",
        "argocd",
        "--repo-url",
        URL,
        cwd=folder,
    )
    assert outside.exit_code == ExitCode.ERROR
    assert "is outside the project" in outside.stderr
