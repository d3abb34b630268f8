"""Conflicts resolved by hand, fed back: the folder ``vendor upgrade --conflicts DIR`` wrote
(``DIR/<module>/<new version>/``, conflict markers where both sides changed one block), once
the person has edited the markers away, is the merge to write (``--resolved DIR``), like
git's ``add`` after a merge or copier's ``.rej`` files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from gpuplat.vendoring.state import disk_files

_MARKER = re.compile(r"^(<{7} |\|{7} |={7}$|>{7} )")


@dataclass(frozen=True)
class Unresolved:
    """Why a resolved folder cannot be used: ``where`` is ``file:line`` or a folder."""

    where: str
    reason: str

    def line(self) -> str:
        return f"{self.where}  {self.reason}"


def resolved_files(
    folder: Path, name: str, version: str, expected: set[str]
) -> tuple[dict[str, str], list[Unresolved]]:
    """The files of ``folder/name/version`` and what is still unresolved in them.

    ``expected``: the files the merge has (clean or conflicting); each must be there.

    Raises:
        OSError: A file cannot be read.
    """
    where = folder / name / version
    if not where.is_dir():
        return {}, [Unresolved(str(where), f"no resolved copy of {name} {version} here")]
    files = disk_files(where)
    problems = [
        Unresolved(str(where / f), "missing (the merge has it; resolve it, do not delete it)")
        for f in sorted(expected - set(files))
    ]
    for file, text in files.items():
        for n, line in enumerate(text.splitlines(), 1):
            if _MARKER.match(line):
                problems.append(Unresolved(f"{where / file}:{n}", "a conflict marker is left"))
                break
    return files, problems
