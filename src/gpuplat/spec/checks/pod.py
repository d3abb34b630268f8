"""A workload's pod: environment references, extra labels and annotations, the model path.

Names are checked by Kubernetes' own rules (RFC 1123 names, qualified label and annotation keys,
label values), so a spec that passes validate never fails at the API server for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import EnvFrom, Workload
from gpuplat.workload.weights import MODEL_PATH_PLACEHOLDER, model_path

_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_DATA_KEY = re.compile(r"^[-._a-zA-Z0-9]+$")
_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_RESERVED_PREFIXES = ("kubernetes.io/", "k8s.io/")
"""Kubernetes reserves these key prefixes for its core components."""
GPUPLAT_LABELS = ("app.kubernetes.io/name", "app.kubernetes.io/managed-by")
"""Labels gpuplat sets on every pod itself (and everything under gpuplat.dev/)."""
_ANNOTATIONS_MAX = 256 * 1024


def _subdomain(name: str) -> bool:
    return len(name) <= 253 and bool(_SUBDOMAIN.match(name))


def qualified_name(key: str) -> str | None:
    """Why ``key`` is not a valid label or annotation key, or None when it is."""
    prefix, slash, name = key.rpartition("/")
    if slash and not _subdomain(prefix):
        return f'the prefix "{prefix}" is not a DNS subdomain (lower case, digits, - and .)'
    if len(name) > 63 or not _NAME.match(name):
        return "the name part must be 1-63 letters, digits, -, _ or ., starting and ending alphanumeric"
    return None


def check(workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Every problem of one workload's pod settings."""
    for name, value in workload.env.items():
        if isinstance(value, EnvFrom):
            yield from _env_from(value, (*base, "env", name), loc)
    yield from _labels(workload, base, loc)
    yield from _annotations(workload, base, loc)
    yield from _model_args(workload, base, loc)


def _env_from(value: EnvFrom, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    if (value.secret is None) == (value.config_map is None):
        yield loc.error(
            path,
            "an environment reference names exactly one of secret and config_map",
            "e.g. HF_TOKEN: {secret: hf-token, key: token}",
        )
        return
    kind, name = (
        ("secret", value.secret)
        if value.secret is not None
        else (
            "config_map",
            value.config_map,
        )
    )
    assert name is not None
    if not _subdomain(name):
        yield loc.error(
            (*path, kind),
            f'"{name}" is not a valid {kind.replace("_", " ")} name',
            "lower case letters, digits, - and ., at most 253, starting and ending alphanumeric",
        )
    if len(value.key) > 253 or not _DATA_KEY.match(value.key):
        yield loc.error(
            (*path, "key"),
            f'"{value.key}" is not a valid key of a {kind.replace("_", " ")}',
            "letters, digits, -, _ and . only",
        )


def _reserved(key: str) -> str | None:
    if key.startswith(_RESERVED_PREFIXES):
        return "the kubernetes.io/ and k8s.io/ prefixes are reserved for Kubernetes"
    return None


def _labels(workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    for key, value in workload.pod_labels.items():
        path = (*base, "pod_labels", key)
        problem = qualified_name(key) or _reserved(key)
        if key in GPUPLAT_LABELS or key.startswith("gpuplat.dev/"):
            problem = "gpuplat sets this label itself (it selects the workload's pods)"
        if problem is not None:
            yield loc.error(path, f'"{key}" cannot be a pod label: {problem}', at_key=True)
        if len(value) > 63 or (value and not _NAME.match(value)):
            yield loc.error(
                path,
                f'"{value}" is not a valid label value',
                "at most 63 letters, digits, -, _ or ., starting and ending alphanumeric (or empty)",
            )


def _annotations(workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    for key in workload.pod_annotations:
        problem = qualified_name(key) or _reserved(key)
        if key.startswith("gke-gcsfuse/"):
            problem = "gpuplat sets the Cloud Storage FUSE sidecar's annotations itself"
        if problem is not None:
            yield loc.error(
                (*base, "pod_annotations", key),
                f'"{key}" cannot be a pod annotation: {problem}',
                at_key=True,
            )
    size = sum(len(k) + len(v) for k, v in workload.pod_annotations.items())
    if size > _ANNOTATIONS_MAX:
        yield loc.error(
            (*base, "pod_annotations"),
            f"pod annotations total {size} bytes; Kubernetes allows {_ANNOTATIONS_MAX}",
            at_key=True,
        )


def _model_args(workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """A --model path the server is given must be where the weights are."""
    where = model_path(workload.model)
    args = [a.replace(MODEL_PATH_PLACEHOLDER, where) for a in workload.args]
    for i, arg in enumerate(args):
        if arg.startswith("--model="):
            value, at = arg.removeprefix("--model="), i
        elif arg == "--model" and i + 1 < len(args):
            value, at = args[i + 1], i + 1
        else:
            continue
        if value.startswith("/") and value != where and not value.startswith(where + "/"):
            yield loc.error(
                (*base, "args", at),
                f"--model {value} is not where the weights are: {where}",
                f'write "--model={MODEL_PATH_PLACEHOLDER}", quoted (in a [ ] list YAML reads '
                f"unquoted braces as a mapping); mount: {workload.model.mount} puts "
                f"{workload.model.source} at {where}",
            )
