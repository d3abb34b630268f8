"""Module templates: every current version is released (locked) and renders exactly that.

A template edited without a version bump must be an error that says so; a module README's
tables must come from its own variables and outputs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import hcl2
import pytest

from gpuplat.errors import StaleError
from gpuplat.releases import lock as mod
from gpuplat.releases import readme as moddoc
from gpuplat.releases.lock import module_templates, released_module, render_module
from gpuplat.render import templates

NAMES = sorted(module_templates())


@pytest.mark.parametrize("name", NAMES)
def test_current_version_renders_its_locked_release(name: str) -> None:
    module, files = released_module(name)
    assert module.changelog[0].version == module.version
    assert set(files) >= {
        "main.tf",
        "variables.tf",
        "outputs.tf",
        "versions.tf",
        "README.md",
        "CHANGELOG.md",
    }


@pytest.mark.parametrize("name", NAMES)
def test_readme_tables_match_an_hcl_parser(name: str) -> None:
    files = render_module(module_templates()[name])
    parsed = hcl2.loads(files["variables.tf"])
    variables = {
        label.strip('"'): body for block in parsed["variable"] for label, body in block.items()
    }
    ours = moddoc.inputs(files["variables.tf"])
    assert [i.name for i in ours] == list(variables)
    for item in ours:
        body = variables[item.name]
        assert (item.default is None) == ("default" not in body), item.name
        assert f"| `{item.name}` |" in files["README.md"]
    outputs = hcl2.loads(files["outputs.tf"])
    names = [label.strip('"') for block in outputs["output"] for label in block]
    assert [o.name for o in moddoc.outputs(files["outputs.tf"])] == names


def test_a_template_edited_without_a_bump_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "templates"
    shutil.copytree(templates.templates_root(), copy)
    main = copy / "modules" / "gke-gpu-node-pool" / "main.tf.j2"
    main.write_text(
        main.read_text().replace(
            "max_unavailable = var.upgrade.max_unavailable", "max_unavailable = 2"
        )
    )
    for cached in (
        templates.templates_root,
        templates.environment,
        mod.module_templates,
        mod.module_lock,
        mod.released_module,
    ):
        cached.cache_clear()
    monkeypatch.setattr(templates, "templates_root", lambda: copy)
    monkeypatch.setattr(mod, "templates_root", lambda: copy)
    try:
        version = mod.module_templates()["gke-gpu-node-pool"].version
        with pytest.raises(StaleError) as caught:
            mod.released_module("gke-gpu-node-pool")
        assert caught.value.message == (
            f"module template gke-gpu-node-pool changed but its version {version} is already released"
        )
        assert caught.value.hint is not None and "bump the version" in caught.value.hint
        assert caught.value.details == ("differs: main.tf",)
        with pytest.raises(StaleError):
            mod.update_lock()
    finally:
        for cached in (
            templates.environment,
            mod.module_templates,
            mod.module_lock,
            mod.released_module,
        ):
            cached.cache_clear()
