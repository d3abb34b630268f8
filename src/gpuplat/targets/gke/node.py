"""What a GKE node keeps for itself and what its modules turn on there, so the rest can be
divided among a pool's replicas.

GKE documents the reservation of a Standard node ("Plan GKE Standard node sizes", Node
allocatable resources, https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes):

- memory: 255 MiB on machines with less than 1 GiB; else 25% of the first 4 GiB, 20% of the next
  4 GiB, 10% of the next 8 GiB, 6% of the next 112 GiB and 2% of the rest, plus 100 MiB for the
  kubelet's eviction threshold;
- CPU: 6% of the first core, 1% of the next, 0.5% of the next 2 and 0.25% of every core above 4;
- ephemeral storage: an eviction threshold of 10% of the boot disk, and
  min(50% of the disk, 6 GiB + 35% of the disk, 100 GiB) for the system.
"""

from __future__ import annotations

from gpuplat.catalog import Shape
from gpuplat.spec.model import NodePool, Spec
from gpuplat.targets.node_reserve import EphemeralDisk, Reserve, tiers

_MEMORY_TIERS = ((4 * 1024, 0.25), (4 * 1024, 0.20), (8 * 1024, 0.10), (112 * 1024, 0.06))
_CPU_TIERS = ((1000, 0.06), (1000, 0.01), (2000, 0.005))
EVICTION_MIB = 100
MODULE_FEATURES = frozenset(
    {
        "gke_dataplane_v2",
        "gke_workload_identity",
        "gke_logging",
        "gke_system_metrics",
        "gke_managed_prometheus",
        "gcs_fuse_csi",
        "gce_pd_csi",
    }
)
"""What gpuplat's GKE modules turn on for every node, each bringing GKE's DaemonSets with it
(catalog ``daemonsets.yaml``): Dataplane V2 (``datapath_provider = "ADVANCED_DATAPATH"``, so no
kube-proxy), the GKE metadata server of Workload Identity (``GKE_METADATA`` on every pool),
system and workload logging, system metrics with Managed Service for Prometheus, and the
Persistent Disk and Cloud Storage FUSE CSI drivers (gke-cluster module)."""


def kubelet_reserve(shape: Shape) -> Reserve:
    """CPU and memory GKE reserves on a node of this shape (eviction threshold included)."""
    memory = float(shape.memory_gib) * 1024
    reserved = 255.0 if memory < 1024 else tiers(memory, _MEMORY_TIERS, rest=0.02)
    cpu = tiers(shape.vcpus * 1000, _CPU_TIERS, rest=0.0025)
    return Reserve(cpu_millis=round(cpu), memory_mib=round(reserved) + EVICTION_MIB)


def ephemeral_reserve_gb(disk_gb: int) -> float:
    """Boot disk GKE keeps from pods: the eviction threshold and the system reservation."""
    return 0.10 * disk_gb + min(0.50 * disk_gb, 6 + 0.35 * disk_gb, 100)


LOCAL_SSD_GB = 375
"""Size of one GCE local NVMe SSD (provider source: ``ephemeral_storage_local_ssd_config``)."""

PD_WRITE_MIBPS = {
    "pd-standard": (0.0, 0.12, 400.0),
    "pd-balanced": (140.0, 0.28, 1200.0),
    "pd-ssd": (240.0, 0.48, 1200.0),
}
"""Zonal Persistent Disk write throughput: a baseline in MiB/s, MiB/s per GiB of disk added to
it, and the most one instance gets (Compute "About Persistent Disk performance", throughput
limits for zonal Persistent Disk). The per-GiB rates and the caps are from that page. The
baselines (pd-balanced 140, pd-ssd 240 MiB/s; pd-standard has none) are UNVERIFIED: the page
says pd-balanced and pd-ssd add a baseline to the per-GiB part, but its figures were not in the
copy read here. The cap also falls with fewer vCPUs, which is not modelled."""
HYPERDISK_WRITE_MIBPS = {"hyperdisk-balanced": 290.0}
"""Throughput a Hyperdisk gets when none is provisioned (gpuplat provisions none): UNVERIFIED,
Hyperdisk Balanced's default as remembered from Compute "About Hyperdisk performance", not read
here. The other Hyperdisk types' defaults are not known to gpuplat (None)."""
LOCAL_SSD_WRITE_MIBPS = 350.0
"""Write throughput of one local NVMe SSD; GKE stripes a node's local SSDs for ephemeral storage,
so the rate is taken as the count times this. UNVERIFIED (Compute "About Local SSD disks" lists
per-count limits, not read here), and the machine's own limit above some count is not
modelled: on a3-highgpu-8g (16 SSDs) the estimate is likely the fast side."""


def disk_write_mibps(pool: NodePool, disk_type: str) -> float | None:
    """MiB/s the disk that holds the pool's ephemeral storage writes at: its local SSDs, the
    Persistent Disk's baseline plus its per-GiB rate (up to the instance's cap), or a Hyperdisk's
    default throughput. None where gpuplat does not know it."""
    if pool.disk.local_ssd_count:
        return pool.disk.local_ssd_count * LOCAL_SSD_WRITE_MIBPS
    if disk_type in HYPERDISK_WRITE_MIBPS:
        return HYPERDISK_WRITE_MIBPS[disk_type]
    if disk_type not in PD_WRITE_MIBPS:
        return None
    baseline, per_gib, most = PD_WRITE_MIBPS[disk_type]
    return min(baseline + per_gib * pool.disk.size_gb, most)


def ephemeral_disk(pool: NodePool) -> EphemeralDisk:
    """Where a GKE node keeps pods' ephemeral storage: the boot disk, or the local SSDs of
    ``ephemeral_storage_local_ssd_config`` (GKE then puts emptyDirs, container images and the
    Cloud Storage FUSE sidecar's file cache on them). On local SSDs the boot disk's formula is
    applied to their total: an estimate, GKE documents its own reservation for them."""
    count = pool.disk.local_ssd_count
    if not count:
        return EphemeralDisk.boot(pool.disk.size_gb, ephemeral_reserve_gb(pool.disk.size_gb))
    size = count * LOCAL_SSD_GB
    return EphemeralDisk(f"{count} local SSDs ({size} GB)", size, ephemeral_reserve_gb(size))


def gke_dcgm(spec: Spec, plugin: str) -> bool:
    """GKE exports DCGM metrics itself (``monitoring_config`` DCGM) unless metrics are off
    (``addons.metrics.dcgm_exporter``) or the GPU Operator exports them."""
    return spec.addons.metrics.dcgm_exporter and plugin not in ("gpu-operator", "dra")


def node_features(own_plugin: bool, dcgm: bool, pool: NodePool) -> frozenset[str]:
    """What a GKE pool's nodes have on: the modules' features, GKE's device plugin where no other
    plugin hands out the GPUs (``own_plugin``), and GKE's driver installer and managed DCGM
    metrics where GKE installs the driver and ``dcgm`` (the cluster's ``monitoring_config``
    turns DCGM on then; GKE runs it with its own driver)."""
    features = set(MODULE_FEATURES)
    if own_plugin:
        features.add("gke_device_plugin")
    if pool.driver.install == "managed":
        features.add("gke_driver_installer")
        if dcgm:
            features.add("gke_managed_dcgm")
    return frozenset(features)
