"""Root modules per environment and stage, and the whole rendered tree as a pure function."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from gpuplat.errors import GpuplatError
from gpuplat.releases.lock import ModuleTemplate, locked_module, released_module, sha256
from gpuplat.render.access import cluster_access, infra_state
from gpuplat.render.backend import backend_block
from gpuplat.render.naming import STAGES, root_dir, to_project
from gpuplat.render.platform import platform_view
from gpuplat.render.serving import server_view
from gpuplat.render.templates import environment
from gpuplat.spec.load import EnvSpec
from gpuplat.targets import eks, gke
from gpuplat.workload.serving import serving_plans

PROVIDERS: dict[str, tuple[str, str]] = {
    "aws": ("hashicorp/aws", ">= 5.100, < 7"),
    "google": ("hashicorp/google", ">= 6.50, < 8"),
    "helm": ("hashicorp/helm", ">= 3.0, < 4"),
    "kubernetes": ("hashicorp/kubernetes", ">= 2.38, < 3"),
}
TERRAFORM_VERSION = ">= 1.10"
FILES = ("versions.tf", "backend.tf", "providers.tf", "main.tf", "outputs.tf")
CLOUD_PROVIDER = {"gke": "google", "eks": "aws"}


@dataclass
class Rendered:
    """The rendered tree: project-relative path -> text, and which files belong to which env."""

    files: dict[str, str] = field(default_factory=dict)
    """Root files: project-relative path -> text."""
    module_hashes: dict[str, str] = field(default_factory=dict)
    """Module files: project-relative path -> sha256 of the released file."""
    env_files: dict[str, list[str]] = field(default_factory=dict)
    roots: dict[str, list[str]] = field(default_factory=dict)
    """env -> its root folders, in stage order."""
    modules: dict[str, ModuleTemplate] = field(default_factory=dict)
    """module folder -> its template."""

    def sha(self, path: str) -> str:
        """sha256 of a rendered file."""
        if path in self.files:
            return sha256(self.files[path])
        return self.module_hashes[path]

    def env_hash(self, env: str) -> str:
        """Hash of everything an environment's plans are computed from."""
        listing = "".join(f"{p}\0{self.sha(p)}\n" for p in sorted(self.env_files[env]))
        return sha256(listing)

    def module_texts(self, folder: str) -> dict[str, str]:
        """The files of one module version folder, rendered and checked against the lock.

        Raises:
            StaleError: The template no longer renders its released content.
        """
        template = self.modules[folder]
        _, files = released_module(template.name)
        return {f"{folder}/{name}": text for name, text in files.items()}


def render(envs: Iterable[EnvSpec]) -> Rendered:
    """Render every stage of every environment, plus the module versions they use.

    Raises:
        StaleError: A module template changed without a version bump.
    """
    out = Rendered()
    envs = list(envs)
    unsupported = sorted({c.name for e in envs for c in e.spec.clusters if c.cloud == "aks"})
    if unsupported:
        raise GpuplatError(
            f"gpuplat cannot render AKS clusters yet: {', '.join(unsupported)}",
            hint="the spec of an AKS cluster is validated (VM sizes, MIG, names), but only GKE "
            "and EKS clusters are rendered; render the others by leaving the AKS cluster out",
        )
    for env in envs:
        owned: list[str] = []
        out.roots[env.name] = []
        for stage in STAGES:
            root, files, modules = render_root(env, stage)
            out.roots[env.name].append(root)
            for name, text in files.items():
                out.files[f"{root}/{name}"] = text
                owned.append(f"{root}/{name}")
            for module in modules:
                template, hashes = locked_module(module)
                out.modules[template.folder] = template
                for name, digest in hashes.items():
                    out.module_hashes[f"{template.folder}/{name}"] = digest
                    owned.append(f"{template.folder}/{name}")
        out.env_files[env.name] = sorted(set(owned))
    out.files = dict(sorted(out.files.items()))
    return out


def _infra(env: EnvSpec) -> tuple[dict[str, object], set[str], set[str]]:
    aws, aliases = eks.aws_providers(env)
    clusters: list[dict[str, object]] = []
    modules: set[str] = set()
    for cluster in env.spec.clusters:
        if cluster.cloud == "gke":
            clusters.append(gke.cluster_view(env, cluster))
            modules |= {"gke-cluster", "gke-gpu-node-pool"}
        elif cluster.cloud == "eks":
            clusters.append(eks.cluster_view(env, cluster, aliases[cluster.name]))
            modules |= {"eks-cluster", "eks-gpu-node-group"}
            if cluster.network.vpc_cidr is not None:
                modules.add("eks-network")
    providers = {CLOUD_PROVIDER[c.cloud] for c in env.spec.clusters if c.cloud in CLOUD_PROVIDER}
    tags = eks.default_tags(env)
    return {"clusters": clusters, "aws_providers": [p.view(tags) for p in aws]}, modules, providers


def _platform(env: EnvSpec) -> tuple[dict[str, object], set[str], set[str]]:
    platforms = [platform_view(env, c) for c in env.spec.clusters]
    return (
        {"platforms": platforms},
        {"gpu-platform"} if platforms else set(),
        {"helm", "kubernetes"},
    )


def _serving(env: EnvSpec) -> tuple[dict[str, object], set[str], set[str]]:
    servers = [server_view(p) for p in serving_plans(env)]
    modules = {"model-server"} if servers else set()
    if any(s["zero"] for s in servers):
        modules.add("scale-to-zero")
    return {"servers": servers}, modules, {"kubernetes"}


_STAGES = {"infra": _infra, "platform": _platform, "serving": _serving}


def render_root(env: EnvSpec, stage: str) -> tuple[str, dict[str, str], list[str]]:
    """One root module: (folder, {file: text}, module names it calls)."""
    stage_context, modules, providers = _STAGES[stage](env)
    if stage != "infra" and any(c.cloud == "gke" for c in env.spec.clusters):
        providers.add("google")  # google_client_config: the caller's token for GKE APIs
    sources = {name: f"{to_project()}/{locked_module(name)[0].folder}" for name in sorted(modules)}
    context: dict[str, object] = {
        "env": {"name": env.name, "protected": env.protected},
        "stage": stage,
        "inputs": list(env.files),
        "project": env.spec.project,
        "terraform_version": TERRAFORM_VERSION,
        "providers": {name: PROVIDERS[name] for name in sorted(providers)},
        "backend": backend_block(env, stage),
        "modules": sources,
        "infra_state": infra_state(env),
        "kube_clusters": [cluster_access(c) for c in env.spec.clusters],
        **stage_context,
    }
    jinja = environment()
    # The templates and the expression writer produce `terraform fmt` layout themselves (the
    # tests hold every rendered root to format_hcl(text) == text); formatting thousands of
    # module blocks again on every render would dominate its run time.
    files = {name: jinja.get_template(f"roots/{stage}/{name}.j2").render(context) for name in FILES}
    return root_dir(env.name, stage), files, sorted(modules)
