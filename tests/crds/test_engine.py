"""The CRD check itself: schema, defaulting, CEL outcomes, unknown values, what is counted."""

from __future__ import annotations

import copy

import pytest

from gpuplat import crds
from gpuplat.crds import Unknown

CC = "cloud.google.com/v1"
GKE = ("GKE 1.33", "GKE 1.34", "GKE after 1.34 (no release branch yet)")


def compute_class(**spec: object) -> dict[str, object]:
    return {
        "apiVersion": CC,
        "kind": "ComputeClass",
        "metadata": {"name": "gpuplat-l4"},
        "spec": {"whenUnsatisfiable": "DoNotScaleUp", **spec},
    }


def scaled_object(**spec: object) -> dict[str, object]:
    return {
        "apiVersion": "keda.sh/v1alpha1",
        "kind": "ScaledObject",
        "metadata": {"name": "chat-scaler", "namespace": "chat"},
        "spec": {
            "scaleTargetRef": {"name": "chat"},
            "triggers": [{"type": "external-push", "metadata": {"scalerAddress": "s.keda:9090"}}],
            **spec,
        },
    }


def findings(obj: dict[str, object], result: crds.Result | None = None) -> list[crds.Finding]:
    return crds.check_object(obj, result if result is not None else crds.Result())


def test_a_nodepools_rule_stands_alone_on_every_gke_version() -> None:
    alone = compute_class(priorities=[{"nodepools": ["a"]}, {"nodepools": ["b"]}])
    assert findings(alone) == []
    for extra in ({"machineType": "g2-standard-8"}, {"spot": True}, {"gpu": {"type": "x"}}):
        rules = [{"nodepools": ["a"]}, {"nodepools": ["b"], **extra}]
        found = findings(compute_class(priorities=rules))
        assert {f.path for f in found} == {("spec", "priorities", 1)}
        assert {f.layer for f in found} == {"crd-rule"}
        assert {r for f in found for r in f.against} == set(GKE)
        assert all("Nodepool field cannot be set along with other" in f.message for f in found)


def test_the_schema_closes_objects_and_keeps_enums() -> None:
    bad = compute_class(priorities=[{"nodepools": ["a"]}], nodePoolAutoCreation={"enabled": 1})
    bad["spec"]["whenUnsatisfiable"] = "Sometimes"  # type: ignore[index]
    bad["spec"]["priorityOrder"] = "first"  # type: ignore[index]
    found = {(f.path, f.layer) for f in findings(bad)}
    assert found == {
        (("spec", "whenUnsatisfiable"), "schema"),
        (("spec", "priorityOrder"), "schema"),
        (("spec", "nodePoolAutoCreation", "enabled"), "schema"),
    }
    # A property named like the texts the vendoring drops is still known.
    assert findings(compute_class(priorities=[], description="GPUs for chat")) == []


def test_defaults_are_filled_in_before_the_cel_rules_run() -> None:
    """Autopilot classes cannot turn node pool auto-creation off; left out, it defaults to
    {enabled: false}, which the API server fills in before it runs the rule."""
    obj = compute_class(autopilot={"enabled": True}, priorities=[{"machineFamily": "n4"}])
    messages = [f.message for f in findings(obj)]
    assert "NodePoolAutoCreation cannot be disabled when Autopilot is enabled" in messages


def test_transition_rules_are_counted_never_run() -> None:
    result = crds.Result()
    findings(compute_class(autopilot={"enabled": False}, priorities=[]), result)
    tally = result.coverage.of("ComputeClass", CC, "GKE 1.34")
    assert tally.transition == 3
    assert tally.outcomes["update-only"] == 3


def test_a_rule_that_needs_a_kubernetes_library_is_not_checked_and_counted() -> None:
    """cel-python has no `split`: the SEV rule cannot be decided for a machine type."""
    config = {"confidentialNodeType": "SEV"}
    by_type = compute_class(nodePoolConfig=config, priorities=[{"machineType": "e2-standard-8"}])
    result = crds.Result()
    assert [f for f in findings(by_type, result) if "SEV" in f.message] == []
    assert result.coverage.of("ComputeClass", CC, "GKE 1.34").outcomes["extension"] == 1
    # Decided without the library (the machine family short-circuits it): checked, and refused.
    by_family = compute_class(nodePoolConfig=config, priorities=[{"machineFamily": "e2"}])
    result = crds.Result()
    assert any("SEV only supports" in f.message for f in findings(by_family, result))
    assert result.coverage.of("ComputeClass", CC, "GKE 1.34").outcomes["extension"] == 0


