"""Which clusters of an environment a command acts on (``--cluster``, default: all of them)."""

from __future__ import annotations

from collections.abc import Sequence

from gpuplat.errors import ExitCode, GpuplatError
from gpuplat.spec.load import EnvSpec


def selected_clusters(env: EnvSpec, wanted: Sequence[str] = ()) -> list[str]:
    """The cluster names of ``env`` a command runs on, in spec order.

    Raises:
        GpuplatError: A wanted cluster is not in the environment's spec.
    """
    names = [c.name for c in env.spec.clusters]
    unknown = [w for w in wanted if w not in names]
    if unknown:
        raise GpuplatError(
            f"unknown cluster {', '.join(repr(u) for u in unknown)} in {env.name}",
            hint=f"clusters of {env.name}: {', '.join(names)}",
            exit_code=ExitCode.ERROR,
        )
    return [n for n in names if not wanted or n in wanted]
