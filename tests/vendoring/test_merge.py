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
    # Where both merge cleanly and each side's minimal diff is the only one, they must agree.
    # Where a side has several minimal diffs (base ``c a a a``, ours ``a a``: which ``a`` went?)
    # git and gpuplat may pick different ones, and both merges are right.
    if merged is not None and oracle.returncode == 0 and _one_minimal_diff(base, ours, theirs):
        assert "".join(merged) == oracle.stdout


def _alignments(base: list[str], other: list[str]) -> set[frozenset[tuple[int, int]]]:
    """Every set of matched line pairs of a longest common subsequence of the two."""
    n, m = len(base), len(other)
    longest = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            longest[i][j] = (
                longest[i + 1][j + 1] + 1
                if base[i] == other[j]
                else max(longest[i + 1][j], longest[i][j + 1])
            )
    found: dict[tuple[int, int], set[frozenset[tuple[int, int]]]] = {}

    def walk(i: int, j: int) -> set[frozenset[tuple[int, int]]]:
        if longest[i][j] == 0:
            return {frozenset()}
        if (i, j) not in found:
            out: set[frozenset[tuple[int, int]]] = set()
            if base[i] == other[j] and longest[i][j] == longest[i + 1][j + 1] + 1:
                out |= {rest | {(i, j)} for rest in walk(i + 1, j + 1)}
            if longest[i + 1][j] == longest[i][j]:
                out |= walk(i + 1, j)
            if longest[i][j + 1] == longest[i][j]:
                out |= walk(i, j + 1)
            found[(i, j)] = out
        return found[(i, j)]

    return walk(0, 0)


def _one_minimal_diff(base: list[str], ours: list[str], theirs: list[str]) -> bool:
    return len(_alignments(base, ours)) == 1 and len(_alignments(base, theirs)) == 1


def test_a_minimal_diff_is_taken_where_a_longer_one_would_move_a_change() -> None:
    # Theirs deleted ``b``; read as "deleted ``a b``, appended ``a``" (difflib's longest block
    # first), ours' ``x`` landed before the wrong ``a``. git merge-file gives the same.
    base, ours, theirs = (
        ["a\n", "b\n", "a\n", "a\n"],
        ["a\n", "b\n", "a\n", "x\n", "a\n"],
        ["a\n"] * 3,
    )
    assert clean(merge_lines(base, ours, theirs)) == ("a\n", "a\n", "x\n", "a\n")


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
