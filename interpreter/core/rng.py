"""The game's only source of chance: a SplitMix64 generator whose whole state is one integer.

Because the state is a plain int it lives inside the JSON game state, so a saved game resumes with
the very same draws; no module-level `random` is ever used by the engine.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_SPAN = 1 << 64  # how many 64-bit outputs there are
_GAMMA, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # SplitMix64's constants


def next_state(state: int) -> tuple[int, int]:
    """Advance the state; return (new_state, 64-bit output)."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return state, z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """Mix a user seed (any int) into a well-spread starting state."""
    state, out = next_state(seed & _MASK)
    return out


class Rng:
    """A view over a state holder (the GameState) so every draw updates the saved state."""

    def __init__(self, holder) -> None:
        self.holder = holder

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        # rejection sampling keeps the draw unbiased
        limit = _SPAN - _SPAN % n
        holder = self.holder
        while True:  # next_state, written out (one draw per decision of a random agent)
            state = holder.rng = (holder.rng + _GAMMA) & _MASK
            z = ((state ^ (state >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            out = z ^ (z >> 31)
            if out < limit:
                return out % n

    def shuffle(self, items: list) -> None:
        """Fisher–Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list):
        return items[self.below(len(items))]
