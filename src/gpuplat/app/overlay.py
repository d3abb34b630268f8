"""Writing placement roles into an environment's overlay, keeping the person's file as it was.

A failover changes the spec, not only the clusters: the next `gpuplat plan` must find the roles
the failover applied, or it would move the workload back. The change goes into the overlay of
the one environment that fails over (``envs/<env>.yaml``, or the overlay the spec declares),
as ``workloads[<name>].placements.<cluster>.role``; comments, key order and quoting of the rest
of the file are kept (ruamel.yaml's round trip), and the file is replaced in one rename.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.util import load_yaml_guess_indent

from gpuplat.errors import GpuplatError, user_files
from gpuplat.vendoring.disk import write_file


@dataclass(frozen=True)
class Before:
    """An overlay as it was before a change: its text, or None when there was no file."""

    path: Path
    text: str | None

    def restore(self) -> None:
        """Put the overlay back as it was.

        Raises:
            FileError: The file cannot be written or removed.
        """
        with user_files("put the overlay back"):
            if self.text is None:
                self.path.unlink(missing_ok=True)
            else:
                write_file(self.path, self.text)


def set_roles(path: Path, workload: str, roles: Mapping[str, str]) -> Before:
    """Set ``workloads[workload].placements.<cluster>.role`` in the overlay at ``path``.

    Returns:
        The overlay as it was, to put back if what follows fails.

    Raises:
        FileError: The overlay cannot be read or written.
        GpuplatError: It cannot be parsed, or is not a mapping.
    """
    with user_files("read the overlay"):
        text: str | None = path.read_text(encoding="utf-8") if path.exists() else None
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 100
    try:
        if text is not None and text.strip():
            # The guess is the sequences' indent and their dashes' offset; mappings keep 2.
            doc, indent, offset = load_yaml_guess_indent(text)
            yaml.indent(mapping=2, sequence=indent or 4, offset=2 if offset is None else offset)
        else:
            doc = None
            yaml.indent(mapping=2, sequence=4, offset=2)
    except YAMLError as exc:
        raise GpuplatError(f"cannot parse {path}: {exc}") from None
    if doc is None:
        doc = CommentedMap()
    if not isinstance(doc, CommentedMap):
        raise GpuplatError(f"{path} is not a mapping of keys to values")
    item = _workload_item(doc, workload, path)
    placements = _mapping(item, "placements", path)
    for cluster, role in roles.items():
        _mapping(placements, cluster, path)["role"] = role
    out = io.StringIO()
    yaml.dump(doc, out)
    before = Before(path, text)
    with user_files("write the overlay"):
        write_file(path, out.getvalue())
    return before


def _workload_item(doc: CommentedMap, name: str, path: Path) -> CommentedMap:
    workloads = doc.get("workloads")
    if workloads is None:
        workloads = doc["workloads"] = CommentedSeq()
    if not isinstance(workloads, CommentedSeq):
        raise GpuplatError(f"{path}: workloads is not a list")
    for item in workloads:
        if isinstance(item, CommentedMap) and item.get("name") == name:
            return item
    item = CommentedMap(name=name)
    workloads.append(item)
    return item


def _mapping(parent: CommentedMap, key: str, path: Path) -> CommentedMap:
    found = parent.get(key)
    if found is None:
        found = parent[key] = CommentedMap()
    if not isinstance(found, CommentedMap):
        raise GpuplatError(f"{path}: {key} is not a mapping")
    return found
