"""Generated documentation: the spec reference, the exit codes, the CLI reference, the default
example's picture and cost, the DaemonSets counted on GPU nodes and the support calendar, kept in
the README and the pages of docs/ between markers.

``python -m gpuplat.docs`` rewrites the marked sections wherever they are (each once, in
README.md or a page under docs/); ``--check`` exits non-zero when one is stale, which is how CI
keeps the docs from drifting away from the models.
"""

from __future__ import annotations

import functools
import itertools
import sys
import types
import typing
from pathlib import Path

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from gpuplat.catalog.chartlines import ChartRelease, ChartSupport, version_key
from gpuplat.errors import ExitCode
from gpuplat.spec.model import Spec

BEGIN = "<!-- BEGIN GENERATED: {name} (python -m gpuplat.docs) -->"
END = "<!-- END GENERATED: {name} -->"


def spec_reference() -> str:
    """Markdown tables for every model reachable from :class:`Spec`, top level first."""
    order: list[type[BaseModel]] = []
    _collect(Spec, order)
    parts: list[str] = []
    for model in order:
        title = "gpuplat.yaml (top level)" if model is Spec else model.__name__
        parts.append(f"## {title}\n")
        doc = (model.__doc__ or "").strip().splitlines()[0] if model.__doc__ else ""
        if doc:
            parts.append(f"{doc}\n")
        parts.append("| key | type | default | description |")
        parts.append("| --- | --- | --- | --- |")
        for name, field in model.model_fields.items():
            described = field.description or _model_summary(field.annotation)
            key = field.alias or name
            parts.append(
                f"| `{key}` | {_type(field.annotation)} | {_default(field)} | {_cell(described)} |"
            )
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def exit_codes() -> str:
    """Markdown table of :class:`ExitCode`, with each member's docstring."""
    lines = ["| code | name | meaning |", "| --- | --- | --- |"]
    docs = _member_docs(ExitCode)
    for member in ExitCode:
        lines.append(f"| {int(member)} | `{member.name}` | {_cell(docs.get(member.name, ''))} |")
    return "\n".join(lines) + "\n"


@functools.cache
def _default_example() -> tuple[str, ...]:
    """(Mermaid picture, cost table) of the default example, computed from its files."""
    import tempfile

    from gpuplat.app.cost import cost_project
    from gpuplat.app.graph import graph_project
    from gpuplat.app.init import DEFAULT_EXAMPLE, example_files

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel, text in example_files(DEFAULT_EXAMPLE).items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        drawing = graph_project(root, None, "mermaid").decode()
        table = "\n".join(cost_project(root, []).lines(with_stranded=False))
    return drawing, table


def default_picture() -> str:
    """The default example's picture as a fenced Mermaid block."""
    return f"```mermaid\n{_default_example()[0]}```\n"


def default_cost() -> str:
    """`gpuplat cost` of the default example, as a fenced text block."""
    return f"```text\n$ gpuplat cost\n{_default_example()[1]}\n```\n"


def node_daemonsets() -> str:
    """Per cloud, the DaemonSets counted on GPU nodes (catalog ``daemonsets.yaml``) with their
    requests, when they run, and where each figure was read."""
    from gpuplat import catalog

    def runs(entry: catalog.NodeDaemonSet) -> str:
        parts = [f"`{f}`" for f in entry.runs_when] + [f"not `{f}`" for f in entry.unless]
        return ", ".join(parts) or "every node"

    def source(entry: catalog.NodeDaemonSet) -> str:
        urls = []
        for sid in entry.source:
            found = catalog.source(sid)
            urls.append(found.url.split(" ")[0])
        where = f" `{entry.file}`" if entry.file else ""
        return f"{'; '.join(urls)}{where} ({entry.as_of})"

    lines: list[str] = []
    titles: dict[catalog.Cloud, str] = {"gke": "GKE", "eks": "EKS", "aks": "AKS"}
    for cloud, title in titles.items():
        lines += [f"**{title}**", "", "| DaemonSet | runs when | CPU | memory | basis | source |"]
        lines.append("| --- | --- | --- | --- | --- | --- |")
        for entry in catalog.node_daemonsets(cloud):
            basis = entry.basis + (", unverified" if entry.unverified else "")
            lines.append(
                f"| {_cell(entry.name)} ({entry.namespace}) | {runs(entry)} | "
                f"{entry.cpu_millis}m | {entry.memory_mib}Mi | {basis} | {_cell(source(entry))} |"
            )
        lines.append("")
    margin = catalog.node_margin()
    lines.append(
        f"**Margin:** {margin.cpu} and {margin.memory} plus {margin.percent:g}% of the node's "
        f"allocatable CPU and memory. {_cell(margin.reason)}"
    )
    return "\n".join(lines) + "\n"


