"""Terraform state-lock errors: recognise them, read the lock's holder, say how to unlock."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gpuplat.errors import LockedError
from gpuplat.terraform.diagnostics import TerraformDiagnostic

LOCK_SUMMARY = "Error acquiring the state lock"
"""The diagnostic summary terraform (and OpenTofu) use when another run holds the lock."""

# Terraform prints the holder as an indented "Lock Info:" block inside the diagnostic detail,
# the same for every backend (local file, S3 lockfile, DynamoDB, …).
_FIELD = re.compile(r"^\s*(ID|Path|Operation|Who|Version|Created|Info):[ \t]*(.*?)\s*$", re.M)


@dataclass(frozen=True, slots=True)
class LockInfo:
    """Who holds a state lock, as terraform reports it."""

    id: str
    path: str | None = None
    operation: str | None = None
    who: str | None = None
    version: str | None = None
    created: str | None = None
    info: str | None = None

    def describe(self) -> str:
        """One line: who holds it, doing what, since when."""
        parts = [self.who or "an unknown holder"]
        doing = ", ".join(p for p in (self.operation, self.version and f"v{self.version}") if p)
        if doing:
            parts.append(f"({doing})")
        if self.created:
            parts.append(f"since {self.created}")
        return " ".join(parts)


@dataclass
class StateLockedError(LockedError):
    """Terraform could not take the state lock because another run holds it.

    Attributes:
        lock: The holder's lock info, when terraform reported it.
        argv: The command that was refused.
        diagnostics: Everything terraform reported for that command.
    """

    lock: LockInfo | None = None
    argv: Sequence[str] = field(default_factory=tuple)
    diagnostics: Sequence[TerraformDiagnostic] = field(default_factory=tuple)


def parse_lock_info(text: str) -> LockInfo | None:
    """Read the ``Lock Info:`` block out of a lock error's detail (or stderr) text."""
    _, marker, block = text.partition("Lock Info:")
    if not marker:
        return None
    fields: dict[str, str] = {}
    for match in _FIELD.finditer(block):
        fields.setdefault(match.group(1).lower(), match.group(2))
    lock_id = fields.get("id")
    if not lock_id:
        return None
    return LockInfo(
        id=lock_id,
        path=fields.get("path") or None,
        operation=fields.get("operation") or None,
        who=fields.get("who") or None,
        version=fields.get("version") or None,
        created=fields.get("created") or None,
        info=fields.get("info") or None,
    )


def is_lock_error(diagnostic: TerraformDiagnostic) -> bool:
    return diagnostic.is_error and diagnostic.summary == LOCK_SUMMARY


def locked_error(
    diagnostics: Sequence[TerraformDiagnostic],
    *,
    argv: Sequence[str],
    where: str,
    unlock_command: Callable[[str], str] | None,
) -> StateLockedError | None:
    """The error to raise when ``diagnostics`` contain a state-lock error, else None.

    Args:
        diagnostics: What terraform reported for the failed command.
        argv: The command that failed.
        where: The root module, for the message.
        unlock_command: Builds the shell command that force-unlocks a lock ID, for the hint.
    """
    diagnostic = next((d for d in diagnostics if is_lock_error(d)), None)
    if diagnostic is None:
        return None
    lock = parse_lock_info(diagnostic.detail)
    details = []
    if lock is not None:
        details.append(f"lock {lock.id} held by {lock.describe()}")
        if lock.path:
            details.append(f"state: {lock.path}")
    reason = diagnostic.detail.partition("\n")[0].removeprefix("Error message: ").strip()
    # AWS SDK errors lead with request and host IDs; the part after "api error" is the news.
    reason = reason.rpartition("api error ")[2]
    if reason:
        details.append(f"terraform: {reason}")
    wait = "Wait for the other run to finish, then retry."
    if lock is not None and unlock_command is not None:
        command = unlock_command(lock.id)
        hint = (
            f"{wait} Only if that run is gone (crashed or was killed) and will not come back, "
            f"release its lock with: {command}"
        )
    else:
        hint = f"{wait} If its holder is gone, release the lock with `terraform force-unlock`."
    return StateLockedError(
        message=f"the terraform state of {where} is locked by another run",
        hint=hint,
        details=tuple(details),
        lock=lock,
        argv=tuple(argv),
        diagnostics=tuple(diagnostics),
    )
