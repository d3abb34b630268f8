"""`gpuplat failover` carries out a multi-host workload's move, with real terraform.

The 405B example serves one group of 2 x p5.48xlarge in us-east-1 with a cold standby in
us-west-2 (tests/multihost/test_moves.py). The failover sets the standby's LeaderWorkerSet to
one group and applies it first; that apply carries the wait for every group (model-server
3.4.0); only then is the source's set brought to 0 groups, with no wait.

What is real: the terraform binary, gpuplat as a separate process, both serving roots' state in
moto's S3, the plans of the rendered roots. What is not: the kubernetes provider is the schema
stand-in in record mode (tools/schema-provider), which records the planned object as state
instead of applying it: no group becomes ready and the provider's waiter never runs; what this
shows is the order of the applies and the wait each one carries.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.test_failover_run import environment, gpuplat, seed_infra_outputs
from tests.multihost.test_moves import AUTOSCALED, two_clusters
from tests.support.moto import MotoServer, moto_server
from tests.support.standin import build_stand_ins, record_env, recorded_applies

pytestmark = [pytest.mark.terraform, pytest.mark.integration]

BUCKET = "acme-405b-tfstate"
SCALED = "acme-405b-scaled-tfstate"  # the autoscaled variant's states, apart
EAST, WEST = "frontier-use1", "frontier-usw2"


@pytest.fixture(scope="module")
def moto() -> Iterator[MotoServer]:
    with moto_server() as server:
        server.create_bucket(BUCKET)
        server.create_bucket(SCALED)
        yield server


def _sets(log: Path, project: Path) -> list[tuple[str, str, int | None, object, object]]:
    """The LeaderWorkerSet applies in order: (action, cluster, groups, the wait they carry,
    the field manager's name)."""
    out = []
    for done in recorded_applies(log):
        state = done["state"]
        assert isinstance(state, dict)
        if done["type"] != "kubernetes_manifest":
            continue
        _type, manifest = state["manifest"]  # the dynamic value: [its type, the value]
        if manifest["kind"] != "LeaderWorkerSet":
            continue
        cluster = Path(str(done["cwd"])).relative_to(project / "envs" / "dev").parts[0]
        groups = manifest["spec"].get("replicas")  # an autoscaled set may name none
        manager = state["field_manager"][0]["name"]
        out.append((str(done["action"]), cluster, groups, state["wait"], manager))
    return out


def _applied(
    moto: MotoServer, tmp_path: Path, *patches: tuple[str, str]
) -> tuple[Path, dict[str, str], Path]:
    """The two-cluster project rendered, its serving roots planned and applied: (project, the
    environment gpuplat runs in, the log of the stand-in's applies)."""
    project = two_clusters(
        tmp_path,
        (
            "      region: us-east-1\n",
            f"      region: us-east-1\n      endpoint: {moto.endpoint}\n",
        ),
        *patches,
    )
    log = tmp_path / "applies.jsonl"
    env = environment(tmp_path, build_stand_ins(), **record_env(log))
    rendered = gpuplat("render", env=env, cwd=project)
    assert rendered.returncode == 0, rendered.stderr
    for cluster in (EAST, WEST):
        seed_infra_outputs(project, cluster, env, tmp_path)
    for cluster in (EAST, WEST):
        # One root at a time: the first init fills the project's plugin cache, which two
        # inits at once would both be writing.
        args = ("plan", "dev", "--cluster", cluster, "--stage", "serving")
        planned = gpuplat(*args, env=env, cwd=project)
        assert planned.returncode == 10, planned.stdout + planned.stderr
    applied = gpuplat("apply", "dev", env=env, cwd=project)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    return project, env, log


def test_failover_applies_the_target_s_groups_with_their_wait_before_the_source(
    moto: MotoServer, tmp_path: Path
) -> None:
    project, env, log = _applied(moto, tmp_path)
    fields = {f"status.{f}Replicas": "^1$" for f in ("ready", "updated")}
    one = [{"condition": [], "fields": fields, "rollout": None}]
    # Before: one group in the east, which waited for it; the standby's 0 groups did not wait.
    assert sorted(_sets(log, project)) == [
        ("create", EAST, 1, one, None),
        ("create", WEST, 0, [], None),
    ]
    log.unlink()

    moved = gpuplat(
        "failover", "llama-405b", "--to", WEST, "-e", "dev", "--yes", env=env, cwd=project
    )
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert f"phase 1 applied: {WEST} (its groups ready: terraform waited for every group)" in (
        moved.stdout
    )
    # West's set goes to one group, and its apply waits for it, before east's goes to 0.
    assert _sets(log, project) == [("update", WEST, 1, one, None), ("update", EAST, 0, [], None)]

    # Converge finds every cluster at its role's count: nothing more is applied.
    again = gpuplat("converge", "llama-405b", "-e", "dev", "--yes", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr
    assert _sets(log, project) == [("update", WEST, 1, one, None), ("update", EAST, 0, [], None)]


def test_an_autoscaled_group_is_held_at_the_sources_groups_waited_for_then_handed_to_keda(
    moto: MotoServer, tmp_path: Path
) -> None:
    """KEDA owns the count of the east set (1..2 groups); the west standby is cold (0 groups,
    no ScaledObject). The failover holds west at the groups east serves (at least its minimum,
    1: the stand-in has no KEDA to have scaled east), waits for them, takes east down, then
    hands west's count back to KEDA without deleting it."""
    bucket = ("      bucket: acme-405b-tfstate\n", f"      bucket: {SCALED}\n")
    project, env, log = _applied(moto, tmp_path, AUTOSCALED, bucket)
    assert sorted(_sets(log, project)) == [
        ("create", EAST, None, [], None),  # KEDA's count: no replicas, nothing waits
        ("create", WEST, 0, [], None),
    ]
    log.unlink()

    moved = gpuplat(
        "failover", "llama-405b", "--to", WEST, "-e", "dev", "--yes", env=env, cwd=project
    )
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert (
        f"    {WEST} starts at 1 group(s) x 2 nodes (16 GPUs), the count the source serves now; "
        "its apply waited for them, and KEDA gets the count back once the source is down"
    ) in moved.stdout
    assert f"phase 3 applied: {WEST} handed back to its autoscaler" in moved.stdout
    fields = {f"status.{f}Replicas": "^1$" for f in ("ready", "updated")}
    one = [{"condition": [], "fields": fields, "rollout": None}]
    assert _sets(log, project) == [
        # West names the held group under the hold's own field manager, and waits for it ...
        ("update", WEST, 1, one, "gpuplat-hold"),
        # ... before east goes to 0 groups ...
        ("update", EAST, 0, [], None),
        # ... and then names no count again: the hold's manager keeps it, for KEDA.
        ("update", WEST, None, [], None),
    ]

    again = gpuplat("converge", "llama-405b", "-e", "dev", "--yes", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr
    assert len(_sets(log, project)) == 3  # nothing more applied
