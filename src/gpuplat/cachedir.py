"""The user's cache folder: ``GPUPLAT_CACHE_DIR``, else ``$XDG_CACHE_HOME/gpuplat``, else
``~/.cache/gpuplat``. Only gpuplat's derived data is kept there; deleting it is always safe."""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "GPUPLAT_CACHE_DIR"


def folder() -> Path:
    """Where entries are kept."""
    given = os.environ.get(ENV_VAR, "").strip()
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if xdg else Path.home() / ".cache") / "gpuplat"
