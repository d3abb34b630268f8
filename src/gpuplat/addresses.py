"""Which spec element produced a Terraform address, so plans and errors speak the spec's terms."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from gpuplat.render.naming import module_label
from gpuplat.spec.checks.names import WORKLOAD
from gpuplat.spec.diagnostics import KeyPath
from gpuplat.spec.model import Cluster, Spec
from gpuplat.spec.units import GpuUnit, workload_unit
from gpuplat.targets import TARGETS

Kind = Literal["cluster", "pool", "platform", "workload", "other"]
_MODULE = re.compile(r"^module\.([^.\[]+)")
# Modules a workload renders per cluster: module_label(kind, workload, cluster).
_PLACEMENT_MODULES = ("serve", "zero", "identity", "weights", "door")
# Resource types whose loss loses something a rebuild does not bring back: a cluster and its
# pools (capacity that may not be obtainable again), a workload's namespace (everything in it),
# and stored data.
PROTECTED_TYPES = {
    **{t.cluster_resource: "cluster" for t in TARGETS.values()},
    **{t.pool_resource: "GPU pool" for t in TARGETS.values()},
    "kubernetes_namespace_v1": "workload namespace",
    "kubernetes_persistent_volume_claim_v1": "stored data",
    "google_storage_bucket": "stored data",
    "aws_s3_bucket": "stored data",
    "aws_ebs_volume": "stored data",
    "google_compute_disk": "stored data",
    # The first cluster's serving root owns a Traffic Manager front door's profile: removing that
    # cluster from the workload would take the door's DNS name and every endpoint with it.
    "azurerm_traffic_manager_profile": "front door profile",
}


@dataclass(frozen=True)
class Element:
    """A named thing of the spec that owns some Terraform resources."""

    kind: Kind
    name: str
    path: KeyPath
    cluster: str = ""
    """The cluster whose roots render the element."""
    unit: GpuUnit | None = None
    """A workload's: the unit its GPU count is in on the cluster (a MIG slice, a share)."""

    def label(self) -> str:
        return f"{self.kind} {self.name}"


OTHER = Element("other", "-", ())


def elements(spec: Spec, cluster: str | None = None) -> dict[str, Element]:
    """Module labels of the rendered roots -> the spec element each one renders.

    Labels are unique within one cluster's roots, not across clusters (an EKS cluster ``a_b``
    with pool ``c`` and a cluster ``a`` with pool ``b_c`` both label ``pool_a_b_c``): give
    ``cluster`` to read the roots of one cluster.
    """
    out: dict[str, Element] = {}
    for i, one in enumerate(spec.clusters):
        if cluster is not None and one.name != cluster:
            continue
        out.update(_cluster_elements(one, i))
    for k, workload in enumerate(spec.workloads):
        for name in workload.clusters:
            if cluster is not None and name != cluster:
                continue
            unit = workload_unit(spec, workload, name)
            element = Element("workload", f"{workload.name}@{name}", ("workloads", k), name, unit)
            out[module_label("serve", workload.name, name)] = element
            out[module_label("zero", workload.name, name)] = element
            # AKS: the workload's Azure identity for its weights, in the cluster's infra root.
            out[module_label("identity", workload.name, name)] = element
            # GKE: the read grant on the weights' bucket, in the cluster's serving root.
            out[module_label("weights", workload.name, name)] = element
            # The front door's record or endpoint (and, in the first cluster, its profile).
            out[module_label("door", workload.name, name)] = element
        # A cluster removed from the workload still holds its door (a Traffic Manager profile in
        # the first one): its destroy names the placement that is going, not "other -".
        for gone in spec.clusters:
            if gone.name not in workload.clusters and cluster in (None, gone.name):
                label = module_label("door", workload.name, gone.name)
                out[label] = Element(
                    "workload", f"{workload.name}@{gone.name}", ("workloads", k), gone.name
                )
    return out


def _cluster_elements(cluster: Cluster, i: int) -> dict[str, Element]:
    element = Element("cluster", cluster.name, ("clusters", i), cluster.name)
    out = {
        module_label("cluster", cluster.name): element,
        module_label("network", cluster.name): element,
        module_label("platform", cluster.name): Element(
            "platform", cluster.name, ("addons",), cluster.name
        ),
    }
    for j, pool in enumerate(cluster.node_pools):
        owner = Element(
            "pool", f"{cluster.name}/{pool.name}", ("clusters", i, "node_pools", j), cluster.name
        )
        out[module_label("pool", cluster.name, pool.name)] = owner
        # A capacity ladder renders one node pool per rung: each is the spec's pool, so a plan
        # names it (and --allow-destroy takes) cluster/pool, not "other -".
        for rung in TARGETS[cluster.cloud].ladder(cluster, pool).rungs:
            out.setdefault(module_label("pool", cluster.name, rung.pool.name), owner)
    return out


def element_of(address: str, table: dict[str, Element], cluster: str = "") -> Element:
    """The element that owns a resource address (``OTHER`` when none does).

    With ``cluster`` (the cluster whose roots the address is in), a module the spec no longer
    renders (a workload or a GPU pool taken out of it) is still named after what it was, read
    from its label, so a plan that destroys it names what ``--allow-destroy`` takes.
    """
    match = _MODULE.match(address)
    if match is None:
        return OTHER
    label = match.group(1)
    found = table.get(label)
    if found is not None:
        return found
    return _gone(label, cluster) if cluster else OTHER


def _gone(label: str, cluster: str) -> Element:
    """The element a module label of ``cluster``'s roots was rendered from, read off the label.

    Workload names are DNS labels (no ``_``), so ``<kind>_<workload>_<cluster>`` has one reading
    once the cluster is known; ``pool_<cluster>_<pool>`` likewise. The path is the list the
    element was in: it is no longer in the spec.
    """
    for kind in _PLACEMENT_MODULES:
        head, tail = f"{kind}_", f"_{cluster}"
        middle = label[len(head) : -len(tail)]
        if label.startswith(head) and label.endswith(tail) and WORKLOAD.pattern.match(middle):
            return Element("workload", f"{middle}@{cluster}", ("workloads",), cluster)
    head = f"pool_{cluster}_"
    if label.startswith(head) and len(label) > len(head):
        return Element("pool", f"{cluster}/{label[len(head) :]}", ("clusters",), cluster)
    return OTHER


def resource_type(address: str) -> str:
    """The resource type of an address: ``module.<label>.<type>.<name>[index]`` -> ``<type>``."""
    parts = [p for p in address.split(".") if p]
    while parts and parts[0] == "module":
        parts = parts[2:]
    return parts[0] if parts else ""
