"""Provider aliases a module uses but never declares (``provider = aws.east`` with no
``provider "aws" { alias = "east" }`` and no ``configuration_aliases`` entry for it), and
module calls whose ``providers`` do not match the child's ``configuration_aliases``.

``terraform validate`` rejects them ("Provider configuration not present", "missing provider
provider[...].east"); a file-by-file schema check cannot see them, because the declaration
may be in any file of the module's folder. So this pass reads a folder at a time: what each
folder declares (its ``provider`` blocks' aliases and its ``configuration_aliases``) against
what its ``resource``, ``data``, ``ephemeral`` blocks' ``provider`` and its ``module`` calls'
``providers`` values name.

A call to a local module is also held to the child's ``configuration_aliases``, as Terraform's
``validateProviderConfigs`` (internal/configs/provider_validation.go) does: an alias the child
declares that the call does not pass and the child does not configure itself is an error
("Missing required provider configuration", located at the module block); a ``providers`` key
naming an alias the child does not declare is passed to nothing (terraform warns "Reference to
undefined provider" for an official provider and refuses any other), and one the child configures
itself cannot be overridden ("Cannot override provider configuration").
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat.conformance.hclread import Block, HclParseError, ParsedFiles
from gpuplat.conformance.report import Violation, suggest

_REF = re.compile(r"^\$\{\s*([A-Za-z][\w-]*)\.([A-Za-z][\w-]*)\s*\}$")
_KINDS = ("resource", "data", "ephemeral")


@dataclass
class _Folder:
    declared: set[str] = field(default_factory=set)
    """``name.alias`` of every alias the folder declares."""
    used: list[tuple[Path, int, str, str]] = field(default_factory=list)
    """(file, line, block address, ``name.alias``) of every alias the folder names."""
    wanted: set[str] = field(default_factory=set)
    """``name.alias`` of the folder's ``configuration_aliases`` (what its callers must pass)."""
    configured: set[str] = field(default_factory=set)
    """``name.alias`` of the folder's own aliased ``provider`` blocks that configure something."""
    proxies: set[str] = field(default_factory=set)
    """``name.alias`` of empty aliased ``provider`` blocks: the older way to accept one passed in."""
    calls: list[_Call] = field(default_factory=list)
    """The folder's calls of local modules that pass or could need ``providers``."""


@dataclass(frozen=True)
class _Call:
    path: Path
    line: int
    name: str
    child: Path
    passed: dict[str, int]
    """``name.alias`` (or ``name``) of each ``providers`` key with the line it is on."""


def _ref(value: object) -> str | None:
    """``aws.east`` for the expression ``aws.east``; None for anything else."""
    match = _REF.match(value) if isinstance(value, str) else None
    return f"{match.group(1)}.{match.group(2)}" if match else None


def _literal(value: object) -> str | None:
    if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return None


def _read(path: Path, folder: _Folder, parsed: ParsedFiles) -> None:
    try:
        body = parsed.body(path)
    except HclParseError:
        return  # the file checker reports it
    for block in body.blocks:
        if block.type == "provider" and len(block.labels) == 1:
            alias = block.body.attribute("alias")
            name = _literal(alias.value) if alias is not None else None
            if name:
                folder.declared.add(f"{block.labels[0]}.{name}")
                empty = len(block.body.attributes) == 1 and not block.body.blocks
                target = folder.proxies if empty else folder.configured
                target.add(f"{block.labels[0]}.{name}")
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
                            folder.wanted.add(ref)
        elif block.type in _KINDS and len(block.labels) == 2:
            _used_by_resource(path, block, folder)
        elif block.type == "module" and block.labels:
            providers = block.body.attribute("providers")
            if providers is not None and isinstance(providers.value, dict):
                for value in providers.value.values():
                    ref = _ref(value)
                    if ref is not None:
                        folder.used.append((path, providers.line, f"module.{block.labels[0]}", ref))
            _call(path, block, folder)


