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


PAID_IDLE = ', color="#c0392b", penwidth=3'
"""A pool with units paid for and idle: a thick red outline (its label says how many)."""

ROLE_STYLE = {
    "active": "",
    "warm": ' [style=dashed, label="warm standby"]',
    "cold": ' [style=dotted, label="failover"]',
}
"""Arrows by the workload's role on the pool's cluster: serving solid, standbys broken."""


def _box(box: Box, indent: str, shape: str) -> str:
    style = CAPACITY_STYLE.get(box.kind or "")
    look = f', style="{style[0]},filled", fillcolor="{style[1]}"' if style else ""
    alarm = PAID_IDLE if box.paid_idle else ""
    return f"{indent}{box.id} [label={_quote(box.lines)}, shape={shape}{look}{alarm}];"


def _pool(pool: Box, indent: str) -> list[str]:
    if not pool.rungs:
        return [_box(pool, indent, "box")]
    out = [f"{indent}subgraph cluster_{pool.id} {{"]
    out.append(f"{indent}  label={_quote(pool.lines)};")
    out.append(f'{indent}  style="rounded,dashed"; fillcolor="#ffffff";')
    if pool.paid_idle:
        out.append(f'{indent}  color="#c0392b"; penwidth=3;')
    out.extend(_box(rung, indent + "  ", "box") for rung in pool.rungs)
    out.append(f"{indent}}}")
    return out


def _climbs(pool: Box) -> list[str]:
    return [
        f'  {a.id} -> {b.id} [style=dotted, label="then"];'
        for a, b in zip(pool.rungs, pool.rungs[1:], strict=False)
    ]


def _nodes(env: EnvBox) -> list[str]:
    """Every node id drawn in an environment."""
    pools = [box.id for c in env.clusters for p in c.pools for box in (p.rungs or (p,))]
    return [w.id for w in env.workloads] + pools


def _order(envs: Sequence[EnvBox]) -> list[str]:
    """Invisible edges that stack the environments top to bottom in the spec's order, the key
    last: each environment's nodes rank below the previous one's anchor and above the next's
    (Graphviz orders unconnected groups as it likes, so the order is made a constraint)."""
    out: list[str] = []
    for i, env in enumerate(envs):
        nodes = _nodes(env)
        out.extend(f"  {env.id}top -> {n} [style=invis];" for n in nodes)
        after = f"{envs[i + 1].id}top" if i + 1 < len(envs) else "keytop"
        out.extend(f"  {n} -> {after} [style=invis];" for n in nodes or [f"{env.id}top"])
    return out


def _key(envs: Sequence[EnvBox]) -> list[str]:
    """The key: each capacity type drawn, a paid-idle pool, and each kind of arrow."""
    boxes = [box for e in envs for c in e.clusters for p in c.pools for box in (p, *p.rungs)]
    kinds = [k for k in CAPACITY_STYLE if any(b.kind == k for b in boxes)]
    roles = [r for r in ROLE_STYLE if any(edge.role == r for e in envs for edge in e.edges)]
    out = ["  subgraph cluster_key {", '    label="key"; style=rounded;']
    out.append('    keytop [shape=point, style=invis, label=""];')
    for kind in kinds:
        out.append(
            _box(Box(f"key_{kind.replace('-', '_')}", (KIND_WORDS[kind],), kind), "    ", "box")
        )
    if any(b.paid_idle for b in boxes):
        words = ("STRANDED: units paid for and idle", "(free headroom costs nothing until used)")
        out.append(_box(Box("key_idle", words, paid_idle=True), "    ", "box"))
    ladders = any(p.rungs for e in envs for c in e.clusters for p in c.pools)
    if ladders:
        out.append('    key_then_a [shape=plaintext, label="one choice of a ladder"];')
        out.append(
            '    key_then_b [shape=plaintext, label="its next choice (when that one has none)"];'
        )
    for role in roles:
        out.append(f'    key_{role}_a [shape=plaintext, label="workload"];')
        out.append(f'    key_{role}_b [shape=plaintext, label="pool ({ROLE_WORDS[role]})"];')
    out.append("  }")
    out.extend(f"  keytop -> key_{k.replace('-', '_')} [style=invis];" for k in kinds)
    out.extend(f"  keytop -> key_{r}_a [style=invis];" for r in roles)
    if any(b.paid_idle for b in boxes):
        out.append("  keytop -> key_idle [style=invis];")
    out.extend(f"  key_{r}_a -> key_{r}_b{ROLE_STYLE[r]};" for r in roles)
    if ladders:
        out.append("  keytop -> key_then_a [style=invis];")
        out.append('  key_then_a -> key_then_b [style=dotted, label="then"];')
    return out


KIND_WORDS = {
    "reservation": "reservation: bold, billed whether used or not",
    "capacity-block": "Capacity Block: bold, billed whether used or not",
    "on-demand": "on-demand: solid",
    "spot": "spot: dashed, may be reclaimed",
    "flex-start": "flex-start: dotted, when capacity is found",
    "queued": "queued: dotted, when the whole request fits",
}
ROLE_WORDS = {
    "active": "serves there",
    "warm": "warm standby there",
    "cold": "cold standby, starts on failover",
}


def dot(envs: Sequence[EnvBox]) -> str:
    """DOT source of the picture, one trailing newline."""
    out = [
        "digraph gpuplat {",
        "  rankdir=TB; newrank=true;",
        '  node [fontname="Helvetica", fontsize=10];',
        '  graph [fontname="Helvetica", fontsize=11];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    for env in envs:
        out.append(f"  subgraph cluster_{env.id} {{")
        out.append(f"    label={_quote(['environment ' + env.title])};")
        out.append("    style=rounded;")
        out.append(f'    {env.id}top [shape=point, style=invis, label=""];')
        for cluster in env.clusters:
            out.append(f"    subgraph cluster_{cluster.id} {{")
            out.append(f"      label={_quote(cluster.lines)};")
            # The label under the pools, where the workloads' arrows do not cross it.
            out.append('      style=filled; fillcolor="#eef3fb"; labelloc=b;')
            for pool in cluster.pools:
                out.extend(_pool(pool, "      "))
            out.append("    }")
        out.extend(_box(w, "    ", "ellipse") for w in env.workloads)
        out.append("  }")
    out.extend(_key(envs))
    for env in envs:
        for cluster in env.clusters:
            for pool in cluster.pools:
                out.extend(_climbs(pool))
        for edge in env.edges:
            out.append(f"  {edge.source} -> {edge.target}{ROLE_STYLE[edge.role]};")
    out.extend(_order(envs))
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
