"""Re-read the generated parts of catalog/data/chart_support.yaml from the charts' own repositories.

    git clone --bare https://github.com/aws/eks-charts eks-charts.git
    git clone --bare https://github.com/kubernetes/autoscaler autoscaler.git
    python scripts/chart_calendar.py --eks-charts eks-charts.git --autoscaler autoscaler.git

Both repositories publish their Helm repository from a ``gh-pages`` branch. For the EFA device
plugin it reads every published chart archive there (``aws-efa-k8s-device-plugin-<v>.tgz``): the
instance types its ``supportedInstanceLabels`` (the DaemonSet's node affinity) list, and the date
of the ``master`` commit that first set that chart version. For the cluster autoscaler it reads
the Helm index (``index.yaml``): each chart version, the autoscaler version it ships
(``appVersion``) and the date it was published. The blocks between the ``BEGIN generated`` and
``END generated`` markers of the data file are rewritten; everything else (sources, notes, the
hand-read charts) is kept. Review the diff, then set the sources' snapshot commits and dates in
sources.yaml.
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "src" / "gpuplat" / "catalog" / "data" / "chart_support.yaml"
EFA_CHART = "aws-efa-k8s-device-plugin"
EFA_DIR = f"stable/{EFA_CHART}"
AUTOSCALER_CHART = "cluster-autoscaler"
AUTOSCALER_OLDEST = (1, 29)
"""Older autoscaler lines than this are left out: no cloud in the calendar creates them."""
GPU_FAMILY = re.compile(r"^(p\d|g\d|gr\d)[a-z0-9-]*\.")
"""Instance families with NVIDIA GPUs: the ones gpuplat renders EFA pools for."""


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True).stdout


def _semver(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def efa_block(repo: Path) -> str:
    """The releases and instance types of the EFA device plugin chart, as YAML lines."""
    names = _git(repo, "ls-tree", "--name-only", "gh-pages").decode().split()
    archives = [n for n in names if n.startswith(f"{EFA_CHART}-v") and n.endswith(".tgz")]
    released = _first_commit_dates(repo)
    listed: dict[str, set[str]] = {}
    apps: dict[str, str] = {}
    for name in archives:
        version = name.removeprefix(f"{EFA_CHART}-").removesuffix(".tgz")
        data = _git(repo, "show", f"gh-pages:{name}")
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            values = _member(tar, f"{EFA_CHART}/values.yaml")
            chart = _member(tar, f"{EFA_CHART}/Chart.yaml")
        labels = values.get("supportedInstanceLabels") or {}
        listed[version] = {t for t in labels.get("values", ()) if GPU_FAMILY.match(t)}
        apps[version] = str(chart.get("appVersion", ""))
    order = sorted(listed, key=_semver)
    first: dict[str, str] = {}
    for version in order:
        for itype in sorted(listed[version]):
            first.setdefault(itype, version)
    lines = ["    releases:"]
    for version in reversed(order):
        date = released.get(version)
        when = f"'{date}'" if date else "null"
        lines.append(
            f"      - {{version: {version}, app_version: {apps[version]}, released: {when}}}"
        )
    lines.append("    instance_types:")
    for itype in sorted(first):
        gone = [v for v in order if _semver(v) > _semver(first[itype]) and itype not in listed[v]]
        if gone:
            sys.exit(f"{itype} was dropped in {gone[0]}: the data file cannot say that yet")
        lines.append(f"      {itype}: {first[itype]}")
    return "\n".join(lines)


def _member(tar: tarfile.TarFile, path: str) -> dict[str, Any]:
    handle = tar.extractfile(path)
    if handle is None:
        sys.exit(f"{path} is missing from a chart archive")
    found = yaml.safe_load(handle.read())
    return found if isinstance(found, dict) else {}


def _first_commit_dates(repo: Path) -> dict[str, str]:
    """Chart version -> date of the first master commit whose Chart.yaml carries it."""
    out: dict[str, str] = {}
    log = _git(repo, "log", "--reverse", "--format=%H %cs", "master", "--", f"{EFA_DIR}/Chart.yaml")
    for line in log.decode().splitlines():
        commit, date = line.split()
        chart = yaml.safe_load(_git(repo, "show", f"{commit}:{EFA_DIR}/Chart.yaml"))
        out.setdefault(str(chart["version"]), date)
    return out


def autoscaler_block(repo: Path) -> str:
    """The cluster-autoscaler chart versions and the Kubernetes minor each one's autoscaler is for."""
    index = yaml.safe_load(_git(repo, "show", "gh-pages:index.yaml"))
    lines = ["    releases:"]
    entries = sorted(index["entries"][AUTOSCALER_CHART], key=lambda e: _semver(e["version"]))
    for entry in reversed(entries):
        app = str(entry["appVersion"])
        minor = _semver(app)[:2]
        if minor < AUTOSCALER_OLDEST:
            continue
        line = f"{minor[0]}.{minor[1]}"
        lines.append(
            f"      - {{version: {entry['version']}, app_version: {app}, "
            f"released: '{str(entry['created'])[:10]}', kubernetes: ['{line}', '{line}']}}"
        )
    return "\n".join(lines)


def replace_block(text: str, name: str, block: str) -> str:
    """``text`` with the generated block of chart ``name`` replaced by ``block``."""
    pattern = re.compile(
        rf"(    # BEGIN generated: {re.escape(name)}\n).*?(    # END generated: {re.escape(name)}\n)",
        re.S,
    )
    if not pattern.search(text):
        sys.exit(f"the data file has no generated block for {name}")
    return pattern.sub(lambda m: m.group(1) + block + "\n" + m.group(2), text)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eks-charts", type=Path, help="bare clone of aws/eks-charts")
    parser.add_argument("--autoscaler", type=Path, help="bare clone of kubernetes/autoscaler")
    parser.add_argument("--data", type=Path, default=DATA, help="the data file to rewrite")
    args = parser.parse_args(argv)
    text = args.data.read_text(encoding="utf-8")
    if args.eks_charts:
        text = replace_block(text, EFA_CHART, efa_block(args.eks_charts))
    if args.autoscaler:
        text = replace_block(text, AUTOSCALER_CHART, autoscaler_block(args.autoscaler))
    args.data.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
