"""Where gpuplat keeps what Terraform needs per environment and stage, outside rendered files.

``envs/<env>/<cluster>/<stage>/`` holds only rendered Terraform (and the dependency lock file
Terraform writes there). Provider downloads and ``.terraform`` data live under ``.gpuplat/``;
saved plans live next to the roots they belong to, in ``envs/<env>/.plans/`` (git-ignored).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from gpuplat.errors import NotRenderedError
from gpuplat.render.naming import STAGES, root_dir
from gpuplat.terraform import Terraform, TerraformBinary, find_binary

PLUGIN_CACHE = ".gpuplat/plugin-cache"
DATA_DIR = ".gpuplat/tfdata"


@dataclass(frozen=True)
class StageRoot:
    """One stage of one cluster in an environment: its rendered root and gpuplat's files."""

    project: Path
    env: str
    cluster: str
    stage: str

    @property
    def label(self) -> str:
        """How progress and errors name it: ``dev/inference-us/infra``."""
        return f"{self.env}/{self.cluster}/{self.stage}"

    @property
    def root(self) -> Path:
        return self.project / root_dir(self.env, self.cluster, self.stage)

    @property
    def data_dir(self) -> Path:
        return self.project / DATA_DIR / self.env / self.cluster / self.stage

    @property
    def plan_file(self) -> Path:
        return self.project / "envs" / self.env / ".plans" / self.cluster / f"{self.stage}.tfplan"

    @property
    def plan_meta(self) -> Path:
        return self.plan_file.with_suffix(".json")

    def terraform(self, binary: TerraformBinary) -> Terraform:
        """A runner for this root; a user's TF_PLUGIN_CACHE_DIR wins over gpuplat's cache."""
        cache = os.environ.get("TF_PLUGIN_CACHE_DIR") or str(self.project / PLUGIN_CACHE)
        return Terraform(
            binary,
            self.root,
            data_dir=self.data_dir,
            plugin_cache_dir=Path(cache),
        )


def stages(project: Path, env: str, cluster: str, only: str | None = None) -> list[StageRoot]:
    """The stage roots of one cluster in an environment, in apply order (or just ``only``)."""
    names = [only] if only else list(STAGES)
    return [StageRoot(project, env, cluster, name) for name in names]


def rendered_stages(root: Path, env: str, cluster: str, stage: str | None) -> list[StageRoot]:
    """The stage roots of a cluster in ``env``, refusing when they were never rendered.

    Raises:
        NotRenderedError: A root of the cluster is not on disk.
    """
    roots = stages(root, env, cluster, stage)
    missing = [one for one in roots if not one.root.is_dir()]
    if missing:
        raise NotRenderedError(
            f"{env} has not been rendered yet: no {missing[0].root.relative_to(root)}",
            hint=f"run `gpuplat render -e {env}` (or `gpuplat plan {env}`, which renders first)",
        )
    return roots


def terraform_binary(spec: str | None) -> TerraformBinary:
    """The terraform (or tofu) binary to use: ``--terraform``, $GPUPLAT_TERRAFORM, PATH.

    Raises:
        ToolMissingError: It is missing or older than gpuplat supports.
    """
    return find_binary(spec)
