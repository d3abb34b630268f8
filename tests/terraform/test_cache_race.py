"""A root's first init must not pull the shared provider cache from under a running command.

Terraform (since 1.4) re-installs a provider into the plugin cache when the root's lock file
does not list it yet, even when the cache already holds it: it removes the cache entry and
writes it again. Another root linked to that entry, planning or validating at that moment,
finds no provider ("there is no package … cached in .terraform/providers", or fork/exec: no
such file). gpuplat's runner makes such inits wait for the commands that use the cache, and
those commands wait for a running init (tools/schema-provider stand-ins, real terraform).
"""

from __future__ import annotations

import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gpuplat.errors import TerraformError
from gpuplat.progress import describe
from gpuplat.terraform import CacheWait, Event, Terraform, cachelock, find_binary
from tests.support.realparts import terraform_bin
from tests.support.standin import PROVIDERS, build_stand_ins

ROOT = """\
terraform {
  required_providers {
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = "%(kubernetes)s"
    }
    helm = {
      source  = "hashicorp/helm"
      version = "%(helm)s"
    }
  }
}

resource "kubernetes_config_map_v1" "a" {
  metadata {
    name = "a"
  }
}
"""
# Each round: one root's first init against the other's validate. On terraform 1.11 without
# the turn-taking, the validate failed in 2 to 5 rounds of 30 (stand-ins, unpacked mirror).
ROUNDS = 30


def _root(tmp_path: Path, name: str, cache: Path) -> Terraform:
    root = tmp_path / name
    root.mkdir()
    (root / "main.tf").write_text(ROOT % PROVIDERS, "utf-8")
    return Terraform(
        find_binary(terraform_bin()),
        root,
        data_dir=tmp_path / f"{name}-data",
        plugin_cache_dir=cache,
        cli_config_file=build_stand_ins(),
    )


def _validate(tf: Terraform) -> str | None:
    try:
        tf.validate()
    except TerraformError as exc:
        return "\n".join((str(exc), *exc.details))
    return None


@pytest.mark.terraform
def test_a_first_init_never_breaks_a_validate_of_another_root_sharing_the_cache(
    tmp_path: Path,
) -> None:
    cache = tmp_path / "cache"
    warm, cold = _root(tmp_path, "warm", cache), _root(tmp_path, "cold", cache)
    warm.init()
    assert _validate(warm) is None
    failures: list[str] = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for _ in range(ROUNDS):
            # The cold root forgets its providers: its next init is a first init again.
            assert cold.data_dir is not None
            shutil.rmtree(cold.data_dir, ignore_errors=True)
            (cold.cwd / ".terraform.lock.hcl").unlink(missing_ok=True)
            init = pool.submit(cold.init)
            check = pool.submit(_validate, warm)
            init.result()
            if (error := check.result()) is not None:
                failures.append(error)
    assert failures == []
    assert _validate(cold) is None


@pytest.mark.terraform
def test_an_init_waits_for_a_running_command_and_says_so(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = _root(tmp_path, "cold", cache)
    cache.mkdir()
    events: list[Event] = []
    waiting = threading.Event()

    def seen(event: Event) -> None:
        events.append(event)
        if isinstance(event, CacheWait):
            waiting.set()

    with ThreadPoolExecutor(max_workers=1) as pool:
        # What a plan of another root holds while it runs (in this process or another one).
        with cachelock.turn(cache, writes=False):
            init = pool.submit(cold.init, on_event=seen)
            assert waiting.wait(timeout=60), "the init did not report that it waits"
            assert not init.done()
        result = init.result(timeout=120)
    assert result.returncode == 0 and not result.skipped
    (wait,) = [e for e in events if isinstance(e, CacheWait)]
    assert wait.cache == str(cache)
    assert describe(wait) == cachelock.WAIT_INIT
    assert _validate(cold) is None


def test_the_guarded_cache_is_the_one_terraform_reads() -> None:
    # Terraform reads a relative TF_PLUGIN_CACHE_DIR from the root it runs in.
    root = Path("/project/envs/dev/a/serving")
    assert cachelock.cache_folder({"TF_PLUGIN_CACHE_DIR": "c"}, root) == root / "c"
    assert cachelock.cache_folder({"TF_PLUGIN_CACHE_DIR": "/abs/c"}, root) == Path("/abs/c")
    assert cachelock.cache_folder({}, root) is None
    assert cachelock.cache_folder({"TF_PLUGIN_CACHE_DIR": ""}, root) is None
