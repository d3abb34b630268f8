"""What the evaluator knows of code outside a provider's tree: the validator constructors of
terraform-plugin-sdk (``helper/validation``) and terraform-plugin-framework-validators, the
framework's ``path`` expressions, ``regexp``, and a few standard-library helpers. Also the
reduction of a provider's own validator function to checks, when its body is nothing but
``if <length, regexp or integer test on the value> { error }``, or hands the value to a function
that returns what is wrong with it as a list (apimachinery's ``IsDNS1123Subdomain``,
``IsValidPortNum``) and errs when that list is not empty.
"""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node

from .goeval import (
    Evaluator,
    External,
    Frame,
    FuncLit,
    FuncRef,
    Opaque,
    Regex,
    Struct,
    Unknown,
    Validator,
)
from .gosource import text

SDK_VALIDATION = "helper/validation"
FRAMEWORK_VALIDATORS = "terraform-plugin-framework-validators/"
FRAMEWORK_PATH = "terraform-plugin-framework/path"

# Names in packages outside any tree whose values the schemas use.
CONSTANTS: dict[tuple[str, str], Any] = {
    ("github.com/hashicorp/terraform-plugin-sdk/v2/helper/id", "UniqueIDSuffixLength"): 26,
    ("github.com/hashicorp/terraform-plugin-sdk/v2/helper/resource", "UniqueIDSuffixLength"): 26,
    ("github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry", "UniqueIDSuffixLength"): 26,
}

MODELLED = (
    "terraform-plugin-sdk/v2/helper/validation",
    FRAMEWORK_VALIDATORS,
    "terraform-plugin-framework/path",
)
"""Packages whose functions :func:`call` models, used as such even when vendored."""

_FORMATS = {
    "StringIsJSON": "json",
    "IsCIDR": "cidr",
    "IsIPAddress": "ip",
    "IsIPv4Address": "ipv4",
    "IsIPv6Address": "ipv6",
    "IsUUID": "uuid",
    "IsRFC3339Time": "rfc3339",
    "StringIsBase64": "base64",
    "IsURLWithHTTPS": "https-url",
    "IsURLWithHTTPorHTTPS": "http-url",
    "StringIsValidRegExp": "regexp",
}


