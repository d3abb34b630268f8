"""Cutting module versions with the real terraform fmt: only a bumped, changelogged template
becomes a new folder, and a template that differs from its latest release fails the suite."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from gpuplat.errors import GpuplatError
from gpuplat.releases import cut
from gpuplat.releases.lock import module_lock
from gpuplat.releases.sources import module_sources
from gpuplat.releases.versions import Release, latest, release_files
from gpuplat.terraform.binary import find_binary
from tests.releases.sandbox import Sandbox, forget, sandbox
from tests.support.realparts import terraform_bin
from tests.support.tffmt import fmt_problems

pytestmark = pytest.mark.terraform


def planned() -> cut.ReleasePlan:
    sources = module_sources()
    return cut.plan(sources, cut.build(sources, find_binary(terraform_bin())))


def test_every_template_is_its_latest_release() -> None:
    result = planned()
    assert result.problems == [], "\n".join(result.problems)
    pending = ", ".join(str(r) for r in sorted(result.new))
    assert not result.new, (
        f"module templates differ from their latest release: {pending}. Run `make "
        "modules-release` (with a raised version and a changelog entry in module.yaml) and "
        "commit the new folders and the lock"
    )


def edit(box: Sandbox) -> None:
    main = box.template("gke-gpu-node-pool", "main.tf.j2")
    text = main.read_text(encoding="utf-8")
    old = "max_unavailable = upgrade_settings.value.max_unavailable"
    assert old in text
    # Unformatted on purpose: terraform fmt must line the `=` up again.
    main.write_text(text.replace(old, "max_unavailable  =   2"), encoding="utf-8")


def next_minor(version: str) -> str:
    major, minor, _ = version.split(".")
    return f"{major}.{int(minor) + 1}.0"


def bump(
    box: Sandbox, module: str, version: str, changes: str = "Upgrades one node at a time."
) -> None:
    meta = box.template(module, "module.yaml")
    text = meta.read_text(encoding="utf-8")
    current = module_sources()[module].version
    text = text.replace(f"version: {current}\n", f"version: {version}\n", 1)
    entry = f'  - version: {version}\n    date: "2026-12-01"\n    changes:\n      - {changes}\n'
    meta.write_text(text.replace("changelog:\n", "changelog:\n" + entry, 1), encoding="utf-8")
    forget()


def digest(folder: Path) -> str:
    return hashlib.sha256(
        b"".join(p.name.encode() + p.read_bytes() for p in sorted(folder.iterdir()))
    ).hexdigest()


def test_a_template_changed_without_a_bump_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with sandbox(tmp_path, monkeypatch) as box:
        edit(box)
        before = box.lock.read_bytes()
        result = planned()
        version = latest("gke-gpu-node-pool").version
        assert result.problems == [
            f"gke-gpu-node-pool: the template changed but version {version} is already "
            "released (differs: main.tf); bump the version in "
            "templates/modules/gke-gpu-node-pool/module.yaml, add a changelog entry for it, "
            "then run `make modules-release`"
        ]
        with pytest.raises(GpuplatError, match="not cut"):
            cut.write(result)
        assert box.lock.read_bytes() == before
        assert cut.main([]) == 1
        assert box.lock.read_bytes() == before


def test_a_bumped_template_is_cut_into_a_new_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with sandbox(tmp_path, monkeypatch) as box:
        old = latest("gke-gpu-node-pool")
        released_before = set(module_lock()["gke-gpu-node-pool"])
        old_digest = digest(box.releases / old.name / old.version)
        edit(box)
        version = next_minor(old.version)
        bump(box, "gke-gpu-node-pool", version)
        assert cut.main(["--check"]) == 1
        assert cut.main([]) == 0

        new = Release("gke-gpu-node-pool", version)
        assert latest("gke-gpu-node-pool") == new
        texts = release_files(new)  # the lock now holds its hashes
        assert "max_unavailable = 2" in texts["main.tf"]
        assert texts["main.tf"].startswith(f"# gpuplat module gke-gpu-node-pool {version}:")
        entry = f"## {version} (2026-12-01)\n\n- Upgrades one node at a time."
        assert entry in texts["CHANGELOG.md"]
        assert texts["README.md"].startswith(f"# gke-gpu-node-pool {version}\n")
        assert fmt_problems(box.releases / new.name, tmp_path) == ""
        assert digest(box.releases / old.name / old.version) == old_digest
        assert set(module_lock()["gke-gpu-node-pool"]) == {*released_before, version}
        assert cut.main(["--check"]) == 0  # nothing left to cut


@pytest.mark.parametrize("version", ["0.9.0", "latest"])
def test_a_version_must_be_higher_than_the_latest_release(
    version: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with sandbox(tmp_path, monkeypatch) as box:
        edit(box)
        if version != "latest":
            bump(box, "gke-gpu-node-pool", version)
            expected = "is not newer than its latest release"
        else:
            expected = "is already released"
        result = planned()
        assert len(result.problems) == 1
        assert result.problems[0].startswith("gke-gpu-node-pool: ")
        assert expected in result.problems[0]
        assert not result.new


def test_a_bump_needs_a_changelog_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with sandbox(tmp_path, monkeypatch) as box:
        meta = box.template("scale-to-zero", "module.yaml")
        current = latest("scale-to-zero").version
        major = int(current.split(".")[0]) + 1
        text = meta.read_text()
        meta.write_text(text.replace(f"version: {current}\n", f"version: {major}.0.0\n", 1))
        with pytest.raises(
            ValueError, match=rf"first changelog entry must be for version {major}\.0\.0"
        ):
            module_sources()


def test_a_damaged_release_stops_the_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with sandbox(tmp_path, monkeypatch) as box:
        (box.releases / "gke-cluster" / "1.0.0" / "README.md").write_text("edited\n")
        result = planned()
        assert result.problems == [
            "gke-cluster: released version 1.0.0 is damaged (differs: README.md): restore "
            f"{box.releases / 'gke-cluster' / '1.0.0'} from git, it never changes"
        ]


def test_a_locked_version_without_a_folder_is_written_when_its_template_renders_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What an older gpuplat left behind: a version recorded in the lock by its hashes only.
    with sandbox(tmp_path, monkeypatch) as box:
        release = latest("scale-to-zero")
        folder = box.releases / release.name / release.version
        expected = digest(folder)
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
        assert cut.main([]) == 0
        assert digest(folder) == expected
