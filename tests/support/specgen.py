"""Hypothesis strategies for valid specs: many GKE and EKS clusters, pools and workloads.

Names take every shape each cloud allows (one character up to the length limit, digits,
dashes, and for EKS upper case and underscores), so what depends on their widths and spelling
in the rendered Terraform is exercised. Every generated spec is meant to pass validation;
a test that loads one and gets errors has found a generator bug or a checks bug, never a
case to skip.
"""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import strategies as st

LOWER = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"
UPPER = LOWER.upper()


def shaped(first: str, middle: str, last: str | None, longest: int) -> st.SearchStrategy[str]:
    """Names of one shape: a ``first`` character, then ``middle`` ones, then a ``last`` one
    (when the rule says how a name ends), from 1 character up to ``longest``, the limit
    itself drawn often."""
    inner = longest - 1 - (1 if last else 0)
    body = st.one_of(
        st.text(middle, max_size=inner), st.text(middle, min_size=inner, max_size=inner)
    )
    tail = st.sampled_from(last) if last else st.just("")
    longer = st.builds(lambda h, b, t: h + b + t, st.sampled_from(first), body, tail)
    return st.one_of(st.sampled_from(first), longer)


# Name shapes, as each cloud's rules (and the README) define them.
GKE_NAME = shaped(LOWER, LOWER + DIGITS + "-", LOWER + DIGITS, 40)
EKS_CLUSTER = shaped(LOWER + UPPER + DIGITS, LOWER + UPPER + DIGITS + "_-", None, 100)
EKS_POOL = shaped(LOWER + UPPER + DIGITS, LOWER + UPPER + DIGITS + "_-", None, 63)
WORKLOAD = shaped(LOWER, LOWER + DIGITS + "-", LOWER + DIGITS, 40)
PROJECT = shaped(LOWER, LOWER + DIGITS + "-", LOWER + DIGITS, 30)
ENVIRONMENT = shaped(LOWER, LOWER + DIGITS + "-", LOWER + DIGITS, 20)
LABEL_KEY = shaped(LOWER, LOWER + DIGITS + "_.-", LOWER + DIGITS, 30)
LABEL_VALUE = st.one_of(st.just(""), shaped(LOWER + DIGITS, LOWER + DIGITS + "_.-", LOWER, 30))

# (machine type, GPU model) of single-GPU shapes the catalog knows, per cloud.
SHAPES = {
    "gke": (("g2-standard-8", "L4"), ("a2-highgpu-1g", "A100-40GB")),
    "eks": (("g6.xlarge", "L4"), ("g5.xlarge", "A10G")),
}
REGIONS = {"gke": "us-central1", "eks": "us-east-1"}
L4 = {machine for shapes in SHAPES.values() for machine, gpu in shapes if gpu == "L4"}


def _pool(cloud: str) -> st.SearchStrategy[dict[str, object]]:
    return st.fixed_dictionaries(
        {
            "name": GKE_NAME if cloud == "gke" else EKS_POOL,
            "machine_type": st.sampled_from([machine for machine, _ in SHAPES[cloud]]),
            "capacity": st.fixed_dictionaries({"type": st.sampled_from(["on-demand", "spot"])}),
            # Room for every workload's replicas and a surge replica, whatever lands here.
            "autoscaling": st.fixed_dictionaries(
                {"min_nodes": st.just(0), "max_nodes": st.integers(8, 12)}
            ),
        },
        optional={"labels": st.dictionaries(LABEL_KEY, LABEL_VALUE, min_size=1, max_size=3)},
    )


def _by_name(item: dict[str, Any]) -> str:
    return str(item["name"]).lower()


def _cluster(cloud: str) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "name": GKE_NAME if cloud == "gke" else EKS_CLUSTER,
            "cloud": st.just(cloud),
            "region": st.just(REGIONS[cloud]),
            "node_pools": st.lists(_pool(cloud), min_size=1, max_size=4, unique_by=_by_name),
            # GKE: a project id of at least 6 characters; EKS: a new VPC in 2 or 3 zones, or
            # an existing one (filled in below, where the cluster's index is known).
            "extra": PROJECT.filter(lambda p: len(p) >= 6)
            if cloud == "gke"
            else st.sampled_from([0, 2, 3]),
        }
    )


def _finish(index: int, cluster: dict[str, Any]) -> dict[str, Any]:
    extra = cluster.pop("extra")
    if cluster["cloud"] == "gke":
        cluster["gcp"] = {"project": extra}
    elif extra:
        cluster["zones"] = [f"us-east-1{zone}" for zone in "abc"[:extra]]
        cluster["network"] = {"vpc_cidr": f"10.{index}.0.0/16"}
    else:
        cluster["network"] = {
            "network": f"vpc-{index:017x}",
            "subnet_ids": [f"subnet-{index:08x}", f"subnet-{index + 16:08x}"],
        }
    return cluster


FLEETS = st.lists(
    st.one_of(_cluster("gke"), _cluster("eks")), min_size=1, max_size=4, unique_by=_by_name
)
WORKLOADS = st.lists(
    st.fixed_dictionaries(
        {
            "name": WORKLOAD,
            "where": st.tuples(st.integers(0, 1000), st.integers(0, 1000)),
            "scale_to_zero": st.booleans(),
            # Any L4 pool of every cluster that has one, in failover order.
            "failover": st.booleans(),
        }
    ),
    max_size=4,
    unique_by=_by_name,
)


def _workload(fleet: list[dict[str, Any]], drawn: dict[str, Any]) -> dict[str, object]:
    name = drawn["name"]
    cluster_at, pool_at = drawn["where"]
    cluster = fleet[cluster_at % len(fleet)]
    pool = cluster["node_pools"][pool_at % len(cluster["node_pools"])]
    scheme = "gs" if cluster["cloud"] == "gke" else "s3"
    workload: dict[str, object] = {
        "name": name,
        "image": "vllm/vllm-openai:v0.11.0",
        "model": {"source": f"{scheme}://models/{name}", "size_gb": 2},
        "pool": pool["name"],
        "clusters": [cluster["name"]],
        "replicas": {"min": 1, "max": 1},
    }
    l4 = [c["name"] for c in fleet if any(p["machine_type"] in L4 for p in c["node_pools"])]
    if drawn["failover"] and l4:
        del workload["pool"]
        workload.update(
            {"accelerator": "L4", "clusters": l4, "model": {"source": "hf://org/m", "size_gb": 2}}
        )
    if drawn["scale_to_zero"]:
        workload["scale_to_zero"] = True
        workload["replicas"] = {"min": 0, "max": 1}
    return workload


@st.composite
def specs(draw: st.DrawFn) -> str:
    """The text of a valid gpuplat.yaml."""
    fleet = [_finish(i, c) for i, c in enumerate(draw(FLEETS))]
    data = {
        "version": 1,
        "project": draw(PROJECT),
        "clusters": fleet,
        "workloads": [_workload(fleet, w) for w in draw(WORKLOADS)],
        "environments": [
            {"name": env}
            for env in draw(st.lists(ENVIRONMENT, min_size=1, max_size=3, unique=True))
        ],
    }
    return yaml.dump(data, Dumper=_Quoting, sort_keys=False)


class _Quoting(yaml.SafeDumper):
    """Every string double-quoted: YAML 1.2 would read a name like 0o11 as a number."""


_Quoting.add_representer(
    str, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"')
)
