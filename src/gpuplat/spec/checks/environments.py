"""State backends (environments' and clusters' own): what each type needs, nothing it ignores."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath, format_path, with_article
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Backend, Spec

_NEEDS = {
    "gcs": ("bucket",),
    "s3": ("bucket", "region"),
    "azurerm": ("resource_group", "storage_account", "container"),
    "local": (),
}
_ALLOWED = {
    "gcs": {"bucket", "prefix"},
    "s3": {"bucket", "prefix", "region", "endpoint"},
    "azurerm": {"resource_group", "storage_account", "container", "prefix"},
    "local": set(),
}
_FIELDS = (
    "bucket",
    "prefix",
    "region",
    "endpoint",
    "resource_group",
    "storage_account",
    "container",
)
_BUCKET = re.compile(r"^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$")
_STORAGE_ACCOUNT = re.compile(r"^[a-z0-9]{3,24}$")
_CONTAINER = re.compile(r"^(?=.{3,63}$)[a-z0-9]+(-[a-z0-9]+)*$")
_HINTS = {
    "resource_group": "the resource group of the state's storage account",
    "storage_account": "the storage account that holds the state (created beforehand), e.g. "
    "acmetfstate",
    "container": "the blob container in that account, e.g. tfstate; Terraform takes a blob "
    "lease on each state while it runs, so nothing else is needed for locking",
}
_PREFIX = re.compile(r"^[A-Za-z0-9._/-]+$")


def check(spec: Spec, loc: Locator) -> Iterator[Diagnostic]:
    for i, env in enumerate(spec.environments):
        yield from _backend(env.backend, ("environments", i, "backend"), loc)
    for i, cluster in enumerate(spec.clusters):
        if cluster.backend is not None:
            yield from _backend(cluster.backend, ("clusters", i, "backend"), loc)


def _backend(backend: Backend, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """A backend has what its type needs and nothing it ignores."""
    for name in _NEEDS[backend.type]:
        if getattr(backend, name) is None:
            what = _HINTS.get(name)
            yield loc.error(
                (*base, name),
                f'{with_article(backend.type)} backend needs "{name}"',
                f"set {format_path((*base, name))}" + (f": {what}" if what else ""),
            )
    for name in _FIELDS:
        if getattr(backend, name) is not None and name not in _ALLOWED[backend.type]:
            users = sorted(t for t, allowed in _ALLOWED.items() if name in allowed)
            yield loc.error(
                (*base, name),
                f'"{name}" is not used by a {backend.type} backend',
                f"it is for {' and '.join(users)} backends; remove it or change the type",
                at_key=True,
            )
    if backend.bucket is not None and not _BUCKET.match(backend.bucket):
        yield loc.error(
            (*base, "bucket"),
            f'bucket name "{backend.bucket}" is not valid',
            "3-63 lowercase letters, digits, dots, dashes and underscores",
        )
    if backend.storage_account is not None and not _STORAGE_ACCOUNT.match(backend.storage_account):
        yield loc.error(
            (*base, "storage_account"),
            f'storage account name "{backend.storage_account}" is not valid',
            "3-24 lowercase letters and digits, nothing else",
        )
    if backend.container is not None and not _CONTAINER.match(backend.container):
        yield loc.error(
            (*base, "container"),
            f'blob container name "{backend.container}" is not valid',
            "3-63 lowercase letters, digits and single dashes, starting and ending with a "
            "letter or digit",
        )
    if backend.prefix is not None and (
        not _PREFIX.match(backend.prefix) or ".." in backend.prefix.split("/")
    ):
        yield loc.error(
            (*base, "prefix"),
            f'state prefix "{backend.prefix}" is not valid',
            "use letters, digits, dots, dashes, underscores and / (no ..)",
        )
