"""Validating merged spec trees, each subtree the environments share validated once.

An overlay changes a few values; :func:`gpuplat.spec.merge.merge` keeps the base's very nodes
everywhere else, so the environments' merged trees share most of their clusters, node pools,
workloads and add-ons. Such a subtree validates to the same frozen model in every environment:
:class:`Validator` validates it the first time and hands the model itself to pydantic after that
(a model instance is taken as it is). A tree pydantic rejects is validated once more from its
plain data, as a whole, so its problems and their locations are exactly those of one validation.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError

from gpuplat.spec.convert import diagnostics_from, without_bad_values
from gpuplat.spec.diagnostics import Diagnostic
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Addons, Cluster, NodePool, Spec, Workload
from gpuplat.spec.model.base import SpecModel
from gpuplat.spec.source import Node

Validated = tuple[Spec | None, list[Diagnostic], bool]
"""The spec (or None), its problems, and whether the spec is a repaired stand-in."""


class Validator:
    """Validates the merged trees of one load, reusing the models of the nodes they share.

    Models are kept by the identity of their node, with the node itself so that the identity
    cannot be reused by another node: one Validator lives as long as one load of a project.
    """

    def __init__(self) -> None:
        self._models: dict[int, tuple[Node, SpecModel | None]] = {}

    def validate(self, tree: Node, ranks: dict[str, int]) -> Validated:
        """Validate a merged tree: (spec, problems, whether the spec is a repaired stand-in).

        When pydantic rejects only optional or unknown values, the spec without them is
        returned as a stand-in, so the semantic checks can still report every other problem.
        """
        locator = Locator(tree, ranks)
        if not isinstance(tree.value, dict):
            problem = locator.error(
                (),
                f"the spec must be a mapping of keys to values, got {kind_of(tree)}",
                "start from `gpuplat init`, which writes a working spec",
            )
            return None, [problem], False
        try:
            return Spec.model_validate(self._spec_data(tree.value)), [], False
        except ValidationError:
            pass
        data = tree.to_data()
        try:
            return Spec.model_validate(data), [], False
        except ValidationError as exc:
            diags = diagnostics_from(exc, Spec, locator)
            repaired = without_bad_values(data, exc, Spec, tree)
        if repaired is not None:
            try:
                return Spec.model_validate(repaired), diags, True
            except ValidationError:
                pass
        return None, diags, False

    def _spec_data(self, top: dict[str, Node]) -> dict[str, object]:
        out: dict[str, object] = {}
        for key, node in top.items():
            if key == "clusters":
                out[key] = self._items(node, self._cluster)
            elif key == "workloads":
                out[key] = self._items(node, lambda item: self._model(item, Workload))
            elif key == "addons":
                out[key] = self._model(node, Addons)
            else:
                out[key] = node.to_data()
        return out

    def _cluster(self, node: Node) -> object:
        def data() -> object:
            assert isinstance(node.value, dict)
            return {
                key: self._items(child, lambda item: self._model(item, NodePool))
                if key == "node_pools"
                else child.to_data()
                for key, child in node.value.items()
            }

        return self._model(node, Cluster, data)

    def _model(
        self, node: Node, model: type[SpecModel], data: Callable[[], object] | None = None
    ) -> object:
        """The model of ``node``, validated once; its plain data when it is not valid alone."""
        known = self._models.get(id(node))
        if known is None or known[0] is not node:
            found: SpecModel | None = None
            if isinstance(node.value, dict):
                try:
                    found = model.model_validate(data() if data is not None else node.to_data())
                except ValidationError:
                    found = None
            known = self._models[id(node)] = (node, found)
        return known[1] if known[1] is not None else node.to_data()

    @staticmethod
    def _items(node: Node, item: Callable[[Node], object]) -> object:
        if isinstance(node.value, list):
            return [item(child) for child in node.value]
        return node.to_data()


def kind_of(node: Node) -> str:
    """How a value that should be a mapping reads in a message: a list, a string, ..."""
    if isinstance(node.value, list):
        return "a list"
    if isinstance(node.value, str):
        return "a string"
    if node.value is None:
        return "nothing"
    return f"the value {node.raw or node.value}"
