"""Names gpuplat gives to things in the rendered Terraform (module labels, state paths)."""

from __future__ import annotations

import hashlib
import re

from gpuplat.hcl.writer import ident

_NOT_IDENT = re.compile(r"[^A-Za-z0-9_-]")

TERRAFORM_VERSION = ">= 1.10"
"""The terraform versions every root accepts."""
STAGES = ("infra", "platform", "serving")
"""Stages of every cluster's roots, in apply order; destroy walks them backwards."""
ROOT_DEPTH = 4
"""Folders from the project to a root: envs/<env>/<cluster>/<stage>."""
DOOR_DEPTH = 3
"""Folders from the project to a workload's front-door root: envs/<env>/door-<workload>."""


def module_label(kind: str, *names: str) -> str:
    """``cluster_<name>`` / ``pool_<cluster>_<pool>``: a module block label.

    Validated names are already identifiers. Anything else (the checks would have refused it)
    is still turned into a valid, distinct identifier rather than trusted: a label is never
    a place where spec text can change the structure of the file.
    """
    joined = "_".join((kind, *names))
    safe = _NOT_IDENT.sub("_", joined)
    if safe != joined:
        safe = f"{safe}_{hashlib.sha256(joined.encode()).hexdigest()[:8]}"
    return ident(safe)


def root_dir(env: str, cluster: str, stage: str) -> str:
    """Folder of one root module, relative to the project: each cluster has its own roots."""
    return f"envs/{env}/{cluster}/{stage}"


def door_folder(workload: str) -> str:
    """The folder of a workload's front-door root in its environment (``door-<workload>``)."""
    return f"door-{workload}"


def door_dir(env: str, workload: str) -> str:
    """Folder of a workload's front-door root, relative to the project: one per environment."""
    return f"envs/{env}/{door_folder(workload)}"


def to_project(depth: int = ROOT_DEPTH) -> str:
    """Relative path from a root module back to the project folder."""
    return "/".join([".."] * depth)
