"""The support calendar's checks: each cloud's minor on a day, the charts that must cover it.

Mutation tests: each shipped example passes on the test day (tests/conftest.py pins it), and
the same example with one known violation injected (a minor past support, a chart that does
not cover the minor or the EFA pool's instance type) gets a warning located at the version
(or the pool's machine_type), an error under --strict.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from gpuplat import catalog
from gpuplat.addons import plan_addons
from gpuplat.catalog import ChartPin
from gpuplat.render.platform import platform_view
from gpuplat.spec.diagnostics import Diagnostic, format_path
from gpuplat.spec.load import load_project
from tests.conftest import TODAY
from tests.support.cli import run
from tests.support.specs import project

EKS_VERSION = '      version: "1.35"\n'
AKS_VERSION = '      version: "1.36"\n'
GKE_CHANNEL = "      release_channel: REGULAR\n"
EFA_POOL_AFTER = "        labels:\n          team: ml-platform\n"
EFA_POOL = (
    EFA_POOL_AFTER + "      - name: h200\n        machine_type: p5en.48xlarge\n"
    "        zones: [us-east-1a]\n        capacity:\n          type: on-demand\n"
    "        autoscaling:\n          min_nodes: 0\n          max_nodes: 2\n        efa: true\n"
)


def warnings(folder: Path, today: date = TODAY) -> list[Diagnostic]:
    return load_project(folder, today=today).warnings


def calendar_warnings(folder: Path, today: date = TODAY, about: str = "") -> list[Diagnostic]:
    """The warnings located at a cluster's version or a pool's machine type (saying ``about``)."""
    return [
        w
        for w in warnings(folder, today)
        if format_path(w.path).endswith(("kubernetes.version", "machine_type"))
        and about in w.message
    ]


@pytest.mark.parametrize("example", ["eks-l4-vllm", "aks-a100-vllm", "gke-l4-vllm", "gke-h100-mig"])
def test_examples_pass_strict_on_the_test_day(tmp_path: Path, example: str) -> None:
    folder = project(tmp_path, example=example)
    done = run("validate", "--strict", cwd=folder)
    assert done.exit_code == 0, done.stderr
    assert warnings(folder) == []


def test_eks_minor_in_extended_support_is_seen_with_its_fee(tmp_path: Path) -> None:
    folder = project(tmp_path, ((EKS_VERSION, '      version: "1.33"\n'),), "eks-l4-vllm")
    found = calendar_warnings(folder, about="EKS 1.33")
    assert len(found) == 1
    warning = found[0]
    assert format_path(warning.path) == "clusters[0].kubernetes.version"
    assert warning.mark is not None and (warning.mark.file, warning.mark.line) == (
        "gpuplat.yaml",
        13,
    )
    assert "EKS 1.33 is in extended support since 2026-07-29" in warning.message
    assert "$0.60/h per cluster instead of $0.10/h per cluster" in warning.message
    assert warning.hint is not None and '"1.35"' in warning.hint
    strict = run("validate", "--strict", cwd=folder)
    assert strict.exit_code != 0
    assert "gpuplat.yaml:13:16  clusters[0].kubernetes.version" in strict.stderr


def test_eks_extended_support_starts_on_its_day(tmp_path: Path) -> None:
    folder = project(tmp_path, ((EKS_VERSION, '      version: "1.34"\n'),), "eks-l4-vllm")
    assert calendar_warnings(folder, date(2026, 12, 1)) == []
    found = calendar_warnings(folder, date(2026, 12, 2))
    assert [w.message.split(":")[0] for w in found] == [
        "EKS 1.34 is in extended support since 2026-12-02 (until 2027-12-02)"
    ]
    ended = calendar_warnings(folder, date(2027, 12, 2))
    assert "reached the end of extended support on 2027-12-02" in ended[0].message


def test_eks_default_minor_is_in_standard_support_and_named_when_it_ages(tmp_path: Path) -> None:
    folder = project(tmp_path, (("    kubernetes:\n" + EKS_VERSION, ""),), "eks-l4-vllm")
    assert calendar_warnings(folder) == []
    later = calendar_warnings(folder, date(2027, 4, 1))
    assert "gpuplat's default: no kubernetes.version" in later[0].message
    assert format_path(later[0].path) == "clusters[0].kubernetes.version"


@pytest.mark.parametrize("minor", ["1.33", "1.34"])
def test_aks_no_longer_creates_past_end_of_life(tmp_path: Path, minor: str) -> None:
    folder = project(tmp_path, ((AKS_VERSION, f'      version: "{minor}"\n'),), "aks-a100-vllm")
    found = calendar_warnings(folder, about=f"AKS {minor}")
    assert len(found) == 1
    assert format_path(found[0].path) == "clusters[0].kubernetes.version"
    assert f"AKS {minor} reached its end of life" in found[0].message
    assert "long-term support, which needs the Premium tier" in found[0].message


def test_aks_month_only_end_of_life_runs_to_the_month_end(tmp_path: Path) -> None:
    folder = project(tmp_path, ((AKS_VERSION, '      version: "1.34.2"\n'),), "aks-a100-vllm")
    assert calendar_warnings(folder, date(2026, 11, 29)) == []
    assert "on 2026-11-30" in calendar_warnings(folder, date(2026, 11, 30))[0].message


def test_gke_minor_past_standard_support_needs_the_extended_channel(tmp_path: Path) -> None:
    regular = project(
        tmp_path / "regular", ((GKE_CHANNEL, GKE_CHANNEL + '      version: "1.33"\n'),)
    )
    found = calendar_warnings(regular, about="GKE 1.33")
    assert len(found) == 1
    assert "only the Extended channel creates 1.33 clusters" in found[0].message
    assert any("unverified" in line for line in found[0].details)
    extended = project(
        tmp_path / "extended",
        ((GKE_CHANNEL, '      release_channel: EXTENDED\n      version: "1.33"\n'),),
    )
    found = calendar_warnings(extended, about="GKE 1.33")
    assert "is in extended support since 2026-08-03" in found[0].message
    assert "extra cluster fee" in found[0].message
    # The figure two third-party pages give, said to be unverified where it is shown.
    assert "($0.60/h per cluster in total, unverified: Google's pricing page gives no figure)" in (
        found[0].message
    )


def test_gke_minor_only_in_the_rapid_channel(tmp_path: Path) -> None:
    folder = project(tmp_path, ((GKE_CHANNEL, GKE_CHANNEL + '      version: "1.37"\n'),))
    found = calendar_warnings(folder, about="GKE")
    assert "GKE offered 1.37 in RAPID only" in found[0].message
    rapid = project(
        tmp_path / "rapid",
        ((GKE_CHANNEL, '      release_channel: RAPID\n      version: "1.37"\n'),),
    )
    assert calendar_warnings(rapid, about="GKE") == []


@pytest.mark.parametrize(("minor", "words"), [("1.20", "older than every"), ("1.40", "newer")])
def test_minor_outside_the_calendar(tmp_path: Path, minor: str, words: str) -> None:
    folder = project(tmp_path, ((AKS_VERSION, f'      version: "{minor}"\n'),), "aks-a100-vllm")
    found = [w for w in calendar_warnings(folder) if "gpuplat's calendar" in w.message]
    assert words in found[0].message


@pytest.mark.parametrize(
    ("minor", "chart", "app"), [("1.33", "9.51.0", "1.33"), ("1.34", "9.53.0", "1.34")]
)
def test_cluster_autoscaler_chart_follows_the_cluster_minor(
    tmp_path: Path, minor: str, chart: str, app: str
) -> None:
    folder = project(tmp_path, ((EKS_VERSION, f'      version: "{minor}"\n'),), "eks-l4-vllm")
    env = load_project(folder).envs["dev"]
    pinned = platform_view(env, env.spec.clusters[0]).args
    assert isinstance(pinned, dict)
    version = pinned["charts"]["cluster-autoscaler"]["version"]
    assert version == chart
    lines = catalog.chart_support("cluster-autoscaler")
    assert lines is not None
    release = lines.release(version)
    assert release is not None and release.app_version is not None
    assert release.app_version.startswith(app + ".")


def test_the_example_autoscaler_is_of_the_example_minor(tmp_path: Path) -> None:
    env = load_project(project(tmp_path, example="eks-l4-vllm")).envs["dev"]
    args = platform_view(env, env.spec.clusters[0]).args
    assert isinstance(args, dict)
    lines = catalog.chart_support("cluster-autoscaler")
    assert lines is not None
    release = lines.release(args["charts"]["cluster-autoscaler"]["version"])
    assert release is not None and release.covers(env.spec.clusters[0].kubernetes.version or "")


def test_no_autoscaler_chart_for_the_minor_is_seen(tmp_path: Path) -> None:
    folder = project(tmp_path, ((EKS_VERSION, '      version: "1.36"\n'),), "eks-l4-vllm")
    found = calendar_warnings(folder)
    assert [format_path(w.path) for w in found] == ["clusters[0].kubernetes.version"]
    assert "chart cluster-autoscaler 9.59.0 covers Kubernetes 1.35" in found[0].message
    assert "runs 1.36" in found[0].message


def test_keda_tested_window_is_seen(tmp_path: Path) -> None:
    folder = project(tmp_path, ((EKS_VERSION, '      version: "1.33"\n'),), "eks-l4-vllm")
    found = [w for w in calendar_warnings(folder) if "keda" in w.message]
    assert "chart keda 2.21.1 covers Kubernetes 1.34 to 1.36" in found[0].message


def test_efa_pool_gets_a_device_plugin_that_lists_its_instance_type(tmp_path: Path) -> None:
    folder = project(tmp_path, ((EFA_POOL_AFTER, EFA_POOL),), "eks-l4-vllm")
    env = load_project(folder).envs["dev"]
    args = platform_view(env, env.spec.clusters[0]).args
    assert isinstance(args, dict)
    version = args["charts"]["aws-efa-k8s-device-plugin"]["version"]
    lines = catalog.chart_support("aws-efa-k8s-device-plugin")
    assert lines is not None
    for itype in ("p5en.48xlarge", "p6-b200.48xlarge", "p6-b300.48xlarge"):
        assert lines.lists(version, itype), (version, itype)
    assert calendar_warnings(folder) == []


def test_efa_pool_the_pinned_chart_does_not_list_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = project(tmp_path, ((EFA_POOL_AFTER, EFA_POOL),), "eks-l4-vllm")
    pinned = catalog.chart("aws-efa-k8s-device-plugin")
    old = pinned.model_copy(update={"version": "v0.5.5"})
    real = catalog.chart

    def chart(name: str) -> ChartPin:
        return old if name == "aws-efa-k8s-device-plugin" else real(name)

    monkeypatch.setattr("gpuplat.addons.catalog.chart", chart)
    found = calendar_warnings(folder)
    assert [format_path(w.path) for w in found] == ["clusters[0].node_pools[1].machine_type"]
    assert "(v0.5.5) does not list p5en.48xlarge" in found[0].message
    assert found[0].hint == "chart v0.5.6 and later list it"
    spec = load_project(folder).envs["dev"].spec
    assert "aws-efa-k8s-device-plugin" in plan_addons(spec, spec.clusters[0]).charts()


def test_today_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = project(tmp_path, ((EKS_VERSION, '      version: "1.34"\n'),), "eks-l4-vllm")
    monkeypatch.setenv("GPUPLAT_TODAY", "2026-12-01")
    assert run("validate", "--strict", cwd=folder).exit_code == 0
    monkeypatch.setenv("GPUPLAT_TODAY", "2026-12-02")
    assert run("validate", "--strict", cwd=folder).exit_code != 0
    monkeypatch.setenv("GPUPLAT_TODAY", "02/12/2026")
    done = run("validate", cwd=folder)
    assert done.exit_code != 0
    assert "GPUPLAT_TODAY='02/12/2026' is not a date" in done.stderr
