"""Provider aliases a module uses but never declares (``provider = aws.east`` with no
``provider "aws" { alias = "east" }`` and no ``configuration_aliases`` entry for it).

``terraform validate`` rejects them ("Provider configuration not present", "missing provider
provider[...].east"); a file-by-file schema check cannot see them, because the declaration
may be in any file of the module's folder. So this pass reads a folder at a time: what each
folder declares (its ``provider`` blocks' aliases and its ``configuration_aliases``) against
what its ``resource``, ``data``, ``ephemeral`` blocks' ``provider`` and its ``module`` calls'
``providers`` values name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat.conformance.hclread import Block, HclParseError, parse_file
from gpuplat.conformance.report import Violation, suggest

_REF = re.compile(r"^\$\{\s*([A-Za-z][\w-]*)\.([A-Za-z][\w-]*)\s*\}$")
_KINDS = ("resource", "data", "ephemeral")


@dataclass
class _Folder:
    declared: set[str] = field(default_factory=set)
    """``name.alias`` of every alias the folder declares."""
    used: list[tuple[Path, int, str, str]] = field(default_factory=list)
    """(file, line, block address, ``name.alias``) of every alias the folder names."""


def _ref(value: object) -> str | None:
    """``aws.east`` for the expression ``aws.east``; None for anything else."""
    match = _REF.match(value) if isinstance(value, str) else None
    return f"{match.group(1)}.{match.group(2)}" if match else None


def _literal(value: object) -> str | None:
    if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return None


def _read(path: Path, folder: _Folder) -> None:
    try:
        body = parse_file(path)
    except HclParseError:
        return  # the file checker reports it
    for block in body.blocks:
        if block.type == "provider" and len(block.labels) == 1:
            alias = block.body.attribute("alias")
            name = _literal(alias.value) if alias is not None else None
            if name:
                folder.declared.add(f"{block.labels[0]}.{name}")
        elif block.type == "terraform":
            for required in block.body.blocks_of("required_providers"):
                for attr in required.body.attributes:
                    aliases = (
                        attr.value.get("configuration_aliases", [])
                        if isinstance(attr.value, dict)
                        else []
                    )
                    for entry in aliases if isinstance(aliases, list) else []:
                        ref = _ref(entry)
                        if ref is not None:
                            folder.declared.add(ref)
        elif block.type in _KINDS and len(block.labels) == 2:
            _used_by_resource(path, block, folder)
        elif block.type == "module" and block.labels:
            providers = block.body.attribute("providers")
            if providers is not None and isinstance(providers.value, dict):
                for value in providers.value.values():
                    ref = _ref(value)
                    if ref is not None:
                        folder.used.append((path, providers.line, f"module.{block.labels[0]}", ref))


def _used_by_resource(path: Path, block: Block, folder: _Folder) -> None:
    provider = block.body.attribute("provider")
    ref = _ref(provider.value) if provider is not None else None
    if provider is None or ref is None:
        return
    kind = block.type
    address = ".".join(block.labels) if kind == "resource" else f"{kind}.{'.'.join(block.labels)}"
    folder.used.append((path, provider.line, address, ref))


def undeclared_aliases(files: Iterable[Path]) -> list[Violation]:
    """A violation for each alias a folder's blocks name that the folder does not declare."""
    given = list(files)
    folders: dict[Path, _Folder] = {}
    for parent in sorted({p.parent for p in given}):
        # Every .tf file of the folder: a declaration may be in a file not asked about.
        for path in sorted(parent.glob("*.tf")):
            _read(path, folders.setdefault(parent, _Folder()))
    asked = set(given)
    out: list[Violation] = []
    for folder in folders.values():
        for path, line, address, ref in folder.used:
            if ref in folder.declared or path not in asked:
                continue
            name, alias = ref.split(".", 1)
            known = [d.split(".", 1)[1] for d in folder.declared if d.startswith(name + ".")]
            out.append(
                Violation(
                    path,
                    line,
                    "undeclared-provider-alias",
                    address,
                    f"provider `{ref}` is not declared in this module: add "
                    f'`provider "{name}" {{ alias = "{alias}" }}` (a root module) or '
                    f"`configuration_aliases = [{ref}]` in its required_providers (a module "
                    "its callers pass the provider to)" + suggest(alias, known),
                )
            )
    return out
