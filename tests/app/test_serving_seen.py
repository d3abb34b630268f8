"""The counts last seen serving live beside the local state, not in the committed moves.json."""

from __future__ import annotations

import json
from pathlib import Path

from gpuplat.app import pending, servingplan


def test_counts_are_kept_outside_the_committed_tree_and_only_rewritten_on_change(
    tmp_path: Path,
) -> None:
    servingplan.remember(tmp_path, "dev", {("chat", "gke"): 3, ("chat", "eks"): 0})
    where = tmp_path / ".gpuplat" / "state" / "dev" / "serving-seen.json"
    assert json.loads(where.read_text(encoding="utf-8")) == {"chat": {"gke": 3}}
    assert not (tmp_path / "envs").exists()
    assert servingplan.last_known(tmp_path, "dev", "chat", "gke") == 3
    assert servingplan.last_known(tmp_path, "dev", "chat", "eks") == 0
    stamp = where.stat().st_mtime_ns
    servingplan.remember(tmp_path, "dev", {("chat", "gke"): 3})
    assert where.stat().st_mtime_ns == stamp
    servingplan.remember(tmp_path, "dev", {("chat", "gke"): 0})
    assert not where.exists()


def test_a_serving_entry_an_earlier_version_wrote_into_moves_json_is_dropped(
    tmp_path: Path,
) -> None:
    moves = tmp_path / "envs" / "dev" / "moves.json"
    moves.parent.mkdir(parents=True)
    moves.write_text(json.dumps({"serving": {"chat": {"gke": 2}}}), encoding="utf-8")
    assert pending.read(tmp_path, "dev") == {}
    pending.record(tmp_path, "dev", pending.PendingMove("chat", "eks", ("gke",), "cold", 2))
    assert "serving" not in json.loads(moves.read_text(encoding="utf-8"))
    pending.clear(tmp_path, "dev", "chat")
    assert not moves.exists()
