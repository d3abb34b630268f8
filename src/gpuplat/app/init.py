"""`gpuplat init`: write a working example project without clobbering anything."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import yaml

from gpuplat.app.scaffold import scaffold_files
from gpuplat.errors import ExitCode, GpuplatError, user_files
from gpuplat.spec.schema import spec_schema_text

DEFAULT_EXAMPLE = "gke-l4-vllm"
SCHEMA_FILES = {
    ".gpuplat/schema/spec.json": False,
    ".gpuplat/schema/overlay.json": True,
}
PROJECT_GITIGNORE = """\
# Written by gpuplat init.
.terraform/
*.tfplan
envs/*/.plans/
.gpuplat/locks/
.gpuplat/tmp/
.gpuplat/tfdata/
.gpuplat/plugin-cache/
.gpuplat/state/
.gpuplat/cache/
"""


@dataclass(frozen=True)
class InitResult:
    """Files written, relative to the target folder."""

    target: Path
    written: tuple[str, ...]


def _examples() -> Traversable:
    return resources.files("gpuplat") / "examples"


def list_examples() -> list[tuple[str, str]]:
    """(name, one-line summary) of every example, sorted by name."""
    out = []
    for entry in _examples().iterdir():
        spec = entry / "gpuplat.yaml"
        if entry.is_dir() and spec.is_file():
            out.append((entry.name, _summary(spec.read_text(encoding="utf-8"))))
    return sorted(out)


def example_files(name: str) -> dict[str, str]:
    """Every file of an example project: relative path -> text.

    Raises:
        GpuplatError: No such example.
    """
    root = _examples() / name
    if not (root / "gpuplat.yaml").is_file():
        known = ", ".join(n for n, _ in list_examples())
        raise GpuplatError(
            f"no example named {name!r}",
            hint=f"examples: {known}",
            exit_code=ExitCode.ERROR,
        )
    files: dict[str, str] = {}
    _collect(root, "", files)
    for rel, overlay in SCHEMA_FILES.items():
        files[rel] = spec_schema_text(overlay=overlay)
    files[".gitignore"] = PROJECT_GITIGNORE
    spec = yaml.safe_load(files["gpuplat.yaml"])
    files.update(scaffold_files([e["name"] for e in spec["environments"]]))
    return dict(sorted(files.items()))


def init_project(target: Path, example: str | None, *, force: bool) -> InitResult:
    """Write an example project into ``target``.

    Args:
        target: Folder to write into (created when missing).
        example: Example name; default gke-l4-vllm.
        force: Overwrite files that exist.

    Raises:
        GpuplatError: Unknown example, or files exist and ``force`` is off (nothing is written).
        FileError: The operating system refused a write.
    """
    files = example_files(example or DEFAULT_EXAMPLE)
    existing = sorted(rel for rel in files if (target / rel).exists())
    if existing and not force:
        raise GpuplatError(
            f"{len(existing)} file{'s' if len(existing) != 1 else ''} already exist in {target}",
            hint="nothing was written; pass --force to overwrite them, or init into an empty folder",
            details=tuple(existing),
            exit_code=ExitCode.ERROR,
        )
    with user_files(f"write the example project into {target}"):
        for rel, text in files.items():
            path = target / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return InitResult(target, tuple(files))


def _collect(node: Traversable, prefix: str, out: dict[str, str]) -> None:
    for entry in node.iterdir():
        rel = f"{prefix}{entry.name}"
        if entry.is_dir():
            if entry.name != "__pycache__":
                _collect(entry, rel + "/", out)
        elif entry.name.endswith(".yaml"):
            out[rel] = entry.read_text(encoding="utf-8")


def _summary(text: str) -> str:
    """The example's description: the comment block at the top of its spec, as one sentence."""
    parts: list[str] = []
    for line in text.splitlines()[1:]:
        if not line.startswith("#"):
            break
        parts.append(line.lstrip("#").strip())
    body = " ".join(p for p in parts if p)
    name, sep, rest = body.partition(":")
    return rest.strip() if sep and " " not in name else body
