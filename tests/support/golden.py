"""Golden trees: each example rendered into tests/golden/<example>/, compared whole.

``make golden`` (``python -m tests.support.golden``) regenerates them and the repository's own
top-level project (gpuplat.yaml, envs/, modules/: the rendered default example). Review the diff.
"""

from __future__ import annotations

import difflib
import shutil
import sys
from pathlib import Path

from gpuplat.app.init import DEFAULT_EXAMPLE, init_project, list_examples
from gpuplat.app.render import render_project

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden"
SKIP_PARTS = {
    ".terraform",
    "locks",
    "tmp",
    "state",
    "plans",
    ".plans",
    "tfdata",
    "cache",
    "plugin-cache",
}
# What the repository root holds of the default example (the rest of the root is the product).
REPO_ROOT_ITEMS = ("gpuplat.yaml", "envs", "modules", ".gpuplat/schema")


def build(example: str, into: Path) -> Path:
    """Init ``example`` into ``into`` and render it; return the project folder."""
    init_project(into, example, force=False)
    render_project(into)
    return into


def tree(root: Path, items: tuple[str, ...] | None = None) -> dict[str, str]:
    """Text of every file under ``root`` (or under the given items), by relative path."""
    starts = [root / item for item in items] if items else [root]
    out: dict[str, str] = {}
    for start in starts:
        paths = [start] if start.is_file() else sorted(start.rglob("*"))
        for path in paths:
            rel = path.relative_to(root)
            if path.is_file() and not SKIP_PARTS.intersection(rel.parts):
                out[rel.as_posix()] = path.read_text(encoding="utf-8")
    return out


def compare(expected: dict[str, str], actual: dict[str, str]) -> list[str]:
    """Human-readable differences: missing, extra and changed files (with a diff)."""
    problems: list[str] = []
    for path in sorted(set(expected) - set(actual)):
        problems.append(f"missing: {path}")
    for path in sorted(set(actual) - set(expected)):
        problems.append(f"extra: {path}")
    for path in sorted(set(expected) & set(actual)):
        if expected[path] != actual[path]:
            delta = difflib.unified_diff(
                expected[path].splitlines(keepends=True),
                actual[path].splitlines(keepends=True),
                f"golden/{path}",
                f"rendered/{path}",
                n=2,
            )
            problems.append(f"changed: {path}\n{''.join(delta)}")
    return problems


def regenerate(scratch: Path) -> None:
    for name, _ in list_examples():
        project = build(name, scratch / name)
        target = GOLDEN / name
        if target.exists():
            shutil.rmtree(target)
        for rel, text in tree(project).items():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            (target / rel).write_text(text, encoding="utf-8")
        print(f"golden: {target.relative_to(REPO)}")
    # The repository's own project: the default example, rendered.
    source = scratch / DEFAULT_EXAMPLE
    for item in REPO_ROOT_ITEMS:
        dest = REPO / item
        if dest.is_dir():
            shutil.rmtree(dest)
        elif dest.exists():
            dest.unlink()
        src = source / item
        if src.is_dir():
            shutil.copytree(src, dest)
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
    print("golden: repository root (gpuplat.yaml, envs/, modules/)")


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        regenerate(Path(scratch))
    sys.exit(0)
