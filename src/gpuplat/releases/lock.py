"""Versioned module templates: metadata, rendering, and the lock of released versions.

Every module template carries a semantic version in ``module.yaml``. ``templates/modules.lock.json``
records the sha256 of every file each released version renders to. A version, once in the lock,
never changes: rendering a template whose output differs from its locked version is refused
with a "bump the version" error, so users' ``modules/<name>/<version>/`` folders stay immutable.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from gpuplat.errors import StaleError
from gpuplat.hcl.fmt import format_hcl
from gpuplat.releases import readme as moddoc
from gpuplat.render.templates import environment, templates_root

LOCK_NAME = "modules.lock.json"
_SEMVER = re.compile(r"^\d+\.\d+\.\d+$")


@dataclass(frozen=True)
class Release:
    """One changelog entry."""

    version: str
    date: str
    changes: tuple[str, ...]


@dataclass(frozen=True)
class ModuleTemplate:
    """A module template at its current version."""

    name: str
    version: str
    summary: str
    changelog: tuple[Release, ...]

    @property
    def folder(self) -> str:
        """Output folder relative to the project: ``modules/<name>/<version>``."""
        return f"modules/{self.name}/{self.version}"


def sha256(text: str) -> str:
    """Hex sha256 of UTF-8 text (how the manifest and the lock record files)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def module_templates() -> dict[str, ModuleTemplate]:
    """Every module template, by name.

    Raises:
        ValueError: A ``module.yaml`` is malformed (a packaging bug, caught by the tests).
    """
    out: dict[str, ModuleTemplate] = {}
    for meta in sorted((templates_root() / "modules").glob("*/module.yaml")):
        data = yaml.safe_load(meta.read_text(encoding="utf-8"))
        name, version = data["name"], data["version"]
        if name != meta.parent.name or not _SEMVER.match(version):
            raise ValueError(f"{meta}: name must match the folder and version must be x.y.z")
        changelog = tuple(
            Release(e["version"], str(e["date"]), tuple(e["changes"])) for e in data["changelog"]
        )
        if not changelog or changelog[0].version != version:
            raise ValueError(f"{meta}: the first changelog entry must be for version {version}")
        out[name] = ModuleTemplate(name, version, " ".join(data["summary"].split()), changelog)
    return out


def render_module(module: ModuleTemplate) -> dict[str, str]:
    """Render one module version: ``{file name: text}`` (no folder prefix)."""
    env = environment()
    files: dict[str, str] = {}
    folder = templates_root() / "modules" / module.name
    for source in sorted(folder.glob("*.j2")):
        template = env.get_template(f"modules/{module.name}/{source.name}")
        text = template.render(module=module)
        name = source.name.removesuffix(".j2")
        files[name] = format_hcl(text) if name.endswith(".tf") else text
    files["README.md"] = moddoc.readme(
        module.name,
        module.version,
        module.summary,
        files.get("variables.tf", ""),
        files.get("outputs.tf", ""),
    )
    files["CHANGELOG.md"] = _changelog(module)
    return dict(sorted(files.items()))


def _changelog(module: ModuleTemplate) -> str:
    lines = [f"# {module.name} changelog", ""]
    for release in module.changelog:
        lines += [f"## {release.version} ({release.date})", ""]
        lines += [f"- {change}" for change in release.changes]
        lines.append("")
    return "\n".join(lines)


def lock_path() -> Path:
    return templates_root() / LOCK_NAME


@cache
def module_lock() -> dict[str, dict[str, dict[str, str]]]:
    """Released versions: ``{module: {version: {file: sha256}}}``."""
    path = lock_path()
    if not path.is_file():
        return {}
    data: dict[str, dict[str, dict[str, str]]] = json.loads(path.read_text(encoding="utf-8"))
    return data


@cache
def released_module(name: str) -> tuple[ModuleTemplate, dict[str, str]]:
    """Render a module at its current version and prove it matches its locked release.

    Raises:
        StaleError: The template changed without a version bump, or the version is not locked.
    """
    module, locked = locked_module(name)
    files = render_module(module)
    hashes = {file: sha256(text) for file, text in files.items()}
    if locked != hashes:
        changed = sorted(f for f in set(locked) | set(hashes) if locked.get(f) != hashes.get(f))
        raise StaleError(
            f"module template {name} changed but its version {module.version} is already released",
            hint=f"bump the version in templates/modules/{name}/module.yaml, add a changelog "
            "entry, then run `make modules-lock`",
            details=tuple(f"differs: {f}" for f in changed),
        )
    return module, files


def locked_module(name: str) -> tuple[ModuleTemplate, dict[str, str]]:
    """A module's current version and its released files' sha256, from the lock alone.

    Rendering module templates is only needed when a version folder is written (or checked);
    a render that finds the folder intact trusts the lock, which the test suite holds equal
    to the templates.

    Raises:
        StaleError: The current version is not in the lock.
    """
    module = module_templates()[name]
    locked = module_lock().get(name, {}).get(module.version)
    if locked is None:
        raise StaleError(
            f"module template {name} {module.version} is not in {LOCK_NAME}",
            hint="record the new version with `make modules-lock` (a released version never "
            "changes afterwards)",
        )
    return module, dict(locked)


def update_lock() -> list[str]:
    """Add the current version of every module to the lock; return what was added.

    Raises:
        StaleError: A locked version would change (its template was edited without a bump).
    """
    lock = {name: dict(versions) for name, versions in module_lock().items()}
    added: list[str] = []
    for name, module in module_templates().items():
        hashes = {file: sha256(text) for file, text in render_module(module).items()}
        versions = lock.setdefault(name, {})
        if module.version in versions:
            if versions[module.version] != hashes:
                raise StaleError(
                    f"module template {name} changed but version {module.version} is locked",
                    hint=f"bump the version in templates/modules/{name}/module.yaml",
                )
            continue
        versions[module.version] = hashes
        added.append(f"{name} {module.version}")
    text = json.dumps(lock, indent=2, sort_keys=True) + "\n"
    lock_path().write_text(text, encoding="utf-8")
    module_lock.cache_clear()
    released_module.cache_clear()
    return added


def main() -> int:
    """``python -m gpuplat.releases.lock``: lock new module versions."""
    try:
        added = update_lock()
    except StaleError as exc:
        print(f"error: {exc.message}\nhint: {exc.hint}")
        return 1
    print("locked: " + (", ".join(added) if added else "nothing new"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
