"""CEL rules — a CRD's ``x-kubernetes-validations`` and the documented rules — evaluated with
cel-python (``celpy``), the way the API server binds them.

A rule declared at a schema node is evaluated once for every value at that node (every item
of a list, every value of a map), with ``self`` bound to it, after defaulting. A rule that reads
``oldSelf`` is a transition rule: the API server runs it on updates only, so a check of what is
about to be created skips it. cel-python implements the CEL standard library, not the
libraries Kubernetes adds (``split``, ``lowerAscii``, ``isURL``, ``quantity``, ...): a rule that
needs one of those and cannot be decided without it is reported as not checked, never as
passed. A value Terraform knows only later (:class:`~gpuplat.crds.values.Unknown`) makes the
rules that read it "not checked" the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import celpy
import lark
from celpy import celtypes
from celpy.evaluation import CELEvalError, Evaluator, base_functions

from gpuplat.crds.catalog import Schema
from gpuplat.crds.values import Path, Unknown, unknowns

Outcome = Literal["passed", "failed", "unknown", "extension", "error"]
"""passed / failed; ``unknown``: it reads a value known only at plan or apply; ``extension``:
it needs a Kubernetes CEL library cel-python lacks; ``error``: the API server would fail
evaluating it too (e.g. a field it reads is absent), so the object would be refused."""

_MACROS = frozenset({"has", "dyn", "all", "exists", "exists_one", "map", "filter"})
_SUPPORTED = frozenset(base_functions) | _MACROS


class _UnknownValue(CELEvalError):
    """An Unknown, inside a CEL value: any use of it is an error, ``has()`` sees it present."""


class _Evaluator(Evaluator):
    def macro_has_eval(self, exprlist: lark.Tree[Any]) -> celtypes.BoolType:
        value = self.visit_children(exprlist)[0]
        if isinstance(value, _UnknownValue):
            return celtypes.BoolType(True)
        return celtypes.BoolType(not isinstance(value, CELEvalError))

    def relation(self, tree: lark.Tree[Any]) -> Any:
        """As cel-python, except ``==`` / ``!=`` across types: the API server's CEL (cel-go with
        heterogeneous equality) says unequal (``"http" != 0`` is true), cel-python errors."""
        result = super().relation(tree)
        if not isinstance(result, CELEvalError) or len(tree.children) != 2:
            return result
        op = tree.children[0]
        if not isinstance(op, lark.Tree) or op.data not in ("relation_eq", "relation_ne"):
            return result
        values: list[Any] = list(self.visit_children(tree))
        left, right = values[0][0], values[1]
        if isinstance(left, CELEvalError) or isinstance(right, CELEvalError):
            return result
        return celtypes.BoolType(op.data == "relation_ne")


class _Runner(celpy.InterpretedRunner):
    def evaluate(self, context: Any) -> Any:
        return _Evaluator(ast=self.ast, activation=self.new_activation()).evaluate(context)


@cache
def _env() -> celpy.Environment:
    """The CEL environment (its parser takes half a second to build: once, when first used)."""
    return celpy.Environment(runner_class=_Runner)


@dataclass(frozen=True)
class Rule:
    """One CEL rule and where it is declared."""

    path: tuple[str, ...]
    """Schema path where ``self`` is bound: property names, ``*`` for list items, ``{}`` for
    map values."""
    rule: str
    message: str
    field_path: str = ""

    @property
    def transition(self) -> bool:
        """True when the rule reads ``oldSelf`` (checked on updates only)."""
        return "oldSelf" in _identifiers(self.rule)

    @property
    def extensions(self) -> frozenset[str]:
        """Functions the rule calls that cel-python does not implement."""
        return _calls(self.rule) - _SUPPORTED


@cache
def _tree(text: str) -> lark.Tree[Any]:
    return _env().compile(text)


@cache
def _program(text: str) -> Any:
    return _env().program(_tree(text))


@cache
def _calls(text: str) -> frozenset[str]:
    names = set()
    for node in _tree(text).iter_subtrees():
        if node.data == "ident_arg":
            names.add(str(node.children[0]))
        elif node.data == "member_dot_arg":
            names.add(str(node.children[1]))
    return frozenset(names)


@cache
def _identifiers(text: str) -> frozenset[str]:
    return frozenset(
        str(node.children[0]) for node in _tree(text).iter_subtrees() if node.data == "ident"
    )


def rules(node: Schema, at: tuple[str, ...] = ()) -> Iterator[Rule]:
    """Every ``x-kubernetes-validations`` rule of a schema, outermost first."""
    for entry in node.get("x-kubernetes-validations", []):
        message = entry.get("message") or f"failed rule: {entry['rule']}"
        yield Rule(at, entry["rule"], message, entry.get("fieldPath", ""))
    for name, sub in node.get("properties", {}).items():
        yield from rules(sub, (*at, name))
    if isinstance(node.get("items"), dict):
        yield from rules(node["items"], (*at, "*"))
    if isinstance(node.get("additionalProperties"), dict):
        yield from rules(node["additionalProperties"], (*at, "{}"))


def sites(value: object, path: tuple[str, ...], at: Path = ()) -> Iterator[tuple[Path, object]]:
    """Every value at a schema path of an object (an Unknown stands for what it hides)."""
    if not path or isinstance(value, Unknown):
        yield at, value
        return
    head, rest = path[0], path[1:]
    if head == "*" and isinstance(value, list):
        for index, item in enumerate(value):
            yield from sites(item, rest, (*at, index))
    elif head == "{}" and isinstance(value, dict):
        for key, item in value.items():
            yield from sites(item, rest, (*at, str(key)))
    elif isinstance(value, dict) and head in value:
        yield from sites(value[head], rest, (*at, head))


def to_cel(value: object) -> Any:
    """A JSON-like value (with Unknowns) as a CEL value."""
    if isinstance(value, Unknown):
        return _UnknownValue(f"unknown: {value.expression}")
    if isinstance(value, bool):
        return celtypes.BoolType(value)
    if isinstance(value, int):
        return celtypes.IntType(value)
    if isinstance(value, float):
        return celtypes.DoubleType(value)
    if isinstance(value, str):
        return celtypes.StringType(value)
    if isinstance(value, dict):
        return celtypes.MapType({celtypes.StringType(str(k)): to_cel(v) for k, v in value.items()})
    if isinstance(value, list):
        return celtypes.ListType([to_cel(v) for v in value])
    return None


def evaluate(rule: Rule, bindings: Mapping[str, object]) -> tuple[Outcome, str]:
    """Evaluate one rule with ``self`` (and any other variables) bound; what came of it."""
    context = {name: to_cel(value) for name, value in bindings.items()}
    try:
        result = _program(rule.rule).evaluate(context)
    except CELEvalError as exc:
        return _classify(rule, exc, bindings)
    if isinstance(result, CELEvalError):
        return _classify(rule, result, bindings)
    if isinstance(result, celtypes.BoolType):
        return ("passed", "") if bool(result) else ("failed", rule.message)
    return "error", f"the rule gives {result!r}, not a boolean"


def _classify(rule: Rule, exc: CELEvalError, bindings: Mapping[str, object]) -> tuple[Outcome, str]:
    """Why a rule gave no boolean: an unknown value it needed, a library it needed, or a
    failure the API server would have too. Any unknown in the bound values counts first: an
    error an unknown may have caused is not blamed on the object."""
    if any(next(unknowns(value), None) is not None for value in bindings.values()):
        return "unknown", str(exc.args[0] if exc.args else exc)
    missing = rule.extensions
    if missing:
        return "extension", f"needs {', '.join(sorted(missing))} (a Kubernetes CEL library)"
    return "error", f"evaluating the rule fails: {exc.args[0] if exc.args else exc}"
