"""`gpuplat graph`: the platform's picture as Mermaid, DOT or SVG."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from gpuplat.cost import pricefile
from gpuplat.cost.estimate import estimate
from gpuplat.cost.stranded import stranded
from gpuplat.picture.dot import dot, render
from gpuplat.picture.mermaid import mermaid
from gpuplat.picture.model import picture
from gpuplat.spec.load import load_project

Format = Literal["mermaid", "dot", "svg", "png"]


def graph_project(root: Path, env: str | None, fmt: Format) -> bytes:
    """The picture of one environment (default: all) of the project in ``root``.

    Args:
        root: Project folder.
        env: Environment to draw; None draws every environment.
        fmt: ``mermaid``, ``dot``, ``svg`` or ``png`` (the last two through Graphviz).

    Returns:
        The drawing (text formats UTF-8 encoded).

    Raises:
        SpecError: The spec is invalid.
        ToolMissingError: SVG or PNG was asked for and Graphviz' dot is not installed.
    """
    project = load_project(root, [env] if env else [])
    # Priced as `gpuplat cost` prices: from the newest price file, else the shipped catalog.
    with pricefile.using(pricefile.choose(root)):
        priced = [
            (name, loaded.spec, estimate(name, loaded.spec, project.today))
            for name, loaded in project.envs.items()
        ]
        boxes = picture([(*one, stranded(one[1], one[2])) for one in priced])
    if fmt == "mermaid":
        return mermaid(boxes).encode()
    source = dot(boxes)
    if fmt == "dot":
        return source.encode()
    return render(source, fmt)
