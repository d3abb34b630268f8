"""`gpuplat render`: spec -> versioned modules and per-environment roots, written atomically.

Heavy modules (pydantic, jinja2) are imported only once a render really has work to do: a
render whose inputs and outputs are unchanged since the last one is answered from the records
(:mod:`gpuplat.tree.uptodate`, which the launcher asks first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gpuplat import runlock
from gpuplat.app.leftbehind import left_clusters, left_doors
from gpuplat.errors import GpuplatError, StaleError, user_files
from gpuplat.spec.diagnostics import Diagnostic
from gpuplat.tree import writer
from gpuplat.tree.changes import Change, Diff, diff
from gpuplat.tree.fingerprint import (
    RenderCache,
    env_fingerprints,
    read_cache,
    write_cache,
)
from gpuplat.tree.record import Manifest, read_manifest, updated_manifest
from gpuplat.tree.stats import StatCache
from gpuplat.tree.uptodate import unchanged

if TYPE_CHECKING:
    from gpuplat.manifests.gitops import Source
    from gpuplat.render.roots import Rendered
    from gpuplat.spec.load import Project


@dataclass
class RenderResult:
    """What a render did, or (dry run / check) would do."""

    envs: tuple[str, ...]
    changes: list[Change]
    new_module_folders: list[str]
    edited_roots: list[str]
    written: bool
    warnings: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    manifests: tuple[int, bool] | None = None
    """Plain manifests: how many files, and whether any was written."""
    left: list[Diagnostic] = field(default_factory=list)
    """Clusters gone from the spec whose roots this render deletes (also in ``warnings``)."""

    @property
    def nothing_to_do(self) -> bool:
        return not self.changes and not self.new_module_folders


def load_and_render(root: Path, envs: Sequence[str]) -> tuple[Project, Rendered]:
    """Validate the spec and render it in memory (no disk writes).

    Raises:
        SpecError: The spec is invalid.
        StaleError: A module template changed without a version bump.
    """
    from gpuplat.render.roots import render
    from gpuplat.spec.load import load_project

    project = load_project(root, envs)
    return project, render(project.envs.values())


@dataclass
class RenderOutcome:
    """One render pass: what it did, and what the commands that go on from it need.

    ``plan`` renders first and plans from the same pass: one spec load, one lock, one read of
    the render record.
    """

    result: RenderResult
    project: Project | None
    """The loaded spec: always after a real render, on the fast path only when asked for."""
    record: Manifest
    """The render record as it is on disk after this pass."""

    def cluster_hash(self, env: str, cluster: str) -> str | None:
        """What the plans of one cluster in ``env`` are bound to."""
        entry = self.record.envs.get(env)
        return entry.clusters.get(cluster) if entry is not None else None


def render_project(
    root: Path,
    envs: Sequence[str] = (),
    *,
    dry_run: bool = False,
    check: bool = False,
    load: bool = False,
    manifests: Path | None = None,
    layout: str = "plain",
    gitops: Source | None = None,
) -> RenderOutcome:
    """Render the project in ``root``.

    Args:
        root: Project folder.
        envs: Environments to render; empty means all of them.
        dry_run: Report what would change, write nothing.
        check: Fail when anything would change or a module was edited by hand.
        load: Load the spec even when nothing has to be rendered (for the caller's next step).
        manifests: Also write plain Kubernetes YAML into this folder (before the tree, so a
            refused folder leaves the tree as it was).
        layout: How to lay the manifests out: plain, argocd or flux (``manifests.gitops``).
        gitops: The repository, revision and path the Argo CD / Flux objects point at.

    Raises:
        SpecError: The spec is invalid (nothing is written).
        StaleError: ``check`` found differences; or a released module folder was edited by
            hand (a render refuses to overwrite it).
        LockedError: Another gpuplat run is rendering this project.
        FileError: The operating system refused a write (e.g. a read-only folder); the
            previous tree is left as it was.
    """
    with runlock.hold(root, "render", "cannot render", reading=check or dry_run):
        writer.recover(root)
        if not check and (root / "gpuplat.yaml").is_file():
            done = unchanged(root, envs)
            if done is not None:
                wanted = load or (manifests is not None and not dry_run)
                project = _load(root, envs) if wanted else None
                result = RenderResult(done, [], [], [], written=False)
                if project is not None:
                    result.warnings = project.warnings
                    if manifests is not None and not dry_run:
                        result.manifests = write_manifests(project, manifests, layout, gitops)
                return RenderOutcome(result, project, read_manifest(root))
        project, rendered = load_and_render(root, envs)
        previous = read_manifest(root)
        manifest = updated_manifest(previous, rendered)
        found = diff(root, rendered, previous, manifest, project.envs)
        left = [
            *left_clusters(previous, manifest, project.envs),
            *left_doors(previous, manifest, project.envs),
        ]
        result = RenderResult(
            tuple(project.envs),
            found.changes,
            found.new_module_folders,
            found.edited_roots,
            written=False,
            warnings=[*project.warnings, *left],
            files=len(rendered.files) + len(rendered.module_hashes),
            left=left,
        )
        if found.edited_modules:
            raise _edited_modules(found)
        if check:
            from gpuplat.releases.versions import release_files

            # The CI gate also proves the shipped module versions are what was released.
            for release in rendered.modules.values():
                release_files(release)
            if not found.clean:
                raise _stale(found)
            return RenderOutcome(result, project, manifest)
        if dry_run:
            return RenderOutcome(result, project, previous)
        if manifests is not None:
            result.manifests = write_manifests(project, manifests, layout, gitops)
        with user_files("write the rendered tree (the previous tree is intact)"):
            if not found.clean:
                files = dict(rendered.files)
                for folder in found.new_module_folders:
                    files.update(rendered.module_texts(folder))
                writer.write(
                    root, files, found.changes, found.new_module_folders, found.manifest_text
                )
                result.written = True
            _remember(root, project, manifest)
        return RenderOutcome(result, project, manifest)


def _load(root: Path, envs: Sequence[str]) -> Project:
    from gpuplat.spec.load import load_project  # pydantic: only when the spec is needed

    return load_project(root, envs)


def write_manifests(
    project: Project, folder: Path, layout: str = "plain", gitops: Source | None = None
) -> tuple[int, bool]:
    """Plain Kubernetes YAML of every loaded environment into ``folder``, switched atomically.

    ``layout`` argocd or flux adds a kustomization per environment and cluster and the objects
    that apply them (``manifests.gitops``).

    Returns:
        How many files, and whether anything was written (False: already up to date).

    Raises:
        GpuplatError: ``folder`` holds files gpuplat did not write.
        FileError: The operating system refused a write.
    """
    from gpuplat.app import manifests_dir
    from gpuplat.manifests.objects import MARKER, build_manifests

    files = {
        path: text for env in project.envs.values() for path, text in build_manifests(env).items()
    }
    if (folder.exists() and any(folder.iterdir())) and not (folder / MARKER).is_file():
        writer.refuse_foreign(folder)
    others, users = manifests_dir.merge(
        folder, MARKER, files, project.envs, all_envs=set(project.envs) >= set(project.all_envs)
    )
    files.update(others)
    if layout != "plain":
        from gpuplat.manifests.gitops import layout as lay_out

        files = lay_out(files, layout, gitops)  # type: ignore[arg-type]
    refuse_invalid_custom_resources(folder, files)
    marker = manifests_dir.marker_text(files)
    with user_files(f"write the manifests to {folder}"):
        return len(files), writer.replace_dir(folder, {**files, **users}, MARKER, marker)


def refuse_invalid_custom_resources(folder: Path, files: dict[str, str]) -> None:
    """Check the custom resources of the manifests against their CRDs before anything is written.

    Raises:
        GpuplatError: One of them would be refused by the API server or by its product's
            admission webhook (a gpuplat defect: the spec checks should have refused the spec).
    """
    from gpuplat import crds
    from gpuplat.conformance.yamlobjects import check_texts

    found, _ = check_texts({folder / p: t for p, t in files.items()}, crds.Result())
    if found:
        raise GpuplatError(
            "the manifests hold custom resources the cluster would refuse; nothing was written:\n"
            + "\n".join(f"  {v}" for v in found),
            hint="this is a gpuplat defect: please report it with the spec",
        )


def gitops_source(
    root: Path,
    manifests: Path | None,
    layout: str,
    repo_url: str | None,
    revision: str,
    repo_path: str | None,
) -> Source | None:
    """Where the GitOps objects of ``layout`` point, from the command line's options.

    Raises:
        GpuplatError: A GitOps layout without --manifests or --repo-url, or a manifests folder
            outside the project without --repo-path.
    """
    if layout == "plain":
        return None
    from gpuplat.manifests.gitops import Source

    if manifests is None or not repo_url:
        raise GpuplatError(
            f"--layout {layout} needs --manifests DIR and --repo-url URL",
            hint=f"e.g. gpuplat render --manifests k8s --layout {layout} "
            "--repo-url https://github.com/acme/platform --revision main",
        )
    if repo_path is None:
        try:
            repo_path = manifests.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            raise GpuplatError(
                f"{manifests} is outside the project: where is it in the repository?",
                hint="say it with --repo-path (the folder's path from the repository's root)",
            ) from None
    return Source(repo_url, revision, repo_path.strip("/") or ".")


def _remember(root: Path, project: Project, manifest: Manifest) -> None:
    """Record what this render was made from, for the next render's fast path, and the hashes
    of the files it wrote (known, so the next render need not read them back)."""
    previous = read_cache(root)
    overlays = dict(previous.overlays) if previous else {}
    inputs = dict(previous.inputs) if previous else {}
    stats = StatCache(root)
    rendered = {name: env.overlay for name, env in project.envs.items()}
    overlays.update(rendered)
    # What the load read, not the files as they are now: a spec edited while the render ran
    # must not be recorded as rendered.
    inputs.update(
        env_fingerprints(
            root,
            rendered,
            stats,
            read=project.read,
            listing=project.overlay_files,
            day=project.today.isoformat(),
        )
    )
    for name in project.envs:
        entry = manifest.envs.get(name)
        for path, digest in entry.files.items() if entry is not None else ():
            stats.remember(path, digest)
    write_cache(root, RenderCache(project.all_envs, overlays, inputs))
    stats.prune()
    stats.save()


def _edited_modules(found: Diff) -> StaleError:
    folders = sorted({"/".join(p.split("/")[:3]) for p in found.edited_modules})
    return StaleError(
        f"released module folder{'s' if len(folders) > 1 else ''} edited by hand: "
        + ", ".join(folders),
        hint="a module version never changes once written: restore it (e.g. `git checkout -- "
        f"{folders[0]}`) or delete the folder to have gpuplat write it again; to change a "
        "module, copy it to a folder of your own and point your Terraform at that",
        details=tuple(f"differs: {p}" for p in found.edited_modules),
    )


def _stale(found: Diff) -> StaleError:
    lines = [f"{c.action}: {c.path}" for c in found.changes]
    lines += [f"create: {folder}/" for folder in found.new_module_folders]
    if found.manifest_changed and not lines:
        lines.append("update: envs/manifest.json")
    return StaleError(
        f"the rendered tree is stale: {len(lines)} change{'s' if len(lines) != 1 else ''} pending",
        hint="run `gpuplat render` and commit the result",
        details=tuple(lines),
    )
