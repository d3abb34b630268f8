"""Weights on Azure Blob: where they are, and the workload identity that reads them (AKS).

Apart from :mod:`gpuplat.workload.weights` because the AKS target builds the identities in its
infra stage, and the targets must not import what imports them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpuplat.spec.model import Cluster, Workload

BLOB_DRIVER = "blob.csi.azure.com"
"""The AKS Azure Blob CSI driver; blobfuse2 mounts the container on the node."""
WORKLOAD_IDENTITY_LABEL = "azure.workload.identity/use"
"""Pod label that makes AKS's workload identity webhook give the pod a federated token."""
CLIENT_ID_ANNOTATION = "azure.workload.identity/client-id"
"""Service account annotation naming the user-assigned identity the pods act as."""
BLOB_READER_ROLE = "Storage Blob Data Reader"
_BLOB_HOST = re.compile(r"^([a-z0-9]{3,24})\.blob\.core\.windows\.net$")


@dataclass(frozen=True)
class BlobLocation:
    """Where weights on Azure Blob are: storage account, container and the path inside it."""

    account: str
    container: str
    path: str

    @property
    def url(self) -> str:
        """The https URL of the folder (azcopy and the role's reach are this container)."""
        folder = f"/{self.path}" if self.path else ""
        return f"https://{self.account}.blob.core.windows.net/{self.container}{folder}"


@dataclass(frozen=True)
class BlobReader:
    """A workload's own Azure identity that may read exactly one Blob container (AKS).

    The cluster's infra stage creates a user-assigned identity, a federated credential that lets
    the workload's service account act as it, and ``Storage Blob Data Reader`` on the container;
    the serving objects name the identity's client id, which Azure assigns when it is created.
    """

    workload: str
    cluster: str
    blob: BlobLocation
    subscription_id: str
    resource_group: str
    """Resource group of the storage account (the role's scope)."""
    namespace: str
    service_account: str

    @property
    def scope(self) -> str:
        """Resource id of the container: the role reaches this container and nothing else."""
        return (
            f"/subscriptions/{self.subscription_id}/resourceGroups/{self.resource_group}"
            f"/providers/Microsoft.Storage/storageAccounts/{self.blob.account}"
            f"/blobServices/default/containers/{self.blob.container}"
        )

    @property
    def subject(self) -> str:
        """The federated credential's subject: the workload's service account."""
        return f"system:serviceaccount:{self.namespace}:{self.service_account}"

    @property
    def placeholder(self) -> str:
        """What the plain manifests say where the identity's client id goes (known after
        the infra stage is applied: ``gpuplat output``, clusters.<c>.workload_identities)."""
        return f"<client id of the identity of {self.workload} on {self.cluster}>"


def blob_location(source: str) -> BlobLocation | None:
    """``az://account/container/path`` or ``https://account.blob.core.windows.net/container/path``
    as a :class:`BlobLocation`; None for any other source."""
    scheme, rest = source.split("://", 1) if "://" in source else ("", source)
    host, _, tail = rest.partition("/")
    if scheme == "az":
        account = host
        container, _, path = tail.partition("/")
    elif scheme == "https" and (match := _BLOB_HOST.match(host)) is not None:
        account = match.group(1)
        container, _, path = tail.partition("/")
    else:
        return None
    return BlobLocation(account, container, path.strip("/"))


def blob_reader(workload: Workload, cluster: Cluster) -> BlobReader | None:
    """The identity ``workload`` reads its Azure Blob weights as on ``cluster``, or None when the
    source is not on Azure Blob or the cluster has no Azure subscription."""
    blob = blob_location(workload.model.source)
    if blob is None or cluster.azure is None:
        return None
    return BlobReader(
        workload=workload.name,
        cluster=cluster.name,
        blob=blob,
        subscription_id=cluster.azure.subscription_id,
        resource_group=workload.model.storage_resource_group or cluster.azure.resource_group,
        namespace=workload.name,
        service_account=workload.name,
    )
