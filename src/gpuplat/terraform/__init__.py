"""The one seam between gpuplat and the terraform/tofu binary; never prints, never exits."""

from gpuplat.errors import TerraformError
from gpuplat.terraform.binary import (
    ENV_VAR,
    MIN_VERSION,
    TerraformBinary,
    Version,
    find_binary,
    parse_version,
)
from gpuplat.terraform.diagnostics import (
    Snippet,
    TerraformDiagnostic,
    ValidateResult,
    parse_validate,
)
from gpuplat.terraform.events import (
    ApplyComplete,
    ApplyErrored,
    ApplyProgress,
    ApplyStart,
    CacheWait,
    ChangeSummary,
    DiagnosticEvent,
    Event,
    EventCallback,
    LogEvent,
    OutputsEvent,
    PlannedChange,
    ProvisionEvent,
    RefreshComplete,
    RefreshStart,
    ResourceAddr,
    ResourceDrift,
    UnknownEvent,
    VersionEvent,
)
from gpuplat.terraform.results import OutputValue, PlanResult, RunResult
from gpuplat.terraform.runner import Terraform
from gpuplat.terraform.showplan import Action, OutputChange, Plan, ResourceChange, parse_plan
from gpuplat.terraform.statelock import LockInfo, StateLockedError, parse_lock_info
from gpuplat.terraform.stream import parse_event, parse_stream
from gpuplat.terraform.tracker import TerraformInterrupted

__all__ = [
    "ENV_VAR",
    "MIN_VERSION",
    "Action",
    "ApplyComplete",
    "ApplyErrored",
    "ApplyProgress",
    "ApplyStart",
    "CacheWait",
    "ChangeSummary",
    "DiagnosticEvent",
    "Event",
    "EventCallback",
    "LockInfo",
    "LogEvent",
    "OutputChange",
    "OutputValue",
    "OutputsEvent",
    "Plan",
    "PlanResult",
    "PlannedChange",
    "ProvisionEvent",
    "RefreshComplete",
    "RefreshStart",
    "ResourceAddr",
    "ResourceChange",
    "ResourceDrift",
    "RunResult",
    "Snippet",
    "StateLockedError",
    "Terraform",
    "TerraformBinary",
    "TerraformDiagnostic",
    "TerraformError",
    "TerraformInterrupted",
    "UnknownEvent",
    "ValidateResult",
    "Version",
    "VersionEvent",
    "find_binary",
    "parse_event",
    "parse_lock_info",
    "parse_plan",
    "parse_stream",
    "parse_validate",
    "parse_version",
]
