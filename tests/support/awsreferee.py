"""Terraform roots that break aws rules one block at a time, for the real aws provider to referee.

Each extracted rule of ``aws-<version>.json`` becomes one block of its type that is valid
except for that rule (required arguments filled, the arguments other rules tie to it added),
and each type also gets one control block with only the required arguments, which must pass.
The value that breaks a rule is derived from the rule itself (one character over a length
limit, one past a range, a string the pattern refuses, two members of an exactly-one-of
group, ...); typed filler values come from the provider's schema.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpuplat.conformance.files import BUNDLED

ARN = "arn:aws:iam::123456789012:role/referee"
POLICY = '{"Version":"2012-10-17","Statement":[]}'

# Arguments that need a meaningful value; everything else gets a filler of its schema type.
VALUES: dict[str, Any] = {
    "assume_role_policy": POLICY,
    "policy": POLICY,
    "role": "referee",
    "addon_name": "vpc-cni",
    "cluster_name": "referee",
    "strategy": "cluster",
    "effect": "NO_SCHEDULE",
    "protocol": "-1",
    "from_port": 0,
    "to_port": 0,
    "version": "1",
    "type": "cluster",
    "cidr_block": "10.0.0.0/16",
    "destination_cidr_block": "10.0.0.0/16",
    "destination_ipv6_cidr_block": "2600:1f14::/56",
    "ipv6_cidr_block": "2600:1f14::/56",
    "ipv4_netmask_length": 16,
    "ipv6_netmask_length": 56,
    "name": "referee",
    "name_prefix": "referee-",
    "node_group_name": "referee",
    "node_group_name_prefix": "referee-",
}

# Per type: the arguments and blocks a control block needs.
BASE: dict[str, dict[str, Any]] = {
    "aws_iam_role": {"assume_role_policy": POLICY},
    "aws_iam_role_policy": {"policy": POLICY, "role": "referee"},
    "aws_eks_access_entry": {"cluster_name": "referee", "principal_arn": ARN},
    "aws_eks_access_policy_association": {
        "cluster_name": "referee",
        "policy_arn": ARN,
        "principal_arn": ARN,
        "access_scope": {"type": "cluster"},
    },
    "aws_eks_addon": {"cluster_name": "referee", "addon_name": "vpc-cni"},
    "aws_eks_cluster": {
        "name": "referee",
        "role_arn": ARN,
        "vpc_config": {"subnet_ids": ["subnet-1"]},
    },
    "aws_eks_node_group": {
        "cluster_name": "referee",
        "node_role_arn": ARN,
        "subnet_ids": ["subnet-1"],
        "scaling_config": {"desired_size": 1, "max_size": 1, "min_size": 1},
    },
    "aws_nat_gateway": {"subnet_id": "subnet-1"},
    "aws_placement_group": {"name": "referee", "strategy": "partition"},
    "aws_route": {
        "route_table_id": "rtb-1",
        "destination_cidr_block": "10.0.0.0/16",
        "gateway_id": "igw-1",
    },
    "aws_route_table_association": {"route_table_id": "rtb-1", "subnet_id": "subnet-1"},
    "aws_subnet": {"vpc_id": "vpc-1"},
    "aws_vpc_endpoint": {"vpc_id": "vpc-1"},
}


@dataclass
class Case:
    """One block of the root and what it is there for."""

    address: str
    rule: dict[str, Any] | None  # None: the control block of its type


def _schemas() -> dict[str, Any]:
    doc = json.loads((BUNDLED / "aws-5.100.0.json").read_text(encoding="utf-8"))
    return dict(doc["provider_schemas"]["registry.terraform.io/hashicorp/aws"])


def _block_schema(kind: str, type_name: str) -> dict[str, Any]:
    key = "resource_schemas" if kind == "resource" else "data_source_schemas"
    return dict(_schemas()[key][type_name]["block"])


# Required members of the object attributes that SDKv2 "attributes as blocks" (ConfigModeAttr)
# exposes: the provider requires them although the schema's object type cannot say so.
OBJECT_REQUIRED = {"from_port", "to_port", "protocol"}


def _object_block(attr: dict[str, Any]) -> dict[str, Any] | None:
    kind = attr.get("type")
    if not (isinstance(kind, list) and kind[0] in ("list", "set") and isinstance(kind[1], list)):
        return None
    if kind[1][0] != "object":
        return None
    members = kind[1][1]
    attributes = {
        n: {"type": t, "optional": True, "required": n in OBJECT_REQUIRED}
        for n, t in members.items()
    }
    return {"attributes": attributes}


def _sub(block: dict[str, Any], name: str) -> dict[str, Any] | None:
    nested = block.get("block_types", {}).get(name)
    if nested:
        return dict(nested["block"])
    return _object_block(block.get("attributes", {}).get(name, {}))


def _filler(name: str, attr: dict[str, Any]) -> Any:
    if name in VALUES:
        return VALUES[name]
    kind = attr.get("type")
    if kind == "string":
        return ARN if name.endswith("arn") else "referee"
    if kind == "number":
        return 1
    if kind == "bool":
        return True
    if isinstance(kind, list) and kind[0] in ("list", "set"):
        return ["referee"]
    return "referee"


def _required(block: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, attr in block.get("attributes", {}).items():
        if attr.get("required"):
            out[name] = _filler(name, attr)
    for name, nested in block.get("block_types", {}).items():
        if nested.get("min_items", 0) > 0:
            out[name] = _required(nested["block"])
    return out


def _set(body: dict[str, Any], block: dict[str, Any], path: list[str], value: Any) -> None:
    """Set ``path`` (attribute names through nested blocks) in ``body``."""
    head, rest = path[0], path[1:]
    if not rest:
        body[head] = value
        return
    sub = _sub(block, head) or {}
    inner = body.setdefault(head, _required(sub))
    _set(inner, sub, rest, value)


def _drop(body: dict[str, Any], path: list[str]) -> None:
    inner = body
    for part in path[:-1]:
        if not isinstance(inner.get(part), dict):
            return
        inner = inner[part]
    inner.pop(path[-1], None)


def _attr(block: dict[str, Any], path: list[str]) -> dict[str, Any]:
    for part in path[:-1]:
        block = _sub(block, part) or {}
    return dict(block.get("attributes", {}).get(path[-1], {}))


def _valid(block: dict[str, Any], path: str, rules: list[dict[str, Any]]) -> Any:
    """A value of ``path`` that its own rules accept."""
    parts = path.split(".")
    parent = block
    for part in parts[:-1]:
        parent = _sub(parent, part) or {}
    if parts[-1] in parent.get("block_types", {}):
        return _required(_sub(parent, parts[-1]) or {})
    value = _filler(parts[-1], _attr(block, parts))
    for rule in rules:
        if rule["path"] != path:
            continue
        if rule["check"] == "range" and isinstance(value, int):
            value = max(value, rule["min"] if rule["min"] is not None else value)
        if rule["check"] == "enum" and value not in rule["values"]:
            value = rule["values"][0]
    return value


_CANDIDATES = [
    "11.0.0.0/16",
    "has space",
    "-lead",
    "UPPER",
    "sg-1",
    "a/b",
    "a.b",
    "\u201cq\u201d",
    "!",
    "",
]


def _regex_breaker(rule: dict[str, Any], limit: int | None) -> str | None:
    try:
        pattern = re.compile(str(rule["pattern"]))
    except re.error:
        return None
    for candidate in _CANDIDATES:
        if limit is not None and len(candidate) > limit:
            continue
        if bool(pattern.search(candidate)) != bool(rule["match"]):
            return candidate
    return None


def breaking_value(rule: dict[str, Any], rules: list[dict[str, Any]]) -> Any:
    """A value of the rule's own path that breaks it, or None when none exists."""
    check = rule["check"]
    value: Any = None
    if check == "length":
        value = "a" * (rule["max"] + 1) if rule["max"] is not None else ""
        if rule["max"] is None and not rule["min"]:
            value = None
    elif check == "regex":
        limits = [r["max"] for r in rules if r["path"] == rule["path"] and r["check"] == "length"]
        value = _regex_breaker(rule, min([x for x in limits if x is not None], default=None))
    elif check == "range":
        value = rule["max"] + 1 if rule["max"] is not None else rule["min"] - 1
    elif check == "enum":
        numbers = [v for v in rule["values"] if isinstance(v, int)]
        value = max(numbers) + 1 if numbers else "not-a-listed-value"
    elif check == "format":
        value = {
            "json": "not json",
            "ipv4": "1.2.3",
            "ipv6": "not-an-ipv6",
            "rfc3339": "2020-13-45",
            "cidr": f"10.0.0.0/{rule['prefix'][0] - 1}" if rule.get("prefix") else "x",
        }.get(rule["format"])
    if value is not None and rule.get("elements"):
        value = [value]
    return value


