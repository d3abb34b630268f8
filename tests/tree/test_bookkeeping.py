"""What a render records about itself: made from the bytes it read, of files that exist."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from gpuplat.render import roots
from gpuplat.tree import stats, uptodate
from tests.support.cli import run


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    assert run("init", root).exit_code == 0
    assert run("render", cwd=root).exit_code == 0
    time.sleep(stats.RACY_NS / 1e9 * 2)  # past the margin: the status record is trusted
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_spec_edited_while_rendering_is_not_recorded_as_rendered(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = project / "gpuplat.yaml"
    _edit(spec, "team: ml-platform", "team: ml-serving")
    real = roots.render

    def render_then_edit(*args: object, **kwargs: object) -> roots.Rendered:
        done = real(*args, **kwargs)  # type: ignore[arg-type]
        _edit(spec, "team: ml-serving", "team: ml-research")  # after the load read it
        return done

    monkeypatch.setattr(roots, "render", render_then_edit)
    assert run("render", cwd=project).exit_code == 0
    monkeypatch.setattr(roots, "render", real)
    rendered = {p: p.read_text() for p in (project / "envs").rglob("*.tf")}
    assert any("ml-serving" in t for t in rendered.values())
    assert not any("ml-research" in t for t in rendered.values())
    # The record holds the spec the render read: today's spec is not up to date.
    assert uptodate.answer(["render"], cwd=project) is None
    result = run("render", cwd=project)
    assert result.exit_code == 0, result.stderr
    assert "nothing written" not in result.stderr
    assert any("ml-research" in p.read_text() for p in (project / "envs").rglob("*.tf"))
    assert uptodate.answer(["render"], cwd=project) == 0


def test_an_overlay_edited_while_rendering_is_not_recorded_as_rendered(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    overlay = project / "envs" / "dev.yaml"
    real = roots.render

    def render_then_edit(*args: object, **kwargs: object) -> roots.Rendered:
        done = real(*args, **kwargs)  # type: ignore[arg-type]
        overlay.write_text(overlay.read_text() + "\n# edited while rendering\n")
        return done

    (project / "envs" / "prod.yaml").write_text(
        (project / "envs" / "prod.yaml").read_text() + "\n# reviewed\n"
    )
    monkeypatch.setattr(roots, "render", render_then_edit)
    assert run("render", cwd=project).exit_code == 0
    monkeypatch.setattr(roots, "render", real)
    # Every overlay file is an input of every environment: both were made from the old bytes.
    assert uptodate.answer(["render", "-e", "dev"], cwd=project) is None
    assert uptodate.answer(["render", "-e", "prod"], cwd=project) is None
    assert run("render", cwd=project).exit_code == 0
    assert uptodate.answer(["render"], cwd=project) == 0


def _recorded(project: Path) -> set[str]:
    data = json.loads((project / stats.STATS).read_text())
    return {k for k in data["files"] if not Path(k).is_absolute()}


def test_the_status_record_forgets_deleted_files(project: Path) -> None:
    before = _recorded(project)
    assert any("inference-us" in k for k in before)
    for path in [project / "gpuplat.yaml", *(project / "envs").glob("*.yaml")]:
        text = path.read_text()
        path.write_text(text.replace("inference-us", "inference-eu"))
    result = run("render", cwd=project)
    assert result.exit_code == 0, result.stderr
    after = _recorded(project)
    gone = [k for k in after if not (project / k).exists()]
    assert gone == []
    assert not any("inference-us" in k for k in after)
    assert any("inference-eu" in k for k in after)
