"""Load a project: the base spec, each environment's overlay, typed models and checks."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from gpuplat import clock
from gpuplat.errors import ExitCode, GpuplatError, SpecError
from gpuplat.spec.diagnostics import Diagnostic, Mark, Severity, sort_diagnostics
from gpuplat.spec.locate import Locator
from gpuplat.spec.merge import merge
from gpuplat.spec.model import Environment, Spec
from gpuplat.spec.source import Node, load_file
from gpuplat.spec.validation import Validator, kind_of

if TYPE_CHECKING:
    from gpuplat.spec.checks.reuse import ClusterChecks

SPEC_FILE = "gpuplat.yaml"
BASE_ONLY_KEYS = ("version", "project", "environments")


@dataclass(frozen=True)
class EnvSpec:
    """One environment's merged, validated spec."""

    env: Environment
    spec: Spec
    tree: Node
    files: tuple[str, ...]
    overlay: str = ""
    """The overlay file's path (it may not exist: then the base spec applies as is)."""

    @property
    def name(self) -> str:
        return self.env.name

    @property
    def protected(self) -> bool:
        return self.env.is_protected()


@dataclass
class Project:
    """Everything loaded from a project folder."""

    root: Path
    envs: dict[str, EnvSpec]
    warnings: list[Diagnostic] = field(default_factory=list)
    all_envs: tuple[str, ...] = ()
    today: date = field(default_factory=date.today)
    """The day the support calendar was read for (:func:`gpuplat.clock.today` unless given)."""
    read: dict[str, str] = field(default_factory=dict)
    """The project files this load parsed, by project path: the sha256 of the very bytes read
    (``-`` for an overlay that was not there). What a render records it was made from."""
    overlay_files: tuple[str, ...] = ()
    """The files in ``envs/`` that could be overlays, as the load listed them."""


def overlay_path(env_name: str, declared: str | None) -> str:
    """The overlay file of an environment, relative to the project folder."""
    return declared or f"envs/{env_name}.yaml"


Tolerate = Callable[["EnvSpec", Diagnostic], bool]
"""Whether an error of an environment's spec is one a command asks about rather than fails on."""


def load_project(
    root: Path,
    envs: Sequence[str] = (),
    *,
    strict: bool = False,
    today: date | None = None,
    tolerate: Tolerate | None = None,
) -> Project:
    """Load and check the spec in ``root`` for the named environments (default: all).

    Args:
        root: Project folder holding gpuplat.yaml.
        envs: Environments to load; empty means every declared environment.
        strict: Treat warnings as errors.
        today: The day to judge the clusters' Kubernetes minors and charts by (the support
            calendar); None for :func:`gpuplat.clock.today`.
        tolerate: Errors of a loaded environment it says yes to are dropped, not raised (e.g.
            `gpuplat place` reports a listed cluster that cannot run a workload as its answer).

    Returns:
        The validated environments and any warnings.

    Raises:
        SpecError: Any error (or, with ``strict``, any warning), all of them at once.
        GpuplatError: There is no spec in ``root``.
    """
    on = today if today is not None else clock.today()
    spec_path = root / SPEC_FILE
    if not spec_path.is_file():
        raise GpuplatError(
            f"no {SPEC_FILE} in {root}",
            hint="run `gpuplat init` to write one, or pass the project folder with -C DIR",
            exit_code=ExitCode.ERROR,
        )
    base = load_file(spec_path, SPEC_FILE, rank=0)
    read = {SPEC_FILE: base.digest or "-"}
    diags: list[Diagnostic] = list(base.diagnostics)
    if base.root is None:
        raise _spec_error(diags)
    declared = _declared_envs(base.root)
    unknown = [name for name in envs if name not in declared]
    if unknown and declared:
        raise GpuplatError(
            f"unknown environment {', '.join(repr(u) for u in unknown)}",
            hint=f"environments in {SPEC_FILE}: {', '.join(declared)}",
            exit_code=ExitCode.ERROR,
        )
    selected = list(envs) or list(declared)
    listing = _overlay_candidates(root)
    if declared:
        diags.extend(_stray_overlays(root, declared, listing))
    loaded: dict[str, EnvSpec] = {}
    validator = Validator()
    from gpuplat.spec.checks.reuse import ClusterChecks

    reuse = ClusterChecks()
    if not selected:
        # No usable environments list: validate the base alone so its errors are reported.
        diags.extend(validator.validate(base.root, {SPEC_FILE: 0})[1])
    for name in selected:
        env_spec, env_diags = _load_env(
            root, base.root, name, declared[name], on, read, validator, reuse
        )
        if env_spec is not None and tolerate is not None:
            env_diags = [d for d in env_diags if not (d.is_error and tolerate(env_spec, d))]
        diags.extend(replace(d, envs=(name,)) for d in env_diags)
        if env_spec is not None:
            loaded[name] = env_spec
    diags.extend(_across(loaded))
    ordered = sort_diagnostics(diags, selected)
    errors = [d for d in ordered if d.is_error or (strict and d.severity is Severity.WARNING)]
    if errors:
        raise _spec_error(ordered)
    warnings = [d for d in ordered if d.severity is Severity.WARNING]
    return Project(root, loaded, warnings, tuple(declared), on, read, listing)


