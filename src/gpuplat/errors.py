"""The error hierarchy and the exit codes every gpuplat command returns."""

from __future__ import annotations

import errno
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpuplat.spec.diagnostics import Diagnostic
    from gpuplat.terraform.diagnostics import TerraformDiagnostic


class ExitCode(IntEnum):
    """Process exit codes. Documented in the README; never renumber a released code."""

    OK = 0
    """Success; for `plan` and `drift`: no changes."""
    ERROR = 1
    """A problem with the command's inputs that is not a spec error (e.g. a file exists)."""
    USAGE = 2
    """Bad command-line usage (unknown option, missing argument); reported by the CLI parser."""
    INTERNAL = 3
    """A bug in gpuplat: the traceback is written to a log file whose path is printed."""
    INVALID_SPEC = 4
    """The spec or an overlay is invalid (or has warnings under `--strict`)."""
    STALE = 5
    """Rendered files are stale or were edited by hand (`render --check`), a vendored copy
    differs from its lock (`vendor --check`), or a template changed without a version bump."""
    TERRAFORM = 6
    """Terraform ran and failed; its diagnostics are shown."""
    REFUSED = 7
    """gpuplat refused to act: a saved plan is missing or stale, a destroy was not allowed,
    a protected environment was not confirmed (or nobody can confirm it: no terminal and no
    `--yes`), or a failover's target cannot take the workload."""
    LOCKED = 8
    """Another run holds the environment's lock (gpuplat's or Terraform's state lock)."""
    TOOL_MISSING = 9
    """The terraform/tofu binary is missing or too old."""
    CHANGES = 10
    """`plan` succeeded and the plan has changes; `drift` found drift."""
    NONCONFORMANT = 11
    """`conformance` found Terraform that does not match the provider schemas."""
    CONFLICT = 12
    """`vendor`: the repository's version constraints conflict with a vendored module's;
    `vendor upgrade`: a local edit and an upstream change meet in one place. Nothing written."""
    INTERRUPTED = 130
    """Interrupted by SIGINT (Ctrl-C)."""


@dataclass
class GpuplatError(Exception):
    """Root of every error gpuplat reports to a person.

    Attributes:
        message: One line saying what went wrong.
        hint: What to do about it, or None.
        exit_code: The process exit code this error maps to.
    """

    message: str
    hint: str | None = None
    exit_code: ExitCode = ExitCode.ERROR
    details: Sequence[str] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


@dataclass
class SpecError(GpuplatError):
    """The spec is invalid; carries every diagnostic found, sorted by position."""

    diagnostics: Sequence[Diagnostic] = field(default_factory=tuple)
    exit_code: ExitCode = ExitCode.INVALID_SPEC


@dataclass
class StaleError(GpuplatError):
    """Rendered output is stale, hand-edited, or a template changed without a version bump."""

    exit_code: ExitCode = ExitCode.STALE


@dataclass
class RefusedError(GpuplatError):
    """gpuplat declined to act on the user's behalf; the hint says how to proceed."""

    exit_code: ExitCode = ExitCode.REFUSED


@dataclass
class ConflictError(GpuplatError):
    """Two sides disagree (version constraints, or edits in one place); nothing was written."""

    exit_code: ExitCode = ExitCode.CONFLICT


@dataclass
class LockedError(GpuplatError):
    """An environment lock is held by another run."""

    exit_code: ExitCode = ExitCode.LOCKED


@dataclass
class NotRenderedError(GpuplatError):
    """A command needs rendered roots that are not on disk yet."""

    exit_code: ExitCode = ExitCode.ERROR


@dataclass
class ToolMissingError(GpuplatError):
    """A required external tool is missing or too old."""

    exit_code: ExitCode = ExitCode.TOOL_MISSING


@dataclass
class TerraformError(GpuplatError):
    """Terraform ran and failed; carries what ran, how it ended and what terraform reported.

    Attributes:
        argv: The command line that ran, binary first.
        returncode: Terraform's exit status (None when it never reported one).
        diagnostics: Terraform's own diagnostics, in the order it emitted them.
        stderr_tail: The last lines terraform wrote to stderr.
    """

    argv: Sequence[str] = field(default_factory=tuple)
    returncode: int | None = None
    diagnostics: Sequence[TerraformDiagnostic] = field(default_factory=tuple)
    stderr_tail: str = ""
    exit_code: ExitCode = ExitCode.TERRAFORM


@dataclass
class FileError(GpuplatError):
    """The operating system refused an operation on the user's files.

    Attributes:
        path: The file or folder, as the failing call named it.
        reason: The system's reason (e.g. "Read-only file system").
    """

    path: str = ""
    reason: str = ""


_FILE_HINTS = {
    errno.EROFS: "the file system is read-only: run gpuplat on a writable copy of the project",
    errno.EACCES: "you may not write there: fix the folder's permissions or run on a copy",
    errno.EPERM: "you may not write there: fix the folder's permissions or run on a copy",
    errno.ENOSPC: "the disk is full: free some space and run it again",
    errno.EDQUOT: "your disk quota is used up: free some space and run it again",
    errno.ENOTDIR: "a file stands where gpuplat needs a folder: move it away",
    errno.EEXIST: "something already exists there: move it away",
    errno.EISDIR: "a folder stands where gpuplat needs a file: move it away",
}


def file_error(exc: OSError, doing: str) -> FileError:
    """A person-readable error for an OS error met while ``doing`` something to user files."""
    path = str(exc.filename) if exc.filename is not None else ""
    reason = exc.strerror or str(exc)
    where = f"{path}: " if path else ""
    return FileError(
        f"cannot {doing}: {where}{reason}",
        hint=_FILE_HINTS.get(exc.errno or 0),
        path=path,
        reason=reason,
    )


@contextmanager
def user_files(doing: str) -> Iterator[None]:
    """Turn OS errors raised inside the block into a FileError saying what was being done.

    Raises:
        FileError: The block raised an OSError.
    """
    try:
        yield
    except OSError as exc:
        raise file_error(exc, doing) from exc