def support_calendar() -> str:
    """The support calendar and the chart support data as Markdown tables."""
    from gpuplat import catalog

    lines = [
        "| cloud | minor | created from | end of standard support | end of extended support "
        "| source | unverified |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for cloud in catalog.CLOUDS:
        for row in catalog.cloud_calendar(cloud).minors:
            unverified = ", ".join(row.unverified_fields) or ("yes" if row.unverified else "")
            cells = (row.available, row.end_of_standard, row.end_of_extended)
            dates = " | ".join(c or "not read" for c in cells)
            lines.append(
                f"| {cloud.upper()} | {row.minor} | {dates} | {', '.join(row.source)} "
                f"| {unverified} |"
            )
    lines += ["", "| chart | release | published | covers |", "| --- | --- | --- | --- |"]
    for chart in catalog.chart_supports():
        pin = catalog.chart(chart.name).version
        for release in _shown(chart, pin):
            mark = " (pin)" if release.version == pin else ""
            lines.append(
                f"| {chart.chart} | {release.version}{mark} | {release.released or 'not read'} "
                f"| {_covers(chart, release)} |"
            )
    return "\n".join(lines) + "\n"


def _shown(chart: ChartSupport, pin: str) -> list[ChartRelease]:
    """The pinned release and the newest of every Kubernetes window, newest first."""
    best: dict[tuple[str, str], ChartRelease] = {}
    for release in chart.releases:
        if release.kubernetes is not None:
            known = best.get(release.kubernetes)
            if known is None or version_key(release.version) > version_key(known.version):
                best[release.kubernetes] = release
    shown = {pin, *(r.version for r in best.values())}
    picked = [r for r in chart.releases if r.version in shown]
    return sorted(picked, key=lambda r: version_key(r.version), reverse=True)


def _covers(chart: ChartSupport, release: ChartRelease) -> str:
    if chart.instance_types:
        listed = sorted(t for t in chart.instance_types if chart.lists(release.version, t))
        newest = ", ".join(t for t in listed if t.startswith(("p5en", "p6")))
        return f"{len(listed)} GPU instance types, among them {newest}"
    if release.kubernetes is None:
        return "not stated"
    low, high = release.kubernetes
    return f"Kubernetes {low}" + (f" to {high}" if high != low else "")


def cli_reference() -> str:
    """Every command's usage, options and help, read from the command line parser itself."""
    from gpuplat.cli.reference import reference

    return reference()


SECTIONS = {
    "spec-reference": spec_reference,
    "exit-codes": exit_codes,
    "cli-reference": cli_reference,
    "default-picture": default_picture,
    "default-cost": default_cost,
    "node-daemonsets": node_daemonsets,
    "support-calendar": support_calendar,
}


def render_text(text: str, names: tuple[str, ...] | None = None) -> str:
    """Return ``text`` with the generated sections it holds brought up to date.

    Args:
        text: A Markdown document.
        names: The sections it must hold (all of them when None); others it holds are
            updated too.

    Raises:
        ValueError: A section in ``names`` has no markers in the text.
    """
    wanted = tuple(SECTIONS) if names is None else names
    for name, make in SECTIONS.items():
        begin, end = BEGIN.format(name=name), END.format(name=name)
        start = text.find(begin)
        stop = text.find(end)
        if start < 0 or stop < start:
            if name in wanted:
                raise ValueError(f"the markers of the {name} section are missing")
            continue
        text = text[: start + len(begin)] + "\n\n" + make() + "\n" + text[stop:]
    return text


def documents(repo: Path) -> list[Path]:
    """README.md and every page of docs/, in a stable order."""
    pages = sorted((repo / "docs").rglob("*.md")) if (repo / "docs").is_dir() else []
    return [repo / "README.md", *pages]


def render_all(repo: Path) -> dict[Path, tuple[str, str]]:
    """{document: (current text, wanted text)} of every document with a generated section.

    Raises:
        ValueError: A section is in no document, or in more than one.
    """
    found: dict[str, list[Path]] = {name: [] for name in SECTIONS}
    out: dict[Path, tuple[str, str]] = {}
    for path in documents(repo):
        current = path.read_text(encoding="utf-8")
        held = tuple(n for n in SECTIONS if BEGIN.format(name=n) in current)
        for name in held:
            found[name].append(path)
        if held:
            out[path] = (current, render_text(current, held))
    for name, paths in found.items():
        if len(paths) != 1:
            where = ", ".join(p.relative_to(repo).as_posix() for p in paths) or "no document"
            raise ValueError(f"the {name} section must be in one document, found in {where}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Rewrite the generated sections (or with ``--check`` report whether one is stale)."""
    args = sys.argv[1:] if argv is None else argv
    repo = Path(__file__).resolve().parents[2]
    stale = [(p, w) for p, (c, w) in render_all(repo).items() if c != w]
    if "--check" in args:
        for path, _ in stale:
            rel = path.relative_to(repo).as_posix()
            print(f"{rel}: generated sections are stale: run `make golden`", file=sys.stderr)
        return 1 if stale else 0
    for path, wanted in stale:
        path.write_text(wanted, encoding="utf-8")
        print(f"updated {path.relative_to(repo).as_posix()}", file=sys.stderr)
    return 0


def _collect(model: type[BaseModel], order: list[type[BaseModel]]) -> None:
    if model in order:
        return
    order.append(model)
    for field in model.model_fields.values():
        for inner in _models_in(field.annotation):
            _collect(inner, order)


def _models_in(annotation: object) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    out: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        out.extend(_models_in(arg))
    return out


def _model_summary(annotation: object) -> str:
    models = _models_in(annotation)
    if len(models) == 1 and models[0].__doc__:
        return models[0].__doc__.strip().splitlines()[0]
    return ""


def _type(annotation: object) -> str:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return "duration" if _is_duration(annotation) else _type(args[0])
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        return " or ".join(_type(m) for m in members)
    if origin is typing.Literal:
        return " \\| ".join(f"`{a}`" for a in args)
    if origin is list:
        return f"list of {_type(args[0])}"
    if origin is dict:
        return f"map of {_type(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"[{annotation.__name__}](#{annotation.__name__.lower()})"
    names = {str: "string", int: "integer", float: "number", bool: "boolean"}
    if isinstance(annotation, type) and annotation in names:
        return names[annotation]
    return str(annotation)


def _is_duration(annotation: object) -> bool:
    return any(
        getattr(meta, "json_schema", {}).get("description", "").startswith("A duration")
        for meta in typing.get_args(annotation)[1:]
    )


def _default(field: FieldInfo) -> str:
    if field.is_required():
        return "**required**"
    if field.default_factory is not None:
        value = field.default_factory()  # type: ignore[call-arg]
        if isinstance(value, BaseModel):
            return "see below"
        return f"`{value!r}`" if value else "empty"
    if field.default is PydanticUndefined or field.default is None:
        return "none"
    value = field.default
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f"`{value}`"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _member_docs(enum: type[ExitCode]) -> dict[str, str]:
    """Attribute docstrings of an enum, read from its source (they are not kept at runtime)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(enum))
    docs: dict[str, str] = {}
    body = tree.body[0].body  # type: ignore[attr-defined]
    for prev, node in itertools.pairwise(body):
        if (
            isinstance(prev, ast.Assign)
            and isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            target = prev.targets[0]
            if isinstance(target, ast.Name):
                docs[target.id] = node.value.value
    return docs


if __name__ == "__main__":
    raise SystemExit(main())
