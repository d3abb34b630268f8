"""What the root templates read from a typed view is a field of that view.

The views are frozen dataclasses: mypy holds the code that builds them to their fields, and this
test holds the templates to the same fields, so a misspelt name fails here, not mid-render.
"""

from __future__ import annotations

import dataclasses
import re

from gpuplat.render.serving import ModuleCall, ServerView
from gpuplat.render.templates import templates_root


def _read(template: str, name: str) -> set[str]:
    text = (templates_root() / template).read_text(encoding="utf-8")
    return set(re.findall(rf"\b{re.escape(name)}\.([a-z_]+)", text))


def test_the_serving_root_reads_only_fields_of_its_views() -> None:
    server = {f.name for f in dataclasses.fields(ServerView)}
    call = {f.name for f in dataclasses.fields(ModuleCall)}
    read = _read("roots/serving/main.tf.j2", "s")
    assert read and read - {"reader"} <= server
    assert "reader" in server
    assert _read("roots/serving/main.tf.j2", "s.reader") <= call
    assert _read("roots/serving/main.tf.j2", "metrics_reader") <= call
