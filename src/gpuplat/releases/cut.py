"""Cutting module versions: a development step (``make modules-release``), never run by renders.

Each module template is rendered with Jinja2, every ``.tf`` file is formatted by the real
``terraform fmt``, and a README (tables read from the module's own ``variables.tf`` and
``outputs.tf``) and a CHANGELOG (from ``module.yaml``) are added. A module whose result differs
from its latest released folder must name a new, higher version with a changelog entry; that
version's folder is written and its hashes are added to the lock. Anything else is refused,
naming the module and the fix, and then nothing at all is written. Released folders are only
ever added, never changed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat.errors import GpuplatError
from gpuplat.releases import readme
from gpuplat.releases.lock import module_lock, sha256, version_key, write_lock
from gpuplat.releases.sources import ModuleSource, changelog, module_sources, render_source
from gpuplat.releases.versions import Release, latest, release_files, released_versions
from gpuplat.terraform.binary import TerraformBinary, find_binary
from gpuplat.terraform.runner import Terraform

MAKE = "make modules-release"


@dataclass
class ReleasePlan:
    """What cutting would do: the versions to write and the refusals, each with its fix."""

    new: dict[Release, dict[str, str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def build(
    sources: Mapping[str, ModuleSource], binary: TerraformBinary
) -> dict[str, dict[str, str]]:
    """Every template's release files: ``{module: {file name: text}}``, ``.tf`` by terraform fmt.

    One ``terraform fmt`` run formats every module at once.

    Raises:
        TerraformError: A template renders text that is not valid HCL.
    """
    raw = {name: render_source(source) for name, source in sources.items()}
    with tempfile.TemporaryDirectory(prefix="gpuplat-cut-") as tmp:
        staging = Path(tmp)
        for name, texts in raw.items():
            (staging / name).mkdir()
            for file, text in texts.items():
                (staging / name / file).write_text(text, encoding="utf-8")
        Terraform(binary, staging).fmt()
        out: dict[str, dict[str, str]] = {}
        for name, texts in raw.items():
            formatted = {
                file: (staging / name / file).read_text(encoding="utf-8")
                if file.endswith(".tf")
                else text
                for file, text in texts.items()
            }
            source = sources[name]
            formatted["README.md"] = readme.readme(
                name,
                source.version,
                source.summary,
                formatted.get("variables.tf", ""),
                formatted.get("outputs.tf", ""),
            )
            formatted["CHANGELOG.md"] = changelog(source)
            out[name] = dict(sorted(formatted.items()))
    return out


def plan(sources: Mapping[str, ModuleSource], built: Mapping[str, dict[str, str]]) -> ReleasePlan:
    """Compare every template's files with the released versions and decide what to cut."""
    result = ReleasePlan()
    for name, source in sources.items():
        _plan_module(result, source, built[name])
    for name, versions in sorted(module_lock().items()):
        for version in sorted(versions, key=version_key):
            release = Release(name, version)
            if release not in result.new:
                try:
                    release_files(release)
                except GpuplatError as exc:
                    details = "; ".join(exc.details)
                    result.problems.append(
                        f"{name}: released version {version} is damaged ({details}): restore "
                        f"{release.path} from git, it never changes"
                    )
    return result


def _plan_module(result: ReleasePlan, source: ModuleSource, texts: dict[str, str]) -> None:
    name, version = source.name, source.version
    versions = released_versions(name)
    release = Release(name, version)
    here = f"templates/modules/{name}/module.yaml"
    if version in versions:
        locked = module_lock()[name][version]
        if {file: sha256(text) for file, text in texts.items()} != locked:
            changed = sorted(f for f in set(locked) | set(texts) if locked.get(f) != _sha(texts, f))
            result.problems.append(
                f"{name}: the template changed but version {version} is already released "
                f"(differs: {', '.join(changed)}); bump the version in {here}, add a changelog "
                f"entry for it, then run `{MAKE}`"
            )
        elif version != versions[-1]:
            result.problems.append(
                f"{name}: the template is at {version} but {versions[-1]} is released; "
                f"templates only move forward: restore the template of {versions[-1]}"
            )
        elif not release.path.is_dir():
            # Locked (e.g. by an older gpuplat that kept hashes only) but never written out.
            result.new[release] = texts
        return
    if versions and version_key(version) <= version_key(versions[-1]):
        result.problems.append(
            f"{name}: version {version} in {here} is not newer than its latest release "
            f"{versions[-1]}; pick a higher version"
        )
        return
    result.new[release] = texts


def _sha(texts: Mapping[str, str], file: str) -> str | None:
    return sha256(texts[file]) if file in texts else None


def write(cut: ReleasePlan) -> None:
    """Write the planned folders (each built aside, then renamed in) and add them to the lock.

    Raises:
        GpuplatError: The plan has problems; nothing is written.
    """
    if cut.problems:
        raise GpuplatError("module versions not cut", details=tuple(cut.problems))
    lock = {name: dict(versions) for name, versions in module_lock().items()}
    for release, texts in sorted(cut.new.items()):
        final = release.path
        stage = final.with_name(f".{release.version}.{os.getpid()}.tmp")
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir(parents=True)
        for file, text in texts.items():
            (stage / file).write_text(text, encoding="utf-8")
        if final.is_dir() and release.version not in lock.get(release.name, {}):
            shutil.rmtree(final)  # left by a cut that stopped before it wrote the lock
        stage.rename(final)
        lock.setdefault(release.name, {})[release.version] = {
            file: sha256(text) for file, text in texts.items()
        }
    write_lock(lock)
    release_files.cache_clear()
    latest.cache_clear()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gpuplat.releases.cut [--check]``: cut new module versions.

    Returns:
        0 when done (or, with ``--check``, when nothing is pending); 1 otherwise.
    """
    parser = argparse.ArgumentParser(prog="python -m gpuplat.releases.cut", description=__doc__)
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail when a version is pending"
    )
    args = parser.parse_args(argv)
    try:
        sources = module_sources()
        cut = plan(sources, build(sources, find_binary()))
        if args.check or cut.problems:
            for problem in cut.problems:
                print(f"error: {problem}", file=sys.stderr)
            for release in sorted(cut.new):
                print(f"pending: {release} (run `{MAKE}`)", file=sys.stderr)
            return 1 if cut.problems or cut.new else 0
        write(cut)
    except GpuplatError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        for line in exc.details:
            print(f"  {line}", file=sys.stderr)
        if exc.hint:
            print(f"hint: {exc.hint}", file=sys.stderr)
        return 1
    released = ", ".join(str(r) for r in sorted(cut.new))
    print(f"released: {released}" if released else "nothing to release: templates match")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
