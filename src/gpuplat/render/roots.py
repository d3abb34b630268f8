"""Root modules per environment, cluster and stage, and the whole rendered tree as a pure function.

Each cluster has its own roots (and state): one cloud is planned and applied with its own
credentials only, and a failing cloud never blocks the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from gpuplat.hcl.writer import ident, raw
from gpuplat.releases.lock import sha256
from gpuplat.releases.versions import Release, latest, release_files, release_hashes
from gpuplat.render.access import cluster_access, infra_state
from gpuplat.render.backend import backend_block
from gpuplat.render.door import has_door_root, render_door
from gpuplat.render.frontdoor import address_module, door_of, door_view, provider_views
from gpuplat.render.naming import (
    STAGES,
    TERRAFORM_VERSION,
    module_label,
    root_dir,
    to_project,
)
from gpuplat.render.platform import platform_view
from gpuplat.render.serving import ModuleCall, ServerView, server_view
from gpuplat.render.templates import environment
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Cluster
from gpuplat.targets import TARGETS, target
from gpuplat.workload.serving import ServingPlan, serving_plans

PROVIDERS: dict[str, tuple[str, str]] = {
    "helm": ("hashicorp/helm", ">= 3.0, < 4"),
    "kubernetes": ("hashicorp/kubernetes", ">= 2.38, < 4"),
    **{name: pin for t in TARGETS.values() for name, pin in t.providers.items()},
}
"""Source and version constraint of every provider a root may need."""
FILES = ("versions.tf", "backend.tf", "providers.tf", "main.tf", "outputs.tf")


@dataclass
class Rendered:
    """The rendered tree: project-relative path -> text, and which files belong to what."""

    files: dict[str, str] = field(default_factory=dict)
    """Root files: project-relative path -> text."""
    module_hashes: dict[str, str] = field(default_factory=dict)
    """Module files: project-relative path -> sha256 of the released file."""
    env_files: dict[str, list[str]] = field(default_factory=dict)
    cluster_files: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    """(env, cluster) -> the files its plans are computed from (its roots, the modules they call)."""
    roots: dict[str, list[str]] = field(default_factory=dict)
    """env -> its root folders, cluster by cluster, each in stage order, then its workloads'
    front-door roots."""
    modules: dict[str, Release] = field(default_factory=dict)
    """module folder -> the released version it holds."""

    _shas: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    """Root files hashed so far: each is hashed once, for the record and both render hashes."""

    def sha(self, path: str) -> str:
        """sha256 of a rendered file."""
        known = self._shas.get(path)
        if known is not None:
            return known
        if path in self.files:
            known = self._shas[path] = sha256(self.files[path])
            return known
        return self.module_hashes[path]

    def _hash(self, paths: Iterable[str]) -> str:
        return sha256("".join(f"{p}\0{self.sha(p)}\n" for p in sorted(paths)))

    def env_hash(self, env: str) -> str:
        """Hash of everything an environment's plans are computed from."""
        return self._hash(self.env_files[env])

    def cluster_hash(self, env: str, cluster: str) -> str:
        """Hash of everything one cluster's plans in an environment are computed from."""
        return self._hash(self.cluster_files[(env, cluster)])

    def module_texts(self, folder: str) -> dict[str, str]:
        """The files of one module version folder: the released files, checked against the lock.

        Raises:
            StaleError: The shipped folder differs from the lock.
        """
        files = release_files(self.modules[folder])
        return {f"{folder}/{name}": text for name, text in files.items()}


def render(envs: Iterable[EnvSpec]) -> Rendered:
    """Render every stage of every cluster of every environment, and the modules they call.

    Raises:
        StaleError: A module the roots call has no released version.
    """
    out = Rendered()
    for env in envs:
        out.roots[env.name] = []
        for cluster in env.spec.clusters:
            owned: list[str] = []
            for stage in STAGES:
                owned += _add_root(out, env.name, *render_root(env, cluster, stage))
            out.cluster_files[(env.name, cluster.name)] = sorted(set(owned))
        doors: list[str] = []
        for workload in env.spec.workloads:
            if not has_door_root(workload):
                continue
            doors += _add_root(out, env.name, *render_door(env, workload))
        out.env_files[env.name] = sorted(
            {p for (name, _), paths in out.cluster_files.items() if name == env.name for p in paths}
            | set(doors)
        )
    out.files = dict(sorted(out.files.items()))
    return out


