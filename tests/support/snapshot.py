"""Applied builds made once per test session and copied into each test that starts from one.

Several real-terraform tests start from the same applied project: the two-cloud spec rendered,
both clouds' serving roots planned and applied through the real aws provider on moto and the
stand-ins, sometimes a Route 53 front door applied after. Building it takes minutes of
terraform; what the tests then do to it differs. :func:`from_snapshot` builds it once per
session and gives each test its own copy of everything the build left:

- the project folder (``cp -a``: the spec, the rendered tree, the local states, gpuplat's
  records), without terraform's working data (``.gpuplat/tfdata``): the copy's first command
  initialises its roots afresh, as on another machine;
- the apply log of the stand-ins (record mode), so a test reads what it applies after;
- moto's state (S3 objects, Route 53 zones, records and health checks), restored into the
  test's own moto server with the ids the build's states refer to.

Under pytest-xdist the workers are separate processes: the snapshot lives in the session's
shared temporary folder and the first worker to take its file lock builds it (as the
``aws_schema`` fixture of tests/conformance/test_checker.py does). moto runs in the test's own
process (``ThreadedMotoServer``), so its state is moto's backends there: it is saved with
pickle and loaded back into them. A failed build leaves no snapshot: each test that needs it
builds again and fails with the same assertion.
"""

from __future__ import annotations

import fcntl
import json
import os
import pickle
import shutil
import subprocess
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.moto import MotoServer

SERVICES = ("s3", "route53")
"""The moto services a build's state lives in."""

PROJECT = "p"
LOG = "applies.jsonl"
Build = Callable[[Path], dict[str, str]]
"""Builds into an empty folder (the project in ``p``, the apply log in ``applies.jsonl``)
against the moto server it was given; returns facts a test needs (e.g. a zone id)."""


def reset(moto: MotoServer) -> None:
    """Every moto backend of the server's process back to empty."""
    request = urllib.request.Request(f"{moto.endpoint}/moto-api/reset", method="POST")
    urllib.request.urlopen(request).close()


def _save_moto(path: Path) -> None:
    from moto.backends import get_backend

    state = {name: dict(get_backend(name)) for name in SERVICES}  # type: ignore[call-overload]
    path.write_bytes(pickle.dumps(state))


def _load_moto(path: Path, moto: MotoServer) -> None:
    from moto.backends import get_backend

    reset(moto)
    for name, accounts in pickle.loads(path.read_bytes()).items():
        backend = get_backend(name)  # type: ignore[call-overload]
        backend.clear()
        backend.update(accounts)


def shared_folder(factory: pytest.TempPathFactory) -> Path:
    """The session's temporary folder, the same for every xdist worker."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def from_snapshot(
    name: str, build: Build, *, moto: MotoServer, factory: pytest.TempPathFactory, into: Path
) -> dict[str, str]:
    """``build`` made once per session (under a file lock), then copied into ``into``.

    Leaves the test's copy in ``into / "p"`` and ``into / "applies.jsonl"``, and moto with the
    build's state; the spec's S3 endpoint is the test's moto server. Returns ``build``'s facts.
    """
    shared = shared_folder(factory)
    done = shared / f"snapshot-{name}"
    with (shared / f"snapshot-{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_dir():
            work = factory.mktemp(f"build-{name}")
            reset(moto)
            facts = {**build(work), "moto": moto.endpoint}
            partial = work / "snapshot"
            partial.mkdir()
            _save_moto(partial / "moto.pickle")
            shutil.rmtree(work / PROJECT / ".gpuplat" / "tfdata", ignore_errors=True)
            subprocess.run(["cp", "-a", str(work / PROJECT), str(partial / PROJECT)], check=True)
            if (work / LOG).exists():
                shutil.copy2(work / LOG, partial / LOG)
            (partial / "facts.json").write_text(json.dumps(facts), encoding="utf-8")
            partial.rename(done)
    facts = json.loads((done / "facts.json").read_text(encoding="utf-8"))
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", str(done / PROJECT), str(into / PROJECT)], check=True)
    if (done / LOG).exists():
        shutil.copy2(done / LOG, into / LOG)
    spec = into / PROJECT / "gpuplat.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace(facts.pop("moto"), moto.endpoint), encoding="utf-8")
    _load_moto(done / "moto.pickle", moto)
    return facts
