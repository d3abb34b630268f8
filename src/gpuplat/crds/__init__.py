"""Custom resources checked as the API server would: against the OpenAPI schema and the CEL
rules (``x-kubernetes-validations``) of the CRD that serves them — vendored, with its source —
and against the rules their documentation states that the CRD does not encode.

Only this package's own modules, PyYAML, ``jsonschema`` and cel-python are imported here: the
schema stand-in (``tools/schema-provider``) loads it in its own virtualenv.
"""

from gpuplat.crds.catalog import Definition, DocumentedRule, definitions, documented, lookup
from gpuplat.crds.check import Finding, Result, check_object, identity
from gpuplat.crds.tally import Coverage, Tally
from gpuplat.crds.values import MINOR_LABEL, Unknown, dotted, is_custom

__all__ = [
    "MINOR_LABEL",
    "Coverage",
    "Definition",
    "DocumentedRule",
    "Finding",
    "Result",
    "Tally",
    "Unknown",
    "check_object",
    "definitions",
    "documented",
    "dotted",
    "identity",
    "is_custom",
    "lookup",
]
