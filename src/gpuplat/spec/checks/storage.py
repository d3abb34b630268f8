"""Checks across environments: one Azure storage account resolving to two resource groups.

A storage account's name is unique in Azure, so it lives in exactly one resource group. The
read-only role on its weights container is scoped by a resource id that names the group
(``model.storage_resource_group``, default: the cluster's own group); when environments resolve
one account to different groups, the role assignment of all but one fails at apply (the scope
does not exist), and those workloads cannot read their weights.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gpuplat.spec.diagnostics import Diagnostic
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Spec
from gpuplat.workload.blob import blob_reader

Loaded = tuple[str, Spec, Locator]
"""An environment's name, merged spec, and the locator of its merged tree."""


def check(envs: Sequence[Loaded]) -> Iterator[tuple[str, Diagnostic]]:
    """Warn, in each later environment, where an account resolves to another resource group
    than in the first environment that reads it."""
    first: dict[str, tuple[str, str]] = {}
    for name, spec, loc in envs:
        clusters = {c.name: c for c in spec.clusters}
        for i, workload in enumerate(spec.workloads):
            for cluster_name in workload.clusters:
                cluster = clusters.get(cluster_name)
                reader = blob_reader(workload, cluster) if cluster is not None else None
                if reader is None:
                    continue
                account = reader.blob.account
                seen = first.setdefault(account, (name, reader.resource_group))
                if seen[1] == reader.resource_group:
                    continue
                model = ("workloads", i, "model")
                written = workload.model.storage_resource_group is not None
                yield (
                    name,
                    loc.warning(
                        (*model, "storage_resource_group" if written else "source"),
                        f'storage account "{account}" resolves to resource group '
                        f'"{reader.resource_group}" here and "{seen[1]}" in {seen[0]}; an account '
                        "lives in one group, so the read role on its container fails to apply in one "
                        "of them",
                        f"set model.storage_resource_group: <the account's group> in {_SPEC} for "
                        "every environment (`az storage account show -n "
                        f"{account} --query resourceGroup -o tsv`)",
                    ),
                )
                break  # one warning per workload and environment


_SPEC = "gpuplat.yaml"
