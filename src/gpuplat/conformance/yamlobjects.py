"""Custom resources in YAML manifests (``gpuplat render --manifests`` output, or any other),
checked against their CRDs with each finding at its line.

Rules that compare an object with the cluster's other objects (one autoscaler per workload)
see the objects of every manifest in the same directory: the plain manifests put a cluster's
objects of one stage together.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import yaml

from gpuplat import crds
from gpuplat.conformance.hclvalue import Located
from gpuplat.conformance.report import Violation
from gpuplat.crds.values import Path as KeyPath

SUFFIXES = (".yaml", ".yml")
_SKIPPED_DIRS = {".terraform", ".git", ".gpuplat"}
_SCALARS = yaml.constructor.SafeConstructor()


def iter_yaml_files(paths: Iterable[Path]) -> Iterator[Path]:
    """YAML files among ``paths`` (directories searched recursively), sorted."""
    for path in paths:
        if path.is_file() and path.suffix in SUFFIXES:
            yield path
        elif path.is_dir():
            for found in sorted(p for s in SUFFIXES for p in path.rglob(f"*{s}")):
                if found.is_file() and not _SKIPPED_DIRS.intersection(found.parts):
                    yield found


def _value(node: yaml.Node, at: KeyPath, out: Located) -> object:
    out.lines.setdefault(at, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        obj: dict[str, object] = {}
        for key, item in node.value:
            name = str(key.value)
            out.lines[(*at, name)] = key.start_mark.line + 1
            obj[name] = _value(item, (*at, name), out)
        return obj
    if isinstance(node, yaml.SequenceNode):
        return [_value(item, (*at, i), out) for i, item in enumerate(node.value)]
    return _SCALARS.construct_object(node, deep=True)


def documents(text: str) -> list[Located]:
    """The documents of a YAML text, each with the line of every part (none if not YAML)."""
    try:
        nodes = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        return []
    out = []
    for node in nodes:
        if node is None:
            continue
        doc = Located(None)
        doc.value = _value(node, (), doc)
        out.append(doc)
    return out


def check_texts(files: Mapping[Path, str], result: crds.Result) -> tuple[list[Violation], int]:
    """Check every custom resource in YAML texts (by path).

    Returns:
        The violations, and how many texts held a custom resource.
    """
    by_dir: dict[Path, list[tuple[Path, Located]]] = {}
    for path, text in files.items():
        for doc in documents(text):
            if isinstance(doc.value, dict) and "kind" in doc.value:
                by_dir.setdefault(path.parent, []).append((path, doc))
    violations: list[Violation] = []
    held: set[Path] = set()
    for docs in by_dir.values():
        objects = [d.value for _, d in docs if isinstance(d.value, dict)]
        for path, doc in docs:
            obj = doc.value
            if not isinstance(obj, dict) or crds.identity(obj) is None:
                continue
            held.add(path)
            meta = obj.get("metadata")
            name = meta.get("name", "?") if isinstance(meta, dict) else "?"
            address = f"{obj['kind']}/{name}"
            for finding in crds.check_object(obj, result, objects):
                line = doc.line(finding.path, 1)
                violations.append(Violation(path, line, finding.code, address, str(finding)))
    return sorted(violations), len(held)


def check_yaml(paths: Iterable[Path], result: crds.Result) -> tuple[list[Violation], int]:
    """Check every custom resource in the YAML files under ``paths``.

    Returns:
        The violations, and how many YAML files held a custom resource.
    """
    files: dict[Path, str] = {}
    for path in iter_yaml_files(paths):
        try:
            files[path] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return check_texts(files, result)
