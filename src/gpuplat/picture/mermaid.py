"""The picture as a Mermaid flowchart (renders in pull requests and READMEs)."""

from __future__ import annotations

from collections.abc import Sequence

from gpuplat.picture.model import Box, EnvBox


def _label(lines: Sequence[str]) -> str:
    # Mermaid labels are quoted strings; quotes and angle brackets are written as entities so a
    # name can never close the label or inject markup.
    text = "<br/>".join(
        " ".join(line.split("\n"))
        .replace("\r", "")
        .replace("&", "#amp;")
        .replace('"', "#quot;")
        .replace("<", "#lt;")
        .replace(">", "#gt;")
        for line in lines
    )
    return f'"{text}"'


CLASSES = (
    ("reservation", "stroke-width:3px,fill:#dff3e4"),
    ("capacity-block", "stroke-width:3px,fill:#d3ecf7"),
    ("on-demand", "fill:#ffffff"),
    ("spot", "stroke-dasharray: 5 5,fill:#fff1d6"),
    ("flex-start", "stroke-dasharray: 2 2,fill:#efe4fb"),
    ("queued", "stroke-dasharray: 2 2,fill:#fbe4ef"),
)
"""Mermaid classes for the capacity types, drawn as in DOT (picture/dot.py)."""

PAID_IDLE = "stroke:#c0392b,stroke-width:4px"
"""A pool with units paid for and idle: a thick red outline, as in DOT."""

ARROWS = {"active": "-->", "warm": "-.->|warm standby|", "cold": "-.->|failover|"}
"""Arrows by the workload's role on the pool's cluster, as in DOT."""


def _box(box: Box, indent: str) -> str:
    return f"{indent}{box.id}[{_label(box.lines)}]"


def _pool(pool: Box, indent: str) -> list[str]:
    if not pool.rungs:
        return [_box(pool, indent)]
    out = [f"{indent}subgraph {pool.id}L[{_label(pool.lines)}]"]
    out.extend(_box(rung, indent + "  ") for rung in pool.rungs)
    out.append(f"{indent}end")
    return out


def mermaid(envs: Sequence[EnvBox]) -> str:
    """Mermaid source of the picture, one trailing newline."""
    out = ["flowchart LR"]
    for env in envs:
        out.append(f"  subgraph {env.id}[{_label(['environment ' + env.title])}]")
        for cluster in env.clusters:
            out.append(f"    subgraph {cluster.id}[{_label(cluster.lines)}]")
            for pool in cluster.pools:
                out.extend(_pool(pool, "      "))
            out.append("    end")
        out.extend(_box(w, "    ") for w in env.workloads)
        out.append("  end")
    kinds: dict[str, list[str]] = {}
    idle: list[str] = []
    for env in envs:
        for cluster in env.clusters:
            for pool in cluster.pools:
                for a, b in zip(pool.rungs, pool.rungs[1:], strict=False):
                    out.append(f"  {a.id} -. then .-> {b.id}")
                for box in pool.rungs or (pool,):
                    if box.kind is not None:
                        kinds.setdefault(box.kind, []).append(box.id)
                if pool.paid_idle:
                    idle.append(pool.rungs[0].id if pool.rungs else pool.id)
        for edge in env.edges:
            out.append(f"  {edge.source} {ARROWS[edge.role]} {edge.target}")
    for kind, style in CLASSES:
        if kind in kinds:
            name = kind.replace("-", "")  # a class name is a plain word
            out.append(f"  classDef {name} {style}")
            out.extend(f"  class {box_id} {name}" for box_id in kinds[kind])
    if idle:
        # After the capacity classes, so the alarm's outline wins over theirs.
        out.append(f"  classDef paididle {PAID_IDLE}")
        out.extend(f"  class {box_id} paididle" for box_id in idle)
    return "\n".join(out) + "\n"
