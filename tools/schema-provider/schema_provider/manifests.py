"""``kubernetes_manifest`` objects checked against gpuplat's vendored CRDs when they are planned.

The real kubernetes provider plans a ``kubernetes_manifest`` against the OpenAPI type the
cluster serves for its kind, and fails the plan with "Manifest configuration incompatible with
resource schema" when the object does not fit (terraform-provider-kubernetes v2.38.0,
``manifest/provider/plan.go``); the API server then runs the CRD's CEL rules, and the product's
admission webhook its own checks, when the object is applied. There is no cluster here, so the
stand-in checks the planned object against the CRD gpuplat vendors for its kind
(:mod:`gpuplat.crds`: OpenAPI schema, ``x-kubernetes-validations``, documented rules) and fails
the plan with one error per finding: the schema's at plan as the provider would, the rest at
plan where the cluster would refuse it at apply. Objects of built-in kinds, of kinds gpuplat
vendors no CRD for, and values still unknown at plan are left alone.
"""

from __future__ import annotations

from typing import Any

import msgpack

from . import wire

MANIFEST = "kubernetes_manifest"
_SUMMARY = {
    "schema": "Manifest configuration incompatible with resource schema",
    "crd-rule": "The API server would refuse this object (a CEL rule of its CRD)",
    "documented": "This object would be refused (a rule its documentation states)",
}


def _plain(value: object) -> object:
    """A msgpack value of a manifest as JSON-like data; unknowns become crds.Unknown."""
    from gpuplat.crds import Unknown

    if isinstance(value, msgpack.ExtType):
        return Unknown("a value known only after apply")
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _manifest(request: bytes) -> tuple[str, object] | None:
    """The type name and the ``manifest`` of a PlanResourceChange.Request (None if absent)."""
    msg = wire.fields(request)
    type_name = msg[1][0] if 1 in msg else b""
    if not isinstance(type_name, bytes) or type_name.decode() != MANIFEST or 3 not in msg:
        return None
    proposed = msg[3][0]
    if not isinstance(proposed, bytes):
        return None
    dynamic = wire.fields(proposed)
    raw = dynamic.get(1, [None])[0]
    if not isinstance(raw, bytes):
        return None
    state = msgpack.unpackb(raw, raw=False)
    if not isinstance(state, dict):
        return None
    manifest = state.get("manifest")
    if isinstance(manifest, list) and len(manifest) == 2 and isinstance(manifest[0], bytes):
        manifest = manifest[1]  # a dynamic value travels as [type JSON, value]
    return MANIFEST, _plain(manifest)


def _attribute_path(path: tuple[Any, ...]) -> bytes:
    """tfplugin6.AttributePath (steps = 1) from ``manifest`` down to ``path``."""
    steps = [wire.string(1, "manifest")]
    for key in path:
        steps.append(wire.integer(3, key) if isinstance(key, int) else wire.string(2, str(key)))
    return wire.repeated(1, steps)


def plan_diagnostics(request: bytes) -> bytes:
    """PlanResourceChange.Response diagnostics (field 4) for a planned kubernetes_manifest."""
    found = _manifest(request)
    if found is None:
        return b""
    _, obj = found
    from gpuplat import crds

    if not isinstance(obj, dict) or crds.identity(obj) is None:
        return b""
    diagnostics = []
    for finding in crds.check_object(obj, crds.Result()):
        if finding.layer == "no-crd":
            continue  # gpuplat vendors no CRD: the stand-in cannot tell, a cluster will
        summary = _SUMMARY[finding.layer]
        detail = f"{obj.get('kind')} {crds.dotted(finding.path)}: {finding.message}"
        if finding.against:
            detail += f" ({'; '.join(finding.against)})"
        diagnostic = wire.error_diagnostic(summary, detail)
        diagnostic += wire.length_delimited(4, _attribute_path(finding.path))
        diagnostics.append(wire.length_delimited(4, diagnostic))
    return b"".join(diagnostics)