def _add_root(
    out: Rendered, env: str, root: str, files: dict[str, str], modules: list[str]
) -> list[str]:
    """Put one rendered root and the released modules it calls into ``out``; the paths added."""
    out.roots[env].append(root)
    owned = []
    for name, text in files.items():
        out.files[f"{root}/{name}"] = text
        owned.append(f"{root}/{name}")
    for module in modules:
        # The lock's hashes stand for the files: they are read only to be written.
        release = latest(module)
        out.modules[release.folder] = release
        for name, digest in release_hashes(release).items():
            out.module_hashes[f"{release.folder}/{name}"] = digest
            owned.append(f"{release.folder}/{name}")
    return owned


def _infra(env: EnvSpec, cluster: Cluster) -> tuple[dict[str, object], set[str], set[str]]:
    cloud = target(cluster.cloud)
    part = cloud.infra(env, cluster)
    context: dict[str, object] = {
        "clusters": [part.cluster],
        "cloud_providers": {cloud.cloud: part.providers},
    }
    return context, set(part.modules), {cloud.infra_provider}


def _platform(env: EnvSpec, cluster: Cluster) -> tuple[dict[str, object], set[str], set[str]]:
    context: dict[str, object] = {"platforms": [platform_view(env, cluster)]}
    return context, {"gpu-platform"}, {"helm", "kubernetes"}


def _serving(env: EnvSpec, cluster: Cluster) -> tuple[dict[str, object], set[str], set[str]]:
    cloud = target(cluster.cloud)
    plans = serving_plans(env, cluster.name)
    servers: list[ServerView] = []
    for plan in plans:
        source = plan.weights.source if plan.weights.mode != "image" else ""
        reader = cloud.weights_reader(cluster, source, plan.namespace, plan.name)
        call = (
            None
            if reader is None
            else ModuleCall(module_label("weights", plan.name, cluster.name), reader)
        )
        server = server_view(plan, call)
        _floored(plan, server)
        servers.append(server)
    workloads = {w.name: w for w in env.spec.workloads}
    servers = [
        replace(s, door=door_view(plan, workloads[plan.name], s))
        for plan, s in zip(plans, servers, strict=True)
    ]
    modules = {"model-server"} if servers else set()
    providers = {"kubernetes"}
    door_providers = provider_views([workloads[p.name] for p in plans])
    for s in servers:
        if s.door is not None:
            modules.add(str(s.door["source"]))
            providers.add(str(s.door["provider"]))
    if any(s.reader for s in servers) and cloud.weights_reader_module is not None:
        modules.add(cloud.weights_reader_module)
    if any(s.zero for s in servers):
        modules.add("scale-to-zero")
    # KEDA's operator queries the cloud's managed Prometheus: one read grant per cluster.
    managed = any(p.scaler and p.scaler.queue and p.scaler.queue.auth_provider for p in plans)
    reader_args = cloud.metrics_reader(cluster) if managed else None
    metrics_reader = None
    if reader_args is not None and cloud.metrics_reader_module is not None:
        modules.add(cloud.metrics_reader_module)
        metrics_reader = ModuleCall(
            f"metrics_{cluster.name}", reader_args, cloud.metrics_reader_module
        )
    # The fabric's operator configuration (AKS InfiniBand: the NicClusterPolicy), once a cluster.
    fabric_args = cloud.fabric_policy(cluster, max((p.grace_seconds for p in plans), default=0))
    fabric = None
    if fabric_args is not None and cloud.fabric_module is not None:
        modules.add(cloud.fabric_module)
        fabric = ModuleCall(module_label("fabric", cluster.name), fabric_args, cloud.fabric_module)
    # One map written by expr(), which aligns its keys as terraform fmt does at any width.
    endpoints: dict[str, object] = {}
    # What a front door (DNS, a global load balancer, a multi-cluster gateway) needs per
    # placement: where to send requests and whether this placement serves now.
    placements: dict[str, object] = {}
    for plan, s in zip(plans, servers, strict=True):
        key = f"{plan.name}@{plan.cluster}"
        # Clients of a scale-to-zero workload call its front Service; others its own Service.
        front = plan.scaler is not None and plan.scaler.http is not None
        module = s.zero_module if front else s.module
        endpoint = raw(f"module.{ident(module)}.{'endpoint' if front else 'service'}")
        endpoints[key] = endpoint
        placed: dict[str, object] = {
            "role": plan.role,
            "serving": plan.primary,
            "endpoint": endpoint,
        }
        if plan.load_balancer is not None or door_of(plan) is not None:
            # Reachable from outside the cluster: the load balancer the cloud gave the Service
            # (a scale-to-zero workload's: the one in front of its interceptor).
            placed["address"] = raw(f"module.{ident(address_module(plan, s))}.address")
        placements[key] = placed
    context: dict[str, object] = {
        "metrics_reader": metrics_reader,
        "fabric": fabric,
        "servers": servers,
        "floors": any(p.scaler is not None for p in plans),
        "endpoints": endpoints,
        "placements": placements,
        "front_doors": door_providers,
    }
    return context, modules, providers


