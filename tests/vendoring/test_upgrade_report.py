"""The upgrade report says "replaced" only when the text proves it, else "may be replaced,
because ...". The shipped eks-gpu-node-group 1.0.0 -> 1.1.0 is the case a real plan showed
updating in place: instance_types went from ``[var.instance_type]`` to
``concat([var.instance_type], var.extra_instance_types)`` (the new input defaults to ``[]``,
so the value is the same) and only the tags changed. tests/vendoring/test_replacement_moto.py
plans that same-value change with the real aws provider on moto.
"""

from __future__ import annotations

from gpuplat.app.upgrade_report import _impact_lines
from gpuplat.releases.versions import Release, release_files
from gpuplat.vendoring.impact import impact


def _lines(
    name: str, old: str, new: str, edits: dict[str, tuple[str, str]] | None = None
) -> list[str]:
    ours = release_files(Release(name, old))
    theirs = dict(release_files(Release(name, new)))
    for file, (a, b) in (edits or {}).items():
        assert theirs[file].count(a) == 1
        theirs[file] = theirs[file].replace(a, b)
    return _impact_lines(impact(ours, theirs))


def test_a_changed_expression_is_a_possible_replacement_with_its_reason() -> None:
    lines = _lines("eks-gpu-node-group", "1.0.0", "1.1.0")
    group = next(line for line in lines if line.startswith("  aws_eks_node_group.this:"))
    assert "REPLACED" not in group
    assert group.startswith(
        "  aws_eks_node_group.this: may be replaced (destroyed and created again), because "
        "instance_types forces replacement and its expression changed; its value may stay the "
        "same (`terraform plan` proves it)"
    )


def test_a_constant_changed_to_another_constant_is_a_proven_replacement() -> None:
    edits = {"main.tf": ("  ami_type        = var.ami_type\n", '  ami_type        = "X"\n')}
    base = _lines("eks-gpu-node-group", "1.1.1", "1.1.1", edits)
    group = next(line for line in base if line.startswith("  aws_eks_node_group.this:"))
    assert group.startswith("  aws_eks_node_group.this: may be replaced")  # var -> constant
    ours = {**release_files(Release("eks-gpu-node-group", "1.1.1"))}
    ours["main.tf"] = ours["main.tf"].replace(
        "  ami_type        = var.ami_type\n", '  ami_type        = "AL2_x86_64_GPU"\n'
    )
    theirs = {
        **ours,
        "main.tf": ours["main.tf"].replace('"AL2_x86_64_GPU"', '"AL2023_x86_64_NVIDIA"'),
    }
    proven = _impact_lines(impact(ours, theirs))
    assert proven == [
        "  aws_eks_node_group.this: REPLACED (destroyed and created again), because ami_type "
        'changes from "AL2_x86_64_GPU" to "AL2023_x86_64_NVIDIA" for every caller: ami_type '
        "(forces replacement)"
    ]
