"""A module's provider constraint is a promise: its CHANGELOG says how each major it admits was
checked, for every provider type the module uses.

The latest release of each module that requires hashicorp/google must carry, in its newest
CHANGELOG entry that names them, a "Provider majors checked" line that names every major the
constraint in versions.tf admits (``>= 6.50, < 8`` admits 6 and 7) and every google resource
and data source type in the module, so a type added later without reading the next major's
upgrade guide for it fails here.
"""

from __future__ import annotations

import re

import pytest

from gpuplat.releases.versions import latest, release_files

GOOGLE_MODULES = ("gke-cluster", "gke-gpu-node-pool", "gke-weights-reader")
CONSTRAINT = re.compile(r'source\s*=\s*"hashicorp/google"\s*version\s*=\s*"([^"]+)"')
TYPES = re.compile(r'^(?:resource|data) "(google_[a-z0-9_]+)"', re.MULTILINE)


def admitted_majors(constraint: str) -> set[int]:
    """Majors a ``>= A.B, < C`` constraint admits (the only shape gpuplat writes)."""
    match = re.fullmatch(r">=\s*(\d+)\.\d+(?:\.\d+)?,\s*<\s*(\d+)(?:\.0)*", constraint.strip())
    assert match, f"unexpected constraint shape {constraint!r}"
    low, high = int(match[1]), int(match[2])
    return set(range(low, high))


def test_admitted_majors_reads_the_bounds() -> None:
    assert admitted_majors(">= 6.50, < 8") == {6, 7}
    assert admitted_majors(">= 6.50, < 7") == {6}


@pytest.mark.parametrize("name", GOOGLE_MODULES)
def test_changelog_names_every_admitted_major_and_type(name: str) -> None:
    files = release_files(latest(name))
    match = CONSTRAINT.search(files["versions.tf"])
    assert match, f"{name}: versions.tf requires no hashicorp/google"
    majors = admitted_majors(match[1])
    used = set(TYPES.findall("".join(t for f, t in files.items() if f.endswith(".tf"))))
    assert used, name
    checked = [
        line for line in files["CHANGELOG.md"].splitlines() if "Provider majors checked" in line
    ]
    assert checked, f"{name}: no CHANGELOG entry says which provider majors were checked"
    newest = checked[0]
    for major in majors:
        assert re.search(rf"\b{major}\.(?:\d+|x)\b", newest), f"{name}: major {major} unchecked"
    # Every resource and data source type the module uses is named in that entry.
    missing = {t for t in used if t not in newest}
    assert not missing, f"{name}: {sorted(missing)} not named in {newest!r}"
