"""Allow ``python -m gpuplat``."""

from gpuplat.cli import main

main()
