"""The picture as Graphviz DOT, and as SVG or PNG through Graphviz' ``dot`` when installed."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence

from gpuplat.errors import GpuplatError, ToolMissingError
from gpuplat.picture.model import Box, EnvBox


def _quote(lines: Sequence[str]) -> str:
    text = "\\n".join(
        line.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "").replace("\n", "\\n")
        for line in lines
    )
    return f'"{text}"'


CAPACITY_STYLE = {
    "reservation": ("bold", "#dff3e4"),
    "capacity-block": ("bold", "#d3ecf7"),
    "on-demand": ("solid", "#ffffff"),
    "spot": ("dashed", "#fff1d6"),
    "flex-start": ("dotted", "#efe4fb"),
    "queued": ("dotted", "#fbe4ef"),
}
"""How each capacity type is drawn: committed capacity bold, spot dashed, the Dynamic Workload
Scheduler's kinds dotted, each on its own fill, so a printed grey copy still tells them apart."""


def _box(box: Box, indent: str, shape: str) -> str:
    style = CAPACITY_STYLE.get(box.kind or "")
    look = f', style="{style[0]},filled", fillcolor="{style[1]}"' if style else ""
    return f"{indent}{box.id} [label={_quote(box.lines)}, shape={shape}{look}];"


def _pool(pool: Box, indent: str) -> list[str]:
    if not pool.rungs:
        return [_box(pool, indent, "box")]
    out = [f"{indent}subgraph cluster_{pool.id} {{"]
    out.append(f"{indent}  label={_quote(pool.lines)};")
    out.append(f'{indent}  style="rounded,dashed"; fillcolor="#ffffff";')
    out.extend(_box(rung, indent + "  ", "box") for rung in pool.rungs)
    out.append(f"{indent}}}")
    return out


def _climbs(pool: Box) -> list[str]:
    return [
        f'  {a.id} -> {b.id} [style=dotted, label="then"];'
        for a, b in zip(pool.rungs, pool.rungs[1:], strict=False)
    ]


def dot(envs: Sequence[EnvBox]) -> str:
    """DOT source of the picture, one trailing newline."""
    out = [
        "digraph gpuplat {",
        "  rankdir=LR;",
        '  node [fontname="Helvetica", fontsize=10];',
        '  graph [fontname="Helvetica", fontsize=11];',
    ]
    for env in envs:
        out.append(f"  subgraph cluster_{env.id} {{")
        out.append(f"    label={_quote(['environment ' + env.title])};")
        out.append("    style=rounded;")
        for cluster in env.clusters:
            out.append(f"    subgraph cluster_{cluster.id} {{")
            out.append(f"      label={_quote(cluster.lines)};")
            out.append('      style=filled; fillcolor="#eef3fb";')
            for pool in cluster.pools:
                out.extend(_pool(pool, "      "))
            out.append("    }")
        out.extend(_box(w, "    ", "ellipse") for w in env.workloads)
        out.append("  }")
    for env in envs:
        for cluster in env.clusters:
            for pool in cluster.pools:
                out.extend(_climbs(pool))
        for edge in env.edges:
            style = "" if edge.primary else ' [style=dashed, label="failover"]'
            out.append(f"  {edge.source} -> {edge.target}{style};")
    out.append("}")
    return "\n".join(out) + "\n"


def render(source: str, fmt: str) -> bytes:
    """Lay out DOT source with Graphviz' ``dot`` into ``fmt`` (``svg`` or ``png``).

    Raises:
        ToolMissingError: ``dot`` is not installed.
        GpuplatError: ``dot`` failed.
    """
    binary = shutil.which("dot")
    if binary is None:
        raise ToolMissingError(
            f"--format {fmt} needs Graphviz' dot, which is not on PATH",
            hint="install Graphviz (Debian/Ubuntu: apt-get install graphviz; macOS: brew "
            "install graphviz), or use --format mermaid or --format dot",
        )
    done = subprocess.run(
        [binary, f"-T{fmt}"], input=source.encode(), capture_output=True, check=False
    )
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-3:]
        raise GpuplatError(f"dot -T{fmt} failed: {' '.join(tail) or 'no message'}")
    return done.stdout
