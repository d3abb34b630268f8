"""Planned kubernetes provider resources, turned back into Kubernetes objects to compare.

`terraform show -json` gives each typed resource's attributes in the provider's shape: snake_case
names, nested blocks as lists, int-or-string fields as strings. The real provider schema
(kubernetes 2.38.0) says which blocks are single objects (max_items 1) and which are lists, so
the conversion is driven by it instead of by a list of field names kept here.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

Obj = dict[str, object]

KINDS = {
    "kubernetes_namespace_v1": ("v1", "Namespace"),
    "kubernetes_service_account_v1": ("v1", "ServiceAccount"),
    "kubernetes_priority_class_v1": ("scheduling.k8s.io/v1", "PriorityClass"),
    "kubernetes_deployment_v1": ("apps/v1", "Deployment"),
    "kubernetes_service_v1": ("v1", "Service"),
    "kubernetes_pod_disruption_budget_v1": ("policy/v1", "PodDisruptionBudget"),
    "kubernetes_resource_quota_v1": ("v1", "ResourceQuota"),
    "kubernetes_horizontal_pod_autoscaler_v2": ("autoscaling/v2", "HorizontalPodAutoscaler"),
}
# Lists of blocks whose Kubernetes field is the plural of the provider's block name.
PLURALS = {
    "container": "containers",
    "init_container": "initContainers",
    "volume": "volumes",
    "port": "ports",
    "volume_mount": "volumeMounts",
    "toleration": "tolerations",
    "node_selector_term": "nodeSelectorTerms",
    "metric": "metrics",
    "policy": "policies",
}
# Blocks the provider declares without max_items whose Kubernetes field is one object.
SINGLE = {"pre_stop", "post_start", "scale_down", "scale_up"}
# Top-level arguments that steer the provider and are no part of the Kubernetes object.
PROVIDER_ONLY = {"id", "timeouts", "wait_for_rollout", "wait_for_load_balancer"}
# Kubernetes IntOrString fields, and Deployment replicas, which the provider types as a string.
AS_STRING = {"maxSurge", "maxUnavailable", "targetPort", "replicas", "fsGroup"}


@cache
def _schemas(schema_dir: Path) -> dict[str, Obj]:
    doc = json.loads((schema_dir / "kubernetes-2.38.0.json").read_text(encoding="utf-8"))
    provider = doc["provider_schemas"]["registry.terraform.io/hashicorp/kubernetes"]
    return {name: s["block"] for name, s in provider["resource_schemas"].items()}


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _block(schema: Obj, values: Obj) -> Obj:
    attributes = schema.get("attributes", {})
    blocks = schema.get("block_types", {})
    assert isinstance(attributes, dict) and isinstance(blocks, dict)
    out: Obj = {}
    for name, value in values.items():
        if name in attributes:
            out[camel(name)] = value  # map keys (labels, requests, ...) are kept as they are
        elif name in blocks:
            nested = blocks[name]
            items = [_block(nested["block"], v) for v in (value or [])]
            if nested.get("max_items") == 1 or name in SINGLE:
                out[camel(name)] = items[0] if items else None
            else:
                out[PLURALS.get(name, camel(name))] = items
        else:
            raise AssertionError(f"{name} is in neither the attributes nor the blocks")
    return out


def typed_object(schema_dir: Path, resource_type: str, values: Obj) -> Obj:
    """The Kubernetes object a typed kubernetes provider resource creates."""
    api_version, kind = KINDS[resource_type]
    schema = _schemas(schema_dir)[resource_type]
    body = _block(schema, {k: v for k, v in values.items() if k not in PROVIDER_ONLY})
    return {"apiVersion": api_version, "kind": kind, **body}


def normal(value: object, key: str = "") -> object:
    """Kubernetes' own equality: unset, null, empty list and empty map are one thing."""
    if isinstance(value, dict):
        out = {k: normal(v, k) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in (None, [], {})}
    if isinstance(value, list):
        return [normal(v) for v in value]
    if key in AS_STRING and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


def differences(module: object, manifest: object, path: str = "") -> list[str]:
    """Every field where the two objects differ, as ``path: module=... manifests=...``."""
    if isinstance(module, dict) and isinstance(manifest, dict):
        out: list[str] = []
        for key in sorted(set(module) | set(manifest)):
            out += differences(module.get(key), manifest.get(key), f"{path}.{key}" if path else key)
        return out
    if isinstance(module, list) and isinstance(manifest, list) and len(module) == len(manifest):
        out = []
        for i, (a, b) in enumerate(zip(module, manifest, strict=True)):
            out += differences(a, b, f"{path}[{i}]")
        return out
    if module == manifest:
        return []
    return [f"{path}: module={module!r} manifests={manifest!r}"]
