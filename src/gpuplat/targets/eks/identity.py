"""Which AWS identity each workload's pods get on an EKS cluster, and what it may read.

A workload that copies its weights from S3 gets an IAM role that may read exactly the model's
bucket prefix, bound to the workload's service account through EKS Pod Identity. The roles and
associations live in the cluster's infra root: that stage has the aws provider and the IAM
permissions, while the serving stage (and whoever applies it) needs only the Kubernetes API. An
association names the namespace and service account as strings, so it may exist before the
serving stage creates them, and a pod started later picks it up.
"""

from __future__ import annotations

from gpuplat.spec.model import Cluster, Spec
from gpuplat.workload.source import copied_from_s3, split_source


def workload_identities(spec: Spec, cluster: Cluster) -> dict[str, dict[str, object]]:
    """The eks-cluster module's ``workload_identities``: workload name -> namespace, service
    account and the S3 prefixes it reads (the serving plan names both after the workload)."""
    out: dict[str, dict[str, object]] = {}
    for workload in spec.workloads:
        if cluster.name not in workload.clusters:
            continue
        if not copied_from_s3(workload.model.source, workload.model.mount):
            continue
        _scheme, bucket, prefix = split_source(workload.model.source)
        read: dict[str, object] = {"bucket": bucket}
        if prefix:
            read["prefix"] = prefix
        out[workload.name] = {
            "namespace": workload.name,
            "service_account": workload.name,
            "s3_read": [read],
        }
    return out
