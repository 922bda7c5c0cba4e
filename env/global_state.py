"""The global state for centralised critics (PettingZoo's `state()`): the position with no secret kept.

`full_view(game)` is the view of the house that decides now with every hidden thing shown: all orders face up,
every hand, both combat cards and Tides of Battle cards as soon as they are drawn, the top wildling card, and the
pending decision's context. Encoded by the same `Encoder` as the observations (so its features have the same
names, docs/agents.md); it is for training only — an agent that acts on it sees what the rules hide.
"""

from __future__ import annotations

from .features import public_parts
from .observe import lean_view


def full_view(game) -> dict:
    d = game.decision
    st = game.state
    house = d.house if d is not None else (st.winner or sorted(st.houses)[0])
    v = lean_view(game, house)
    v["orders"] = st.orders
    v["houses"] = {h: dict(hs, hand=st.houses[h].hand) for h, hs in v["houses"].items()}
    v["wildling_top"] = st.wildling_deck[0] if st.wildling_deck else None
    v.update(public_parts(game, None))
    return v
