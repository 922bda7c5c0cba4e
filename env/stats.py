"""Win rates with Wilson 95% intervals, and the summary tables of a batch of game records."""

from __future__ import annotations

import math
from collections import defaultdict

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound for small n and rates near 0 or 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    den = 1 + z * z / n
    return (max(0.0, (centre - half) / den), min(1.0, (centre + half) / den))


def win_rates(records: list[dict], by: str) -> dict[str, dict]:
    """Per house (`by="house"`) or per agent kind (`by="agent"`): seats played, wins, rate, 95% interval."""
    seats: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    for r in records:
        for house, kind in r["agents"].items():
            key = house if by == "house" else kind
            seats[key] += 1
            wins[key] += r["winner"] == house
    out = {}
    for key in sorted(seats):
        lo, hi = wilson(wins[key], seats[key])
        out[key] = {"seats": seats[key], "wins": wins[key], "rate": wins[key] / seats[key], "low": lo, "high": hi}
    return out


def lengths(records: list[dict]) -> dict[str, float]:
    n = len(records) or 1
    return {"games": len(records), "mean_rounds": sum(r["rounds"] for r in records) / n,
            "mean_decisions": sum(r["decisions"] for r in records) / n,
            "mean_combats": sum(r["combats"] for r in records) / n}
