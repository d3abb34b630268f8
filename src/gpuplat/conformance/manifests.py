"""Custom resources in Terraform files, checked against their CRDs (:mod:`gpuplat.crds`).

They are found where gpuplat writes them:

* a ``kubernetes_manifest`` resource whose ``manifest`` is a literal object, checked as
  written (what is an expression there is unknown and passes);
* a module call's argument that is a literal Kubernetes object, or a list of them (the
  platform stage passes its ComputeClasses to the gpu-platform module this way);
* a local child module's literal ``kubernetes_manifest`` objects once more, with the call's
  literal arguments put in for ``var.…`` (:mod:`gpuplat.conformance.hclvalue`): what the
  module refuses whatever its inputs is reported at the module's line, what these inputs
  make it refuse at the call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from gpuplat import crds
from gpuplat.conformance.hclread import Attribute, Block, Body, literal_string
from gpuplat.conformance.hclvalue import Located, located
from gpuplat.conformance.modules import LOCAL_PREFIXES, ModuleCalls
from gpuplat.conformance.report import Collector, Violation
from gpuplat.crds.values import Path as KeyPath

MANIFEST = "kubernetes_manifest"


@dataclass(frozen=True)
class _Manifest:
    """A literal ``manifest`` of a child module's ``kubernetes_manifest``."""

    file: Path
    address: str
    attribute: Attribute


@dataclass
class _Module:
    manifests: list[_Manifest] = field(default_factory=list)
    defaults: dict[str, Located] = field(default_factory=dict)


def _objects(value: object) -> list[tuple[KeyPath, dict[str, object]]]:
    """The custom resources of a value: itself, or the items of a list."""
    if isinstance(value, dict) and crds.identity(value) is not None:
        return [((), value)]
    if isinstance(value, list):
        return [((i,), v) for i, v in enumerate(value) if crds.identity(v) is not None]
    return []


class CustomResources:
    """Finds and checks the custom resources of a run's files; coverage accumulates."""

    def __init__(self, modules: ModuleCalls | None = None) -> None:
        """Start a run; child modules are read through ``modules`` (shared with the
        module-call check, so each is parsed once)."""
        self.modules = modules if modules is not None else ModuleCalls()
        self.result = crds.Result()
        self._modules: dict[Path, _Module] = {}
        self._reported: set[Violation] = set()

    def _report(self, out: Collector, violation: Violation) -> None:
        if violation not in self._reported:
            self._reported.add(violation)
            out.found.append(violation)

    def _add(
        self, out: Collector, file: Path, line: int, address: str, finding: crds.Finding
    ) -> None:
        message = str(finding)
        self._report(out, Violation(file, line, finding.code, address, message))

    def resource(self, block: Block, address: str, out: Collector) -> None:
        """A ``kubernetes_manifest`` resource of the file being checked."""
        attr = block.body.attribute("manifest")
        if attr is None or attr.expression is None:
            return
        value = located(attr.expression, attr.line)
        found = _objects(value.value)
        if not found:
            out.note(
                attr.line,
                "crd-not-checked",
                address,
                "the manifest is computed here; a custom resource in it is checked where a "
                "caller passes it as a literal object",
            )
        for at, obj in found:
            for finding in crds.check_object(obj, self.result):
                line = value.line((*at, *finding.path), attr.line)
                self._add(out, out.file, line, address, finding)

    def module_call(self, block: Block, caller: Path, out: Collector) -> None:
        """A ``module`` block: its literal object arguments, and its child's manifests."""
        name = block.labels[0] if block.labels else ""
        given: dict[str, Located] = {}
        for attr in block.body.attributes:
            if attr.expression is None:
                continue
            value = located(attr.expression, attr.line)
            given[attr.name] = value
            for at, obj in _objects(value.value):
                where = f"module.{name}.{attr.name}{crds.dotted(at) if at else ''}"
                for finding in crds.check_object(obj, self.result):
                    line = value.line((*at, *finding.path), attr.line)
                    self._add(out, out.file, line, where, finding)
        source_attr = block.body.attribute("source")
        source = literal_string(source_attr.value) if source_attr is not None else None
        if source is None or not source.startswith(LOCAL_PREFIXES):
            return
        child = self._module((caller.parent / source).resolve())
        for manifest in child.manifests:
            self._resolved(manifest, child, given, block, name, out)

    def _resolved(
        self,
        manifest: _Manifest,
        child: _Module,
        given: dict[str, Located],
        block: Block,
        name: str,
        out: Collector,
    ) -> None:
        attr = manifest.attribute
        alone = located(attr.expression, attr.line)
        resolved = located(
            attr.expression, attr.line, lambda v: given.get(v, child.defaults.get(v))
        )
        plain = {
            str(f) for _, o in _objects(alone.value) for f in crds.check_object(o, crds.Result())
        }
        for at, obj in _objects(resolved.value):
            for finding in crds.check_object(obj, self.result):
                path = (*at, *finding.path)
                if str(finding) in plain:
                    line = resolved.line(path, attr.line)
                    self._add(out, manifest.file, line, manifest.address, finding)
                    continue
                line = self._caller_line(resolved, path, given, block.line)
                where = f"module.{name} ({manifest.address})"
                self._add(out, out.file, line, where, finding)

    @staticmethod
    def _caller_line(
        resolved: Located, path: KeyPath, given: dict[str, Located], default: int
    ) -> int:
        """The line in the caller of the argument that put in the value at ``path``."""
        for end in range(len(path), -1, -1):
            origin = resolved.origins.get(path[:end])
            if origin and origin[0] in given:
                inner = (*origin[1:], *path[end:])
                arg = given[origin[0]]
                return arg.line(inner, default)
        return default

    def _module(self, directory: Path) -> _Module:
        if directory not in self._modules:
            self._modules[directory] = _read_module(self.modules.bodies(directory))
        return self._modules[directory]


def _read_module(bodies: list[tuple[Path, Body]] | str) -> _Module:
    out = _Module()
    if isinstance(bodies, str):
        return out  # the module-call check reports why it cannot be read
    for path, body in bodies:
        for var in body.blocks_of("variable"):
            default = var.body.attribute("default")
            if var.labels and default is not None and default.expression is not None:
                out.defaults[var.labels[0]] = located(default.expression, default.line)
        for res in body.blocks_of("resource"):
            attr = res.body.attribute("manifest")
            if len(res.labels) == 2 and res.labels[0] == MANIFEST and attr is not None:
                out.manifests.append(_Manifest(path, f"{MANIFEST}.{res.labels[1]}", attr))
    return out
