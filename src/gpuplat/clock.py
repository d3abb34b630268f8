"""Today's date, read in one place: ``GPUPLAT_TODAY`` (YYYY-MM-DD) when set, else the system date.

The support calendar's checks and the cost of a cluster in extended support depend on the day.
Library callers pass a date where they want one (``load_project(..., today=...)``); everything
else asks :func:`today`, so a CI job can pin the day with the environment variable and get the
same warnings tomorrow.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (which imports re)
if TYPE_CHECKING:
    from datetime import date

ENV_VAR = "GPUPLAT_TODAY"


def day_text() -> str:
    """:func:`today` as YYYY-MM-DD, without importing :mod:`datetime` when the variable is unset.

    The launcher's no-op check reads the day before anything heavy is loaded: the system date
    is the local one, as :meth:`datetime.date.today` reads it.
    """
    if os.environ.get(ENV_VAR, "").strip():
        return today().isoformat()
    return time.strftime("%Y-%m-%d", time.localtime())


def today() -> date:
    """Return the day gpuplat judges support and prices by.

    Returns:
        The date in ``GPUPLAT_TODAY``, or today's system date when it is unset or empty.

    Raises:
        GpuplatError: ``GPUPLAT_TODAY`` is set to something that is not a YYYY-MM-DD date.
    """
    from datetime import date

    value = os.environ.get(ENV_VAR, "").strip()
    if not value:
        return date.today()
    try:
        if len(value) != 10:
            raise ValueError(value)
        return date.fromisoformat(value)
    except ValueError:
        from gpuplat.errors import (
            GpuplatError,  # only here: the launcher's no-op check reads the day
        )

        raise GpuplatError(
            f"{ENV_VAR}={value!r} is not a date",
            hint=f"write it as YYYY-MM-DD (e.g. 2026-12-02), or unset {ENV_VAR} to use today",
        ) from None
