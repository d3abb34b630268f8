"""`gpuplat vendor upgrade`: the real shipped versions gke-cluster 1.0.0 -> 1.1.0 and
model-server 1.0.0 -> 1.1.0, merged with a repository's local edits.

Upstream, gke-cluster 1.1.0 changed the header comment of every file, the
``google_container_cluster.this`` resource (a checkov skip comment and a ``network_policy``
block) and ``variable "resource_labels"`` (description and default); model-server 1.1.0
changed its ``locals`` and ``kubernetes_deployment_v1.this``.
"""

from __future__ import annotations

import json
from pathlib import Path

from gpuplat.errors import ExitCode
from gpuplat.releases.versions import Release, release_files
from tests.support.cli import run
from tests.vendoring.repos import INTO, ROOT, edit, make_repo, snapshot

PAIRS = "gke-cluster@1.1.0,model-server@1.1.0"
"""The shipped versions each test moves to (newer ones may follow; these never change)."""
OLD = f"{INTO}/gke-cluster/1.0.0"
NEW = f"{INTO}/gke-cluster/1.1.0"


def vendored(tmp_path: Path) -> Path:
    """A repository with gke-cluster and model-server 1.0.0 vendored and called from a root."""
    repo = make_repo(tmp_path / "repo")
    result = run(
        "vendor", repo, "--modules", "gke-cluster@1.0.0,model-server@1.0.0", "--into", INTO
    )
    assert result.exit_code == 0, result.stderr
    (repo / ROOT / "gke.tf").write_text(
        'module "gke" {\n  source  = "../../../modules/gpuplat/gke-cluster/1.0.0"\n'
        '  project = "acme-ml"\n  name    = "inference"\n}\n',
        encoding="utf-8",
    )
    return repo


def test_a_local_edit_to_one_block_is_kept_while_an_upstream_change_to_another_is_taken(
    tmp_path: Path,
) -> None:
    repo = vendored(tmp_path)
    old = repo / OLD
    # Another block than upstream changed: variable "project".
    edit(
        old / "variables.tf",
        '  description = "GCP project id that owns the cluster."',
        '  description = "GCP project id that owns the cluster (acme: one per team)."',
    )
    # The block upstream changed too, but another attribute of it: line merge inside it.
    edit(
        old / "main.tf",
        "  enable_legacy_abac          = false\n",
        "  enable_legacy_abac          = false # reviewed: PLAT-142\n",
    )
    (old / "CHANGELOG.md").unlink()
    assert run("vendor", "--accept", repo).exit_code == 0

    result = run("vendor", "upgrade", repo, "--modules", PAIRS)
    assert result.exit_code == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == f"gke-cluster 1.0.0 -> 1.1.0  ({NEW}/)"
    assert f"  kept your edit: {NEW}/main.tf" in lines
    assert f"  kept your edit: {NEW}/variables.tf" in lines
    assert f"  stays deleted (changed upstream): {OLD}/CHANGELOG.md" in lines
    assert f"  module source updated: {ROOT}/gke.tf:2:13" in lines
    assert lines[-1] == "upgraded; lock updated"

    new = repo / NEW
    assert not (repo / OLD).exists()
    assert not (new / "CHANGELOG.md").exists()
    pristine = release_files(Release("gke-cluster", "1.1.0"))
    variables = (new / "variables.tf").read_text()
    assert "(acme: one per team)" in variables
    assert 'default     = { managed-by = "gpuplat" }' in variables  # upstream's change
    main = (new / "main.tf").read_text()
    assert "# reviewed: PLAT-142" in main
    assert "network_policy {" in main and "#checkov:skip=CKV_GCP_65" in main
    assert main.startswith("# gpuplat module gke-cluster 1.1.0")
    # Apart from the two edits, the result is exactly the new release.
    assert main.replace(" # reviewed: PLAT-142", "") == pristine["main.tf"]
    assert variables.replace(" (acme: one per team)", "") == pristine["variables.tf"]
    assert (new / "outputs.tf").read_text() == pristine["outputs.tf"]
    assert '"../../../modules/gpuplat/gke-cluster/1.1.0"' in (repo / ROOT / "gke.tf").read_text()

    lock = json.loads((repo / INTO / "gpuplat-vendor.lock.json").read_text())
    assert lock["modules"]["gke-cluster"]["version"] == "1.1.0"
    assert lock["modules"]["gke-cluster"]["deleted"] == ["CHANGELOG.md"]
    assert "patch" not in lock["modules"]["gke-cluster"]["files"]["outputs.tf"]
    assert run("vendor", "--check", repo).exit_code == 0
    assert not list(repo.rglob("*.rej")) and not list(repo.rglob("*.orig"))


def test_the_upgrade_says_what_changes_for_the_infrastructure(tmp_path: Path) -> None:
    repo = vendored(tmp_path)
    result = run("vendor", "upgrade", repo, "--modules", PAIRS, "--dry-run")
    assert result.exit_code == 0, result.stderr
    lines = result.stderr.splitlines()
    assert "  variable defaults changed: resource_labels" in lines
    assert (
        "  google_container_node_pool.system: updated in place: node_config.resource_labels "
        "via var.resource_labels"
    ) in lines
    assert any(
        line.startswith("  google_container_cluster.this: changed; may be replaced (not known")
        and "network_policy" in line
        for line in lines
    )
    assert (
        "  kubernetes_deployment_v1.this: changed; may be replaced (not known: check `terraform "
        "plan`): spec.template.spec.container.resources.limits, "
        "spec.template.spec.container.resources.requests"
    ) in lines
    assert lines[-1] == "dry run: nothing written"
    assert (repo / OLD).is_dir() and not (repo / NEW).exists()