def test_unknown_values_are_not_checked_but_counted() -> None:
    obj = scaled_object(minReplicaCount=0, maxReplicaCount=Unknown("var.max_replicas"))
    result = crds.Result()
    assert findings(obj, result) == []
    assert (
        result.coverage.of("ScaledObject", "keda.sh/v1alpha1", "keda chart 2.20.2").outcomes[
            "unknown"
        ]
        == 1
    )
    # has() sees an unknown value as present: the rule runs on what is known around it.
    known = scaled_object(minReplicaCount=5, maxReplicaCount=2, pollingInterval=Unknown("x"))
    assert [f.message for f in findings(known)] == [
        "minReplicaCount must be less than or equal to maxReplicaCount"
    ]
    # An unknown never fails a schema keyword: what it will be is checked where it is known.
    assert findings(scaled_object(maxReplicaCount=Unknown("var.x"), cooldownPeriod=30)) == []


def test_rules_about_the_other_objects_need_them() -> None:
    obj = scaled_object()
    hpa = {
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "chat", "namespace": "chat"},
        "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "chat"}},
    }
    result = crds.Result()
    assert crds.check_object(obj, result) == []
    assert (
        result.coverage.of("ScaledObject", "keda.sh/v1alpha1", "documented").outcomes[
            "needs-objects"
        ]
        == 1
    )
    assert crds.check_object(obj, crds.Result(), [obj]) == []
    found = crds.check_object(obj, crds.Result(), [obj, hpa])
    assert [f.layer for f in found] == ["documented"]
    other = copy.deepcopy(hpa)
    other["metadata"]["namespace"] = "other"  # type: ignore[index]
    assert crds.check_object(obj, crds.Result(), [obj, other]) == []


@pytest.mark.parametrize(
    ("api_version", "custom"),
    [
        ("v1", False),
        ("apps/v1", False),
        ("resource.k8s.io/v1", False),
        ("kustomize.config.k8s.io/v1beta1", False),
        ("keda.sh/v1alpha1", True),
        ("kueue.x-k8s.io/v1beta1", True),
        ("leaderworkerset.x-k8s.io/v1", True),
    ],
)
def test_which_groups_are_custom(api_version: str, custom: bool) -> None:
    assert crds.is_custom(api_version) is custom


def test_a_kind_without_a_vendored_crd_is_reported() -> None:
    obj = {
        "apiVersion": "jobset.x-k8s.io/v1alpha2",
        "kind": "JobSet",
        "metadata": {"name": "q"},
    }
    found = findings(obj)
    assert [f.layer for f in found] == ["no-crd"]
    assert "ComputeClass (cloud.google.com/v1)" in found[0].message


def test_documented_rules_name_their_source_in_the_finding() -> None:
    bad = scaled_object(triggers=[{"type": "prometheus", "metadata": {"query": "up"}}])
    found = findings(bad)
    assert [(f.path, f.layer) for f in found] == [(("spec", "triggers", 0), "documented")]
    assert found[0].against[0].startswith("scaledobject-prometheus-parameters: https://keda.sh/")
    label = compute_class(priorities=[])
    label["metadata"] = {"name": "Bad_Name", "labels": {"gpuplat.dev/pool": "-x"}}
    assert {f.message.split(":")[0] for f in findings(label)} == {
        "the name must be a DNS subdomain",
        "a label value is empty or at most 63 letters, digits, '-', '_' and '.', starting and "
        "ending with a letter or digit",
    }


def test_the_counts_read_as_a_line() -> None:
    result = crds.Result()
    findings(compute_class(priorities=[{"nodepools": ["a"]}]), result)
    lines = result.coverage.lines()
    assert lines[0] == "ComputeClass (cloud.google.com/v1): 1 objects"
    assert lines[1].startswith("  GKE 1.33 CRD: ")
    assert "41 CEL rules (3 update-only, 2 call a Kubernetes CEL library)" in lines[1]
    assert lines[-1].startswith("  documented: 5 rules;")


def test_equality_across_types_is_false_as_in_the_api_server() -> None:
    """Kubernetes' CEL has heterogeneous equality: an int-or-string port named "http" passes
    PodMonitoring's ``self != 0``; cel-python alone would fail evaluating it."""
    from gpuplat.crds.cel import Rule, evaluate

    rule = Rule(path=("spec", "endpoints", "*", "port"), rule="self != 0", message="")
    assert evaluate(rule, {"self": "http"})[0] == "passed"
    assert evaluate(rule, {"self": 0})[0] == "failed"
    assert evaluate(Rule(rule.path, "self == 0", ""), {"self": "http"})[0] == "failed"
