"""Released module versions shipped with gpuplat: plain folders, read only after the lock check.

Every version ever released lives in ``releases/modules/<name>/<version>/`` inside the package
(``.tf`` files as the real ``terraform fmt`` wrote them when the version was cut, a README and
a CHANGELOG). A render copies the files of the latest version of each module it uses; nothing
is templated or formatted at run time. The older versions stay so that a vendored copy can
always be compared with the pristine release it came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from gpuplat.errors import StaleError
from gpuplat.releases.lock import module_lock, sha256, version_key

RELEASES = Path(__file__).with_name("modules")
"""``<name>/<version>/<file>`` of every released module version."""


@dataclass(frozen=True, order=True)
class Release:
    """One released version of one module."""

    name: str
    version: str

    @property
    def folder(self) -> str:
        """Where a render writes it, relative to the project: ``modules/<name>/<version>``."""
        return f"modules/{self.name}/{self.version}"

    @property
    def path(self) -> Path:
        """Its shipped folder."""
        return RELEASES / self.name / self.version

    def __str__(self) -> str:
        return f"{self.name} {self.version}"


def released_versions(name: str) -> tuple[str, ...]:
    """Every released version of module ``name``, oldest first (empty for an unknown name)."""
    return tuple(sorted(module_lock().get(name, {}), key=version_key))


@cache
def latest(name: str) -> Release:
    """The newest released version of module ``name``: the one renders use.

    Raises:
        StaleError: The module has no released version (a template never cut).
    """
    versions = released_versions(name)
    if not versions:
        raise StaleError(
            f"module {name} has no released version",
            hint="cut one from its template with `make modules-release`",
        )
    return Release(name, versions[-1])


def release_hashes(release: Release) -> dict[str, str]:
    """The lock's sha256 of each file of ``release``: ``{file name: sha256}``.

    Raises:
        StaleError: The version is not in the lock.
    """
    locked = module_lock().get(release.name, {}).get(release.version)
    if locked is None:
        raise StaleError(
            f"module {release} is not a released version",
            hint="released versions: "
            + (", ".join(released_versions(release.name)) or "none")
            + "; cut new ones with `make modules-release`",
        )
    return dict(locked)


@cache
def release_files(release: Release) -> dict[str, str]:
    """The files of a released version, ``{file name: text}``, proven equal to the lock.

    Raises:
        StaleError: The version is not in the lock, or its shipped folder differs from it (a
            file edited, missing or added after the version was cut).
    """
    locked = release_hashes(release)
    folder = release.path
    try:
        present = sorted(p.name for p in folder.iterdir() if p.is_file())
        texts = {name: (folder / name).read_text(encoding="utf-8") for name in present}
    except (OSError, UnicodeDecodeError) as exc:
        raise _damaged(release, (f"cannot read {folder}: {exc}",)) from exc
    problems = [f"missing: {name}" for name in sorted(set(locked) - set(texts))]
    problems += [f"not in the lock: {name}" for name in sorted(set(texts) - set(locked))]
    problems += [
        f"differs: {name}"
        for name in sorted(set(texts) & set(locked))
        if sha256(texts[name]) != locked[name]
    ]
    if problems:
        raise _damaged(release, tuple(problems))
    return texts


def _damaged(release: Release, details: tuple[str, ...]) -> StaleError:
    return StaleError(
        f"released module {release} does not match its lock",
        hint=f"a released version never changes: restore {release.path} (in a source "
        "checkout: `git checkout` it; otherwise reinstall gpuplat); a change to a module is "
        "released as a new version with `make modules-release`",
        details=details,
    )