def _num(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _strings(values: Any) -> list[str] | None:
    if isinstance(values, list) and all(isinstance(v, str) for v in values):
        return list(values)
    return None


def _specs(values: list[Any]) -> list[dict[str, Any]] | None:
    out = []
    for value in values:
        if not isinstance(value, Validator):
            return None
        out.append(value.spec)
    return out


def _sdk(name: str, args: list[Any]) -> Any:
    a = args
    if name == "ToDiagFunc" and a:
        return a[0]
    if name == "StringLenBetween" and len(a) == 2 and _num(a[0]) and _num(a[1]):
        return Validator({"check": "length", "min": a[0], "max": a[1]})
    if name == "StringIsNotEmpty":
        return Validator({"check": "length", "min": 1, "max": None})
    if name == "StringIsNotWhiteSpace":
        return Validator({"check": "regex", "pattern": r"\S", "match": True})
    if name in ("StringInSlice", "StringNotInSlice") and len(a) == 2:
        values = _strings(a[0])
        if values is not None and isinstance(a[1], bool):
            check = "enum" if name == "StringInSlice" else "not_in"
            return Validator({"check": check, "values": values, "ignore_case": a[1]})
    if name == "IntInSlice" and a and isinstance(a[0], list) and all(_num(v) for v in a[0]):
        return Validator({"check": "enum", "values": list(a[0]), "ignore_case": False})
    if name in ("IntBetween", "FloatBetween") and len(a) == 2 and _num(a[0]) and _num(a[1]):
        return Validator({"check": "range", "min": a[0], "max": a[1]})
    if name in ("IntAtLeast", "FloatAtLeast") and a and _num(a[0]):
        return Validator({"check": "range", "min": a[0], "max": None})
    if name in ("IntAtMost", "FloatAtMost") and a and _num(a[0]):
        return Validator({"check": "range", "min": None, "max": a[0]})
    if name == "IsPortNumber":
        return Validator({"check": "range", "min": 1, "max": 65535})
    if name == "IsPortNumberOrZero":
        return Validator({"check": "range", "min": 0, "max": 65535})
    if name in ("StringMatch", "StringDoesNotMatch") and a and isinstance(a[0], Regex):
        spec = {"check": "regex", "pattern": a[0].pattern, "match": name == "StringMatch"}
        if len(a) > 1 and isinstance(a[1], str) and a[1]:
            spec["message"] = a[1]
        return Validator(spec)
    if name in _FORMATS:
        return Validator({"check": "format", "format": _FORMATS[name]})
    if name == "IsCIDRNetwork" and len(a) == 2 and _num(a[0]) and _num(a[1]):
        return Validator({"check": "format", "format": "cidr", "prefix": [a[0], a[1]]})
    if name in ("All", "Any"):
        specs = _specs(a)
        if specs is not None:
            return Validator({"check": name.lower(), "of": specs})
        return Unknown(f"validation.{name} of an unresolved validator")
    return Unknown(f"validation.{name} is not modelled")


def _path(value: Any) -> list[str] | None:
    return value if isinstance(value, list) and all(isinstance(s, str) for s in value) else None


def _framework(package: str, name: str, args: list[Any]) -> Any:
    kind = package.rsplit("/", 1)[-1]  # stringvalidator, int64validator, listvalidator, ...
    a = args
    if name in ("LengthAtMost", "LengthAtLeast", "LengthBetween") and kind == "stringvalidator":
        lo = a[0] if name != "LengthAtMost" else None
        hi = a[-1] if name != "LengthAtLeast" else None
        return Validator({"check": "length", "min": lo, "max": hi})
    if name in ("SizeAtMost", "SizeAtLeast", "SizeBetween"):
        lo = a[0] if name != "SizeAtMost" else None
        hi = a[-1] if name != "SizeAtLeast" else None
        return Validator({"check": "size", "min": lo, "max": hi})
    if name in ("Between", "AtLeast", "AtMost") and kind in ("int64validator", "float64validator",
                                                             "int32validator"):  # fmt: skip
        lo = a[0] if name != "AtMost" else None
        hi = a[-1] if name != "AtLeast" else None
        return Validator({"check": "range", "min": lo, "max": hi})
    if name in ("OneOf", "OneOfCaseInsensitive", "NoneOf", "NoneOfCaseInsensitive"):
        check = "enum" if name.startswith("OneOf") else "not_in"
        return Validator({"check": check, "values": list(a), "ignore_case": "Case" in name})
    if name == "RegexMatches" and a and isinstance(a[0], Regex):
        spec = {"check": "regex", "pattern": a[0].pattern, "match": True}
        if len(a) > 1 and isinstance(a[1], str) and a[1]:
            spec["message"] = a[1]
        return Validator(spec)
    if name in ("ConflictsWith", "ExactlyOneOf", "AtLeastOneOf", "AlsoRequires"):
        paths = [_path(p) for p in a]
        if all(p is not None for p in paths):
            check = {"ConflictsWith": "conflicts_with", "ExactlyOneOf": "exactly_one_of",
                     "AtLeastOneOf": "at_least_one_of", "AlsoRequires": "required_with"}[name]  # fmt: skip
            return Validator({"check": check, "paths": paths})
    if name in ("All", "Any") and kind.endswith("validator"):
        specs = _specs(a)
        if specs is not None:
            return Validator({"check": name.lower(), "of": specs})
    if kind == "resourcevalidator" and name in ("Conflicting", "ExactlyOneOf", "AtLeastOneOf",
                                                "RequiredTogether"):  # fmt: skip
        paths = [_path(p) for p in a]
        if all(p is not None for p in paths):
            return Validator({"check": "resource:" + name, "paths": paths})
    return Unknown(f"{kind}.{name} is not modelled")


def _path_expr(name: str, args: list[Any]) -> Any:
    """``path.MatchRoot("a")`` and ``path.Root("a")`` as an absolute list of names."""
    if name in ("MatchRoot", "Root") and len(args) == 1 and isinstance(args[0], str):
        return [args[0]]
    return Unknown(f"path.{name} is not modelled")


def call(ev: Evaluator, fn: External, args: list[Any], node: Node, frame: Frame) -> Any:
    """Evaluate a call of a function outside the tree."""
    package, name = fn.package, fn.name
    if package == "regexp" or package.endswith("/regexache"):
        if name == "MustCompile" and args and isinstance(args[0], str):
            return Regex(args[0])
        return Unknown(f"regexp.{name}")
    if package.endswith(SDK_VALIDATION):
        return _sdk(name, args)
    if FRAMEWORK_VALIDATORS in package:
        return _framework(package, name, args)
    if package.endswith(FRAMEWORK_PATH):
        return _path_expr(name, args)
    if package == "os" and name == "Getenv":
        return ""
    strings = all(isinstance(a, str) for a in args)
    if (package, name) == ("strings", "EqualFold") and len(args) == 2 and strings:
        return args[0].lower() == args[1].lower()
    if (package, name) == ("strings", "Join") and len(args) == 2 and isinstance(args[1], str):
        joined = _strings(args[0])
        return args[1].join(joined) if joined is not None else Unknown("strings.Join")
    formattable = all(isinstance(a, str | int) for a in args[1:])
    if (package, name) == ("fmt", "Sprintf") and args and isinstance(args[0], str) and formattable:
        try:
            return args[0].replace("%q", '"%s"') % tuple(args[1:])
        except (TypeError, ValueError):
            return Unknown("fmt.Sprintf")
    if (
        name in ("To", "String", "Int64", "Bool")
        and args
        and package.endswith(("/pointer", "/utils"))
    ):
        return args[0]
    return Unknown(f"{package.rsplit('/', 1)[-1]}.{name} is not modelled")


# -- a provider's own validator functions ----------------------------------------------------

_SUBJECT = object()


def reduce_validator(ev: Evaluator, value: Any) -> Any:
    """A validator value as checks: itself when already reduced, else the reduction of an
    in-tree validator function (``func(v interface{}, k string) ([]string, []error)``), else an
    :class:`Opaque` naming it."""
    if isinstance(value, Validator | Unknown):
        return value
    if isinstance(value, FuncRef):
        decl = value.decl
        name = text(decl.node.child_by_field_name("name"))  # type: ignore[arg-type]
        body = decl.node.child_by_field_name("body")
        params = decl.node.child_by_field_name("parameters")
        frame = Frame(decl.package, decl.file, {}, 1)
        reduced = _reduce_body(ev, body, params, frame)
        return reduced if reduced is not None else Opaque(name, decl.file, decl.line)
    if isinstance(value, FuncLit):
        return reduce_literal(ev, value.node, value.frame)
    return value


def reduce_literal(ev: Evaluator, node: Node, frame: Frame) -> Any:
    """The reduction of an inline ``func(v interface{}, k string)`` validator, or Opaque."""
    reduced = _reduce_body(
        ev, node.child_by_field_name("body"), node.child_by_field_name("parameters"), frame
    )
    return reduced if reduced is not None else Opaque("an inline function", frame.file,
                                                       node.start_point[0] + 1)  # fmt: skip


def _reduce_body(ev: Evaluator, body: Node | None, params: Node | None, outer: Frame) -> Any:
    if body is None or params is None:
        return None
    names = [text(n) for p in params.named_children for n in p.children_by_field_name("name")]
    if len(names) != 2:
        return None
    forwarded = _forwarded(ev, body, names, outer)
    if forwarded is not None:
        return forwarded
    frame = Frame(outer.package, outer.file, dict(outer.env), outer.depth + 1)
    frame.env[names[0]] = _SUBJECT
    checks: list[dict[str, Any]] = []
    statements = list(body.named_children)
    if len(statements) == 1 and statements[0].type == "statement_list":
        statements = statements[0].named_children
    for stmt in statements:
        if stmt.type in ("short_var_declaration", "assignment_statement"):
            right = stmt.child_by_field_name("right")
            left = stmt.child_by_field_name("left")
            if right is None or left is None:
                return None
            rhs = right.named_children
            lhs = left.named_children
            if len(rhs) == 1 and rhs[0].type == "type_assertion_expression":
                operand = ev.expr(rhs[0].child_by_field_name("operand"), frame)
                if operand is _SUBJECT:
                    frame.env[text(lhs[0])] = _SUBJECT
                    if len(lhs) > 1:
                        frame.env[text(lhs[1])] = True
                    continue
            if len(lhs) == 1 and len(rhs) == 1:
                listed = _error_list_call(ev, rhs[0], frame)
                if listed is not None:
                    frame.env[text(lhs[0])] = listed
                    continue
            for target, source in zip(lhs, rhs, strict=False):
                frame.env[text(target)] = ev.expr(source, frame)
        elif stmt.type == "if_statement":
            if stmt.child_by_field_name("initializer") is not None:
                return None
            consequence = stmt.child_by_field_name("consequence")
            if consequence is None or stmt.child_by_field_name("alternative") is not None:
                return None
            condition = stmt.child_by_field_name("condition")
            over_list = _listed(ev, condition, frame) is not None
            nested = ("if_statement",) if over_list else ("if_statement", "for_statement")
            if any(c.type in nested for c in _walk(consequence)):
                return None
            found = _violation(ev, condition, frame)
            if found is None:
                return None
            checks.extend(found)
        elif stmt.type == "return_statement":
            break
        elif stmt.type == "comment":
            continue
        else:
            return None
    if not checks:
        return None
    return Validator(checks[0] if len(checks) == 1 else {"check": "all", "of": checks})


def _forwarded(ev: Evaluator, body: Node, names: list[str], frame: Frame) -> Any:
    """``return validation.X(i, k)`` or ``return validation.X(a, b)(i, k)``: X's checks."""
    statements = body.named_children
    if len(statements) == 1 and statements[0].type == "statement_list":
        statements = statements[0].named_children
    if len(statements) != 1 or statements[0].type != "return_statement":
        return None
    returned = (
        statements[0].named_children[0].named_children if statements[0].named_children else []
    )
    if len(returned) != 1 or returned[0].type != "call_expression":
        return None
    call_node = returned[0]
    args = call_node.child_by_field_name("arguments")
    if args is None or [text(a) for a in args.named_children] != names:
        return None
    inner = Frame(frame.package, frame.file, dict(frame.env), frame.depth + 1)
    callee = ev.expr(call_node.child_by_field_name("function"), inner)
    if isinstance(callee, External):
        callee = call(ev, callee, [], call_node, inner)
    if isinstance(callee, FuncRef | FuncLit):
        callee = reduce_validator(ev, callee)
    return callee if isinstance(callee, Validator) else None


def _walk(node: Node) -> list[Node]:
    out = []
    stack = list(node.named_children)
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(current.named_children)
    return out


def _is_subject_len(ev: Evaluator, node: Node | None, frame: Frame) -> bool:
    if node is None or node.type != "call_expression":
        return False
    fn = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if fn is None or text(fn) != "len" or args is None or len(args.named_children) != 1:
        return False
    return ev.expr(args.named_children[0], frame) is _SUBJECT


def _violation(ev: Evaluator, cond: Node | None, frame: Frame) -> list[dict[str, Any]] | None:
    """The checks whose failure is ``cond`` (an error branch's condition), or None."""
    if cond is None:
        return None
    if cond.type == "parenthesized_expression":
        return _violation(ev, cond.named_children[0], frame)
    if cond.type == "unary_expression":
        op = text(cond.child_by_field_name("operator"))  # type: ignore[arg-type]
        operand = cond.child_by_field_name("operand")
        if op == "!" and operand is not None:
            if operand.type == "identifier" and frame.env.get(text(operand)) is True:
                return []  # `!ok` of the type assertion: not a value check
            match = _match(ev, operand, frame)
            if match is not None:
                return [{"check": "regex", "pattern": match, "match": True}]
        return None
    if cond.type == "call_expression":
        match = _match(ev, cond, frame)
        return None if match is None else [{"check": "regex", "pattern": match, "match": False}]
    if cond.type != "binary_expression":
        return None
    op = text(cond.child_by_field_name("operator"))  # type: ignore[arg-type]
    left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
    if op == "||":
        a, b = _violation(ev, left, frame), _violation(ev, right, frame)
        return None if a is None or b is None else a + b
    if op == "&&":
        lv = ev.expr(left, frame)
        if isinstance(lv, bool) or (left is not None and text(left).endswith("!= nil")):
            return _violation(ev, right, frame)
        return None
    if _is_subject_len(ev, left, frame):
        bound = ev.expr(right, frame)
        if isinstance(bound, int):
            limits = {">": (None, bound), ">=": (None, bound - 1), "<": (bound, None),
                      "<=": (bound + 1, None)}  # fmt: skip
            if op in limits:
                lo, hi = limits[op]
                return [{"check": "length", "min": lo, "max": hi}]
            if op == "==" and bound == 0:
                return [{"check": "length", "min": 1, "max": None}]
        return None
    if op == "==" and ev.expr(left, frame) is _SUBJECT and ev.expr(right, frame) == "":
        return [{"check": "length", "min": 1, "max": None}]
    listed = _listed(ev, cond, frame)
    if listed is not None:
        return list(listed)
    bound = _compared(ev, cond, frame)
    if bound is None:
        return None
    op, number = bound
    limits = {"<": (number, None), "<=": (number + 1, None), ">": (None, number),
              ">=": (None, number - 1)}  # fmt: skip
    if op not in limits:
        return None
    lo, hi = limits[op]
    return [{"check": "range", "min": lo, "max": hi}]


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _compared(ev: Evaluator, cond: Node, frame: Frame) -> tuple[str, int] | None:
    """``value OP n`` (or ``n OP value``) with an integer constant n, as (OP, n)."""
    if cond.type != "binary_expression":
        return None
    op = text(cond.child_by_field_name("operator"))  # type: ignore[arg-type]
    left = ev.expr(cond.child_by_field_name("left"), frame)
    right = ev.expr(cond.child_by_field_name("right"), frame)
    if left is _SUBJECT and isinstance(right, int) and not isinstance(right, bool):
        return op, right
    if right is _SUBJECT and isinstance(left, int) and not isinstance(left, bool):
        return _FLIPPED.get(op, op), left
    return None


class _Listed(list):  # type: ignore[type-arg]
    """The checks of a function returning the list of what is wrong with the value
    (apimachinery's ``IsDNS1123Subdomain(value) []string``): non-empty when one fails."""


def _listed(ev: Evaluator, cond: Node | None, frame: Frame) -> _Listed | None:
    """The checks behind ``len(errs) > 0`` / ``len(errs) != 0`` of a listed result."""
    if cond is None or cond.type != "binary_expression":
        return None
    op = text(cond.child_by_field_name("operator"))  # type: ignore[arg-type]
    left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
    if op not in (">", "!=") or ev.expr(right, frame) != 0:
        return None
    if left is None or left.type != "call_expression" or text(left).split("(")[0] != "len":
        return None
    args = left.child_by_field_name("arguments")
    value = ev.expr(args.named_children[0], frame) if args and args.named_children else None
    return value if isinstance(value, _Listed) else None


def _error_list_call(ev: Evaluator, node: Node, frame: Frame) -> _Listed | None:
    """``f(value, consts...)`` where f (in the tree or another module given to it) returns the
    problems of the value as a list: f's checks."""
    if node.type != "call_expression":
        return None
    args = node.child_by_field_name("arguments")
    if args is None or not args.named_children:
        return None
    values = [ev.expr(a, frame) for a in args.named_children]
    if values[0] is not _SUBJECT or any(v is _SUBJECT for v in values[1:]):
        return None
    callee = ev.expr(node.child_by_field_name("function"), frame)
    if not isinstance(callee, FuncRef):
        return None
    return _reduce_listing(ev, callee.decl, values, frame.depth + 1)


def _reduce_listing(ev: Evaluator, decl: Any, args: list[Any], depth: int) -> _Listed | None:
    """Checks of a ``func(value T, ...) []string`` body: ``if <violation> { errs = append }``
    statements (nested ifs there only choose the message), ``if <accepted> { return nil }``
    then a non-nil return, and ``return g(value)`` forwarding to another such function."""
    if depth > 8:
        return None
    params = decl.node.child_by_field_name("parameters")
    body = decl.node.child_by_field_name("body")
    if params is None or body is None:
        return None
    names = [text(n) for p in params.named_children for n in p.children_by_field_name("name")]
    if len(names) != len(args):
        return None
    frame = Frame(decl.package, decl.file, dict(zip(names, args, strict=True)), depth)
    statements = list(body.named_children)
    if len(statements) == 1 and statements[0].type == "statement_list":
        statements = statements[0].named_children
    checks = _Listed()
    for stmt in statements:
        if stmt.type in ("var_declaration", "comment"):
            continue
        if stmt.type == "if_statement":
            cond = stmt.child_by_field_name("condition")
            decided = ev.expr(cond, frame)
            if decided is False:
                continue
            consequence = stmt.child_by_field_name("consequence")
            if consequence is None or stmt.child_by_field_name("alternative") is not None:
                return None
            if re.sub(r"\s", "", text(consequence)) == "{returnnil}":
                accepted = _accepted(ev, cond, frame)
                if accepted is None:
                    return None
                checks.append(accepted)
                return checks
            if "append(" not in text(consequence) or decided is True:
                return None
            found = _violation(ev, cond, frame)
            if found is None:
                return None
            checks.extend(found)
        elif stmt.type == "return_statement":
            returned = stmt.named_children[0].named_children if stmt.named_children else []
            if len(returned) == 1 and returned[0].type == "call_expression":
                inner = _error_list_call(ev, returned[0], frame)
                if inner is None:
                    return None
                checks.extend(inner)
            return checks
        else:
            return None
    return checks


def _accepted(ev: Evaluator, cond: Node | None, frame: Frame) -> dict[str, Any] | None:
    """The range a success condition ``lo <= value && value <= hi`` accepts."""
    if cond is None or cond.type != "binary_expression":
        return None
    op = text(cond.child_by_field_name("operator"))  # type: ignore[arg-type]
    if op != "&&":
        return None
    spec: dict[str, Any] = {"check": "range", "min": None, "max": None}
    for side in (cond.child_by_field_name("left"), cond.child_by_field_name("right")):
        bound = _compared(ev, side, frame) if side is not None else None
        if bound is None:
            return None
        kind, number = bound
        if kind in (">=", ">"):
            spec["min"] = number if kind == ">=" else number + 1
        elif kind in ("<=", "<"):
            spec["max"] = number if kind == "<=" else number - 1
        else:
            return None
    return spec


def _match(ev: Evaluator, node: Node, frame: Frame) -> str | None:
    """The pattern of ``R.MatchString(value)`` when R is a known regexp, else None."""
    if node.type != "call_expression":
        return None
    fn = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if fn is None or fn.type != "selector_expression" or args is None:
        return None
    if text(fn.child_by_field_name("field")) != "MatchString":  # type: ignore[arg-type]
        return None
    if len(args.named_children) != 1 or ev.expr(args.named_children[0], frame) is not _SUBJECT:
        return None
    regex = ev.expr(fn.child_by_field_name("operand"), frame)
    return regex.pattern if isinstance(regex, Regex) else None


__all__ = ["CONSTANTS", "Struct", "call", "reduce_literal", "reduce_validator"]
