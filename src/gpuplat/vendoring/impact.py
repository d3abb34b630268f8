"""What moving a module from one text to another changes for the infrastructure it manages.

Compared block by block (python-hcl2, values without comments or layout): variables added
(required or not) and removed, defaults changed, outputs added and removed, and per resource
whether it is created, destroyed, replaced or updated in place. Whether an argument forces a
replacement comes from ``replacement.yaml``; an argument it does not know is reported as not
known rather than as safe. An argument that reads a changed ``local`` (or a variable whose
default changed) counts as changed too: its value may differ.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from hcl2.rules.base import AttributeRule, BlockRule
from hcl2.utils import SerializationOptions

from gpuplat.vendoring.layout import Item, LayoutError, parse
from gpuplat.vendoring.replacement import META, effect

_VALUE = SerializationOptions(with_comments=False)
_RANK = {
    "create": 5,
    "destroy": 5,
    "replace": 4,
    "unknown": 3,
    "instances": 2,
    "update": 1,
    "none": 0,
}


@dataclass(frozen=True)
class ArgChange:
    """One changed argument of a resource, and what changing it does."""

    path: str
    effect: str
    via: str = ""
    """The changed local or variable it reads, when its own text did not change."""
    constant: tuple[str, str] | None = None
    """(old, new) when both are constants (no reference, no function call): the value changes
    for every caller, so what the change does is proven, not only possible."""


@dataclass(frozen=True)
class ResourceChange:
    """What happens to one resource."""

    address: str
    action: str
    """create, destroy, replace, unknown (may replace), update or instances."""
    args: tuple[ArgChange, ...] = ()


@dataclass
class Impact:
    """The changes of one module."""

    variables_added: list[tuple[str, bool]] = field(default_factory=list)
    """(name, required)."""
    variables_removed: list[str] = field(default_factory=list)
    defaults_changed: list[str] = field(default_factory=list)
    outputs_added: list[str] = field(default_factory=list)
    outputs_removed: list[str] = field(default_factory=list)
    resources: list[ResourceChange] = field(default_factory=list)

    @property
    def replaced(self) -> list[ResourceChange]:
        return [r for r in self.resources if r.action in ("replace", "destroy")]


@dataclass
class _Module:
    variables: dict[str, Item] = field(default_factory=dict)
    outputs: dict[str, Item] = field(default_factory=dict)
    resources: dict[str, Item] = field(default_factory=dict)
    locals: dict[str, object] = field(default_factory=dict)


def _read(files: Mapping[str, str]) -> _Module:
    out = _Module()
    for name, text in sorted(files.items()):
        if not name.endswith(".tf"):
            continue
        try:
            _, items = parse(text)
        except LayoutError:
            continue  # a file python-hcl2 cannot read is left out of the report
        for item in items:
            if item.kind != "block":
                continue
            if item.type == "variable" and item.labels:
                out.variables[item.labels[0]] = item
            elif item.type == "output" and item.labels:
                out.outputs[item.labels[0]] = item
            elif item.type in ("resource", "data") and len(item.labels) == 2:
                prefix = "data." if item.type == "data" else ""
                out.resources[f"{prefix}{item.labels[0]}.{item.labels[1]}"] = item
            elif item.type == "locals" and isinstance(item.node, BlockRule):
                for attr in item.node.body.children:
                    if isinstance(attr, AttributeRule):
                        out.locals[str(attr.identifier.serialize())] = _value(attr)
    return out


def _value(node: object) -> object:
    return node.serialize(_VALUE)  # type: ignore[attr-defined]


def _attr(item: Item, name: str) -> object:
    for child in item.node.body.children:  # type: ignore[union-attr]
        if isinstance(child, AttributeRule) and str(child.identifier.serialize()) == name:
            return _value(child)
    return None


def members(node: object) -> Iterator[tuple[str, object, bool]]:
    """(path segment, node, is block) of a block body; ``dynamic "x"`` stands for ``x``."""
    seen: dict[str, int] = {}
    for child in node.body.children:  # type: ignore[attr-defined]
        if isinstance(child, AttributeRule):
            yield str(child.identifier.serialize()), child, False
        elif hasattr(child, "labels"):
            names = [
                str(label.serialize(SerializationOptions(strip_string_quotes=True)))
                for label in child.labels
            ]
            if names[0] == "dynamic" and len(names) > 1:
                content = next(
                    (
                        c
                        for c in child.body.children
                        if hasattr(c, "labels") and str(c.labels[0].serialize()) == "content"
                    ),
                    child,
                )
                name, body = names[1], content
            else:
                name, body = names[0], child
            seen[name] = seen.get(name, 0) + 1
            yield (name if seen[name] == 1 else f"{name}#{seen[name]}"), body, True


def _diff(
    ours: object,
    theirs: object,
    prefix: str,
    out: list[str],
    constants: dict[str, tuple[str, str]] | None = None,
) -> None:
    mine = {k: (n, b) for k, n, b in members(ours)}
    new = {k: (n, b) for k, n, b in members(theirs)}
    for key in sorted(set(mine) | set(new)):
        path = f"{prefix}{key.split('#')[0]}"
        if key not in mine or key not in new:
            out.append(path)
            continue
        (a, a_block), (b, b_block) = mine[key], new[key]
        if a_block and b_block:
            _diff(a, b, path + ".", out, constants)
        elif _value(a) != _value(b):
            out.append(path)
            old, now = _bare(_value(a)), _bare(_value(b))
            if constants is not None and "${" not in f"{old}{now}" and not (a_block or b_block):
                constants[path] = (str(old), str(now))


def _bare(value: object) -> object:
    """An attribute's value without its name (python-hcl2 serialises ``{name: value}``)."""
    if isinstance(value, dict) and len(value) == 1:
        return next(iter(value.values()))
    return value


