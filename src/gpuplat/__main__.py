"""Allow ``python -m gpuplat``."""

from gpuplat.launch import main

main()
