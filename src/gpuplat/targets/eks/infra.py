"""EKS's part of an infra root: the eks-network, eks-cluster and eks-gpu-node-group module
calls, the aws provider configurations they need, and how a planned node group counts GPUs.

Every value here is plain data; the templates write it through the one quoting function.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpuplat import catalog
from gpuplat.hcl.writer import expr, raw
from gpuplat.render.naming import module_label
from gpuplat.render.views import CallView, ClusterView, InfraPart, PoolView
from gpuplat.spec.ladder import Ladder, LadderRung
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.spec.resolve import resolve_pool, version_tuple
from gpuplat.targets.base import Target
from gpuplat.targets.eks import node
from gpuplat.targets.eks.identity import workload_identities
from gpuplat.targets.eks.metrics import managed_prometheus_view
from gpuplat.targets.planvalues import PlannedPool, first, ladder_of, number
from gpuplat.targets.poolviews import shared_pool_view
from gpuplat.targets.tags import TAINT_EFFECT, gpuplat_tags, resource_labels

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec

DEFAULT_KUBERNETES_VERSION = "1.35"
"""What a cluster runs when the spec names no version: the newest EKS minor in standard support
that every chart gpuplat installs on EKS covers (the support calendar's checks warn once it
ages out).

The root always passes the version, so a later gpuplat with a newer default never upgrades an
existing cluster by itself (and the eks-cluster module's own default is never used).
"""
AWS_SERVICES = ("amp", "autoscaling", "ec2", "eks", "iam", "logs", "sts")
"""Every AWS API the EKS modules call; an ``aws.endpoint`` serves all of them."""
_GRAVITON = ("a1.", "c6g", "c7g", "c8g", "m6g", "m7g", "m8g", "r6g", "r7g", "r8g", "t4g")


@dataclass(frozen=True)
class AwsProvider:
    """The ``provider "aws"`` block of a cluster's infra root."""

    region: str
    account_id: str | None
    endpoint: str | None

    @classmethod
    def of(cls, cluster: Cluster) -> AwsProvider:
        aws = cluster.aws
        return cls(
            cluster.region,
            aws.account_id if aws is not None else None,
            aws.endpoint if aws is not None else None,
        )

    def view(self, default_tags: dict[str, str]) -> dict[str, object]:
        """What eks.providers.tf.j2 writes."""
        return {
            "region": self.region,
            # Against an emulator the provider skips the account lookup, so it cannot check one.
            "allowed_account_ids": [self.account_id]
            if self.account_id and not self.endpoint
            else None,
            "endpoint": self.endpoint,
            "endpoints": dict.fromkeys(AWS_SERVICES, self.endpoint) if self.endpoint else None,
            "default_tags": default_tags,
        }


def part(target: Target, env: EnvSpec, cluster: Cluster) -> InfraPart:
    """An EKS cluster in its infra root, and the aws provider it needs."""
    modules = {"eks-cluster", "eks-gpu-node-group"}
    if cluster.network.vpc_cidr is not None:
        modules.add("eks-network")
    view = cluster_view(target, env, cluster)
    if view.prometheus is not None:
        modules.add("eks-managed-prometheus")
    return InfraPart(
        cluster=view,
        modules=frozenset(modules),
        providers={"aws": AwsProvider.of(cluster).view(gpuplat_tags(env))},
    )


def kubernetes_version(cluster: Cluster) -> str:
    """major.minor of the control plane: EKS takes no patch version (the checks refuse one)."""
    if cluster.kubernetes.version is None:
        return DEFAULT_KUBERNETES_VERSION
    parsed = version_tuple(cluster.kubernetes.version)
    return f"{parsed[0]}.{parsed[1]}" if parsed else cluster.kubernetes.version


def system_ami(instance_type: str) -> str:
    """AMI type of the CPU system node group: AL2023 for the instance's architecture."""
    arm = instance_type.startswith(_GRAVITON)
    return "AL2023_ARM_64_STANDARD" if arm else "AL2023_x86_64_STANDARD"


def cluster_view(target: Target, env: EnvSpec, cluster: Cluster) -> ClusterView:
    """The eks-network (new VPC), eks-cluster and eks-gpu-node-group calls of one cluster."""
    network = cluster.network
    aws = cluster.aws
    module = module_label("cluster", cluster.name)
    tags = resource_labels(env, cluster)
    network_call: CallView | None = None
    if network.vpc_cidr is not None:
        network_module = module_label("network", cluster.name)
        network_call = CallView(
            network_module,
            {
                "name": cluster.name,
                "vpc_cidr": network.vpc_cidr,
                "zones": list(cluster.zones),
                # Protected (prod-like) environments keep their egress when one zone fails.
                "nat_gateways": "per_zone" if env.protected else "single",
                "tags": tags,
            },
        )
        cluster_network: dict[str, object] = {
            "vpc_id": raw(f"module.{network_module}.vpc_id"),
            "subnet_ids": raw(f"module.{network_module}.private_subnet_ids"),
        }
        zones_ref = f"module.{network_module}.subnet_ids_by_zone"
    else:
        cluster_network = {"vpc_id": network.network, "subnet_ids": list(network.subnet_ids)}
        zones_ref = f"module.{module}.subnet_ids_by_zone"
    system_type = cluster.system_pool.machine_type or target.default_system_machine
    public_cidrs = [a.cidr for a in network.authorized_networks] or ["0.0.0.0/0"]
    args: dict[str, object] = {
        "name": cluster.name,
        "kubernetes_version": kubernetes_version(cluster),
        "network": cluster_network,
        "endpoint": {
            "public": network.public_endpoint,
            "public_cidrs": public_cidrs if network.public_endpoint else [],
            **(
                {
                    "private_networks": [
                        {"cidr": n.cidr, "description": n.name} if n.name else {"cidr": n.cidr}
                        for n in network.private_endpoint_networks
                    ]
                }
                if network.private_endpoint_networks
                else {}
            ),
        },
        "admins": list(aws.admins) if aws is not None else [],
        "secrets_kms_key_arn": aws.kms_key_arn if aws is not None else None,
        "system_pool": {
            "instance_type": system_type,
            "ami_type": system_ami(system_type),
            "min_nodes": cluster.system_pool.min_nodes,
            "max_nodes": cluster.system_pool.max_nodes,
        },
    }
    if aws is not None and aws.ssm_access:
        args["ssm_access"] = True
    if any(p.efa for p in cluster.node_pools):
        args["efa_security_group"] = True
    identities = workload_identities(env.spec, cluster)
    if identities:
        args["workload_identities"] = identities
    args["tags"] = tags
    return ClusterView(
        cloud="eks",
        name=cluster.name,
        module=module,
        region=cluster.region,
        network=network_call,
        args=args,
        prometheus=managed_prometheus_view(target, env, cluster, module),
        pools=tuple(
            pool_view(target, env, cluster, lad, rung, module, zones_ref)
            for lad in (target.ladder(cluster, pool) for pool in cluster.node_pools)
            for rung in lad.rungs
        ),
    )


def ami_type(arch: str, image: str | None, driver: str) -> str:
    """The pool's AMI type: the spec's, else the GPU AMI of the instance's architecture.

    With ``driver.install: none`` something else (the GPU Operator) installs the driver, so the
    node gets the standard AL2023 AMI, which has none to conflict with.
    """
    if image is not None:
        return image
    cpu = "ARM_64" if arch == "arm64" else "x86_64"
    return f"AL2023_{cpu}_STANDARD" if driver == "none" else f"AL2023_{cpu}_NVIDIA"


def capacity_view(pool: NodePool) -> dict[str, object]:
    """The node group's capacity: ON_DEMAND, SPOT or CAPACITY_BLOCK, with a reservation."""
    cap = pool.capacity
    assert not isinstance(cap, list)  # a rung's node pool has one capacity type
    if cap.type == "spot":
        return {"type": "SPOT"}
    if cap.type == "reservation":
        return {
            "type": "CAPACITY_BLOCK" if cap.block else "ON_DEMAND",
            "reservation_id": cap.reservation,
        }
    return {"type": "ON_DEMAND"}


def pool_view(
    target: Target,
    env: EnvSpec,
    cluster: Cluster,
    lad: Ladder,
    rung: LadderRung,
    cluster_module: str,
    zones_ref: str,
) -> PoolView:
    """The eks-gpu-node-group call of one node group: a pool, or one rung of its ladder
    (built once for the environments that share them).

    ``zones_ref`` is the expression of the zone -> subnet ids map a pool pinned to zones picks
    its subnets from: the new VPC's (known when planning) or the cluster module's.
    """
    return shared_pool_view(
        (target, cluster, lad, rung),
        (cluster_module, zones_ref, target.device_plugin(env.spec)),
        lambda: _pool_view(target, env, cluster, lad, rung, cluster_module, zones_ref),
        "tags",
        resource_labels(env, cluster),
    )


def _pool_view(
    target: Target,
    env: EnvSpec,
    cluster: Cluster,
    lad: Ladder,
    rung: LadderRung,
    cluster_module: str,
    zones_ref: str,
) -> PoolView:
    """The view of :func:`pool_view`: it reads the environment for its device plugin (the
    spec's add-ons, resolved) and its tags only."""
    pool = rung.pool
    gpu = resolve_pool(cluster, pool)
    assert gpu.gpus_per_node is not None  # the checks refuse a pool whose GPU count is unknown
    shape = gpu.shape
    ref = f"module.{cluster_module}"
    if pool.zones:
        # The zone names reach this expression through expr(), i.e. the one quoting function.
        zones = expr(list(pool.zones))
        subnets = raw(f"flatten([for zone in {zones} : {zones_ref}[zone]])")
    else:
        subnets = raw(f"{ref}.subnet_ids")
    args: dict[str, object] = {
        "cluster_name": raw(f"{ref}.name"),
        "kubernetes_version": raw(f"{ref}.kubernetes_version"),
        "node_role_arn": raw(f"{ref}.node_role_arn"),
        "subnet_ids": subnets,
        "name": pool.name,
        "instance_type": pool.machine_type,
        **(
            {"extra_instance_types": list(pool.extra_machine_types)}
            if pool.extra_machine_types
            else {}
        ),
        "ami_type": ami_type(shape.arch if shape else "x86_64", pool.image, pool.driver.install),
        "gpus_per_node": gpu.gpus_per_node,
        # What one node advertises as nvidia.com/gpu: shared or MIG slices count, not GPUs.
        # Under DRA, GPUs are claimed through ResourceSlices instead.
        "advertised_gpus": 0 if target.device_plugin(env.spec) == "dra" else gpu.units_per_node,
        # Pods request ephemeral storage (copied weights): without this tag the autoscaler's
        # template node at zero nodes has none, and such a pod never scales the group up.
        "template_resources": {
            "ephemeral-storage": f"{node.ephemeral_allocatable_gib(pool.disk.size_gb)}Gi"
        },
        "capacity": capacity_view(pool),
        "scaling": {
            "min_nodes": pool.autoscaling.min_nodes,
            "max_nodes": pool.autoscaling.max_nodes,
        },
        "disk": {"size_gb": pool.disk.size_gb, "type": pool.disk.type or "gp3"},
        "labels": target.rung_labels(env.spec, lad, rung),
        "taints": [
            {"key": t.key, "value": t.value, "effect": TAINT_EFFECT[t.effect]} for t in pool.taints
        ],
    }
    if pool.efa:
        # The cluster's one EFA security group: EFA flows only within one self-referencing group.
        args["efa"] = {
            "interfaces": node.efa_interfaces(pool.machine_type),
            "own_security_group": False,
            "security_group_id": raw(f"{ref}.efa_security_group_id"),
            "security_group_ids": [raw(f"{ref}.cluster_security_group_id")],
        }
    if pool.placement.compact:
        args["compact_placement"] = True
    if node.bottlerocket(pool) and pool.sharing.mode == "time-slicing":
        args["bottlerocket_time_slicing"] = pool.sharing.max_clients or 2
    args["tags"] = resource_labels(env, cluster)
    return PoolView(
        name=pool.name,
        module=module_label("pool", cluster.name, pool.name),
        machine_type=pool.machine_type,
        accelerator=gpu.accelerator,
        gpus_per_node=gpu.gpus_per_node,
        args=args,
    )


def read_pool(values: Mapping[str, object]) -> PlannedPool | None:
    """A planned ``aws_eks_node_group``: instance type, capacity, bounds and GPUs."""
    scaling = first(values, "scaling_config")
    low, high = number(scaling, "min_size"), number(scaling, "max_size")
    if low is None or high is None:
        return None
    types = values.get("instance_types")
    tags = values.get("tags")
    tags = tags if isinstance(tags, Mapping) else {}
    machine = types[0] if isinstance(types, list) and types and isinstance(types[0], str) else None
    if machine is None and isinstance(tags.get(node.INSTANCE_TYPE_TAG), str):
        # A Capacity Block's instance type is in its launch template; the module repeats it
        # in this tag.
        machine = str(tags[node.INSTANCE_TYPE_TAG])
    capacity = {"SPOT": "spot", "CAPACITY_BLOCK": "capacity-block"}.get(
        str(values.get("capacity_type") or "ON_DEMAND"), "on-demand"
    )
    if capacity == "on-demand" and tags.get(node.RESERVATION_TAG):
        capacity = "reservation"
    shape = catalog.shape("eks", machine) if machine else None
    gpus = shape.gpu_count if shape is not None and shape.gpu_count else None
    ladder = ladder_of(values.get("labels"))
    return PlannedPool("eks", machine, capacity, low, high, gpus, ladder=ladder)
