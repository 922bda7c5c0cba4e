"""The fixed action table: every answer a decision of one setup can offer, numbered once from the bundle.

Decisions offer plain JSON values (`"march"`, `"footman:riverrun"`, `3`, ...). Learning code needs one
`Discrete(n)` space whose ids mean the same thing at every step of every game of a setup, so the table is
built from the bundle only (never from a game in progress), in sections, each sorted:

| section | answers | where they come from |
|---|---|---|
| `int` | `0 .. max` | bids, counts: `max` is the largest number of power tokens of any house of the setup |
| `word` | any bundle id a choice names | houses, areas, orders, tracks, decks, cards, loans, `answer_words()` |
| `unit:area` | `footman:riverrun` | a unit kind moving or mustered into an area (march, muster) |
| `area:unit` | `riverrun:footman` | a unit of an area (casualties, supply, interest) |
| `area:order` | `bay-of-ice:vassal-march` | an order put in an area for someone else (vassal orders) |
| `replace:area:order` | `replace:riverrun:support` | the Messenger Raven's swap |
| `upgrade:unit:unit:area` | `upgrade:footman:knight:riverrun` | mustering an upgrade |
| `area#i` | `riverrun#0`, `@attack#1` | one unit of an area by index (card effects) |

A value that the table does not hold is an error naming the decision, never a silent remap. The table
of a setup changes only when its bundle does (a new card, a new area); `ActionTable.digest` fingerprints it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from maester.dsl.diagnostics import Diagnostics, MaesterError
from maester.interpreter.core.decision_kinds import DECISION_KINDS
from maester.interpreter.core.rules import Rules

# Answer words of card effects' `choose-one` (its options are the choice keys and the improvement words),
# beyond the words the decision catalogue declares (`answer_words`).
EFFECT_WORDS = ("a", "b", "c", "d", "power", "supply")


def answer_words() -> set[str]:
    """Every fixed answer word: the `enum` words of the declared decision kinds, and `EFFECT_WORDS`."""
    words: set[str] = set(EFFECT_WORDS)

    def walk(schema) -> None:
        if isinstance(schema, dict):
            words.update(w for w in schema.get("enum", []) if isinstance(w, str))
            for v in schema.values():
                walk(v)
        elif isinstance(schema, list):
            for v in schema:
                walk(v)

    for kind in DECISION_KINDS.values():
        walk(kind.answers)
    return words
ATTACK_AREA = "@attack"  # units on the march during a combat (interpreter/procedures/combat.py ATTACK)
MAX_UNIT_INDEX = 10  # a unit reference `area#i`: no area holds more units than this


class ActionTable:
    """Action id <-> answer value for one setup of one bundle."""

    def __init__(self, rules: Rules, setup_id: str):
        setup = rules.setup(setup_id)
        board = rules.board(setup["board"])
        houses = sorted(setup["houses"])
        areas = sorted(board.area_ids if not callable(board.area_ids) else board.area_ids())
        orders = sorted(rules.bundle["orders"])
        kinds = sorted(rules.unit_kinds)
        max_int = max([rules.house(h)["power_tokens"] for h in houses] + [MAX_UNIT_INDEX])
        words = answer_words() | set(houses) | set(areas) | set(orders) | set(kinds)
        for section in ("house_cards", "loans", "wildling_cards", "westeros_cards", "tides_cards", "tracks", "decks",
                        "unit_kinds", "orders"):
            words |= set(rules.bundle.get(section) or {})
        for game in rules.bundle["games"].values():  # deck names (`i`..`iv`) a card may make a house choose
            words |= set(game.get("westeros_decks") or [])
        values: list = list(range(max_int + 1))
        values += sorted(words)
        values += [f"{k}:{a}" for k in kinds for a in areas]
        values += [f"{a}:{k}" for a in areas for k in kinds]
        values += [f"{a}:{o}" for a in areas for o in orders]
        values += [f"replace:{a}:{o}" for a in areas for o in orders]
        values += [f"upgrade:{k}:{k2}:{a}" for k in kinds for k2 in kinds if k != k2 for a in areas]
        values += [f"{a}#{i}" for a in [ATTACK_AREA, *areas] for i in range(MAX_UNIT_INDEX)]
        self.setup = setup_id
        self.values: list = values
        # two maps, because 3 and "3" are different answers (and a dict would merge 1 and True)
        self._ints = {v: i for i, v in enumerate(values) if type(v) is int}
        self._words = {v: i for i, v in enumerate(values) if type(v) is str}
        if len(self._ints) + len(self._words) != len(values):  # a word that is also a composite: a clash
            raise AssertionError("the action table has duplicate values")

    def __len__(self) -> int:
        return len(self.values)

    @property
    def digest(self) -> str:
        """A fingerprint of the table: equal digests, equal ids."""
        return hashlib.sha256(json.dumps(self.values).encode()).hexdigest()[:16]

    def answer(self, action: int):
        """The answer value of an action id."""
        return self.values[int(action)]

    def id_of(self, value, decision=None) -> int:
        """The action id of an answer value; a value outside the table is a clear error."""
        found = (self._words if type(value) is str else self._ints if type(value) is int else {}).get(value)
        if found is not None:
            return found
        diags = Diagnostics()
        where = f"decision #{decision.number} ({decision.kind}, {decision.house}): " if decision else ""
        diags.error("action-not-in-table", f"{where}the answer {value!r} has no action id in the table of "
                    f"setup '{self.setup}'", None, "the engine offers an answer shape env/actions.py does not "
                    "know: add it to the table (a new version of the environment)")
        raise MaesterError(diags)

    def ids_of(self, values: Iterable, decision=None) -> list[int]:
        words, ints = self._words, self._ints
        values = values if isinstance(values, (list, tuple)) else list(values)
        try:  # most answers are words: one C loop (a number, a tuple or an unknown value takes the loop below)
            return list(map(words.__getitem__, values))
        except (KeyError, TypeError):
            pass
        out = []
        for v in values:
            i = words.get(v) if type(v) is str else ints.get(v) if type(v) is int else None
            out.append(self.id_of(v, decision) if i is None else i)
        return out
