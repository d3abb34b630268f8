"""A saved plan as ``terraform show -json PLANFILE`` describes it, typed and normalized."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from gpuplat.terraform.decoded import (
    JsonObject,
    as_object,
    get_bool,
    get_list,
    get_object,
    get_opt_str,
    get_str,
    key_value,
    loads,
)


class Action(StrEnum):
    """What a plan does to one resource instance or output, folded from terraform's lists."""

    NOOP = "no-op"
    CREATE = "create"
    READ = "read"
    UPDATE = "update"
    REPLACE = "replace"
    DELETE = "delete"
    FORGET = "forget"
    OTHER = "other"
    """An action list this version of gpuplat does not know; counted as a change to be safe."""


ReplaceOrder = Literal["delete_before_create", "create_before_destroy"]

_ACTIONS: dict[tuple[str, ...], tuple[Action, ReplaceOrder | None]] = {
    ("no-op",): (Action.NOOP, None),
    ("create",): (Action.CREATE, None),
    ("read",): (Action.READ, None),
    ("update",): (Action.UPDATE, None),
    ("delete", "create"): (Action.REPLACE, "delete_before_create"),
    ("create", "delete"): (Action.REPLACE, "create_before_destroy"),
    ("delete",): (Action.DELETE, None),
    ("forget",): (Action.FORGET, None),
}

PathStep = str | int


def normalize_actions(actions: tuple[str, ...]) -> tuple[Action, ReplaceOrder | None]:
    """Fold terraform's action list into one Action and, for a replace, its ordering."""
    return _ACTIONS.get(actions, (Action.OTHER, None))


@dataclass(frozen=True, slots=True)
class ResourceChange:
    """One resource instance in ``resource_changes`` (or ``resource_drift``)."""

    address: str
    module_address: str | None
    mode: str
    type: str
    name: str
    index: str | int | None
    provider_name: str
    action: Action
    actions: tuple[str, ...]
    """Terraform's list as printed, e.g. ``("delete", "create")``."""
    replace_order: ReplaceOrder | None = None
    action_reason: str | None = None
    replace_paths: tuple[tuple[PathStep, ...], ...] = ()
    """Attribute paths that forced a replacement, e.g. ``(("triggers_replace",),)``."""
    previous_address: str | None = None
    deposed: str | None = None
    importing_id: str | None = None
    before: object = field(default=None, compare=False, repr=False)
    """The resource's values before the change (JSON), or None when it does not exist yet."""
    after: object = field(default=None, compare=False, repr=False)
    """Its values after the change; unknown values are absent."""

    @property
    def moved(self) -> bool:
        return self.previous_address is not None and self.previous_address != self.address

    @property
    def is_change(self) -> bool:
        """True unless it only reads or does nothing; moves and imports still change state."""
        if self.moved or self.importing_id is not None:
            return True
        return self.action not in (Action.NOOP, Action.READ)


@dataclass(frozen=True, slots=True)
class OutputChange:
    """One root module output in ``output_changes``."""

    name: str
    action: Action
    sensitive: bool

    @property
    def is_change(self) -> bool:
        return self.action not in (Action.NOOP, Action.READ)


@dataclass(frozen=True, slots=True)
class Plan:
    """The parts of a saved plan gpuplat reports and decides on."""

    format_version: str
    terraform_version: str
    resource_changes: tuple[ResourceChange, ...]
    output_changes: tuple[OutputChange, ...]
    resource_drift: tuple[ResourceChange, ...]
    applyable: bool
    complete: bool
    errored: bool

    @property
    def has_changes(self) -> bool:
        """True when applying would change anything: no-op and read-only entries do not count."""
        return any(r.is_change for r in self.resource_changes) or any(
            o.is_change for o in self.output_changes
        )

    @property
    def changes(self) -> tuple[ResourceChange, ...]:
        """Resource changes that do something, in terraform's order."""
        return tuple(r for r in self.resource_changes if r.is_change)

    def counts(self) -> dict[Action, int]:
        """How many resource instances get each action, changes only."""
        return dict(Counter(r.action for r in self.changes))


def _path(value: object) -> tuple[PathStep, ...]:
    steps: list[PathStep] = []
    for step in value if isinstance(value, list) else []:
        key = key_value(step)
        if key is not None:
            steps.append(key)
    return tuple(steps)


def resource_change(value: object) -> ResourceChange:
    """Parse one entry of ``resource_changes`` or ``resource_drift``."""
    data = as_object(value)
    change = get_object(data, "change")
    actions = tuple(a for a in get_list(change, "actions") if isinstance(a, str))
    action, order = normalize_actions(actions)
    return ResourceChange(
        address=get_str(data, "address"),
        module_address=get_opt_str(data, "module_address"),
        mode=get_str(data, "mode", "managed"),
        type=get_str(data, "type"),
        name=get_str(data, "name"),
        index=key_value(data.get("index")),
        provider_name=get_str(data, "provider_name"),
        action=action,
        actions=actions,
        replace_order=order,
        action_reason=get_opt_str(data, "action_reason"),
        replace_paths=tuple(_path(p) for p in get_list(change, "replace_paths")),
        previous_address=get_opt_str(data, "previous_address"),
        deposed=get_opt_str(data, "deposed"),
        importing_id=get_opt_str(get_object(change, "importing"), "id"),
        before=change.get("before"),
        after=change.get("after"),
    )


def _output_change(name: str, value: object) -> OutputChange:
    data: JsonObject = as_object(value)
    actions = tuple(a for a in get_list(data, "actions") if isinstance(a, str))
    sensitive = get_bool(data, "before_sensitive") or get_bool(data, "after_sensitive")
    return OutputChange(name=name, action=normalize_actions(actions)[0], sensitive=sensitive)


def parse_plan(text: str) -> Plan:
    """Parse the output of ``terraform show -json PLANFILE``.

    Raises:
        ValueError: Not JSON, not a plan, or a format major version other than 1 (terraform
            promises to bump the major version only for incompatible changes).
    """
    data = as_object(loads(text))
    version = get_str(data, "format_version")
    if not version:
        raise ValueError("not a `terraform show -json` plan: no format_version")
    if version.split(".")[0] != "1":
        raise ValueError(f"unsupported plan format_version {version} (gpuplat reads 1.x)")
    return Plan(
        format_version=version,
        terraform_version=get_str(data, "terraform_version"),
        resource_changes=tuple(resource_change(r) for r in get_list(data, "resource_changes")),
        output_changes=tuple(
            _output_change(name, entry)
            for name, entry in get_object(data, "output_changes").items()
        ),
        resource_drift=tuple(resource_change(r) for r in get_list(data, "resource_drift")),
        # Older plans lack these flags; absent means the plan is usable, as terraform treats it.
        applyable=data.get("applyable", True) is not False,
        complete=data.get("complete", True) is not False,
        errored=get_bool(data, "errored"),
    )