def _reads(node: object, names: set[str], prefix: str) -> Iterator[tuple[str, str]]:
    """(path, ``local.x`` / ``var.x``) of the arguments that mention one of ``names``."""
    for key, child, block in members(node):
        path = f"{prefix}{key.split('#')[0]}"
        if block:
            yield from _reads(child, names, path + ".")
            continue
        text = str(_value(child))
        for ref in sorted(names):
            if re.search(rf"\b{re.escape(ref)}\b", text):
                yield path, ref
                break


def impact(ours: Mapping[str, str], theirs: Mapping[str, str]) -> Impact:
    """What replacing the module files ``ours`` by ``theirs`` changes ({file name: text})."""
    a, b = _read(ours), _read(theirs)
    found = Impact()
    for name in sorted(set(b.variables) - set(a.variables)):
        found.variables_added.append(
            (
                name,
                _attr(b.variables[name], "default") is None
                and not _has(b.variables[name], "default"),
            )
        )
    found.variables_removed = sorted(set(a.variables) - set(b.variables))
    found.defaults_changed = sorted(
        n
        for n in set(a.variables) & set(b.variables)
        if _attr(a.variables[n], "default") != _attr(b.variables[n], "default")
    )
    found.outputs_added = sorted(set(b.outputs) - set(a.outputs))
    found.outputs_removed = sorted(set(a.outputs) - set(b.outputs))
    changed_refs = {
        f"local.{n}" for n in set(a.locals) | set(b.locals) if a.locals.get(n) != b.locals.get(n)
    }
    changed_refs |= {f"var.{n}" for n in found.defaults_changed}
    for address in sorted(set(a.resources) | set(b.resources)):
        if address not in a.resources:
            found.resources.append(ResourceChange(address, "create"))
            continue
        if address not in b.resources:
            found.resources.append(ResourceChange(address, "destroy"))
            continue
        change = _resource(address, a.resources[address], b.resources[address], changed_refs)
        if change is not None:
            found.resources.append(change)
    return found


def _has(item: Item, name: str) -> bool:
    return any(
        isinstance(c, AttributeRule) and str(c.identifier.serialize()) == name
        for c in item.node.body.children  # type: ignore[union-attr]
    )


def _resource(address: str, old: Item, new: Item, refs: set[str]) -> ResourceChange | None:
    resource_type = address.removeprefix("data.").split(".")[0]
    paths: list[str] = []
    constants: dict[str, tuple[str, str]] = {}
    _diff(old.node, new.node, "", paths, constants)
    args = [ArgChange(p, _effect(resource_type, p), constant=constants.get(p)) for p in paths]
    direct = set(paths)
    args += [
        ArgChange(p, _effect(resource_type, p), via)
        for p, via in _reads(new.node, refs, "")
        if p not in direct
    ]
    # Once each, what forces a replacement first.
    args = sorted(
        dict.fromkeys(a for a in args if a.effect != "none"), key=lambda a: -_RANK[a.effect]
    )
    if not args:
        return None
    action = max((a.effect for a in args), key=_RANK.__getitem__)
    return ResourceChange(address, action, tuple(args))


def _effect(resource_type: str, path: str) -> str:
    head = path.split(".")[0]
    if head in META:
        return META[head]
    return effect(resource_type, path)
