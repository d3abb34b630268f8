"""A workload's front-door root: a Cloud DNS record set holding every placement, in its own state.

Cloud DNS's weighted round robin policy is one record set with one item per placement, so it
cannot be split over the clusters' serving roots as Route 53 records and Traffic Manager
endpoints are. It lives in a root of its own per environment and workload
(``envs/<env>/door-<workload>/``, with the environment's backend), which reads each placement's
role and load balancer address from that cluster's serving state (``terraform_remote_state``):
render stays offline, and a weight rises or falls only when the door root is applied after the
serving root that changed it, never ahead of it.
"""

from __future__ import annotations

import hashlib
import re

from gpuplat.hcl.writer import ident, raw
from gpuplat.releases.versions import latest
from gpuplat.render.backend import backend_block, door_backend_block
from gpuplat.render.frontdoor import INTERVAL_SECONDS, SERVING_WEIGHT, door_of
from gpuplat.render.naming import (
    DOOR_DEPTH,
    TERRAFORM_VERSION,
    door_dir,
    module_label,
    to_project,
)
from gpuplat.render.templates import environment
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Workload
from gpuplat.targets import target
from gpuplat.workload.serving import plan_workload

MODULE = "cloud-dns-weighted-record"
PROVIDER = "google"
"""The door root's one provider, pinned as the GKE roots pin it."""
FAILURE_THRESHOLD = 3
FILES = ("versions.tf", "backend.tf", "providers.tf", "main.tf", "outputs.tf")
_NOT_NAME = re.compile(r"[^a-z0-9-]+")


def has_door_root(workload: Workload) -> bool:
    """Whether the workload's front door is a root of its own (Cloud DNS)."""
    return workload.front_door is not None and workload.front_door.dns == "cloud_dns"


def health_check_name(project: str, env: str, workload: str) -> str:
    """The health check's name, unique per project, environment and workload in one Google
    project (a Compute Engine name: lower case, 1-63 characters, starting with a letter)."""
    name = _NOT_NAME.sub("-", f"door-{project}-{env}-{workload}".lower()).strip("-")
    if len(name) > 63:
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]
        name = f"{name[:54].rstrip('-')}-{digest}"
    return name


def render_door(env: EnvSpec, workload: Workload) -> tuple[str, dict[str, str], list[str]]:
    """The front-door root of one workload: (folder, {file: text}, module names it calls)."""
    door = workload.front_door
    assert door is not None and door.cloud_dns is not None  # the spec checks say so
    clusters = {c.name: c for c in env.spec.clusters}
    plans = [plan_workload(env.spec, workload, clusters[name]) for name in workload.clusters]
    placements: list[dict[str, object]] = []
    read: dict[str, object] = {}
    for plan in plans:
        key = f"{plan.name}@{plan.cluster}"
        state = module_label("serving", plan.cluster)
        placements.append(
            {
                "key": key,
                "cluster": plan.cluster,
                "state": state,
                "backend": backend_block(env, clusters[plan.cluster], "serving", DOOR_DEPTH),
            }
        )
        read[key] = raw(
            f'try(data.terraform_remote_state.{ident(state)}[0].outputs.placements["{key}"], null)'
        )
    first = plans[0]
    health: dict[str, object] = {
        "name": health_check_name(env.spec.project, env.name, workload.name),
        "path": first.probes.path,
        "port": first.port,
        "interval": INTERVAL_SECONDS,
        "failure_threshold": FAILURE_THRESHOLD,
        "regions": list(door.cloud_dns.health_regions),
    }
    http = first.scaler.http if first.scaler is not None else None
    if door_of(first) is not None and http is not None:
        # Through the interceptor an HTTP probe would be held and counted, and Google's
        # probers in three regions would keep a GPU replica up: TCP sees the load balancer
        # and the interceptor answer, not the server.
        health.update(port=http.interceptor_port, type="TCP")
    release = latest(MODULE)
    module = module_label("door", workload.name)
    context: dict[str, object] = {
        "env": {"name": env.name},
        "workload": workload.name,
        "inputs": list(env.files),
        "terraform_version": TERRAFORM_VERSION,
        "providers": {PROVIDER: target("gke").providers[PROVIDER]},
        "project_id": door.cloud_dns.project,
        "backend": door_backend_block(env, workload.name),
        "placements": placements,
        "read": read,
        "weight": SERVING_WEIGHT,
        "name": door.name,
        "zone": door.cloud_dns.managed_zone,
        "module": module,
        "source": f"{to_project(DOOR_DEPTH)}/{release.folder}",
        "args": {
            "project": door.cloud_dns.project,
            "managed_zone": door.cloud_dns.managed_zone,
            "name": door.name,
            "ttl": door.ttl,
            "placements": raw("local.placements"),
            "health": health,
        },
    }
    jinja = environment()
    files = {name: jinja.get_template(f"roots/door/{name}.j2").render(context) for name in FILES}
    return door_dir(env.name, workload.name), files, [MODULE]
