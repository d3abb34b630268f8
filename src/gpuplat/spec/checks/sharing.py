"""GPU sharing on a node pool: time-slicing, MPS and MIG settings fit the GPU and cloud."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import NodePool
from gpuplat.spec.resolve import PoolGpu


def sharing(pool: NodePool, gpu: PoolGpu, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Sharing settings agree with their mode; MIG profiles exist on the pool's GPU."""
    sharing = pool.sharing
    path = (*base, "sharing")
    mode = sharing.mode
    if mode in ("none", "mig") and sharing.max_clients is not None:
        yield loc.error(
            (*path, "max_clients"),
            f"max_clients is for time-slicing and mps, not mode {mode}",
            "remove it, or change mode",
            at_key=True,
        )
    if mode != "mig" and sharing.profile is not None:
        what = (
            "MIG and time-slicing/MPS exclude each other here"
            if mode in ("time-slicing", "mps")
            else "it is only used with mode: mig"
        )
        yield loc.error(
            (*path, "profile"),
            f"profile is a MIG setting; {what}",
            "set mode: mig, or remove profile",
            at_key=True,
        )
    if mode in ("time-slicing", "mps"):
        top = int(catalog.feature_limit("gke_gpu_sharing_max_clients").value)
        if sharing.max_clients is None:
            yield loc.error(
                (*path, "mode"),
                f"{mode} needs max_clients",
                f"how many containers share each GPU: 2 to {top}",
            )
        elif not 2 <= sharing.max_clients <= top:
            yield loc.error(
                (*path, "max_clients"),
                f"max_clients must be between 2 and {top}, got {sharing.max_clients}",
                "1 means no sharing: use mode: none",
            )
    if mode == "mig":
        yield from _mig(pool, gpu, path, loc)


def _mig(pool: NodePool, gpu: PoolGpu, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    profile = pool.sharing.profile
    model = gpu.gpu
    if model is None:
        return  # the shape/accelerator check already reported the unknown GPU
    if not model.mig_capable:
        capable = sorted(m.name for m in catalog.gpu_models() if m.mig_capable)
        yield loc.error(
            (*path, "mode"),
            f"{model.name} does not support MIG",
            f"use time-slicing or mps on {model.name}, or a MIG GPU: {', '.join(capable)}",
        )
        return
    profiles = catalog.mig_profiles(model.name)
    if profile is None:
        yield loc.error(
            (*path, "mode"), "mig needs a profile", f"{model.name} supports: {', '.join(profiles)}"
        )
    elif profile not in profiles:
        owners = sorted(
            m.name for m in catalog.gpu_models() if profile in catalog.mig_profiles(m.name)
        )
        alt = f", or use a pool of {' / '.join(owners)} for {profile}" if owners else ""
        yield loc.error(
            (*path, "profile"),
            f'node pool "{pool.name}" cannot use MIG profile {profile}',
            f"pick one of those{alt}",
            details=(f"{gpu.accelerator or model.name} supports: {', '.join(profiles)}",),
        )
