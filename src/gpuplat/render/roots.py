"""Root modules per environment and stage, and the whole rendered tree as a pure function."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from gpuplat.render import gke
from gpuplat.render.backend import backend_block
from gpuplat.render.hclfmt import format_hcl
from gpuplat.render.modules import ModuleTemplate, released_module, sha256
from gpuplat.render.naming import root_dir, to_project
from gpuplat.render.templates import environment
from gpuplat.spec.load import EnvSpec

PROVIDERS: dict[str, tuple[str, str]] = {
    "google": ("hashicorp/google", ">= 6.50, < 8"),
}
TERRAFORM_VERSION = ">= 1.10"
STAGE_TEMPLATES = {"infra": ("versions.tf", "backend.tf", "providers.tf", "main.tf", "outputs.tf")}
STAGE_MODULES = {"infra": {"gke": ("gke-cluster", "gke-gpu-node-pool")}}


@dataclass
class Rendered:
    """The rendered tree: project-relative path -> text, and which files belong to which env."""

    files: dict[str, str] = field(default_factory=dict)
    env_files: dict[str, list[str]] = field(default_factory=dict)
    roots: dict[str, list[str]] = field(default_factory=dict)
    """env -> its root folders, in stage order."""
    modules: dict[str, ModuleTemplate] = field(default_factory=dict)
    """module folder -> its template."""

    def env_hash(self, env: str) -> str:
        """Hash of everything an environment's plans are computed from."""
        listing = "".join(f"{p}\0{sha256(self.files[p])}\n" for p in sorted(self.env_files[env]))
        return sha256(listing)


def render(envs: Iterable[EnvSpec]) -> Rendered:
    """Render every stage of every environment, plus the module versions they use.

    Raises:
        StaleError: A module template changed without a version bump.
    """
    out = Rendered()
    for env in envs:
        owned: list[str] = []
        out.roots[env.name] = []
        for stage in STAGE_TEMPLATES:
            root, files, modules = render_root(env, stage)
            out.roots[env.name].append(root)
            for name, text in files.items():
                out.files[f"{root}/{name}"] = text
                owned.append(f"{root}/{name}")
            for module in modules:
                template, module_files = released_module(module)
                out.modules[template.folder] = template
                for name, text in module_files.items():
                    out.files[f"{template.folder}/{name}"] = text
                    owned.append(f"{template.folder}/{name}")
        out.env_files[env.name] = sorted(set(owned))
    out.files = dict(sorted(out.files.items()))
    return out


def render_root(env: EnvSpec, stage: str) -> tuple[str, dict[str, str], list[str]]:
    """One root module: (folder, {file: text}, module names it calls)."""
    clusters = []
    modules: set[str] = set()
    for cluster in env.spec.clusters:
        if cluster.cloud == "gke":
            clusters.append(gke.cluster_view(env, cluster))
        modules.update(STAGE_MODULES[stage].get(cluster.cloud, ()))
    sources = {
        name: f"{to_project()}/{released_module(name)[0].folder}" for name in sorted(modules)
    }
    providers = (
        {"google": PROVIDERS["google"]} if any(c.cloud == "gke" for c in env.spec.clusters) else {}
    )
    context = {
        "env": {"name": env.name, "protected": env.protected},
        "stage": stage,
        "inputs": list(env.files),
        "project": env.spec.project,
        "terraform_version": TERRAFORM_VERSION,
        "providers": providers,
        "backend": backend_block(env, stage),
        "modules": sources,
        "clusters": clusters,
    }
    jinja = environment()
    files = {}
    for name in STAGE_TEMPLATES[stage]:
        text = jinja.get_template(f"roots/{stage}/{name}.j2").render(context)
        files[name] = format_hcl(text)
    return root_dir(env.name, stage), files, sorted(modules)