def declared_environments(root: Path) -> tuple[str, ...]:
    """The environment names gpuplat.yaml declares, read without checking anything else."""
    loaded = load_file(root / SPEC_FILE, SPEC_FILE, rank=0)
    return tuple(_declared_envs(loaded.root)) if loaded.root is not None else ()


def _across(loaded: dict[str, EnvSpec]) -> list[Diagnostic]:
    """Problems only a comparison of environments shows, each tagged with its environment."""
    from gpuplat.spec.checks import storage

    envs = [
        (name, e.spec, Locator(e.tree, {SPEC_FILE: 0, e.overlay: 1})) for name, e in loaded.items()
    ]
    return [replace(d, envs=(name,)) for name, d in storage.check(envs)]


def _declared_envs(root: Node) -> dict[str, str | None]:
    """Environment names and declared overlay paths, read from the raw tree."""
    out: dict[str, str | None] = {}
    if not isinstance(root.value, dict):
        return out
    envs = root.value.get("environments")
    if envs is None or not isinstance(envs.value, list):
        return out
    for item in envs.value:
        if not isinstance(item.value, dict):
            continue
        name = item.value.get("name")
        overlay = item.value.get("overlay")
        if name is not None and isinstance(name.value, str) and name.value not in out:
            declared = overlay.value if overlay is not None else None
            out[name.value] = declared if isinstance(declared, str) else None
    return out


def _overlay_candidates(root: Path) -> tuple[str, ...]:
    """The files of ``envs/`` that could be overlays, by project path, in a stable order."""
    envs = root / "envs"
    if not envs.is_dir():
        return ()
    return tuple(p.relative_to(root).as_posix() for p in sorted(envs.glob("*.y*ml")))


