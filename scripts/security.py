"""`make security`: checkov on the rendered Terraform and manifests of every example.

Usage: python3 scripts/security.py [EXAMPLE ...]      (default: every `gpuplat init --list` example)

checkov lives in its own virtualenv (`.venv-security`, pinned below) because its dependency
pins clash with the dev tools. For each example the script renders a fresh project under
build/security/work/<example> with the dev venv's gpuplat, then runs checkov:

- terraform on each `envs/<env>` (the three stage roots; the local modules they call are followed
  and checked with the values each environment passes). One run per environment, because
  checkov merges results that share a module file and resource address, so a single run over
  envs/ would report prod and silently drop dev;
- terraform on `modules/` alone: each module version as its own root with only its defaults,
  which is what a team that vendors the modules sees;
- kubernetes on the plain manifests (`render --manifests`), with the skips listed in
  MANIFEST_SKIPS (the README's "Security checks" section gives the reasons).

JSON reports go to build/security/<example>/<scan>.json and a summary to
build/security/summary.json. Exits 1 when any check fails or a file cannot be parsed, 2 when
the tools themselves fail. Environment: PYTHON (creates the venv; default: this interpreter),
GPUPLAT_PYTHON (runs gpuplat; default: .venv/bin/python), SECURITY_VENV (default:
.venv-security).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

CHECKOV_VERSION = "3.3.30"

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "build" / "security"
VENV = Path(os.environ.get("SECURITY_VENV", REPO / ".venv-security"))
GPUPLAT = [str(Path(os.environ.get("GPUPLAT_PYTHON", REPO / ".venv/bin/python")).absolute())]
GPUPLAT += ["-m", "gpuplat"]

# Checks skipped on the plain manifests, passed to checkov as --skip-check. The Terraform
# carries its skips inline, beside the resource (`#checkov:skip=ID:reason`). The manifests are
# plain YAML built from the same plan as the Terraform, so the same decisions are listed here
# instead of annotating every object; the README ("Security checks") gives each reason in full.
MANIFEST_SKIPS = {
    # Same as the model-server module's inline skips:
    "CKV_K8S_11": "CPU is requested, deliberately not limited: throttling stalls token generation",
    "CKV_K8S_43": "tag or digest is the user's choice; validate warns about unpinned images",
    "CKV_K8S_15": "default pull policy kept: restarts reuse the multi-GB image on the node",
    "CKV_K8S_22": "model servers write caches under their home directory",
    "CKV_K8S_35": "an env value from a Secret key is the spec's explicit choice (e.g. HF_TOKEN)",
    # Checks only the kubernetes framework has:
    "CKV_K8S_23": "model-server images run as root; gpuplat cannot pick a UID for them",
    "CKV_K8S_40": "model-server images run as root; gpuplat cannot pick a UID for them",
    "CKV_K8S_38": "the token is mounted only with gcsfuse weights, for the Cloud Storage FUSE sidecar",
    "CKV2_K8S_6": "who may call a model server is the cluster owner's policy, not the workload's",
}

CHECKOV_ENV = {
    # No network beyond PyPI: no Prisma Cloud guidelines, no update check.
    "BC_SKIP_MAPPING": "TRUE",
    "CKV_SKIP_PACKAGE_UPDATE_CHECK": "true",
    "LOG_LEVEL": "ERROR",
}


class ToolError(Exception):
    """A tool (pip, gpuplat, checkov) failed: not a security finding."""


@dataclass
class Scan:
    example: str
    framework: str
    target: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    parsing_errors: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.framework}-{self.target.replace('/', '-')}"


def call(
    argv: list[str],
    cwd: Path | None = None,
    ok: tuple[int, ...] = (0,),
    env: dict[str, str] | None = None,
) -> str:
    """stdout of a command that must exit with one of `ok`."""
    done = subprocess.run(
        argv,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode not in ok:
        raise ToolError(f"`{' '.join(argv)}` exited {done.returncode}:\n{done.stderr[-4000:]}")
    return done.stdout


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def ensure_checkov() -> Path:
    """The pinned checkov in its own venv, created or updated when the pin changed."""
    checkov = VENV / "bin" / "checkov"
    stamp = VENV / ".checkov-version"
    if checkov.exists() and stamp.exists() and stamp.read_text().strip() == CHECKOV_VERSION:
        return checkov
    python = os.environ.get("PYTHON", sys.executable)
    say(f"==> installing checkov {CHECKOV_VERSION} into {VENV}")
    if not (VENV / "bin" / "python").exists():
        call([python, "-m", "venv", str(VENV)])
    pip = [str(VENV / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    call([*pip, "--upgrade", "pip"])
    call([*pip, f"checkov=={CHECKOV_VERSION}"])
    stamp.write_text(CHECKOV_VERSION + "\n")
    return checkov


def examples() -> list[str]:
    listing = call([*GPUPLAT, "init", "--list"])
    return [line.split()[0] for line in listing.splitlines() if line and not line[0].isspace()]


def render(example: str) -> Path:
    project = OUT / "work" / example
    if project.exists():
        shutil.rmtree(project)
    project.parent.mkdir(parents=True, exist_ok=True)
    call([*GPUPLAT, "init", "--example", example, str(project)])
    call([*GPUPLAT, "-C", str(project), "render", "--manifests", str(project / "k8s")])
    return project


def checkov(binary: Path, project: Path, scan: Scan) -> dict[str, object]:
    argv = [str(binary), "-d", scan.target, "--framework", scan.framework, "-o", "json"]
    argv += ["--skip-download", "--compact"]
    if scan.framework == "terraform":
        argv += ["--download-external-modules", "false"]
    else:
        argv += ["--skip-check", ",".join(sorted(MANIFEST_SKIPS))]
    # checkov exits 1 when a check failed; any other code, or no JSON, is checkov itself failing.
    out = call(argv, cwd=project, ok=(0, 1), env=CHECKOV_ENV)
    try:
        report = json.loads(out)
    except json.JSONDecodeError as error:
        raise ToolError(f"`{' '.join(argv)}` printed no JSON report: {error}") from None
    if not isinstance(report, dict):
        raise ToolError(f"`{' '.join(argv)}` printed more than one report")
    return report


def tally(scan: Scan, report: dict[str, object]) -> None:
    results = report.get("results")
    summary = report.get("summary", report)
    assert isinstance(summary, dict)
    scan.passed = int(summary.get("passed", 0))
    scan.failed = int(summary.get("failed", 0))
    scan.skipped = int(summary.get("skipped", 0))
    if not isinstance(results, dict):
        return
    scan.parsing_errors = [str(p) for p in results.get("parsing_errors", [])]
    for check in results.get("failed_checks", []):
        lines = "-".join(str(n) for n in check.get("file_line_range", []))
        where = f"{check['file_path'].lstrip('/')}:{lines}"
        scan.failures.append(
            f"{check['check_id']}  {check['resource']}  {where}  {check['check_name']}"
        )


def main(argv: list[str]) -> int:
    try:
        binary = ensure_checkov()
        wanted = argv or examples()
        scans: list[Scan] = []
        for example in wanted:
            say(f"==> {example}: rendering")
            project = render(example)
            envs = sorted(p.name for p in (project / "envs").iterdir() if p.is_dir())
            targets = [("terraform", f"envs/{env}") for env in envs]
            targets += [("terraform", "modules"), ("kubernetes", "k8s")]
            reports = OUT / example
            shutil.rmtree(reports, ignore_errors=True)
            reports.mkdir(parents=True)
            for framework, target in targets:
                scan = Scan(example, framework, target)
                say(f"==> {example}: checkov --framework {framework} -d {target}")
                report = checkov(binary, project, scan)
                (reports / f"{scan.name}.json").write_text(json.dumps(report, indent=2) + "\n")
                tally(scan, report)
                scans.append(scan)
    except ToolError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return report_all(scans)


def report_all(scans: list[Scan]) -> int:
    for scan in scans:
        for failure in scan.failures:
            print(f"FAILED {scan.example} {scan.target}: {failure}")
        for error in scan.parsing_errors:
            print(f"PARSE ERROR {scan.example} {scan.target}: {error}")
    print(f"\ncheckov {CHECKOV_VERSION}; not run on the manifests (--skip-check, see the README):")
    for check_id, reason in sorted(MANIFEST_SKIPS.items()):
        print(f"  {check_id:<11} {reason}")
    print()
    row = "{:<16} {:<11} {:<12} {:>6} {:>6} {:>7}"
    print(row.format("example", "framework", "target", "passed", "failed", "skipped"))
    totals: dict[str, list[int]] = {}
    for s in scans:
        print(row.format(s.example, s.framework, s.target, s.passed, s.failed, s.skipped))
        t = totals.setdefault(s.framework, [0, 0, 0])
        t[0], t[1], t[2] = t[0] + s.passed, t[1] + s.failed, t[2] + s.skipped
    for framework, (passed, failed, skipped) in sorted(totals.items()):
        print(row.format("total", framework, "", passed, failed, skipped))
    summary = {
        "checkov": CHECKOV_VERSION,
        "scans": [
            {
                "example": s.example,
                "framework": s.framework,
                "target": s.target,
                "passed": s.passed,
                "failed": s.failed,
                "skipped": s.skipped,
                "parsing_errors": len(s.parsing_errors),
            }
            for s in scans
        ],
    }
    (OUT / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    empty = [s for s in scans if s.passed + s.failed + s.skipped == 0]
    for s in empty:
        print(f"error: {s.example} {s.target}: checkov found nothing to check", file=sys.stderr)
    bad = sum(s.failed + len(s.parsing_errors) for s in scans) + len(empty)
    print(f"\nsecurity: {'FAILED' if bad else 'OK'} (reports in {OUT.relative_to(REPO)}/)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
