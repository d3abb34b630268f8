"""What moto's EKS emulation lacks and the EKS modules need, filled in for tests.

moto runs in-process (``ThreadedMotoServer``), so its backends can be adjusted here. Each
adjustment makes moto behave like the real service, never more lenient, and says why.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

MANAGED_POLICIES_ENV = "MOTO_IAM_LOAD_MANAGED_POLICIES"
"""AWS-managed policies (AmazonEKSClusterPolicy, ...) exist in every real account; moto only
has them when this is set before its IAM backend starts."""


@contextmanager
def aws_managed_policies() -> Iterator[None]:
    """Make moto's IAM know the AWS-managed policies the modules attach.

    IAM backends created later read the setting; one an earlier test in this process already
    created gets the policies added.
    """
    from moto.iam.models import iam_backends

    before = os.environ.get(MANAGED_POLICIES_ENV)
    os.environ[MANAGED_POLICIES_ENV] = "true"
    for regions in list(iam_backends.values()):
        for backend in list(regions.values()):
            if not backend.aws_managed_policies:
                backend.aws_managed_policies = backend._init_aws_policies()
                for policy in backend.aws_managed_policies:
                    backend.managed_policies.setdefault(policy.arn, policy)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(MANAGED_POLICIES_ENV, None)
        else:
            os.environ[MANAGED_POLICIES_ENV] = before


@contextmanager
def node_groups_own_autoscaling_groups() -> Iterator[None]:
    """Create (and delete) the autoscaling group of each EKS managed node group, as EKS does.

    moto's EKS returns an autoscaling group name in ``resources`` but creates no such group, so
    the node group module's ``aws_autoscaling_group_tag`` (the cluster-autoscaler node-template
    tags) would fail with a server error. The stand-in group is created empty (0 nodes): moto
    would otherwise try to launch instances from a launch template that has no AMI id, which EKS
    fills in by itself.
    """
    from moto.autoscaling.models import autoscaling_backends
    from moto.eks.models import EKSBackend

    original_create: Callable[..., Any] = EKSBackend.create_nodegroup
    original_delete: Callable[..., Any] = EKSBackend.delete_nodegroup

    def create_nodegroup(self: EKSBackend, *args: Any, **kwargs: Any) -> Any:
        group = original_create(self, *args, **kwargs)
        template = {k: v for k, v in (group.launch_template or {}).items() if k in ("id", "name")}
        asg = autoscaling_backends[self.account_id][self.region_name]
        asg.create_auto_scaling_group(
            name=group.resources["autoScalingGroups"][0]["name"],
            availability_zones=[],
            desired_capacity=0,
            max_size=0,
            min_size=0,
            launch_config_name="",
            launch_template={"LaunchTemplateId": template.get("id"), "Version": "$Latest"},
            vpc_zone_identifier=",".join(group.subnets),
            default_cooldown=None,
            health_check_period=None,
            health_check_type=None,
            load_balancers=[],
            target_group_arns=[],
            placement_group=None,
            termination_policies=[],
            tags=[],
        )
        return group

    def delete_nodegroup(self: EKSBackend, cluster_name: str, nodegroup_name: str) -> Any:
        group = original_delete(self, cluster_name, nodegroup_name)
        asg = autoscaling_backends[self.account_id][self.region_name]
        for entry in group.resources["autoScalingGroups"]:
            if entry["name"] in asg.autoscaling_groups:
                asg.delete_auto_scaling_group(entry["name"])
        return group

    EKSBackend.create_nodegroup = create_nodegroup  # type: ignore[method-assign]
    EKSBackend.delete_nodegroup = delete_nodegroup  # type: ignore[method-assign]
    try:
        yield
    finally:
        EKSBackend.create_nodegroup = original_create  # type: ignore[method-assign]
        EKSBackend.delete_nodegroup = original_delete  # type: ignore[method-assign]