def _call(path: Path, block: Block, folder: _Folder) -> None:
    """Record a call of a local module (``./`` or ``../`` source) with the keys it passes."""
    source = block.body.attribute("source")
    where = _literal(source.value) if source is not None else None
    if where is None or not where.startswith(("./", "../")):
        return
    passed: dict[str, int] = {}
    providers = block.body.attribute("providers")
    if providers is not None and isinstance(providers.value, dict):
        lines = path.read_text(encoding="utf-8").splitlines()
        for key in providers.value:
            name = _ref(key) or _bare(key)
            if name is not None:
                passed[name] = _line_of(lines, providers.line, name)
    folder.calls.append(_Call(path, block.line, block.labels[0], path.parent / where, passed))


def _bare(value: object) -> str | None:
    """``aws`` for the key ``aws`` (a default configuration passed on)."""
    match = re.match(r"^\$\{\s*([A-Za-z][\w-]*)\s*\}$", value) if isinstance(value, str) else None
    return match.group(1) if match else None


def _line_of(lines: list[str], start: int, key: str) -> int:
    """The line of ``key = ...`` inside a ``providers`` map that starts at line ``start``."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    for number in range(start, len(lines) + 1):
        if pattern.match(lines[number - 1]):
            return number
    return start


def _used_by_resource(path: Path, block: Block, folder: _Folder) -> None:
    provider = block.body.attribute("provider")
    ref = _ref(provider.value) if provider is not None else None
    if provider is None or ref is None:
        return
    kind = block.type
    address = ".".join(block.labels) if kind == "resource" else f"{kind}.{'.'.join(block.labels)}"
    folder.used.append((path, provider.line, address, ref))


def undeclared_aliases(files: Iterable[Path], parsed: ParsedFiles | None = None) -> list[Violation]:
    """A violation for each alias a folder's blocks name that the folder does not declare.

    Args:
        files: The .tf files asked about (their folders' other files are read too).
        parsed: The run's parsed files (a new set when not given).

    Returns:
        The violations.
    """
    parsed = parsed if parsed is not None else ParsedFiles()
    given = list(files)
    folders: dict[Path, _Folder] = {}
    for parent in sorted({p.parent for p in given}):
        # Every .tf file of the folder: a declaration may be in a file not asked about.
        for path in sorted(parent.glob("*.tf")):
            _read(path, folders.setdefault(parent, _Folder()), parsed)
    asked = set(given)
    out: list[Violation] = []
    for folder in list(folders.values()):
        for call in folder.calls:
            if call.path in asked:
                out.extend(_call_violations(call, _child(call.child, folders, parsed)))
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


def _child(where: Path, folders: dict[Path, _Folder], parsed: ParsedFiles) -> _Folder | None:
    """What a called folder declares (read once); None when it has no .tf file (the module
    source check reports that)."""
    key = Path(os.path.normpath(where))
    if key not in folders:
        paths = sorted(key.glob("*.tf")) if key.is_dir() else []
        if not paths:
            return None
        for path in paths:
            _read(path, folders.setdefault(key, _Folder()), parsed)
    return folders[key]


def _call_violations(call: _Call, child: _Folder | None) -> list[Violation]:
    if child is None:
        return []
    address = f"module.{call.name}"
    out: list[Violation] = []
    for ref in sorted(child.wanted - child.configured - set(call.passed)):
        out.append(
            Violation(
                call.path,
                call.line,
                "missing-provider-alias",
                address,
                f"the module declares `configuration_aliases = [{ref}]` but this call does not "
                f"pass it: add `{ref} = <a provider configuration of this root>` to its "
                "`providers`",
            )
        )
    for ref, line in sorted(call.passed.items()):
        if "." not in ref or ref in child.wanted or ref in child.proxies:
            continue
        if ref in child.configured:
            reason = (
                f"the module configures `{ref}` itself, and a configuration of its own cannot be "
                "overridden: remove the entry"
            )
        else:
            name, alias = ref.split(".", 1)
            known = [w.split(".", 1)[1] for w in child.wanted if w.startswith(name + ".")]
            reason = (
                f"the module does not declare `{ref}` in its configuration_aliases, so nothing "
                "in it uses what is passed" + suggest(alias, known)
            )
        out.append(Violation(call.path, line, "unexpected-provider-alias", address, reason))
    return out
