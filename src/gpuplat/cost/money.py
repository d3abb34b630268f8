"""Amounts of money that may be partly unknown: a known part and the reasons for the rest."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

HOURS_PER_MONTH = 730
"""Hours in the month every monthly figure uses (365 × 24 / 12, as the clouds' calculators do)."""


@dataclass(frozen=True, slots=True)
class Amount:
    """USD per hour: the sum of the known parts, and why the rest is unknown.

    An amount with ``unknown`` reasons is partial: ``usd_per_hour`` is then a lower bound.
    Zero nodes cost exactly 0 whatever their price, so an unknown price never makes an empty
    pool's cost unknown.
    """

    usd_per_hour: float = 0.0
    unknown: tuple[str, ...] = ()

    @property
    def partial(self) -> bool:
        return bool(self.unknown)

    @property
    def usd_per_month(self) -> float:
        return self.usd_per_hour * HOURS_PER_MONTH

    def __add__(self, other: Amount) -> Amount:
        return Amount(
            self.usd_per_hour + other.usd_per_hour,
            tuple(dict.fromkeys((*self.unknown, *other.unknown))),
        )

    def text(self, *, monthly: bool = True) -> str:
        """``$1,234.56`` (monthly) or ``$0.85363`` (hourly); ``?`` when nothing is known."""
        value = self.usd_per_month if monthly else self.usd_per_hour
        if self.partial and value == 0:
            return "?"
        shown = f"${value:,.2f}" if monthly else f"${value:,.5f}".rstrip("0").rstrip(".")
        return f"{shown}+" if self.partial else shown


def per_node(usd_per_hour: float | None, reason: str | None, nodes: int) -> Amount:
    """What ``nodes`` nodes cost at a per-node rate that may be unknown."""
    if nodes == 0:
        return Amount()
    if usd_per_hour is None:
        return Amount(0.0, (reason or "price unknown",))
    return Amount(usd_per_hour * nodes)


def total(amounts: Iterable[Amount]) -> Amount:
    """The sum of several amounts; partial when any of them is."""
    out = Amount()
    for amount in amounts:
        out = out + amount
    return out


def month(usd_per_hour: float) -> float:
    """USD per month for a rate per hour, rounded to cents (the figure people are shown)."""
    return round(usd_per_hour * HOURS_PER_MONTH, 2)


def amount_json(amount: Amount) -> dict[str, object]:
    """An amount as JSON: hourly and monthly USD (null when nothing is known), and why not."""
    known = not (amount.partial and amount.usd_per_hour == 0)
    return {
        "usd_per_hour": round(amount.usd_per_hour, 5) if known else None,
        "usd_per_month": month(amount.usd_per_hour) if known else None,
        "partial": amount.partial,
        "unknown": list(amount.unknown),
    }
