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
from gpuplat.spec.model.ladder import FlexStart, Rung
from gpuplat.spec.model.project import Addons, Backend, Budget, Environment, Spec
from gpuplat.spec.model.workload import (
    EnvFrom,
    ModelWeights,
    Replicas,
    Role,
    Workload,
    WorkloadPlacement,
)

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
    "FlexStart",
    "ModelWeights",
    "NodePool",
    "Replicas",
    "Role",
    "Rung",
    "Sharing",
    "Spec",
    "Taint",
    "Workload",
    "WorkloadPlacement",
]
