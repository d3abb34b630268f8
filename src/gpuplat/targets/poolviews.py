"""A node pool's module call built once for the environments that share it.

The environments of one load share the clusters, pools and ladders that no overlay touches (the
very same frozen objects). Of a pool call's arguments, only the cloud resource labels (GKE's
``resource_labels``, EKS's and AKS's ``tags``) name the environment; everything else depends on
the target, the cluster, the ladder and its rung, plus a few plain values each target names (the
cluster module's label, the device plugin in effect). So the arguments are built once per such
key, and each environment gets a shallow copy with its own labels, at the same place in the
argument order (so the HCL written is unchanged).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import replace

from gpuplat.memo import ByIdentity
from gpuplat.render.views import PoolView

_VIEWS: ByIdentity[PoolView] = ByIdentity(1 << 14)
"""Pool views by what they are made of besides the environment."""


def shared_pool_view(
    held: tuple[object, ...],
    plain: tuple[Hashable, ...],
    build: Callable[[], PoolView],
    labels_arg: str,
    labels: Mapping[str, str],
) -> PoolView:
    """The view ``build`` makes, built once per ``held`` objects (by identity) and ``plain``
    values (by equality), with ``labels`` (the environment's) as its ``labels_arg`` argument.

    ``build`` must read nothing of the environment but what ``plain`` carries and the argument
    ``labels_arg``, which it must set.
    """
    view = _VIEWS.get(held, plain, build)
    assert labels_arg in view.args  # replaced in place: the argument order stays the same
    args = dict(view.args)
    args[labels_arg] = labels
    return replace(view, args=args)
