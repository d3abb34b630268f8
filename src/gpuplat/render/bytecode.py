"""The root templates' compiled code, kept on disk between runs.

A fresh render compiles every root template it uses from its source (lexing, parsing, Python
code generation, ``compile``): about a tenth of a second of a small render, paid again by
every process. Jinja2 can keep the compiled code instead; this keeps it in the user's cache
folder (:mod:`gpuplat.cachedir`), under ``templates/``.

Jinja2 stores a checksum of each template's source beside its code and compiles again when the
source changed. The settings the compiled code also depends on (Jinja2's version, the
environment's syntax and options, which filters and tests exist) are part of each entry's
name here, so another gpuplat or another Jinja2 never reads an entry it did not write.

As in the catalog cache, an entry is written to a temporary file and renamed into place, and
read only when the current user owns it and nobody else may write it (it holds a pickle and
marshalled code). Any trouble (a read-only or missing folder, a damaged entry) means compiling
from the source, silently: the cache only ever saves time.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket, BytecodeCache

from gpuplat.cachedir import folder


def flavour(env: jinja2.Environment) -> str:
    """What a template's compiled code depends on besides its source, as a short digest."""
    settings = (
        jinja2.__version__,
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.optimized,
        env.is_async,
        repr(env.autoescape),
        env.finalize is None,
        sorted(env.extensions),
        sorted(env.filters),
        sorted(env.tests),
    )
    return hashlib.sha256(repr(settings).encode()).hexdigest()[:16]


class TemplateCache(BytecodeCache):
    """Compiled templates in the user's cache folder, one file per template and flavour."""

    def __init__(self, flavour: str) -> None:
        self.flavour = flavour

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return f"{super().get_cache_key(name, filename)}-{self.flavour}"

    def load_bytecode(self, bucket: Bucket) -> None:
        path = folder() / "templates" / f"{bucket.key}.cache"
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return
        with os.fdopen(fd, "rb") as fh:
            info = os.fstat(fh.fileno())
            if info.st_uid != os.geteuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return
            try:
                bucket.load_bytecode(fh)
            except Exception:  # a damaged entry is a miss; the next write replaces it
                bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        where = folder() / "templates"
        try:
            where.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(dir=where, prefix=f".{bucket.key}.", suffix=".tmp")
        except OSError:
            return
        temp = Path(name)
        try:
            with os.fdopen(fd, "wb") as fh:
                bucket.write_bytecode(fh)
            temp.replace(where / f"{bucket.key}.cache")
        except OSError:
            with contextlib.suppress(OSError):
                temp.unlink()