def _floored(plan: ServingPlan, server: ServerView) -> None:
    """Replica floors a failover raises for the length of its move (``var.failover_floor``,
    keyed by the model server's module label): the Deployment a failover replaces starts at
    the source's serving count and the autoscaler cannot take it below that until the
    failover hands the count back by applying the root without the floor. The root applies
    the ScaledObject's raised minimum before the model server (its ``depends_on``), so KEDA
    never sees the replaced Deployment under a minimum of 0. An autoscaled multi-host set is
    held by its ``group.hold`` (model-server 3.5.0)."""
    if plan.scaler is None:
        return
    key = ident(server.module)
    floor = f'lookup(var.failover_floor, "{key}", 0)'
    high = plan.scaler.max_replicas
    server.args["replicas"] = {
        "min": raw(f"min({plan.replicas_max}, max({plan.replicas_min}, {floor}))"),
        "max": plan.replicas_max,
    }
    group = server.args.get("group")
    if isinstance(group, dict):
        # An autoscaled set names no count: a held one names the floor and waits for it.
        group["hold"] = raw(f"min({plan.replicas_max}, {floor})")
    zero = server.zero
    assert zero is not None  # an autoscaled workload has its scaler's arguments
    zero["replicas"] = {
        "min": raw(f"min({high}, max({plan.scaler.min_replicas}, {floor}))"),
        "max": high,
    }


_STAGES = {"infra": _infra, "platform": _platform, "serving": _serving}


def render_root(
    env: EnvSpec, cluster: Cluster, stage: str
) -> tuple[str, dict[str, str], list[str]]:
    """One root module: (folder, {file: text}, module names it calls)."""
    stage_context, modules, providers = _STAGES[stage](env, cluster)
    if stage != "infra":
        # What the cluster's kubernetes/helm providers need to authenticate (e.g. GKE's token).
        providers |= set(target(cluster.cloud).kube_providers)
    sources = {name: f"{to_project()}/{latest(name).folder}" for name in sorted(modules)}
    context: dict[str, object] = {
        "env": {"name": env.name, "protected": env.protected},
        "cluster": {"name": cluster.name, "cloud": cluster.cloud},
        "stage": stage,
        "inputs": list(env.files),
        "project": env.spec.project,
        "terraform_version": TERRAFORM_VERSION,
        "providers": {name: PROVIDERS[name] for name in sorted(providers)},
        "backend": backend_block(env, cluster, stage),
        "modules": sources,
        "infra_state": infra_state(env, cluster),
        "kube_clusters": [cluster_access(cluster)],
        **stage_context,
    }
    jinja = environment()
    # Nothing formats the output: the templates and the expression writer produce `terraform
    # fmt` layout themselves, which tests check with the real terraform for generated specs.
    files = {name: jinja.get_template(f"roots/{stage}/{name}.j2").render(context) for name in FILES}
    return root_dir(env.name, cluster.name, stage), files, sorted(modules)
