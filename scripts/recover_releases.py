"""Write released module versions that only git history can still produce.

Module versions used to be recorded in the lock by their hashes alone. For every locked version
that has no released folder and that no current template is at, this finds the newest commit
whose ``module.yaml`` names that version, renders the module with that commit's own code (in a
temporary git worktree), checks every file against the lock's sha256 and only then writes the
folder. A version that does not match is reported and left out.

Run from a source checkout: ``.venv/bin/python scripts/recover_releases.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from gpuplat.releases.lock import module_lock, sha256  # noqa: E402
from gpuplat.releases.versions import Release  # noqa: E402

# Where module_templates() and render_module() lived at a commit, newest first.
RENDERERS = ("gpuplat.releases.lock", "gpuplat.render.modules")
RENDER = """
import importlib, json, sys
for name in sys.argv[1:-2]:
    try:
        mod = importlib.import_module(name)
        break
    except ImportError:
        continue
module = mod.module_templates()[sys.argv[-2]]
assert module.version == sys.argv[-1], (module.version, sys.argv[-1])
print(json.dumps(mod.render_module(module)))
"""


def git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def commit_of(name: str, version: str) -> str | None:
    """The newest commit whose module.yaml of ``name`` names ``version``."""
    meta = f"templates/modules/{name}/module.yaml"
    for commit in git("log", "--format=%H", "--", meta).split():
        try:
            data = yaml.safe_load(git("show", f"{commit}:{meta}"))
        except SystemExit:
            continue
        if str(data.get("version")) == version:
            return commit
    return None


def render_at(commit: str, name: str, version: str) -> dict[str, str]:
    """The module's files as the code of ``commit`` renders them."""
    with tempfile.TemporaryDirectory(prefix="gpuplat-recover-") as tmp:
        tree = Path(tmp) / "tree"
        git("worktree", "add", "--detach", str(tree), commit)
        try:
            done = subprocess.run(
                [sys.executable, "-c", RENDER, *RENDERERS, name, version],
                capture_output=True,
                text=True,
                cwd=tmp,
                env={"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"},
                check=False,
            )
        finally:
            git("worktree", "remove", "--force", str(tree))
    if done.returncode != 0:
        raise SystemExit(f"rendering {name} {version} at {commit[:10]} failed:\n{done.stderr}")
    texts: dict[str, str] = json.loads(done.stdout)
    return texts


def main() -> int:
    current = {}
    for meta in (REPO / "templates" / "modules").glob("*/module.yaml"):
        data = yaml.safe_load(meta.read_text(encoding="utf-8"))
        current[data["name"]] = str(data["version"])
    failed = 0
    for name, versions in sorted(module_lock().items()):
        for version, locked in sorted(versions.items()):
            release = Release(name, version)
            if release.path.is_dir() or current.get(name) == version:
                continue
            commit = commit_of(name, version)
            if commit is None:
                print(f"NOT RECOVERED {release}: no commit has this version")
                failed += 1
                continue
            texts = render_at(commit, name, version)
            hashes = {file: sha256(text) for file, text in texts.items()}
            if hashes != locked:
                bad = sorted(f for f in set(hashes) | set(locked) if hashes.get(f) != locked.get(f))
                print(f"NOT RECOVERED {release} at {commit[:10]}: differs: {', '.join(bad)}")
                failed += 1
                continue
            release.path.mkdir(parents=True)
            for file, text in texts.items():
                (release.path / file).write_text(text, encoding="utf-8")
            print(f"recovered {release} from {commit[:10]}: {len(texts)} files match the lock")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
