"""Worked examples of the rollout decision."""

from __future__ import annotations

from gpuplat.workload.rollout import rollout


def test_full_pool_gets_no_surge() -> None:
    # 2 nodes x 8 GPUs = 16 GPUs; 4 replicas x 4 GPUs = 16: no room for a fifth replica.
    decision = rollout(
        capacity_units=2 * 8, gpus_per_replica=4, max_replicas=4, capacity_text="pool a"
    )
    assert (decision.max_surge, decision.max_unavailable) == (0, 1)
    assert decision.capacity_replicas == 4
    assert "maxSurge 0, maxUnavailable 1" in decision.reason


def test_room_for_one_more_replica_surges() -> None:
    # 3 nodes x 8 GPUs = 24 GPUs = 6 replicas of 4; at most 4 run, so a fifth fits.
    decision = rollout(
        capacity_units=3 * 8, gpus_per_replica=4, max_replicas=4, capacity_text="pool a"
    )
    assert (decision.max_surge, decision.max_unavailable) == (1, 0)
    assert decision.capacity_replicas == 6


def test_exactly_one_spare_replica_is_enough() -> None:
    decision = rollout(capacity_units=5, gpus_per_replica=1, max_replicas=4, capacity_text="pool a")
    assert decision.max_surge == 1


def test_stranded_units_do_not_count() -> None:
    # 8 MIG instances, 3 per replica: 2 replicas fit (2 units stranded); max 2 -> no surge.
    decision = rollout(capacity_units=8, gpus_per_replica=3, max_replicas=2, capacity_text="pool a")
    assert (decision.max_surge, decision.capacity_replicas) == (0, 2)
