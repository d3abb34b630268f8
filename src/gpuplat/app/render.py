"""`gpuplat render`: spec -> versioned modules and per-environment roots, written atomically."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat import locking
from gpuplat.errors import StaleError
from gpuplat.render import writer
from gpuplat.render.changes import Change, Diff, diff
from gpuplat.render.manifest import read_manifest, updated_manifest
from gpuplat.render.manifests import MARKER, build_manifests
from gpuplat.render.roots import Rendered, render
from gpuplat.spec.diagnostics import Diagnostic
from gpuplat.spec.load import Project, load_project


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
    manifests: int = 0
    manifests_written: bool = False

    @property
    def nothing_to_do(self) -> bool:
        return not self.changes and not self.new_module_folders


def load_and_render(root: Path, envs: Sequence[str]) -> tuple[Project, Rendered]:
    """Validate the spec and render it in memory (no disk writes).

    Raises:
        SpecError: The spec is invalid.
        StaleError: A module template changed without a version bump.
    """
    project = load_project(root, envs)
    return project, render(project.envs.values())


def render_project(
    root: Path,
    envs: Sequence[str] = (),
    *,
    dry_run: bool = False,
    check: bool = False,
    manifests: Path | None = None,
) -> RenderResult:
    """Render the project in ``root``.

    Args:
        root: Project folder.
        envs: Environments to render; empty means all of them.
        dry_run: Report what would change, write nothing.
        check: Fail when anything would change or a module was edited by hand.
        manifests: Also write plain Kubernetes YAML of every environment into this folder.

    Raises:
        SpecError: The spec is invalid (nothing is written).
        StaleError: ``check`` found differences; or a released module folder was edited by
            hand (a render refuses to overwrite it).
        LockedError: Another gpuplat run is rendering this project.
    """
    project, rendered = load_and_render(root, envs)
    with locking.hold(root, "render", "cannot render"):
        writer.recover(root)
        previous = read_manifest(root)
        manifest = updated_manifest(previous, rendered)
        found = diff(root, rendered, previous, manifest, project.envs)
        result = RenderResult(
            tuple(project.envs),
            found.changes,
            found.new_module_folders,
            found.edited_roots,
            written=False,
            warnings=project.warnings,
            files=len(rendered.files),
        )
        if found.edited_modules:
            raise _edited_modules(found)
        if check:
            if not found.clean:
                raise _stale(found)
            return result
        if manifests is not None and not dry_run:
            files = {
                path: text
                for env in project.envs.values()
                for path, text in build_manifests(env).items()
            }
            result.manifests = len(files)
            result.manifests_written = writer.replace_dir(manifests, files, MARKER)
        if dry_run or found.clean:
            return result
        writer.write(
            root, rendered.files, found.changes, found.new_module_folders, found.manifest_text
        )
        result.written = True
        return result


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
