"""`gpuplat render`: deterministic, idempotent, refuses hand-edited modules, catches staleness."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.golden import tree


@pytest.fixture
def project(tmp_path: Path) -> Path:
    assert run("init", tmp_path).exit_code == 0
    result = run("render", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    return tmp_path


def module_dir(name: str) -> str:
    """``modules/<name>/<latest version>``: tests must not pin released versions."""
    from gpuplat.releases.versions import latest

    return latest(name).folder


def stat_all(root: Path) -> dict[str, tuple[int, int]]:
    return {
        p.relative_to(root).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file() and ".gpuplat" not in p.parts
    }


def test_same_spec_same_bytes(tmp_path: Path) -> None:
    trees = []
    for name in ("a", "b"):
        folder = tmp_path / name
        run("init", folder)
        assert run("render", cwd=folder).exit_code == 0
        trees.append(tree(folder))
    assert trees[0] == trees[1]


def test_noop_render_writes_nothing(project: Path) -> None:
    before = stat_all(project)
    result = run("render", cwd=project)
    assert result.exit_code == 0
    assert result.stderr == "up to date: dev, prod (nothing written)\n"
    assert stat_all(project) == before


def test_changed_spec_rewrites_only_what_changed(project: Path) -> None:
    before = stat_all(project)
    overlay = project / "envs" / "prod.yaml"
    overlay.write_text(overlay.read_text().replace("max_nodes: 8 ", "max_nodes: 10 "))
    result = run("render", cwd=project)
    assert result.exit_code == 0, result.stderr
    # The node pool bound changes, and so does the serving stage's rollout capacity comment.
    assert result.stderr == (
        "  update envs/prod/inference-us/infra/main.tf\n"
        "  update envs/prod/inference-us/serving/main.tf\n"
        "rendered dev, prod: changed 2 items\n"
    )
    after = stat_all(project)
    changed = {p for p in after if after[p] != before.get(p)}
    assert changed == {
        "envs/prod/inference-us/infra/main.tf",
        "envs/prod/inference-us/serving/main.tf",
        "envs/manifest.json",
        "envs/prod.yaml",
    }
    assert "max_nodes       = 10" in (project / "envs/prod/inference-us/infra/main.tf").read_text()


def test_check_reports_stale_root(project: Path) -> None:
    spec = project / "gpuplat.yaml"
    spec.write_text(spec.read_text().replace("team: ml-platform", "team: inference"))
    result = run("render", "--check", cwd=project)
    assert result.exit_code == 5
    assert result.stderr == (
        "Error: the rendered tree is stale: 2 changes pending\n"
        "  update: envs/dev/inference-us/infra/main.tf\n"
        "  update: envs/prod/inference-us/infra/main.tf\n"
        "Hint: run `gpuplat render` and commit the result\n"
    )


def test_check_catches_a_hand_edited_module(project: Path) -> None:
    folder = module_dir("gke-gpu-node-pool")
    main = project / folder / "main.tf"
    text = main.read_text()
    assert "max_surge       = upgrade_settings.value.max_surge" in text
    main.write_text(
        text.replace("max_surge       = upgrade_settings.value.max_surge", "max_surge = 2")
    )
    for args in (("render", "--check"), ("render",)):
        result = run(*args, cwd=project)
        assert result.exit_code == 5
        assert result.stderr.startswith(
            f"Error: released module folder edited by hand: {folder}\n  differs: {folder}/main.tf\n"
        )
    assert "max_surge = 2" in main.read_text(), "a render must not overwrite the hand edit"


def test_extra_file_in_module_folder_is_a_hand_edit(project: Path) -> None:
    folder = module_dir("gke-cluster")
    (project / folder / "extra.tf").write_text("# mine\n")
    result = run("render", "--check", cwd=project)
    assert result.exit_code == 5
    assert f"  differs: {folder}/extra.tf\n" in result.stderr


def test_hand_edited_root_is_reported_and_rewritten(project: Path) -> None:
    backend = project / "envs/dev/inference-us/infra/backend.tf"
    original = backend.read_text()
    backend.write_text(original + "# local tweak\n")
    check = run("render", "--check", cwd=project)
    assert check.exit_code == 5
    assert "  update: envs/dev/inference-us/infra/backend.tf\n" in check.stderr
    result = run("render", cwd=project)
    assert result.exit_code == 0
    assert (
        "Warning: envs/dev/inference-us/infra/backend.tf was edited by hand; gpuplat owns it and rewrote it\n"
        in result.stderr
    )
    assert backend.read_text() == original


def test_dry_run_on_a_hand_edited_root_says_it_would_rewrite_it(project: Path) -> None:
    backend = project / "envs/dev/inference-us/infra/backend.tf"
    edited = backend.read_text() + "# local tweak\n"
    backend.write_text(edited)
    result = run("render", "--dry-run", cwd=project)
    assert result.exit_code == 0
    assert (
        "Warning: envs/dev/inference-us/infra/backend.tf was edited by hand; gpuplat owns it "
        "and would rewrite it (--dry-run: nothing written)\n" in result.stderr
    )
    assert "rewrote" not in result.stderr
    assert backend.read_text() == edited


def test_deleted_module_folder_is_written_again(project: Path) -> None:
    import shutil

    shutil.rmtree(project / "modules/gke-cluster")
    result = run("render", cwd=project)
    assert result.exit_code == 0
    assert f"  create {module_dir('gke-cluster')}/\n" in result.stderr
    assert run("render", "--check", cwd=project).exit_code == 0


def test_invalid_spec_writes_nothing(project: Path) -> None:
    before = stat_all(project)
    spec = project / "gpuplat.yaml"
    spec.write_text(spec.read_text().replace("max_clients: 2", "max_clients: 99"))
    before["gpuplat.yaml"] = stat_all(project)["gpuplat.yaml"]
    result = run("render", cwd=project)
    assert result.exit_code == 4
    assert stat_all(project) == before


def test_render_one_environment_keeps_the_others(project: Path) -> None:
    overlay = project / "envs" / "prod.yaml"
    overlay.write_text(overlay.read_text().replace("max_nodes: 8 ", "max_nodes: 10 "))
    dev_before = (project / "envs/dev/inference-us/infra/main.tf").stat().st_ino
    result = run("render", "-e", "prod", cwd=project)
    assert result.exit_code == 0
    assert (project / "envs/dev/inference-us/infra/main.tf").stat().st_ino == dev_before
    assert run("render", "--check", cwd=project).exit_code == 0


def test_local_state_and_lock_files_survive_a_render(project: Path) -> None:
    lock = project / "envs/dev/inference-us/infra/.terraform.lock.hcl"
    lock.write_text("# provider locks\n")
    overlay = project / "envs" / "dev.yaml"
    overlay.write_text(overlay.read_text().replace("max_nodes: 2", "max_nodes: 3"))
    assert run("render", cwd=project).exit_code == 0
    assert lock.read_text() == "# provider locks\n"


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    run("init", tmp_path)
    before = stat_all(tmp_path)
    result = run("render", "--dry-run", cwd=tmp_path)
    assert result.exit_code == 0
    assert "  would create envs/dev/inference-us/infra/main.tf\n" in result.stderr
    assert stat_all(tmp_path) == before


def test_a_second_render_waits_for_nobody(project: Path) -> None:
    import fcntl

    lock = project / ".gpuplat/locks/render.lock"
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        result = run("render", cwd=project)
    finally:
        os.close(fd)
    assert result.exit_code == 8
    assert result.stderr.startswith(
        "Error: cannot render: another gpuplat run holds the render lock\n"
    )


def test_noop_render_does_not_load_the_spec(project: Path) -> None:
    """With nothing changed, render answers from the manifest: no pydantic, no jinja."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from gpuplat.app.render import render_project\n"
        f"result = render_project(Path({str(project)!r})).result\n"
        "assert result.nothing_to_do and not result.written\n"
        "print(sorted(m for m in ('pydantic', 'jinja2', 'yaml') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_noop_fast_path_still_sees_a_stray_module_file(project: Path) -> None:
    folder = module_dir("gke-cluster")
    (project / folder / "extra.tf").write_text("# mine\n")
    result = run("render", cwd=project)
    assert result.exit_code == 5
    assert f"  differs: {folder}/extra.tf\n" in result.stderr


def test_cosmetic_spec_change_writes_nothing(project: Path) -> None:
    before = stat_all(project)
    spec = project / "gpuplat.yaml"
    spec.write_text(spec.read_text() + "\n# a comment\n")
    before["gpuplat.yaml"] = stat_all(project)["gpuplat.yaml"]
    result = run("render", cwd=project)
    assert result.exit_code == 0
    assert result.stderr == "up to date: dev, prod (nothing written)\n"
    assert stat_all(project) == before
    # The local render cache now knows the new spec: the next render is answered from it.
    assert run("render", cwd=project).stderr == "up to date: dev, prod (nothing written)\n"
