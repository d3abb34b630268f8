"""``python -m gpuplat.crds``: the vendored CRDs and documented rules the checks apply, by kind.

``make fidelity`` prints it after the stand-in plans: the rules each planned
``kubernetes_manifest`` was held to.
"""

from __future__ import annotations

import sys

from gpuplat.crds.inventory import lines, totals


def main() -> int:
    """Print the inventory; exit 0."""
    for line in lines():
        print(line)
    constraints, rules, documented = totals()
    print(
        f"{constraints} schema constraints, {rules} CEL rules and {documented} documented rules "
        "checked on every custom resource of their kinds"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
