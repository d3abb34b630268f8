"""The roles a failover writes into an environment's overlay, and the file put back as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuplat.app.overlay import set_roles
from gpuplat.errors import GpuplatError

OVERLAY = """\
# prod: what differs from gpuplat.yaml
workloads:
  - name: embed        # another workload: left alone
    replicas: {min: 2, max: 4}
  - name: chat
    replicas:
      max: 8   # peak traffic
"""


def test_roles_go_into_the_workload_keeping_the_rest_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "prod.yaml"
    path.write_text(OVERLAY, encoding="utf-8")
    set_roles(path, "chat", {"inference-use1": "active", "inference-us": "cold"})
    text = path.read_text(encoding="utf-8")
    # Comments, flow style and order are the person's; only the placements are new.
    assert text == OVERLAY + (
        "    placements:\n"
        "      inference-use1:\n"
        "        role: active\n"
        "      inference-us:\n"
        "        role: cold\n"
    )


def test_a_role_already_written_is_changed_in_place(tmp_path: Path) -> None:
    path = tmp_path / "prod.yaml"
    path.write_text(
        "workloads:\n- name: chat\n  placements:\n    inference-us: {role: warm, warm_replicas: 1}\n",
        encoding="utf-8",
    )
    set_roles(path, "chat", {"inference-us": "active"})
    loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert loaded == {
        "workloads": [
            {"name": "chat", "placements": {"inference-us": {"role": "active", "warm_replicas": 1}}}
        ]
    }


def test_no_overlay_yet_gets_one_and_restore_removes_it(tmp_path: Path) -> None:
    path = tmp_path / "envs" / "dev.yaml"
    before = set_roles(path, "chat", {"b": "active"})
    assert yaml.safe_load(path.read_text(encoding="utf-8")) == {
        "workloads": [{"name": "chat", "placements": {"b": {"role": "active"}}}]
    }
    before.restore()
    assert not path.exists()


def test_restore_puts_back_every_byte(tmp_path: Path) -> None:
    path = tmp_path / "prod.yaml"
    path.write_bytes(OVERLAY.encode())
    before = set_roles(path, "chat", {"a": "cold"})
    assert path.read_bytes() != OVERLAY.encode()
    before.restore()
    assert path.read_bytes() == OVERLAY.encode()


def test_an_overlay_that_is_not_a_mapping_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "prod.yaml"
    path.write_text("- just a list\n", encoding="utf-8")
    with pytest.raises(GpuplatError, match="is not a mapping"):
        set_roles(path, "chat", {"a": "cold"})
    assert path.read_text(encoding="utf-8") == "- just a list\n"
