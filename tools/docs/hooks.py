"""MkDocs hook: the repository's README.md is the site's front page.

The README links to the pages as ``docs/<page>.md`` (right on a forge, where it is read beside
the folder); on the site the pages sit next to the front page, so those links lose the prefix.
A page links to the front page as ``../README.md`` (right on a forge); on the site that is
``index.md``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

README = Path(__file__).resolve().parents[2] / "README.md"
_DOCS_LINK = re.compile(r"\]\(docs/")
_README_LINK = re.compile(r"\]\((?:\.\./)+README\.md(?=[#)])")


def front_page(text: str) -> str:
    """The README as the site's index.md."""
    return _DOCS_LINK.sub("](", text)


def on_files(files: Files, config: Any, **_: Any) -> Files:
    files.append(
        File.generated(config, "index.md", content=front_page(README.read_text(encoding="utf-8")))
    )
    return files


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """A page's link to the README points at the site's front page."""
    up = "../" * page.file.src_uri.count("/")
    return _README_LINK.sub(f"]({up}index.md", markdown)
