"""Typed, frozen models of the spec (pydantic v2); unknown keys are rejected."""

from gpuplat.spec.model.cluster import (
    Autoscaling,
    Capacity,
    Cloud,
    Cluster,
    Disk,
    Driver,
    NodePool,
    Sharing,
    Taint,
)
from gpuplat.spec.model.project import Addons, Backend, Budget, Environment, Spec
from gpuplat.spec.model.workload import EnvFrom, ModelWeights, Replicas, Workload

__all__ = [
    "Addons",
    "Autoscaling",
    "Backend",
    "Budget",
    "Capacity",
    "Cloud",
    "Cluster",
    "Disk",
    "Driver",
    "EnvFrom",
    "Environment",
    "ModelWeights",
    "NodePool",
    "Replicas",
    "Sharing",
    "Spec",
    "Taint",
    "Workload",
]
