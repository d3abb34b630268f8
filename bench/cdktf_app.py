"""The CDKTF side of the render benchmark: the same GKE pools, infra only, synthesised by CDKTF.

Run by bench/render.py with the Python of a virtualenv holding ``cdktf`` 0.21.0 and the prebuilt
google provider bindings (``cdktf-cdktf-provider-google`` 16.12.1; see bench/README.md):
``PYTHON app.py POOLS OUTDIR``. One stack per environment and cluster, as gpuplat has one infra
root per environment and cluster; each holds the cluster and one node pool per GPU pool with the
settings gpuplat's gke-gpu-node-pool module sets (machine, accelerator, spot, autoscaling,
labels, taints, disk, image, secure boot, resource labels).
"""

from __future__ import annotations

import sys

from cdktf import App, TerraformStack
from cdktf_cdktf_provider_google.container_cluster import ContainerCluster
from cdktf_cdktf_provider_google.container_node_pool import ContainerNodePool
from cdktf_cdktf_provider_google.provider import GoogleProvider
from constructs import Construct

ENVS = ("dev", "staging", "qa", "perf", "prod")
SHAPES = (
    ("g2-standard-8", "nvidia-l4", 1, None),
    ("a2-ultragpu-1g", "nvidia-a100-80gb", 1, None),
    ("a3-highgpu-8g", "nvidia-h100-80gb", 8, "3g.40gb"),
)
POOLS_PER_CLUSTER = 50


class Infra(TerraformStack):
    def __init__(self, scope: Construct, env: str, cluster: int, pools: int, first: int) -> None:
        super().__init__(scope, f"{env}-c{cluster}-infra")
        GoogleProvider(self, "google", project="bench-project-1", region="us-central1")
        labels = {"gpuplat-env": env, "gpuplat-project": "bench", "managed-by": "gpuplat"}
        gke = ContainerCluster(
            self,
            "cluster",
            name=f"c{cluster}",
            location="us-central1",
            node_locations=["us-central1-a"],
            deletion_protection=env == "prod",
            remove_default_node_pool=True,
            initial_node_count=1,
            resource_labels=labels,
        )
        for p in range(pools):
            machine, accelerator, count, mig = SHAPES[(first + p) % len(SHAPES)]
            gpu: dict[str, object] = {"type": accelerator, "count": count}
            if mig:
                gpu["gpu_partition_size"] = mig
            ContainerNodePool(
                self,
                f"pool_p{p}",
                name=f"p{p}",
                cluster=gke.name,
                location=gke.location,
                node_locations=["us-central1-a"],
                autoscaling={"min_node_count": 0, "max_node_count": 4, "location_policy": "ANY"},
                node_config={
                    "machine_type": machine,
                    "spot": True,
                    "guest_accelerator": [
                        {**gpu, "gpu_driver_installation_config": {"gpu_driver_version": "LATEST"}}
                    ],
                    "labels": {"gpuplat.dev/pool": f"p{p}", "team": f"t{p % 7}"},
                    "taint": [
                        {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}
                    ],
                    "disk_size_gb": 200,
                    "disk_type": "pd-balanced",
                    "image_type": "COS_CONTAINERD",
                    "shielded_instance_config": {"enable_secure_boot": True},
                    "resource_labels": labels,
                },
            )


def main() -> None:
    pools, outdir = int(sys.argv[1]), sys.argv[2]
    app = App(outdir=outdir)
    clusters = max(1, pools // POOLS_PER_CLUSTER)
    for env in ENVS:
        made = 0
        for c in range(clusters):
            count = pools // clusters + (1 if c < pools % clusters else 0)
            Infra(app, env, c, count, made)
            made += count
    app.synth()


if __name__ == "__main__":
    main()
