"""Kubernetes CPU and memory quantities, read and written in the units the plans use."""

from __future__ import annotations

import math
import re

_CPU = re.compile(r"^(\d+(?:\.\d+)?)(m?)$")
_MEMORY = re.compile(r"^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|Pi|k|M|G|T|P)?$")
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50}
_DECIMAL = {"k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15}


def cpu_millis(text: str) -> int | None:
    """``"8"`` -> 8000, ``"7500m"`` -> 7500; None when it is not a CPU quantity."""
    match = _CPU.match(text)
    if match is None:
        return None
    value = float(match.group(1))
    return math.ceil(value if match.group(2) else value * 1000)


def memory_mib(text: str) -> float | None:
    """``"64Gi"`` -> 65536.0, ``"1G"`` -> 953.67...; None when it is not a memory quantity."""
    match = _MEMORY.match(text)
    if match is None:
        return None
    unit = match.group(2) or ""
    factor = _BINARY.get(unit) or _DECIMAL.get(unit) or 1
    return float(match.group(1)) * factor / 2**20


def cpu_text(millis: int) -> str:
    """Millicores as Kubernetes writes them: whole cores bare, else in m."""
    return str(millis // 1000) if millis % 1000 == 0 else f"{millis}m"


def memory_text(mib: int) -> str:
    """MiB as a quantity: whole GiB as Gi, else Mi."""
    return f"{mib // 1024}Gi" if mib % 1024 == 0 else f"{mib}Mi"
