"""The docs say what AKS does that gpuplat cannot run here: the twin of the AWS table, and
the managed autoscaler's reported random picks among a ladder's pools with what to check."""

from __future__ import annotations

from tests.support.realparts import REPO

DOCS = REPO / "docs"


def _section(page: str, title: str) -> str:
    text = (DOCS / page).read_text(encoding="utf-8")
    start = text.index(title)
    end = text.find("\n#", start + len(title))
    return text[start : end if end >= 0 else len(text)]


def test_the_aws_table_has_its_aks_twin() -> None:
    aws = _section("clouds/eks.md", "## On a real AWS account")
    azure = _section(
        "clouds/aks.md", "## On a real Azure subscription: what was read, what ran here"
    )
    header = "| behaviour | how gpuplat handles it | source (read) | ran here |"
    assert header in aws and header in azure
    for topic in ("403", "azure_template.go", "use-capacity-reservation-groups", "vllm#20305"):
        assert topic in azure, topic


def test_the_ladder_section_says_the_priority_configmap_may_be_ignored() -> None:
    ladders = _section("ladders.md", "# Capacity ladders")
    for report in ("Azure/AKS#2359", "#4348", "#5136"):
        assert report in ladders
    assert "kubectl -n kube-system get configmap cluster-autoscaler-priority-expander" in ladders
    assert "TriggeredScaleUp" in ladders