def _stray_overlays(
    root: Path, declared: dict[str, str | None], listing: tuple[str, ...]
) -> list[Diagnostic]:
    """Overlay files in envs/ that no declared environment reads: a typo, or a missing entry."""
    wanted = {overlay_path(name, overlay) for name, overlay in declared.items()}
    out: list[Diagnostic] = []
    for rel in listing:
        path = root / rel
        if rel in wanted or not path.is_file() or path.suffix not in (".yaml", ".yml"):
            continue
        name = path.stem
        close = [
            c
            for c in difflib.get_close_matches(name, list(declared), n=1)
            if not _is_file(root / overlay_path(c, declared[c]))
        ]
        hint = f"environments in {SPEC_FILE}: {', '.join(declared)}; "
        hint += f"rename it to envs/{close[0]}.yaml, " if close else ""
        hint += f"declare it under environments (- name: {name}), or remove the file"
        out.append(
            Diagnostic(
                Severity.ERROR,
                f'{rel} overlays environment "{name}", which {SPEC_FILE} does not declare',
                Mark(rel, 1, 1),
                (),
                hint,
                file_rank=1,
            )
        )
    return out


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False for a name the file system cannot hold (too long).

    The environment's name rule reports such a name, located, like any other bad name.
    """
    try:
        return path.is_file()
    except OSError:
        return False


def _load_env(
    root: Path,
    base: Node,
    name: str,
    declared_overlay: str | None,
    today: date,
    read: dict[str, str],
    validator: Validator,
    reuse: ClusterChecks,
) -> tuple[EnvSpec | None, list[Diagnostic]]:
    rel = overlay_path(name, declared_overlay)
    read[rel] = "-"
    ranks = {SPEC_FILE: 0, rel: 1}
    files = [SPEC_FILE]
    diags: list[Diagnostic] = []
    tree = base
    overlay_file = root / rel
    if _is_file(overlay_file):
        loaded = load_file(overlay_file, rel, rank=1, allow_empty=True)
        read[rel] = loaded.digest or "-"
        diags.extend(loaded.diagnostics)
        if loaded.root is None:
            return None, diags
        overlay_locator = Locator(loaded.root, ranks)
        if not isinstance(loaded.root.value, dict):
            diags.append(
                overlay_locator.error(
                    (),
                    f"an overlay must be a mapping of keys to values, got {kind_of(loaded.root)}",
                    "write the keys of gpuplat.yaml you want to change in this environment",
                )
            )
            return None, diags
        for key in BASE_ONLY_KEYS:
            if key in loaded.root.value:
                diags.append(
                    overlay_locator.error(
                        (key,),
                        f'"{key}" can only be set in {SPEC_FILE}',
                        f"an overlay changes clusters, addons and workloads; move {key} to "
                        f"{SPEC_FILE}",
                        at_key=True,
                    )
                )
        overlay = Node(
            {k: v for k, v in loaded.root.value.items() if k not in BASE_ONLY_KEYS},
            loaded.root.mark,
        )
        tree = merge(base, overlay)
        files.append(rel)
    elif declared_overlay is not None:
        locator = Locator(base, ranks)
        index = _env_index(base, name)
        diags.append(
            locator.error(
                ("environments", index, "overlay"),
                f"overlay file {rel} does not exist",
                "create it, or remove `overlay` to use the default envs/<name>.yaml (optional)",
            )
        )
        return None, diags
    spec, found, repaired = validator.validate(tree, ranks)
    if tree is not base:
        from gpuplat.spec.overlay_names import misnamed

        found = misnamed(base, tree, Locator(tree, ranks), found)
    diags.extend(found)
    from gpuplat.spec.checks import run_checks

    if spec is not None:
        diags.extend(run_checks(spec, Locator(tree, ranks), today, reuse))
    if spec is not None and not repaired:
        from gpuplat.spec.checks.resilience import check as check_resilience

        diags.extend(check_resilience(spec, name, Locator(tree, ranks)))
    if spec is not None and not repaired and not any(d.is_error for d in diags):
        # Prices are only meaningful for a spec without errors.
        from gpuplat.cost.budget import check as check_budget

        diags.extend(check_budget(spec, name, Locator(tree, ranks), today))
    if spec is None or repaired:
        return None, diags
    env = next(e for e in spec.environments if e.name == name)
    return EnvSpec(env, spec, tree, tuple(files), rel), diags


def _env_index(base: Node, name: str) -> int:
    assert isinstance(base.value, dict)
    items = base.value["environments"].value
    assert isinstance(items, list)
    for index, item in enumerate(items):
        if isinstance(item.value, dict) and getattr(item.value.get("name"), "value", None) == name:
            return index
    return 0


def _spec_error(diags: Sequence[Diagnostic]) -> SpecError:
    errors = [d for d in diags if d.is_error]
    count = len(errors) or len(diags)
    noun = "problem" if count == 1 else "problems"
    return SpecError(
        f"the spec has {count} {noun}",
        hint=None,
        diagnostics=tuple(diags),
    )
