"""Which version constraints of a repository no vendored module can live with.

Terraform merges the constraints of every module in a root's tree. So only the folders in the
tree of a root that calls gpuplat's modules count (``calling_folders``): a root that never
calls them may pin what it likes. Each of their ``required_version`` and ``required_providers``
entries is compared with each module's own: when no version satisfies both, Terraform would
refuse to init that root, so gpuplat says so, at the repository's file:line, before it writes
anything, with a hint that points forward (a newer module, or a wider module constraint), never
at downgrading the repository.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from gpuplat.releases.versions import Release, release_files
from gpuplat.vendoring.constraints import ConstraintError, Kind, compatible, parse
from gpuplat.vendoring.destination import TerraformFile, read_file


@dataclass(frozen=True)
class Clash:
    """A repository constraint, and the modules whose own constraint no version satisfies too."""

    where: str
    what: str
    repo: str
    modules: tuple[tuple[str, str], ...]
    """(module version, its constraint)."""

    kind: Kind = "provider"

    def line(self) -> str:
        needs = ", ".join(f'{m} ("{n}")' for m, n in self.modules)
        return f'{self.where}  {self.what} "{self.repo}" conflicts with {needs}'

    @property
    def repository_is_newer(self) -> bool:
        """The repository asks for versions above every one a module allows (e.g. ``~> 3.0``
        against ``< 3``): the way out is a newer module, not an older repository."""
        try:
            low = parse(self.repo, self.kind).low
            return all(low >= parse(n, self.kind).high for _, n in self.modules)
        except ConstraintError:
            return False


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


def _local(folder: Path, source: str) -> Path | None:
    """The folder a local module source names (``./x``, ``../x``), else None."""
    if not source.startswith(("./", "../")):
        return None
    return Path(os.path.normpath(folder / source))


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def calling_folders(
    files: Iterable[TerraformFile], vendor_dir: Path, callers: Iterable[Path] = ()
) -> set[Path]:
    """The folders whose constraints meet gpuplat's modules: every folder in the module tree
    of a root that calls, directly or through its own modules, a module under ``vendor_dir``.

    ``callers`` are folders about to call them (where ``--calls`` writes).
    """
    vendor = Path(os.path.normpath(vendor_dir))
    calls: dict[Path, set[Path]] = {}
    for tf in files:
        folder = Path(os.path.normpath(tf.path.parent))
        targets = calls.setdefault(folder, set())
        for module in tf.modules:
            target = _local(folder, module.source.value)
            if target is not None:
                targets.add(target)
    reaching = {Path(os.path.normpath(c)) for c in callers}
    reaching |= {f for f, ts in calls.items() if any(_inside(t, vendor) for t in ts)}
    grew = True
    while grew:  # a folder calling a folder that reaches the modules reaches them too
        more = {f for f, ts in calls.items() if f not in reaching and ts & reaching}
        reaching |= more
        grew = bool(more)
    tree = set(reaching)
    todo = list(reaching)
    while todo:  # and every module in those roots' trees shares their constraints
        for target in calls.get(todo.pop(), ()):
            if target not in tree and not _inside(target, vendor):
                tree.add(target)
                todo.append(target)
    return tree


def clashes(
    dest: Path,
    files: Iterable[TerraformFile],
    pins: Iterable[Pins],
    within: set[Path] | None = None,
) -> list[Clash]:
    """Every repository constraint some module conflicts with, in file order.

    ``within``: only files in these folders (see ``calling_folders``); None: every file.
    """
    modules = list(pins)
    out: list[Clash] = []
    for tf in files:
        if within is not None and Path(os.path.normpath(tf.path.parent)) not in within:
            continue
        for located in tf.required_version:
            bad = tuple(
                (str(pin.release), needs)
                for pin in modules
                for needs in pin.terraform
                if _clash(located.value, needs, "terraform")
            )
            if bad:
                out.append(
                    Clash(located.where(dest), "required_version", located.value, bad, "terraform")
                )
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
