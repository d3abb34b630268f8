"""Module templates in a source checkout: their ``module.yaml`` and their Jinja2 text.

Only cutting a version reads these (``make modules-release``); renders use the released
folders. A template is rendered with its name and version alone, so its text never depends on
a spec: ``templates/modules/<name>/*.tf.j2`` plus ``module.yaml`` (version, summary,
changelog, newest entry first).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from gpuplat.errors import GpuplatError
from gpuplat.releases.lock import version_key
from gpuplat.render.templates import environment, templates_root


@dataclass(frozen=True)
class Entry:
    """One changelog entry."""

    version: str
    date: str
    changes: tuple[str, ...]


@dataclass(frozen=True)
class ModuleSource:
    """A module template at the version its ``module.yaml`` names."""

    name: str
    version: str
    summary: str
    changelog: tuple[Entry, ...]

    @property
    def folder(self) -> Path:
        """The template's folder."""
        return sources_root() / self.name


def sources_root() -> Path:
    """``templates/modules`` of the source checkout.

    Raises:
        GpuplatError: gpuplat runs from an installed package, which ships released versions
            but not the templates they were cut from.
    """
    folder = templates_root() / "modules"
    if not folder.is_dir():
        raise GpuplatError(
            f"no module templates in {templates_root()}",
            hint="module versions are cut in a source checkout of gpuplat (`make "
            "modules-release`); an installed gpuplat ships the released versions only",
        )
    return folder


@cache
def module_sources() -> dict[str, ModuleSource]:
    """Every module template, by name.

    Raises:
        GpuplatError: No templates here (see ``sources_root``).
        ValueError: A ``module.yaml`` is malformed: the name is not its folder's, the version
            is not ``x.y.z``, or the newest changelog entry is not for that version or says
            nothing.
    """
    out: dict[str, ModuleSource] = {}
    for meta in sorted(sources_root().glob("*/module.yaml")):
        data = yaml.safe_load(meta.read_text(encoding="utf-8"))
        name, version = data["name"], str(data["version"])
        if name != meta.parent.name:
            raise ValueError(f"{meta}: name {name!r} must be the folder's name")
        version_key(version)
        changelog = tuple(
            Entry(str(e["version"]), str(e["date"]), tuple(e["changes"] or ()))
            for e in data["changelog"]
        )
        if not changelog or changelog[0].version != version or not changelog[0].changes:
            raise ValueError(
                f"{meta}: the first changelog entry must be for version {version} and say "
                "what changed"
            )
        out[name] = ModuleSource(name, version, " ".join(data["summary"].split()), changelog)
    return out


def render_source(module: ModuleSource) -> dict[str, str]:
    """The template's files as Jinja2 writes them: ``{file name: text}``, not yet formatted."""
    env = environment()
    return {
        source.name.removesuffix(".j2"): env.get_template(
            f"modules/{module.name}/{source.name}"
        ).render(module=module)
        for source in sorted(module.folder.glob("*.j2"))
    }


def changelog(module: ModuleSource) -> str:
    """The CHANGELOG.md of the version the template is at."""
    lines = [f"# {module.name} changelog", ""]
    for entry in module.changelog:
        lines += [f"## {entry.version} ({entry.date})", ""]
        lines += [f"- {change}" for change in entry.changes]
        lines.append("")
    return "\n".join(lines)
