"""The fabric operator's configuration of a cluster in Kubernetes' own shape (AKS InfiniBand:
the NicClusterPolicy), from the same arguments the serving root passes the nic-cluster-policy
module, so the plain manifests and the module say the same thing (tests/multihost)."""

from __future__ import annotations

import json

from gpuplat.manifests.pod import Obj

OFED_ENV = [
    {
        "name": "OFED_BLACKLIST_MODULES_FILE",
        "value": "/host/etc/modprobe.d/blacklist-ofed-modules.conf",
    }
]


def nic_cluster_policy(args: dict[str, object]) -> Obj:
    """The NicClusterPolicy the nic-cluster-policy module applies with ``args``."""
    images = args["images"]
    assert isinstance(images, dict)
    rdma_config = {
        "configList": [
            {
                "resourceName": args["resource_name"],
                "rdmaHcaMax": args["hca_max"],
                "selectors": {"vendors": args["vendors"], "linkTypes": ["infiniband"]},
            }
        ]
    }
    drain = {
        "enable": True,
        "deleteEmptyDir": True,
        "force": False,
        "timeoutSeconds": args["drain_timeout_seconds"],
    }
    return {
        "apiVersion": "mellanox.com/v1alpha1",
        "kind": "NicClusterPolicy",
        "metadata": {
            "name": "nic-cluster-policy",
            "labels": {"app.kubernetes.io/managed-by": "gpuplat"},
        },
        "spec": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchExpressions": [
                                {
                                    "key": args["pool_label"],
                                    "operator": "In",
                                    "values": args["pools"],
                                }
                            ]
                        }
                    ]
                }
            },
            "tolerations": args["tolerations"],
            "ofedDriver": {
                **images["ofed_driver"],
                "env": OFED_ENV,
                "upgradePolicy": {"autoUpgrade": True, "maxParallelUpgrades": 1, "drain": drain},
            },
            "rdmaSharedDevicePlugin": {
                **images["rdma_shared_device_plugin"],
                # terraform's jsonencode: compact, keys sorted.
                "config": json.dumps(rdma_config, sort_keys=True, separators=(",", ":")),
            },
        },
    }