def test_a_same_block_conflict_writes_nothing_and_names_the_block_and_both_sides(
    tmp_path: Path,
) -> None:
    repo = vendored(tmp_path)
    old = repo / OLD
    edit(old / "variables.tf", "  default     = {}\n", '  default     = { team = "ml" }\n')
    # An edit to another block, which on its own would merge cleanly.
    edit(
        old / "variables.tf",
        '  description = "GCP project id that owns the cluster."',
        '  description = "GCP project id (acme)."',
    )
    assert run("vendor", "--accept", repo).exit_code == 0
    before = snapshot(repo)

    result = run("vendor", "upgrade", repo, "--modules", PAIRS)
    assert result.exit_code == ExitCode.CONFLICT
    lines = result.stderr.splitlines()
    line = next(
        n
        for n, text in enumerate((old / "variables.tf").read_text().splitlines(), 1)
        if text == '  default     = { team = "ml" }'
    )
    assert lines[:9] == [
        "Error: 1 conflict between your edits and the new versions; nothing written",
        f'  {OLD}/variables.tf:{line}  variable "resource_labels" > default  (gke-cluster 1.0.0 -> 1.1.0)',
        "      yours:",
        '          default     = { team = "ml" }',
        "      gpuplat gke-cluster 1.1.0:",
        '          default     = { managed-by = "gpuplat" }',
        "      before (1.0.0):",
        "          default     = {}",
        lines[8],
    ]
    assert lines[8].startswith("Hint: make your copy agree with the new version")
    assert snapshot(repo) == before

    copy = tmp_path / "merge"
    marked = run("vendor", "upgrade", repo, "--modules", PAIRS, "--conflicts", copy)
    assert marked.exit_code == ExitCode.CONFLICT
    assert f"the merge with conflict markers in {copy} and run the same upgrade" in marked.stderr
    assert snapshot(repo) == before
    text = (copy / "gke-cluster" / "1.1.0" / "variables.tf").read_text()
    assert (
        '<<<<<<< yours\n  default     = { team = "ml" }\n||||||| base\n  default     = {}\n'
        '=======\n  default     = { managed-by = "gpuplat" }\n>>>>>>> gpuplat gke-cluster 1.1.0\n'
    ) in text
    assert "GCP project id (acme)." in text  # the clean part of the merge is there too
    assert not list(repo.rglob("*.rej"))


def test_unreviewed_edits_are_refused_before_an_upgrade(tmp_path: Path) -> None:
    repo = vendored(tmp_path)
    (repo / OLD / "extra.tf").write_text("locals {}\n", encoding="utf-8")
    before = snapshot(repo)
    result = run("vendor", "upgrade", repo, "--modules", PAIRS)
    assert result.exit_code == ExitCode.REFUSED
    assert "the vendored copy has edits that were not accepted" in result.stderr
    assert f"  added: {OLD}/extra.tf" in result.stderr.splitlines()
    assert snapshot(repo) == before


def test_a_file_the_repository_added_is_carried_into_the_new_version(tmp_path: Path) -> None:
    repo = vendored(tmp_path)
    (repo / OLD / "acme_override.tf").write_text('locals {\n  team = "ml"\n}\n', encoding="utf-8")
    assert run("vendor", "--accept", repo).exit_code == 0
    assert run("vendor", "upgrade", repo, "--modules", "gke-cluster@1.1.0").exit_code == 0
    assert (repo / NEW / "acme_override.tf").read_text() == 'locals {\n  team = "ml"\n}\n'
    # model-server was not named: it stays at 1.0.0.
    assert (repo / INTO / "model-server" / "1.0.0").is_dir()
    assert run("vendor", "--check", repo).exit_code == 0


def test_a_conflict_resolved_in_the_marked_copy_is_fed_back_and_recorded(tmp_path: Path) -> None:
    """The resolve step: the --conflicts folder, markers edited away (both sides kept), given
    back with --resolved is the merge written; the lock records it as an edit, so --check
    passes and the next upgrade starts from it. Markers left are refused, located."""
    repo = vendored(tmp_path)
    old = repo / OLD
    edit(old / "variables.tf", "  default     = {}\n", '  default     = { team = "ml" }\n')
    assert run("vendor", "--accept", repo).exit_code == 0
    copy = tmp_path / "merge"
    marked = run("vendor", "upgrade", repo, "--modules", PAIRS, "--conflicts", copy)
    assert marked.exit_code == ExitCode.CONFLICT
    assert f"run the same upgrade with --resolved {copy}" in marked.stderr
    before = snapshot(repo)

    variables = copy / "gke-cluster" / "1.1.0" / "variables.tf"
    half = run("vendor", "upgrade", repo, "--modules", PAIRS, "--resolved", copy)
    assert half.exit_code == ExitCode.CONFLICT
    line = variables.read_text().splitlines().index("<<<<<<< yours") + 1
    assert f"{variables}:{line}  a conflict marker is left" in half.stderr
    assert snapshot(repo) == before

    text = variables.read_text()
    start, end = text.index("<<<<<<< yours\n"), text.index(">>>>>>> gpuplat gke-cluster 1.1.0\n")
    both = '  default     = { team = "ml", managed-by = "gpuplat" }\n'
    variables.write_text(
        text[:start] + both + text[end + len(">>>>>>> gpuplat gke-cluster 1.1.0\n") :]
    )
    done = run("vendor", "upgrade", repo, "--modules", PAIRS, "--resolved", copy)
    assert done.exit_code == 0, done.stderr
    assert both in (repo / NEW / "variables.tf").read_text()
    assert not (repo / OLD).exists()
    assert run("vendor", "--check", repo).exit_code == 0
    lock = json.loads((repo / INTO / "gpuplat-vendor.lock.json").read_text())
    assert lock["modules"]["gke-cluster"]["version"] == "1.1.0"