def _body(kind: str, type_name: str, rule: dict[str, Any] | None,
          rules: list[dict[str, Any]]) -> dict[str, Any] | None:  # fmt: skip
    block = _block_schema(kind, type_name)
    body = _required(block)
    for name, value in BASE.get(type_name, {}).items():
        body[name] = json.loads(json.dumps(value))
    if rule is None:
        return body
    path, check = rule["path"], rule["check"]
    partners = [r for r in rules if r["check"] == "required_with"]
    groups = [r["paths"] for r in rules if r["check"] == "exactly_one_of"]

    def put(target: str, value: Any) -> None:
        for group in groups:  # one member of an exactly-one-of group replaces the base one
            if target in group and check != "exactly_one_of":
                for member in group:
                    if member != target:
                        _drop(body, member.split("."))
        _set(body, block, target.split("."), value)
        if check == "required_with" and target == path:
            return
        for partner in partners:
            if partner["path"] == target:
                for other in partner["paths"]:
                    _set(body, block, other.split("."), _valid(block, other, rules))

    if check in ("conflicts_with", "exactly_one_of"):
        others = [p for p in rule["paths"] if p != path]
        if not others:
            return None
        put(path, _valid(block, path, rules))
        if check == "exactly_one_of":
            _set(body, block, others[0].split("."), _valid(block, others[0], rules))
        else:
            put(others[0], _valid(block, others[0], rules))
        return body
    if check == "required_with":
        for other in rule["paths"]:
            _drop(body, other.split("."))
        put(path, _valid(block, path, rules))
        return body
    value = breaking_value(rule, rules)
    if value is None:
        return None
    put(path, value)
    return body


