"""scripts/chart_calendar.py against small Helm repositories built here with real git: what it
reads from the published chart archives and the Helm index, and what it refuses."""

from __future__ import annotations

import importlib.util
import io
import subprocess
import tarfile
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from tests.support.realparts import REPO

EFA = "aws-efa-k8s-device-plugin"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "chart_calendar", REPO / "scripts/chart_calendar.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def commit(repo: Path, files: dict[str, bytes], message: str, when: str) -> None:
    for rel, data in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    git(repo, "add", "-A")
    env = f"{when}T12:00:00+00:00"
    subprocess.run(
        ["git", "-C", str(repo), "commit", "-q", "-m", message],
        check=True,
        capture_output=True,
        env={
            "GIT_AUTHOR_DATE": env,
            "GIT_COMMITTER_DATE": env,
            "HOME": str(repo),
            "PATH": "/usr/bin:/bin",
        },
    )


def archive(version: str, app: str, types: list[str]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, body in (
            ("Chart.yaml", {"name": EFA, "version": version, "appVersion": app}),
            ("values.yaml", {"supportedInstanceLabels": {"keys": ["k"], "values": types}}),
        ):
            data = yaml.safe_dump(body).encode()
            info = tarfile.TarInfo(f"{EFA}/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def efa_repo(tmp_path: Path, later: list[str]) -> Path:
    repo = tmp_path / "eks-charts"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "master")
    git(repo, "config", "user.email", "t@example.com")
    git(repo, "config", "user.name", "t")
    chart = f"stable/{EFA}/Chart.yaml"
    commit(repo, {chart: b"version: v0.1.0\n"}, "one", "2025-01-02")
    commit(repo, {chart: b"version: v0.2.0\n"}, "two", "2025-03-04")
    git(repo, "checkout", "-q", "--orphan", "gh-pages")
    git(repo, "rm", "-rqf", ".")
    commit(
        repo,
        {
            f"{EFA}-v0.1.0.tgz": archive("v0.1.0", "v0.1.0", ["p5.48xlarge", "c5n.18xlarge"]),
            f"{EFA}-v0.2.0.tgz": archive("v0.2.0", "v0.1.1", later),
        },
        "publish",
        "2025-03-05",
    )
    git(repo, "checkout", "-q", "master")
    return repo


def test_efa_block_reads_the_published_archives(tmp_path: Path) -> None:
    repo = efa_repo(tmp_path, ["p5.48xlarge", "p5en.48xlarge", "c5n.18xlarge"])
    assert script().efa_block(repo).splitlines() == [
        "    releases:",
        "      - {version: v0.2.0, app_version: v0.1.1, released: '2025-03-04'}",
        "      - {version: v0.1.0, app_version: v0.1.0, released: '2025-01-02'}",
        "    instance_types:",
        "      p5.48xlarge: v0.1.0",
        "      p5en.48xlarge: v0.2.0",
    ]


def test_efa_block_refuses_a_dropped_instance_type(tmp_path: Path) -> None:
    repo = efa_repo(tmp_path, ["p5en.48xlarge"])
    with pytest.raises(SystemExit, match=r"p5\.48xlarge was dropped in v0\.2\.0"):
        script().efa_block(repo)


def test_autoscaler_block_and_the_rewrite(tmp_path: Path) -> None:
    repo = tmp_path / "autoscaler"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "gh-pages")
    git(repo, "config", "user.email", "t@example.com")
    git(repo, "config", "user.name", "t")
    index = {
        "entries": {
            "cluster-autoscaler": [
                {"version": "9.52.0", "appVersion": "1.34.1", "created": "2025-10-15T19:20:03Z"},
                {"version": "9.51.0", "appVersion": "1.33.0", "created": "2025-10-10T17:55:30Z"},
                {"version": "9.0.0", "appVersion": "1.20.0", "created": "2021-01-01T00:00:00Z"},
            ]
        }
    }
    commit(repo, {"index.yaml": yaml.safe_dump(index).encode()}, "index", "2025-10-16")
    module = script()
    block = module.autoscaler_block(repo)
    assert block.splitlines() == [
        "    releases:",
        "      - {version: 9.52.0, app_version: 1.34.1, released: '2025-10-15', "
        "kubernetes: ['1.34', '1.34']}",
        "      - {version: 9.51.0, app_version: 1.33.0, released: '2025-10-10', "
        "kubernetes: ['1.33', '1.33']}",
    ]
    data = tmp_path / "chart_support.yaml"
    data.write_text(
        "charts:\n  - name: cluster-autoscaler\n"
        "    # BEGIN generated: cluster-autoscaler\n    releases: []\n"
        "    # END generated: cluster-autoscaler\n  - name: keda\n",
        encoding="utf-8",
    )
    module.main(["--autoscaler", str(repo), "--data", str(data)])
    text = data.read_text(encoding="utf-8")
    assert "releases: []" not in text and "9.52.0" in text and text.endswith("  - name: keda\n")
    with pytest.raises(SystemExit, match="no generated block for aws-efa-k8s-device-plugin"):
        module.replace_block(text, EFA, "x")
