"""Released module versions: every locked version ships as a folder, and is read only intact."""

from __future__ import annotations

from pathlib import Path

import hcl2
import pytest

from gpuplat.errors import StaleError
from gpuplat.releases import readme, versions
from gpuplat.releases.lock import module_lock, version_key
from gpuplat.releases.versions import Release, latest, release_files, released_versions
from tests.releases.sandbox import sandbox
from tests.support.tffmt import fmt_problems

RELEASES = [Release(name, v) for name, vs in sorted(module_lock().items()) for v in sorted(vs)]


def test_every_locked_version_ships_and_nothing_else() -> None:
    shipped = {Release(p.parent.name, p.name) for p in versions.RELEASES.glob("*/*") if p.is_dir()}
    assert shipped == set(RELEASES)
    # Versions that only git history held when released folders were introduced.
    assert {Release("gke-cluster", "1.0.0"), Release("model-server", "1.0.0")} <= shipped


@pytest.mark.parametrize("release", RELEASES, ids=str)
def test_released_folder_matches_its_lock(release: Release) -> None:
    texts = release_files(release)
    assert set(texts) >= {"main.tf", "variables.tf", "outputs.tf", "versions.tf"}
    assert set(texts) >= {"README.md", "CHANGELOG.md"}
    assert texts["main.tf"].startswith(f"# gpuplat module {release.name} {release.version}:")
    assert f"## {release.version} (" in texts["CHANGELOG.md"]


def test_latest_is_the_highest_version() -> None:
    assert released_versions("gke-cluster")[:2] == ("1.0.0", "1.1.0")
    for name in module_lock():
        assert latest(name).version == max(module_lock()[name], key=version_key)
    assert version_key("1.10.0") > version_key("1.9.3")
    with pytest.raises(StaleError, match="has no released version"):
        latest("no-such-module")


@pytest.mark.terraform
def test_released_tf_files_are_terraform_fmt_clean(tmp_path: Path) -> None:
    assert fmt_problems(versions.RELEASES, tmp_path) == ""


@pytest.mark.parametrize("release", RELEASES, ids=str)
def test_readme_tables_match_an_hcl_parser(release: Release) -> None:
    texts = release_files(release)
    parsed = hcl2.loads(texts["variables.tf"])
    variables = {
        label.strip('"'): body for block in parsed["variable"] for label, body in block.items()
    }
    ours = readme.inputs(texts["variables.tf"])
    assert [i.name for i in ours] == list(variables)
    for item in ours:
        assert (item.default is None) == ("default" not in variables[item.name]), item.name
        assert f"| `{item.name}` |" in texts["README.md"]
    outputs = hcl2.loads(texts["outputs.tf"])
    names = [label.strip('"') for block in outputs["output"] for label in block]
    assert [o.name for o in readme.outputs(texts["outputs.tf"])] == names


@pytest.mark.parametrize(
    ("damage", "detail"),
    [
        (lambda folder: (folder / "main.tf").write_text("# edited\n"), "differs: main.tf"),
        (lambda folder: (folder / "outputs.tf").unlink(), "missing: outputs.tf"),
        (lambda folder: (folder / "extra.tf").write_text("\n"), "not in the lock: extra.tf"),
    ],
    ids=["edited", "missing", "added"],
)
def test_a_damaged_release_is_never_read(
    damage: object, detail: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with sandbox(tmp_path, monkeypatch) as box:
        release = latest("gke-gpu-node-pool")
        assert callable(damage)
        damage(box.releases / release.name / release.version)
        with pytest.raises(StaleError) as caught:
            release_files(release)
        assert caught.value.message == f"released module {release} does not match its lock"
        assert caught.value.details == (detail,)
        assert caught.value.hint is not None and "never changes" in caught.value.hint
