"""Which version constraints of a repository no vendored module can live with.

Every ``required_version`` and ``required_providers`` entry of the repository's Terraform is
compared with each module's own: when no version satisfies both, Terraform would refuse to
init any root that calls that module, so gpuplat says so, at the repository's file:line,
before it writes anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from gpuplat.releases.versions import Release, release_files
from gpuplat.vendoring.constraints import ConstraintError, Kind, compatible
from gpuplat.vendoring.destination import TerraformFile, read_file


@dataclass(frozen=True)
class Clash:
    """A repository constraint, and the modules whose own constraint no version satisfies too."""

    where: str
    what: str
    repo: str
    modules: tuple[tuple[str, str], ...]
    """(module version, its constraint)."""

    def line(self) -> str:
        needs = ", ".join(f'{m} ("{n}")' for m, n in self.modules)
        return f'{self.where}  {self.what} "{self.repo}" conflicts with {needs}'


@dataclass(frozen=True)
class Pins:
    """One module version's own constraints."""

    release: Release
    terraform: tuple[str, ...]
    providers: dict[str, str]
    """Qualified provider source -> version constraint."""


def module_pins(release: Release) -> Pins:
    """The constraints a released module version declares (in any of its .tf files)."""
    terraform: list[str] = []
    providers: dict[str, str] = {}
    for name, text in sorted(release_files(release).items()):
        if not name.endswith(".tf"):
            continue
        found = read_file(Path(name), text)
        terraform += [v.value for v in found.required_version]
        providers.update({p.source: p.version.value for p in found.providers if p.version})
    return Pins(release, tuple(terraform), providers)


def _clash(repo: str, needs: str, kind: Kind) -> bool:
    try:
        return not compatible(repo, needs, kind)
    except ConstraintError:
        return False  # terraform reports a malformed constraint itself, in its own words


def clashes(dest: Path, files: Iterable[TerraformFile], pins: Iterable[Pins]) -> list[Clash]:
    """Every repository constraint some module conflicts with, in file order."""
    modules = list(pins)
    out: list[Clash] = []
    for tf in files:
        for located in tf.required_version:
            bad = tuple(
                (str(pin.release), needs)
                for pin in modules
                for needs in pin.terraform
                if _clash(located.value, needs, "terraform")
            )
            if bad:
                out.append(Clash(located.where(dest), "required_version", located.value, bad))
        for provider in tf.providers:
            if provider.version is None:
                continue
            version = provider.version
            bad = tuple(
                (str(pin.release), pin.providers[provider.source])
                for pin in modules
                if provider.source in pin.providers
                and _clash(version.value, pin.providers[provider.source], "provider")
            )
            if bad:
                what = f"required_providers.{provider.name}"
                out.append(Clash(version.where(dest), what, version.value, bad))
    return out
