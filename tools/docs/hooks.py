"""MkDocs hook: the repository's README.md is the site's front page.

The README links to the pages as ``docs/<page>.md`` (right on a forge, where it is read beside
the folder); on the site the pages sit next to the front page, so those links lose the prefix.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

README = Path(__file__).resolve().parents[2] / "README.md"
_DOCS_LINK = re.compile(r"\]\(docs/")


def front_page(text: str) -> str:
    """The README as the site's index.md."""
    return _DOCS_LINK.sub("](", text)


def on_files(files: Files, config: Any, **_: Any) -> Files:
    files.append(
        File.generated(config, "index.md", content=front_page(README.read_text(encoding="utf-8")))
    )
    return files
