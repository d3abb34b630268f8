"""Spec text cannot break out of the HCL it is rendered into.

Arbitrary text — quotes, backslashes, ``${``, ``%{``, newlines, heredoc markers, unicode — goes
into names, labels, taints and account fields of a spec that skips the semantic checks (they
would refuse most of it). The rendered root must parse, hold exactly the expected modules and
arguments, and every value must read back exactly.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import hcl2
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gpuplat.render.roots import render_root
from gpuplat.spec.diagnostics import Mark
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Spec
from gpuplat.spec.source import Node
from tests.support.hcldecode import decode, python_hcl2_can_lex
from tests.support.tffmt import fmt_problems

NASTY = st.sampled_from(
    [
        '"',
        "\\",
        "${",
        "%{",
        "$${",
        "%%{",
        "}",
        "\n",
        "\r\n",
        "<<EOF",
        "EOF",
        "#",
        "//",
        "/*",
        "*/",
        "=",
        "{",
        "]",
        "\t",
        "\x00",
        "é",
        "\u202e",
        "🤖",
    ]
)
# The loader hands the renderer NFC text (Terraform normalises strings to NFC itself).
TEXT = st.lists(st.one_of(NASTY, st.text(max_size=6)), max_size=6).map(
    lambda parts: unicodedata.normalize("NFC", "".join(parts))
)

POOL_ARGS = {
    "source",
    "project",
    "location",
    "cluster",
    "service_account",
    "name",
    "machine_type",
    "node_locations",
    "accelerator",
    "autoscaling",
    "capacity",
    "labels",
    "taints",
    "disk",
    "image_type",
    "secure_boot",
    "network_tags",
    "resource_labels",
    "zone_count",
}
CLUSTER_ARGS = {
    "source",
    "project",
    "name",
    "location",
    "node_locations",
    "release_channel",
    "kubernetes_version",
    "deletion_protection",
    "dcgm_metrics",
    "network",
    "system_pool",
    "webhook_ports",
    "resource_labels",
}


def build_env(cluster: str, pool: str, project: str, labels: dict[str, str], taint: str) -> EnvSpec:
    data = {
        "project": "demo",
        "clusters": [
            {
                "name": cluster,
                "cloud": "gke",
                "region": "us-central1",
                "gcp": {"project": project},
                "labels": {"owner": taint},
                "node_pools": [
                    {
                        "name": pool,
                        "machine_type": "g2-standard-8",
                        "labels": labels,
                        "taints": [{"key": taint, "value": taint}],
                        "capacity": {"type": "reservation", "reservation": taint},
                    }
                ],
            }
        ],
        "environments": [{"name": "dev"}],
    }
    spec = Spec.model_validate(data)
    return EnvSpec(
        spec.environments[0], spec, Node({}, Mark("gpuplat.yaml", 1, 1)), ("gpuplat.yaml",)
    )


def strip(token: object) -> str:
    """A string literal's value; an object key may also be a bare identifier."""
    assert isinstance(token, str)
    return decode(token) if token.startswith('"') else token


@pytest.mark.terraform
def test_spec_text_cannot_escape(tmp_path: Path) -> None:
    # Hypothesis generates the spec text; one real `terraform fmt -check` then judges every
    # rendered root at once (a terraform run per example would dominate the test's time).
    folder = tmp_path / "roots"
    folder.mkdir()
    written: list[Path] = []

    @settings(
        max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
    )
    @given(
        cluster=TEXT,
        pool=TEXT,
        project=TEXT,
        labels=st.dictionaries(TEXT, TEXT, max_size=3),
        taint=TEXT,
    )
    def case(cluster: str, pool: str, project: str, labels: dict[str, str], taint: str) -> None:
        main = escapes_nothing(cluster, pool, project, labels, taint)
        path = folder / f"r{len(written):04d}.tf"
        path.write_text(main, encoding="utf-8")
        written.append(path)

    case()
    assert len(written) >= 50
    # The renderer writes fmt layout itself, whatever the text.
    assert fmt_problems(folder, tmp_path) == ""


def escapes_nothing(
    cluster: str, pool: str, project: str, labels: dict[str, str], taint: str
) -> str:
    """Render the infra root of one spec, check every value comes back; return its main.tf."""
    texts = [cluster, pool, project, taint, *labels, *labels.values()]
    # python-hcl2 cannot lex a valid `$${` with no later `}`; the real-Terraform round trip of
    # quote() in test_hcl_quote.py covers those strings.
    assume(all(python_hcl2_can_lex(t) for t in texts))
    env = build_env(cluster, pool, project, labels, taint)
    _, files, _ = render_root(env, env.spec.clusters[0], "infra")
    parsed = hcl2.loads(files["main.tf"])
    modules = parsed["module"]
    assert len(modules) == 2, "exactly one cluster and one pool module"
    ((cluster_label, cluster_body),) = modules[0].items()
    ((pool_label, pool_body),) = modules[1].items()
    assert set(cluster_body) - {"__is_block__"} == CLUSTER_ARGS
    assert set(pool_body) - {"__is_block__"} == POOL_ARGS
    assert strip(cluster_body["name"]) == cluster
    assert strip(cluster_body["project"]) == project
    assert strip(pool_body["name"]) == pool
    got_labels = {strip(k): strip(v) for k, v in pool_body["labels"].items() if k != "__is_block__"}
    expected = dict(labels)
    expected["gpuplat.dev/pool"] = pool
    assert got_labels == expected
    (taint_obj,) = pool_body["taints"]
    assert {k: strip(v) for k, v in taint_obj.items()} == {
        "key": taint,
        "value": taint,
        "effect": "NO_SCHEDULE",
    }
    assert strip(pool_body["capacity"]["reservation"]) == taint
    resource = {
        strip(k): strip(v)
        for k, v in cluster_body["resource_labels"].items()
        if k != "__is_block__"
    }
    assert resource["owner"] == taint
    # Comments carry names too: they must stay on one line.
    for line in files["main.tf"].splitlines():
        if line.lstrip().startswith("#"):
            assert "\r" not in line
    assert cluster_label != pool_label
    return files["main.tf"]
