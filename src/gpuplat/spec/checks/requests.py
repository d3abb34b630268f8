"""A replica's explicit CPU and memory requests must fit each node it may use, and leave the
node its margin.

Otherwise fewer replicas than GPU slices fit on a node and the GPUs left over stay idle, or the
replicas take the last millicores of a node whose DaemonSets ask for more than gpuplat counted.
What a node offers, what runs on it and the margin it keeps are worked out by
workload/allocatable.py from the catalog and the cloud's reservation.
"""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.workload.allocatable import node_share
from gpuplat.workload.fit import Overrun, overruns
from gpuplat.workload.resources import pod_requests, rung_pools, sidecars
from gpuplat.workload.weights import weights_for


def check(
    spec: Spec, workload: Workload, cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Explicit requests of ``workload`` against a node of each machine type ``pool`` may
    start (the rungs of its capacity ladder may name their own)."""
    res = workload.resources
    if res.cpu is None and res.memory is None:
        return
    weights = weights_for(workload, cluster)
    fuse = weights.mode == "gcsfuse"
    cache = weights.cache_memory_mib
    pod = pod_requests(res.cpu or "0", res.memory or "0", fuse=fuse, cache_mib=cache)
    side = sidecars(fuse, cache)
    where = f'pool "{pool.name}" in cluster "{cluster.name}"'
    seen: set[str] = set()
    for rung in rung_pools(cluster, [pool]):
        if rung.machine_type in seen:
            continue
        seen.add(rung.machine_type)
        node = node_share(spec, cluster, rung)
        if node is None:
            continue
        for item in overruns(node, pod, workload.gpus):
            written = res.cpu if item.resource == "cpu" else res.memory
            if written is None:
                continue
            own = side.cpu_millis if item.resource == "cpu" else side.memory_mib
            path = (*base, "resources", item.resource)
            yield _diagnostic(item, written, own, where, path, workload.gpus, loc)


def _diagnostic(
    item: Overrun, written: str, sidecar: int, where: str, path: KeyPath, gpus: int, loc: Locator
) -> Diagnostic:
    unit, name, n = item.unit, item.resource, item.per_node
    with_sidecar = " with the Cloud Storage FUSE sidecar's" if sidecar else ""
    hint = (
        f"lower resources.{name} to {item.largest - sidecar}{unit} or less (what leaves the "
        "node its margin), or leave it out to get the share"
    )
    details = (item.node.explain(gpus), item.node.pods_text())
    taken = f"{n * item.requested}{unit}"
    replicas = f"{n} replicas" if n > 1 else "a replica"
    if not item.fits:
        need = "need" if n > 1 else "needs"
        outcome = f"fewer than {n} replicas fit on a node" if n > 1 else "it fits on no node"
        return loc.error(
            path,
            f"{name} {written}{with_sidecar} is more than a replica's share of a node of {where}: "
            f"{replicas} {need} {taken} and the node has {item.free}{unit} for them after its "
            f"kubelet reservation and DaemonSets, so {outcome}",
            hint,
            details=details,
        )
    return loc.warning(
        path,
        f"{name} {written}{with_sidecar} leaves a node of {where} {item.left}{unit} of its "
        f"{item.margin}{unit} margin: {replicas} take {taken} of {item.free}{unit}, so a "
        "DaemonSet that asks for more than gpuplat counted keeps a replica pending",
        hint,
        details=details,
    )
