"""Check generated Terraform against real provider schemas, without reaching any cloud."""

from gpuplat.conformance.checker import check, check_paths, iter_tf_files
from gpuplat.conformance.files import find_schema_dir, load_schemas
from gpuplat.conformance.report import CODES, CheckReport, Summary, Violation, summarize
from gpuplat.conformance.schema import BlockSchema, ProviderSchemas

__all__ = [
    "CODES",
    "BlockSchema",
    "CheckReport",
    "ProviderSchemas",
    "Summary",
    "Violation",
    "check",
    "check_paths",
    "find_schema_dir",
    "iter_tf_files",
    "load_schemas",
    "summarize",
]
