"""GitOps layouts of the plain manifests: a kustomization per environment and cluster, and
the Argo CD or Flux objects that apply each folder to its cluster.

Only the layout lives here: the objects' content comes from ``manifests.objects`` as it is. The
repository URL, the revision and the folder's path in the repository are parameters; each
environment's cluster is addressed as ``<env>-<cluster>`` (the name it is registered under in
Argo CD, or the Flux instance running in it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import yaml

Layout = Literal["plain", "argocd", "flux"]
LAYOUTS: tuple[Layout, ...] = ("plain", "argocd", "flux")
MANAGED = {"app.kubernetes.io/managed-by": "gpuplat"}
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_VERSION_TAG = re.compile(r"v?[0-9]+(\.[0-9]+)+([-+][0-9A-Za-z.+-]+)?")


@dataclass(frozen=True)
class Source:
    """Where the GitOps controller finds the manifests."""

    repo_url: str
    revision: str
    path: str
    """The manifests folder, relative to the repository's root."""


class _Dumper(yaml.SafeDumper):
    """Plain YAML: a value used twice is written twice, never as an anchor and an alias."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def _dump(*docs: object) -> str:
    return "---\n".join(yaml.dump(d, Dumper=_Dumper, sort_keys=False, width=1000) for d in docs)


def targets(files: Mapping[str, str]) -> list[tuple[str, str]]:
    """The (environment, cluster) folders of a manifests tree, sorted."""
    return sorted({(p.split("/")[0], p.split("/")[1]) for p in files if p.count("/") >= 2})


def kustomizations(files: Mapping[str, str]) -> dict[str, str]:
    """A ``kustomization.yaml`` per environment and cluster listing its manifests."""
    out: dict[str, str] = {}
    for env, cluster in targets(files):
        base = f"{env}/{cluster}/"
        resources = sorted(p[len(base) :] for p in files if p.startswith(base))
        out[f"{base}kustomization.yaml"] = _dump(
            {
                "apiVersion": "kustomize.config.k8s.io/v1beta1",
                "kind": "Kustomization",
                "labels": [{"pairs": MANAGED, "includeSelectors": False}],
                "resources": resources,
            }
        )
    return out


def _argo_source(source: Source, path: str) -> dict[str, object]:
    return {"repoURL": source.repo_url, "targetRevision": source.revision, "path": path}


def argocd(files: Mapping[str, str], source: Source) -> dict[str, str]:
    """One ``ApplicationSet`` for every folder, or the same as one ``Application`` each.

    Apply one of the two: ``argocd/applicationset.yaml`` or ``argocd/applications/``.
    """
    pairs = targets(files)
    meta = {"namespace": "argocd", "labels": MANAGED}
    out: dict[str, str] = {}
    for env, cluster in pairs:
        out[f"argocd/applications/{env}-{cluster}.yaml"] = _dump(
            {
                "apiVersion": "argoproj.io/v1alpha1",
                "kind": "Application",
                "metadata": {"name": f"gpuplat-{env}-{cluster}", **meta},
                "spec": {
                    "project": "default",
                    "source": _argo_source(source, f"{source.path}/{env}/{cluster}"),
                    "destination": {"name": f"{env}-{cluster}"},
                },
            }
        )
    elements = [
        {"env": env, "cluster": cluster, "path": f"{source.path}/{env}/{cluster}"}
        for env, cluster in pairs
    ]
    out["argocd/applicationset.yaml"] = _dump(
        {
            "apiVersion": "argoproj.io/v1alpha1",
            "kind": "ApplicationSet",
            "metadata": {"name": "gpuplat", **meta},
            "spec": {
                "goTemplate": True,
                "goTemplateOptions": ["missingkey=error"],
                "generators": [{"list": {"elements": elements}}],
                "template": {
                    "metadata": {"name": "gpuplat-{{.env}}-{{.cluster}}", "labels": MANAGED},
                    "spec": {
                        "project": "default",
                        "source": _argo_source(source, "{{.path}}"),
                        "destination": {"name": "{{.env}}-{{.cluster}}"},
                    },
                },
            },
        }
    )
    return out


def _git_ref(revision: str) -> dict[str, str]:
    """Flux's ``spec.ref`` for a revision: a full commit SHA (SHA-1 or SHA-256), a full
    reference (``refs/tags/NAME``, ``refs/heads/NAME``), a version tag (``v1.4.0``, ``1.4.0``,
    ``v2.0.0-rc.1``: as a branch it would never resolve), or else a branch. Argo CD's
    ``targetRevision`` takes any of them as it is."""
    if _SHA.fullmatch(revision):
        return {"commit": revision}
    if revision.startswith("refs/"):
        return {"name": revision}
    if _VERSION_TAG.fullmatch(revision):
        return {"tag": revision}
    return {"branch": revision}


def flux(files: Mapping[str, str], source: Source) -> dict[str, str]:
    """Per folder, the ``GitRepository`` and ``Kustomization`` the cluster's Flux applies."""
    out: dict[str, str] = {}
    for env, cluster in targets(files):
        name = f"gpuplat-{env}-{cluster}"
        meta = {"name": name, "namespace": "flux-system", "labels": MANAGED}
        out[f"flux/{env}-{cluster}.yaml"] = _dump(
            {
                "apiVersion": "source.toolkit.fluxcd.io/v1",
                "kind": "GitRepository",
                "metadata": meta,
                "spec": {
                    "interval": "5m",
                    "url": source.repo_url,
                    "ref": _git_ref(source.revision),
                },
            },
            {
                "apiVersion": "kustomize.toolkit.fluxcd.io/v1",
                "kind": "Kustomization",
                "metadata": meta,
                "spec": {
                    "interval": "10m",
                    "path": f"./{source.path}/{env}/{cluster}",
                    "prune": True,
                    "sourceRef": {"kind": "GitRepository", "name": name},
                    # A rollout of a GPU server takes minutes (image pull, weights): wait for it.
                    "wait": True,
                    "timeout": "30m",
                },
            },
        )
    return out


def layout(files: Mapping[str, str], kind: Layout, source: Source | None) -> dict[str, str]:
    """The manifests tree laid out for ``kind`` (``plain``: as it is)."""
    if kind == "plain":
        return dict(files)
    assert source is not None  # the app layer requires a repository for the GitOps layouts
    out = {**files, **kustomizations(files)}
    out.update(argocd(files, source) if kind == "argocd" else flux(files, source))
    return dict(sorted(out.items()))
