"""State-lock errors from real local and S3-lockfile runs become LockedError with a hint."""

from __future__ import annotations

import re

import pytest

from gpuplat.errors import ExitCode, LockedError
from gpuplat.terraform import DiagnosticEvent, LockInfo, StateLockedError, parse_stream
from gpuplat.terraform.diagnostics import TerraformDiagnostic
from gpuplat.terraform.statelock import locked_error, parse_lock_info
from tests.terraform import read_fixture

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def diagnostics(name: str) -> list[TerraformDiagnostic]:
    stream = parse_stream(read_fixture(f"events/{name}").splitlines())
    return [e.diagnostic for e in stream if isinstance(e, DiagnosticEvent)]


@pytest.mark.parametrize(
    ("name", "path", "reason"),
    [
        ("lock_local.jsonl", "terraform.tfstate", "resource temporarily unavailable"),
        (
            "lock_s3.jsonl",
            "state/dev/infra.tfstate",
            "PreconditionFailed: At least one of the pre-conditions you specified did not hold",
        ),
    ],
)
def test_lock_error_becomes_locked_error(name: str, path: str, reason: str) -> None:
    diags = diagnostics(name)
    error = locked_error(
        diags,
        argv=("terraform", "plan"),
        where="envs/dev/infra",
        unlock_command=lambda lock_id: (
            f"terraform -chdir=envs/dev/infra force-unlock -force {lock_id}"
        ),
    )
    assert isinstance(error, StateLockedError)
    assert isinstance(error, LockedError)
    assert error.exit_code is ExitCode.LOCKED
    lock = error.lock
    assert lock is not None
    assert lock.path == path
    assert lock.operation == "OperationTypeApply"
    assert lock.who and "@" in lock.who
    assert lock.version and lock.version.startswith("1.")
    assert lock.created and lock.created.endswith("UTC")
    assert lock.info is None
    assert re.fullmatch(UUID, lock.id)
    assert error.message == "the terraform state of envs/dev/infra is locked by another run"
    assert error.details[0] == f"lock {lock.id} held by {lock.describe()}"
    assert error.details[1] == f"state: {path}"
    assert error.details[2] == f"terraform: {reason}"
    assert error.hint is not None
    assert error.hint.startswith("Wait for the other run to finish, then retry.")
    assert error.hint.endswith(
        f"release its lock with: terraform -chdir=envs/dev/infra force-unlock -force {lock.id}"
    )
    assert "Only if that run is gone" in error.hint


def test_other_errors_are_not_lock_errors() -> None:
    assert (
        locked_error(diagnostics("apply_error.jsonl"), argv=(), where=".", unlock_command=None)
        is None
    )


def test_lock_info_from_stderr_text() -> None:
    text = (
        "Error: Error acquiring the state lock\n\nError message: ConditionalCheckFailedException\n"
        "Lock Info:\n  ID:        1234\n  Path:      b/k\n  Operation: OperationTypePlan\n"
        "  Who:       ci@runner\n  Version:   1.10.5\n  Created:   2025-01-01 00:00:00 UTC\n"
        "  Info:      pipeline 42\n"
    )
    assert parse_lock_info(text) == LockInfo(
        id="1234",
        path="b/k",
        operation="OperationTypePlan",
        who="ci@runner",
        version="1.10.5",
        created="2025-01-01 00:00:00 UTC",
        info="pipeline 42",
    )
    assert parse_lock_info("Error: something else") is None
    assert parse_lock_info("Lock Info:\n  Path: x\n") is None


def test_without_lock_info_the_hint_stays_generic() -> None:
    diag = TerraformDiagnostic(severity="error", summary="Error acquiring the state lock")
    error = locked_error([diag], argv=(), where=".", unlock_command=lambda i: i)
    assert error is not None and error.lock is None
    assert error.hint == (
        "Wait for the other run to finish, then retry. If its holder is gone, release the lock "
        "with `terraform force-unlock`."
    )
