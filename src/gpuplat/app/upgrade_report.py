"""What ``vendor upgrade`` changes, for a person: per module versions, edits, infrastructure.

"Replaced" is said only when the text proves it; else "may be replaced, because ...".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuplat.vendoring.impact import Impact, ResourceChange

if TYPE_CHECKING:
    from gpuplat.app.upgrade import UpgradeResult


def report(result: UpgradeResult) -> list[str]:
    """What the upgrade changes, for a person: per module versions, edits, infrastructure."""
    lines: list[str] = []
    for up in result.modules:
        lines.append(f"{up.name} {up.old} -> {up.new}  ({up.folder})")
        lines += [f"  kept your edit: {p}" for p in up.kept_edits]
        lines += [f"  stays deleted (changed upstream): {p}" for p in up.still_deleted]
        if up.impact is not None:
            lines += _impact_lines(up.impact)
    return lines


_SHOWN = 8
"""Arguments listed per resource; forcing ones come first."""
_ACTIONS = {
    "create": "created",
    "destroy": "DESTROYED",
    "replace": "may be replaced (destroyed and created again)",
    "unknown": "changed; may be replaced (not known: check `terraform plan`)",
    "instances": "instances created or destroyed (count / for_each changed)",
    "update": "updated in place",
}


def _because(change: ResourceChange) -> str:
    """Why a replacement is possible, not proven: a text compare cannot tell whether the value
    of a replacing argument changes (``[x]`` and ``concat([x], [])`` are one value), only a
    plan can."""
    first = next(a for a in change.args if a.effect == "replace")
    changed = f"it reads {first.via}, which changed" if first.via else "its expression changed"
    return (
        f"{first.path} forces replacement and {changed}; its value may stay the same "
        "(`terraform plan` proves it)"
    )


def _impact_lines(found: Impact) -> list[str]:
    lines: list[str] = []
    if found.variables_added:
        lines.append(
            "  variables added: "
            + ", ".join(f"{n} (required)" if req else n for n, req in found.variables_added)
        )
    if found.variables_removed:
        lines.append("  variables removed: " + ", ".join(found.variables_removed))
    if found.defaults_changed:
        lines.append("  variable defaults changed: " + ", ".join(found.defaults_changed))
    if found.outputs_added or found.outputs_removed:
        lines.append(
            "  outputs: "
            + ", ".join(
                [f"+{o}" for o in found.outputs_added] + [f"-{o}" for o in found.outputs_removed]
            )
        )
    for change in found.resources:
        shown = [
            f"{a.path}"
            + (f" via {a.via}" if a.via else "")
            + (" (forces replacement)" if a.effect == "replace" else "")
            for a in change.args
        ]
        shown = list(dict.fromkeys(shown))
        more = len(shown) - _SHOWN
        args = ", ".join(shown[:_SHOWN]) + (f" and {more} more" if more > 0 else "")
        proven = next(
            (a for a in change.args if a.effect == "replace" and a.constant is not None), None
        )
        if proven is not None and proven.constant is not None:
            was, now = proven.constant
            action = (
                f"REPLACED (destroyed and created again), because {proven.path} changes from "
                f"{was} to {now} for every caller"
            )
        elif change.action == "replace":
            action = f"{_ACTIONS[change.action]}, because {_because(change)}"
        else:
            action = _ACTIONS[change.action]
        lines.append(f"  {change.address}: {action}" + (f": {args}" if args else ""))
    if not lines:
        lines.append("  no change to variables, outputs or resources")
    return lines
