"""The order xdist hands tests out in: the long ones first, spread over the workers.

``make test`` runs ``-n auto --dist worksteal``. Worksteal cuts the collected list into one
contiguous block per worker (the first gets ``N // n`` tests, the next ``(N - first) // (n - 1)``,
and so on) and, when a worker runs dry, moves the back half of the longest queue to it. Left in
collection order, the real-terraform test files sit together in ``tests/app`` and
``tests/eks``: one worker gets most of them, and a 200-second test that starts last keeps the
run going alone at the end.

So each block here starts with its share of the long test files, dealt longest first to the
block with the least estimated work, and the short tests fill the rest of each block in their
collection order. A test file is never split: its module-scoped fixtures (a moto server, an
applied build) are set up once per worker that runs it, and its tests keep their order.
The estimates were measured on the 2-CPU development machine (``LONG_FILES``); they only need
to be right in proportion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")

LONG_FILES: dict[str, float] = {
    "tests/app/test_lifecycle.py": 370.0,
    "tests/app/test_converge_front_door.py": 350.0,
    "tests/app/test_failover_front_door.py": 210.0,
    "tests/app/test_failover_zero_door.py": 305.0,
    "tests/app/test_failover_by_hand.py": 330.0,
    "tests/multihost/test_moto.py": 180.0,
    "tests/eks/test_moto.py": 180.0,
    "tests/app/test_migrate.py": 150.0,
    "tests/app/test_failover_keda.py": 100.0,
    "tests/app/test_failover_run.py": 60.0,
    "tests/app/test_failover_converge.py": 50.0,
    "tests/multihost/test_group_failover.py": 100.0,
    "tests/terraform/test_cache_race.py": 50.0,
}
"""Seconds a test file takes alone, for the files long enough to decide the run's end: CPU
seconds of ``pytest -n 0 FILE`` where measured (2026-12-03: lifecycle, both front doors, keda,
the zero-replica front door, the group failovers, the cache race; by hand: its wall clock alone
at load 8, less the shared build; a front door's applied build is counted in each file that may
make it first, see tests/support/snapshot.py), the rest from the wall clock of the ten slowest of
a whole run."""

INTEGRATION_TEST = 10.0
"""A test marked ``integration`` (moto and a real apply) that the table does not name."""

TERRAFORM_TEST = 3.0
"""A test marked ``terraform`` (a real init, validate or plan)."""

OTHER_TEST = 0.1

LONG = 20.0
"""A test file estimated at this many seconds or more is dealt out at a block's head."""


def block_sizes(total: int, workers: int) -> list[int]:
    """How many tests worksteal hands each worker at the start (its first distribution)."""
    sizes = []
    left = total
    for i in range(workers):
        size = left // (workers - i)
        sizes.append(size)
        left -= size
    return sizes


@dataclass
class _Block:
    size: int
    cost: float = 0.0
    head: list[object] = field(default_factory=list)


def spread(
    items: Sequence[T], workers: int, file_of: Callable[[T], str], cost_of: Callable[[T], float]
) -> list[T]:
    """``items`` reordered so that each of ``workers`` blocks starts with its long files.

    Args:
        items: the collected tests, in collection order.
        workers: how many xdist workers share them.
        file_of: the test file an item belongs to (items of one file are kept together).
        cost_of: an item's estimated seconds.
    """
    if workers < 2 or len(items) < workers:
        return list(items)
    files: dict[str, list[T]] = {}
    for item in items:
        files.setdefault(file_of(item), []).append(item)
    costs = {name: sum(cost_of(item) for item in group) for name, group in files.items()}
    long_files = sorted((n for n in files if costs[n] >= LONG), key=lambda n: (-costs[n], n))
    blocks = [_Block(size) for size in block_sizes(len(items), workers)]
    for name in long_files:
        block = min(blocks, key=lambda b: (b.cost, len(b.head)))
        block.cost += costs[name]
        block.head.extend(files[name])
    long_set = set(long_files)
    rest = [item for item in items if file_of(item) not in long_set]
    ordered: list[T] = []
    for block in blocks:
        take = max(0, block.size - len(block.head))
        ordered.extend(block.head)  # type: ignore[arg-type]
        ordered.extend(rest[:take])
        del rest[:take]
    ordered.extend(rest)
    return ordered


def estimated_cost(file: str, markers: set[str], tests_in_file: int) -> float:
    """One test's estimated seconds: its file's measured share, else by its markers."""
    if file in LONG_FILES:
        return LONG_FILES[file] / max(1, tests_in_file)
    if "integration" in markers:
        return INTEGRATION_TEST
    if "terraform" in markers:
        return TERRAFORM_TEST
    return OTHER_TEST
