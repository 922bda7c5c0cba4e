"""Tournaments with fair seats: for a pair (A, B), A holds one seat and B every other, A rotating over the seats.

With P players, game i of a pair plays the deal of seed `seed + i // P` with A in seat `i % P` (a seat is an
index into the game's player houses, sorted: seats.py), so each deal is played once from every seat and A is
dealt player houses only (vassals never decide). An agent as strong as the others wins 1/P of its games; A
beats B *significantly* when the lower end of A's Wilson 95% interval lies above 1/P (loses to it when the upper
end lies below). `score` also gives A's results seat by seat (by the house it held).
"""

from __future__ import annotations

from collections import defaultdict

from .simulate import GameSpec
from .stats import wilson


def pair_specs(a: str, b: str, players: int, games: int, seed: int, setup: str, variant, rounds, samples: int,
               candidates: int, start: int = 0, tides_of_battle: bool = False) -> list[GameSpec]:
    """The games of one pair: A in seat i % P of the deal `seed + i // P`."""
    return [GameSpec(start + i, setup, seed + i // players, {}, b, variant, rounds, tides_of_battle,
                     search_samples=samples, search_candidates=candidates, seats={i % players: a})
            for i in range(games)]


def held(record: dict, kind: str) -> str | None:
    """The house agent `kind` held in a game where it held one seat."""
    return next((h for h, k in record["agents"].items() if k == kind), None)


def score(records: list[dict], a: str, players: int) -> dict:
    """A's wins over its games, with the interval and the verdict against the even share; and by seat."""
    n = len(records)
    wins = sum(1 for r in records if r["winner"] is not None and r["agents"].get(r["winner"]) == a)
    lo, hi = wilson(wins, n)
    even = 1 / players
    per_house: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in records:
        h = held(r, a)
        per_house[h][0] += 1
        per_house[h][1] += r["winner"] == h
    seats = {}
    for h in sorted(per_house, key=str):
        g, w = per_house[h]
        s_lo, s_hi = wilson(w, g)
        seats[h] = {"games": g, "wins": w, "rate": w / g, "low": s_lo, "high": s_hi}
    return {"games": n, "wins": wins, "rate": wins / n if n else 0.0, "low": lo, "high": hi, "even": even,
            "seats": seats}


def verdict(low: float, high: float, even: float, a: str, b: str) -> str:
    if low > even:
        return f"{a} beats {b}"
    if high < even:
        return f"{b} beats {a}"
    return "no significant difference"
