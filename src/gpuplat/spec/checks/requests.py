"""A replica's explicit CPU and memory requests must fit its share of each node it may use.

Otherwise fewer replicas than GPU slices fit on a node, and the GPUs left over stay idle: the
share is computed by workload/allocatable.py from the catalog and the cloud's reservation.
"""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.targets.node_reserve import Reserve
from gpuplat.workload.allocatable import effective, node_share
from gpuplat.workload.quantity import cpu_millis, memory_mib
from gpuplat.workload.resources import INIT_CPU_MILLIS, INIT_MEMORY_MIB, sidecars
from gpuplat.workload.weights import weights_for


def check(
    spec: Spec, workload: Workload, cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Explicit requests of ``workload`` against its share of a node of ``pool``."""
    res = workload.resources
    if res.cpu is None and res.memory is None:
        return
    node = node_share(spec, cluster, pool)
    if node is None:
        return
    share = node.replica(workload.gpus)
    side = sidecars(weights_for(workload, cluster).mode == "gcsfuse")
    cpu = cpu_millis(res.cpu) if res.cpu is not None else None
    memory = memory_mib(res.memory) if res.memory is not None else None
    server = Reserve(cpu or 0, int(memory or 0))
    # The init container asks for no more than the server (workload/resources.py).
    init = Reserve(min(INIT_CPU_MILLIS, server.cpu_millis), min(INIT_MEMORY_MIB, server.memory_mib))
    pod = effective(server, side, init)
    per_node = node.units // workload.gpus
    where = f'pool "{pool.name}" in cluster "{cluster.name}"'
    sidecar = " with the Cloud Storage FUSE sidecar's" if side.cpu_millis else ""
    if cpu is not None and pod.cpu_millis > share.cpu_millis:
        yield loc.error(
            (*base, "resources", "cpu"),
            f"cpu {res.cpu}{sidecar} is more than a replica's share of a node of {where}: "
            f"{share.cpu_millis}m, so fewer than {per_node} replicas fit on a node",
            f"lower resources.cpu to {share.cpu_millis - side.cpu_millis}m or less, or leave it "
            "out to get the share",
            details=(node.explain(workload.gpus),),
        )
    if memory is not None and pod.memory_mib > share.memory_mib:
        yield loc.error(
            (*base, "resources", "memory"),
            f"memory {res.memory}{sidecar} is more than a replica's share of a node of {where}: "
            f"{share.memory_mib}Mi, so fewer than {per_node} replicas fit on a node",
            f"lower resources.memory to {share.memory_mib - side.memory_mib}Mi or less, or leave "
            "it out to get the share",
            details=(node.explain(workload.gpus),),
        )
