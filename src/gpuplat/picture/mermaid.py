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


def _box(box: Box, indent: str) -> str:
    return f"{indent}{box.id}[{_label(box.lines)}]"


def mermaid(envs: Sequence[EnvBox]) -> str:
    """Mermaid source of the picture, one trailing newline."""
    out = ["flowchart LR"]
    for env in envs:
        out.append(f"  subgraph {env.id}[{_label(['environment ' + env.title])}]")
        for cluster in env.clusters:
            out.append(f"    subgraph {cluster.id}[{_label(cluster.lines)}]")
            out.extend(_box(pool, "      ") for pool in cluster.pools)
            out.append("    end")
        out.extend(_box(w, "    ") for w in env.workloads)
        out.append("  end")
    for env in envs:
        for edge in env.edges:
            arrow = "-->" if edge.primary else "-.->|failover|"
            out.append(f"  {edge.source} {arrow} {edge.target}")
    return "\n".join(out) + "\n"
