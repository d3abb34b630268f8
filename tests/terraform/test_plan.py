"""Recorded `terraform show -json` plans parse into typed, normalized changes."""

from __future__ import annotations

import json

import pytest

from gpuplat.terraform import Action, Plan, ResourceChange, parse_plan
from gpuplat.terraform.showplan import normalize_actions
from tests.terraform import read_fixture


def plan(name: str) -> Plan:
    return parse_plan(read_fixture(f"show/{name}.json"))


def by_address(p: Plan) -> dict[str, ResourceChange]:
    return {r.address: r for r in p.resource_changes}


def test_create() -> None:
    p = plan("create")
    assert p.format_version.startswith("1.")
    assert p.terraform_version.startswith("1.")
    assert p.has_changes and p.applyable and p.complete and not p.errored
    assert {r.address: r.action for r in p.resource_changes} == {
        "terraform_data.a": Action.CREATE,
        "terraform_data.b": Action.CREATE,
        "terraform_data.c": Action.CREATE,
        "terraform_data.d[0]": Action.CREATE,
    }
    d = by_address(p)["terraform_data.d[0]"]
    assert (d.type, d.name, d.index, d.mode, d.module_address) == (
        "terraform_data",
        "d",
        0,
        "managed",
        None,
    )
    assert d.provider_name == "terraform.io/builtin/terraform"
    assert d.actions == ("create",)
    assert [(o.name, o.action) for o in p.output_changes] == [("a", Action.CREATE)]
    assert p.counts() == {Action.CREATE: 4}


def test_update_in_place() -> None:
    p = plan("update")
    changes = p.changes
    assert [(r.address, r.action, r.replace_order) for r in changes] == [
        ("terraform_data.a", Action.UPDATE, None)
    ]
    assert [(o.name, o.action) for o in p.output_changes] == [("a", Action.UPDATE)]
    assert p.has_changes


def test_replace_with_paths_and_ordering() -> None:
    p = plan("replace")
    rc = by_address(p)
    b, c = rc["terraform_data.b"], rc["terraform_data.c"]
    assert (b.action, b.actions, b.replace_order) == (
        Action.REPLACE,
        ("delete", "create"),
        "delete_before_create",
    )
    assert (c.action, c.actions, c.replace_order) == (
        Action.REPLACE,
        ("create", "delete"),
        "create_before_destroy",
    )
    assert b.action_reason == c.action_reason == "replace_because_cannot_update"
    assert b.replace_paths == c.replace_paths == (("triggers_replace",),)
    assert p.counts() == {Action.REPLACE: 2}


def test_delete() -> None:
    p = plan("delete")
    (d,) = p.changes
    assert (d.address, d.action, d.index) == ("terraform_data.d[0]", Action.DELETE, 0)
    assert d.action_reason == "delete_because_count_index"


def test_noop_has_no_changes() -> None:
    p = plan("noop")
    assert not p.has_changes
    assert p.changes == ()
    assert {r.action for r in p.resource_changes} == {Action.NOOP}
    assert [o.action for o in p.output_changes] == [Action.NOOP]
    # Terraform 1.11 marks a plan with nothing to do as not applyable.
    assert p.applyable is False


def test_drift_from_a_change_made_outside_terraform() -> None:
    p = plan("drift")
    (drift,) = p.resource_drift
    assert (drift.address, drift.action, drift.provider_name) == (
        "aws_s3_bucket.models",
        Action.UPDATE,
        "registry.terraform.io/hashicorp/aws",
    )
    (change,) = p.changes
    assert (change.address, change.action) == ("aws_s3_bucket.models", Action.UPDATE)


def test_read_only_and_moved_entries() -> None:
    data = json.loads(read_fixture("show/noop.json"))
    data["resource_changes"][0]["change"]["actions"] = ["read"]
    data["resource_changes"][0]["mode"] = "data"
    assert not parse_plan(json.dumps(data)).has_changes
    data["resource_changes"][1]["previous_address"] = "terraform_data.old"
    moved = parse_plan(json.dumps(data))
    assert moved.has_changes
    assert moved.resource_changes[1].moved


@pytest.mark.parametrize(
    ("actions", "expected"),
    [
        (("no-op",), (Action.NOOP, None)),
        (("delete", "create"), (Action.REPLACE, "delete_before_create")),
        (("create", "delete"), (Action.REPLACE, "create_before_destroy")),
        (("forget",), (Action.FORGET, None)),
        (("create", "frobnicate"), (Action.OTHER, None)),
    ],
)
def test_action_normalization(actions: tuple[str, ...], expected: object) -> None:
    assert normalize_actions(actions) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nope", "Expecting value"),
        ('{"valid": true}', "no format_version"),
        ('{"format_version": "2.0"}', "unsupported plan format_version 2.0"),
    ],
)
def test_rejects_what_is_not_a_1x_plan(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_plan(text)
