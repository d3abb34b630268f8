"""The order xdist hands tests out in (tests/support/order.py), checked against xdist itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from xdist.scheduler.worksteal import WorkStealingScheduling

from tests import conftest
from tests.support.order import LONG, LONG_FILES, block_sizes, spread

REPO = Path(__file__).resolve().parents[1]


class _Config:
    def __init__(self, workers: int) -> None:
        self.workers = workers

    def getvalue(self, name: str) -> list[str]:
        assert name == "tx"
        return ["popen"] * self.workers


class _Node:
    """What worksteal sends a worker: the indices of the tests it is to run."""

    shutting_down = False

    def __init__(self, name: str) -> None:
        self.gateway = type("Gateway", (), {"id": name})()
        self.sent: list[int] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        """Worksteal ends a worker that has fewer than two tests queued: it runs them now."""


def first_distribution(total: int, workers: int) -> list[list[int]]:
    """The blocks xdist's own worksteal scheduler hands out before any test has run."""
    sched = WorkStealingScheduling(_Config(workers))  # type: ignore[arg-type]
    nodes = [_Node(f"gw{i}") for i in range(workers)]
    collection = [f"t{i}" for i in range(total)]
    for node in nodes:
        sched.add_node(node)  # type: ignore[arg-type]
        sched.add_node_collection(node, collection)  # type: ignore[arg-type]
    sched.schedule()
    return [node.sent for node in nodes]


@pytest.mark.parametrize(("total", "workers"), [(1444, 4), (1445, 4), (7, 3), (10, 2), (3, 3)])
def test_block_sizes_are_the_ones_worksteal_hands_out(total: int, workers: int) -> None:
    blocks = first_distribution(total, workers)
    assert [len(b) for b in blocks] == block_sizes(total, workers)
    assert [i for b in blocks for i in b] == list(range(total)), "contiguous, in order"


def items() -> list[tuple[str, int]]:
    """(file, seconds) per test: four long files between short ones, as tests/ collects them."""
    out = [("a.py", 0)] * 30 + [("life.py", 100)] * 7 + [("b.py", 0)] * 20
    out += [("door.py", 110)] * 2 + [("eks.py", 45)] * 2 + [("c.py", 0)] * 40
    out += [("keda.py", 15)] * 4 + [("d.py", 0)] * 10
    return out


def test_each_worker_starts_with_its_share_of_the_long_files() -> None:
    collected = [(f, c, n) for n, (f, c) in enumerate(items())]
    ordered = spread(collected, 4, lambda t: t[0], lambda t: t[1])
    assert sorted(ordered) == sorted(collected), "every test once"
    blocks = []
    start = 0
    for size in block_sizes(len(ordered), 4):
        blocks.append(ordered[start : start + size])
        start += size
    heads = [
        [f for f, _, _ in block if f not in {"a.py", "b.py", "c.py", "d.py"}] for block in blocks
    ]
    # Longest first, each to the block with the least work so far.
    assert [sorted(set(h)) for h in heads] == [["life.py"], ["door.py"], ["eks.py"], ["keda.py"]]
    for block, head in zip(blocks, heads, strict=True):
        assert [f for f, _, _ in block[: len(head)]] == head, "long files at the block's head"
    for name in ("life.py", "door.py", "eks.py", "keda.py"):
        where = [i for i, (f, _, _) in enumerate(ordered) if f == name]
        assert where == list(range(where[0], where[0] + len(where))), f"{name} kept together"
        assert [ordered[i][2] for i in where] == sorted(ordered[i][2] for i in where), name
    short = [n for f, _, n in ordered if f in {"a.py", "b.py", "c.py", "d.py"}]
    assert short == sorted(short), "the short tests keep their collection order"


def test_one_worker_or_none_keeps_the_collection_order() -> None:
    collected = [(f, c, n) for n, (f, c) in enumerate(items())]
    assert spread(collected, 1, lambda t: t[0], lambda t: t[1]) == collected
    assert spread(collected, 0, lambda t: t[0], lambda t: t[1]) == collected


def test_the_measured_long_files_exist_and_are_long() -> None:
    for name, seconds in LONG_FILES.items():
        assert (REPO / name).is_file(), name
        assert seconds >= LONG, name


def test_auto_starts_two_workers_per_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    cpus = len(os.sched_getaffinity(0))
    assert conftest.pytest_xdist_auto_num_workers(None) == 2 * cpus  # type: ignore[arg-type]
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert conftest.pytest_xdist_auto_num_workers(None) is None, "xdist reads its variable"
