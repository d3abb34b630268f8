"""Where the Jinja2 templates live and the environment that renders them."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import jinja2

from gpuplat.hcl.writer import JINJA_FILTERS
from gpuplat.render.bytecode import TemplateCache, flavour

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


@cache
def templates_root() -> Path:
    """The template tree: inside the installed package, or the repository's ``templates/``.

    An installed package holds the root templates only; the module templates stay in the
    source checkout, where module versions are cut (renders copy the released folders).

    Raises:
        FileNotFoundError: Neither exists (a broken installation).
    """
    package = Path(__file__).resolve().parents[1] / "templates"
    if (package / "roots").is_dir():
        return package
    repo = Path(__file__).resolve().parents[3] / "templates"
    if (repo / "roots").is_dir():
        return repo
    raise FileNotFoundError(f"gpuplat templates not found in {package} or {repo}")


def comment(text: object) -> str:
    """Text made safe for one ``#`` comment line: no line breaks or control characters.

    Never empty, so a comment that ends with it has no trailing blank.
    """
    return _CONTROL.sub(" ", str(text)).strip() or "-"


@cache
def environment() -> jinja2.Environment:
    """The one Jinja2 environment: strict about undefined names, no HTML escaping, compiled
    templates kept in the user's cache folder."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_root())),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        # The templates ship with gpuplat and do not change while it runs: no stat per use.
        auto_reload=False,
    )
    env.filters.update(JINJA_FILTERS)
    env.filters["comment"] = comment
    # Compiled templates kept between runs (keyed by what their code depends on, so set last).
    env.bytecode_cache = TemplateCache(flavour(env))
    return env
