"""What a cluster's bill holds beside its nodes and fee, as each cloud renders it: the hooks a
target answers for the cost model's other lines (cost/lines.py). The defaults: nothing."""

from __future__ import annotations

from typing import ClassVar

from gpuplat.spec.model import Cluster, NodePool


class BillingHooks:
    """Boot disks, NAT gateways, an egress load balancer and node addresses, per cloud."""

    system_disk: ClassVar[tuple[int, str]]
    """The system pool's boot disk as the cluster module renders it by default (GB, type)."""
    infracost_nat: ClassVar[tuple[str, str] | None] = None
    """(address in the cluster module, usage key) of a NAT infracost prices per VM behind it."""
    egress_load_balancer: ClassVar[bool] = False
    """The cluster sends egress through a load balancer with a public address (AKS
    ``outbound_type = loadBalancer``)."""

    def boot_disk(self, pool: NodePool) -> tuple[int, str]:
        """(size GB, type) of a GPU pool's boot disk as rendered (the type when none is given)."""
        return pool.disk.size_gb, pool.disk.type or self.system_disk[1]

    def local_ssds(self, pool: NodePool) -> tuple[int, int, bool] | None:
        """(count, GB each, in the machine's price) of a pool's local SSDs, or None."""
        return None

    def nat_gateways(self, cluster: Cluster, protected: bool) -> int:
        """NAT gateways gpuplat renders for the cluster (``protected``: a prod-like env)."""
        return 0

    def public_node_addresses(self, cluster: Cluster) -> bool:
        """Each node holds a public IPv4 address of its own."""
        return False
