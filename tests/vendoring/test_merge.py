"""The merge pieces: diff3 of lines, unified patches, and the block merge's edge cases."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpuplat.vendoring.blockmerge import merge_terraform
from gpuplat.vendoring.linemerge import Clash, clean, merge_lines
from gpuplat.vendoring.patch import PatchError, apply, unified
from tests.support.realparts import missing

LINES = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\n", "}\n", "\n"]), max_size=12)


def _edit(draw: st.DrawFn, base: list[str]) -> list[str]:
    out = list(base)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(out)))
        if out and draw(st.booleans()):
            out.pop(min(at, len(out) - 1))
        else:
            out.insert(at, draw(st.sampled_from(["x\n", "y\n", "z\n"])))
    return out


@st.composite
def three(draw: st.DrawFn) -> tuple[list[str], list[str], list[str]]:
    base = draw(LINES)
    return base, _edit(draw, base), _edit(draw, base)


@given(three())
def test_a_side_that_did_not_change_takes_the_other(sides: tuple[list[str], ...]) -> None:
    base, ours, theirs = sides
    assert clean(merge_lines(base, base, theirs)) == tuple(theirs)
    assert clean(merge_lines(base, ours, base)) == tuple(ours)
    assert clean(merge_lines(base, ours, ours)) == tuple(ours)


@given(three())
def test_a_clean_merge_agrees_with_git_merge_file(
    tmp_path_factory: pytest.TempPathFactory, sides: tuple[list[str], ...]
) -> None:
    git = shutil.which("git")
    if git is None:
        missing("git (the oracle for clean three-way merges) is not on PATH")
    base, ours, theirs = sides
    merged = clean(merge_lines(base, ours, theirs))
    folder = tmp_path_factory.mktemp("m")
    for name, lines in (("o", ours), ("b", base), ("t", theirs)):
        (folder / name).write_text("".join(lines), encoding="utf-8")
    oracle = subprocess.run(
        [str(git), "merge-file", "-p", "o", "b", "t"], cwd=folder, capture_output=True, text=True
    )
    # Where both merge cleanly they must agree (where the two diffs align changes differently,
    # one may clash where the other does not: that is no wrong merge).
    if merged is not None and oracle.returncode == 0:
        assert "".join(merged) == oracle.stdout


def test_both_sides_changing_one_line_differently_is_a_clash() -> None:
    pieces = merge_lines(["a\n", "b\n", "c\n"], ["a\n", "B\n", "c\n"], ["a\n", "b2\n", "c\n"])
    assert pieces == [("a\n",), Clash(("b\n",), ("B\n",), ("b2\n",)), ("c\n",)]


@given(st.text(alphabet="ab\nx", max_size=40), st.text(alphabet="ab\ny", max_size=40))
def test_a_patch_applies_back_exactly(old: str, new: str) -> None:
    assert apply(old, unified(old, new, "a", "b")) == new


def test_a_patch_does_not_apply_to_other_text() -> None:
    patch = unified("a\nb\nc\n", "a\nB\nc\n", "a", "b")
    with pytest.raises(PatchError):
        apply("a\nq\nc\n", patch)


BASE = """\
variable "a" {
  type = string
}

variable "b" {
  type    = number
  default = 1
}
"""


def test_a_block_added_here_stays_after_its_neighbour_and_one_added_upstream_arrives() -> None:
    ours = BASE.replace('variable "b"', 'variable "mine" {\n  type = bool\n}\n\nvariable "b"')
    theirs = BASE + '\nvariable "c" {\n  type = string\n}\n'
    merged = merge_terraform(BASE, ours, theirs)
    assert not merged.conflicts
    text = merged.text()
    assert text.index('variable "a"') < text.index('variable "mine"') < text.index('variable "b"')
    assert text.index('variable "b"') < text.index('variable "c"')


def test_a_block_deleted_here_and_changed_upstream_is_a_conflict() -> None:
    ours = BASE[: BASE.index('variable "b"')]
    theirs = BASE.replace("default = 1", "default = 2")
    merged = merge_terraform(BASE, ours, theirs)
    assert [c.address for c in merged.conflicts] == ['variable "b"']
    assert merged.conflicts[0].ours == ""


def test_a_block_deleted_here_and_untouched_upstream_stays_deleted() -> None:
    ours = BASE[: BASE.index('variable "b"')]
    theirs = BASE.replace("type = string", "type = string\n  nullable = false")
    merged = merge_terraform(BASE, ours, theirs)
    assert not merged.conflicts
    assert 'variable "b"' not in merged.text() and "nullable = false" in merged.text()


def test_two_attributes_of_one_block_changed_on_each_side_merge() -> None:
    ours = BASE.replace("type    = number", "type    = number # seconds")
    theirs = BASE.replace("default = 1", "default = 5")
    merged = merge_terraform(BASE, ours, theirs)
    assert not merged.conflicts
    assert "type    = number # seconds" in merged.text() and "default = 5" in merged.text()


def test_text_that_python_hcl2_cannot_read_falls_back_to_lines(tmp_path: Path) -> None:
    broken = BASE + "variable {\n"
    merged = merge_terraform(broken, broken.replace("default = 1", "default = 3"), broken)
    assert not merged.conflicts and "default = 3" in merged.text()