def _hcl(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_hcl(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _render(body: dict[str, Any], block: dict[str, Any], indent: str = "  ") -> str:
    lines = []
    for name in sorted(body):
        value = body[name]
        if isinstance(value, dict) and _sub(block, name) is not None:
            inner = _render(value, _sub(block, name) or {}, indent + "  ")
            lines.append(f"{indent}{name} {{\n{inner}{indent}}}\n")
        else:
            lines.append(f"{indent}{name} = {_hcl(value)}\n")
    return "".join(lines)


def cases(rules_file: Path) -> Iterator[tuple[Case, str]]:
    """(case, HCL block) for every rule that a value can break, and one control per type."""
    doc = json.loads(rules_file.read_text(encoding="utf-8"))
    for key, entry in sorted(doc["types"].items()):
        kind, type_name = key.split(".", 1)
        rules = entry["rules"]
        block = _block_schema(kind, type_name)
        keyword = "resource" if kind == "resource" else "data"
        prefix = "" if kind == "resource" else "data."
        for index, rule in enumerate([None, *rules]):
            body = _body(kind, type_name, rule, rules)
            if body is None:
                continue
            name = "ok" if rule is None else f"r{index - 1}"
            text = f'{keyword} "{type_name}" "{name}" {{\n{_render(body, block)}}}\n'
            yield Case(f"{prefix}{type_name}.{name}", rule), text


def unbreakable(rules_file: Path) -> list[tuple[str, dict[str, Any]]]:
    """(type, rule) of the rules no value breaks (so no block can show them enforced)."""
    doc = json.loads(rules_file.read_text(encoding="utf-8"))
    out = []
    for key, entry in sorted(doc["types"].items()):
        kind, type_name = key.split(".", 1)
        for rule in entry["rules"]:
            if _body(kind, type_name, rule, entry["rules"]) is None:
                out.append((key, rule))
    return out


_ONE_OF = re.compile(r"to be one of \[([^\]]*)\]")


def agrees(rule: dict[str, Any], messages: list[str]) -> bool:
    """Whether the provider's diagnostics for a rule's block state that rule (its bounds, its
    values, its kind), not merely some error."""
    text = " ".join(messages)
    leaf = str(rule["path"]).rsplit(".", 1)[-1]
    check = rule["check"]
    if check == "conflicts_with":
        return "conflicts with" in text
    if check == "exactly_one_of":
        return "only one of" in text
    if check == "required_with":
        return "must be specified" in text
    if leaf not in text:
        return False
    if check == "enum":
        found = _ONE_OF.search(text)
        if not found:
            return False
        listed = re.findall(r'"([^"]*)"|(-?\d+)', found.group(1))
        values = {a if a else int(b) for a, b in listed}
        return values == set(rule["values"])
    if check in ("length", "range"):
        bounds = [b for b in (rule["min"], rule["max"]) if b is not None]
        return all(re.search(rf"(?<![\d.]){b}(?![\d.])", text) for b in bounds)
    if check == "format" and rule.get("prefix"):
        return all(str(b) in text for b in rule["prefix"])
    return True
