"""The strict restart check: at a decision, a new game given only the state (and the run's counts) asks the
same decision, leaves the state as it was and, with the same answers, goes on identically.

Used by tests/test_cursor.py; `python -m tests.restarts [games]` prints, per decision kind, how many
decisions of random games restart from the state alone (for the engineer making a procedure restartable).
"""

from __future__ import annotations

import collections
import json
import sys
from dataclasses import dataclass, field, replace

from maester.interpreter.agents import RandomAgent
from maester.interpreter.game import Game
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.rules import Rules
from maester.interpreter.state import GameState

# (setup, seed, tides of battle): base and MoD, 3 to 8 players
GAMES = [("base-3p", 1, False), ("base-4p", 2, True), ("base-6p", 3, False), ("mod-6p-with-targaryen", 4, True),
         ("mod-7p-without-targaryen", 5, False), ("mod-8p", 6, True), ("base-5p", 7, True), ("mod-4p-with-targaryen", 8, False)]


@dataclass
class Report:
    checked: collections.Counter = field(default_factory=collections.Counter)
    failed: collections.Counter = field(default_factory=collections.Counter)
    first: dict = field(default_factory=dict)  # kind -> the first failure, in words

    def add(self, other: Report) -> None:
        self.checked.update(other.checked)
        self.failed.update(other.failed)
        for k, v in other.first.items():
            self.first.setdefault(k, v)

    def text(self) -> str:
        lines = [f"{'decision kind':28} {'checked':>8} {'failed':>8}"]
        for kind, n in self.checked.most_common():
            lines.append(f"{kind:28} {n:8} {self.failed[kind]:8}")
        lines.append(f"{'all':28} {sum(self.checked.values()):8} {sum(self.failed.values()):8}")
        lines += [f"  {kind}: {why}" for kind, why in sorted(self.first.items())]
        return "\n".join(lines)


def restart_here(rules: Rules, game: Game) -> Game:
    """A new game from a JSON copy of the state alone (and the run's counts)."""
    state = GameState.from_json(json.loads(json.dumps(game.state.to_json())))
    return type(game).restarted(rules, state, replace(game.options), json.loads(json.dumps(game.run_counts())))


def _why(game: Game, again: Game, agents: dict, ahead: int) -> str | None:
    """How the restarted game differs from `game` over the next `ahead` answers (None: not at all). `game` is
    played on meanwhile; the caller plays a copy."""
    start = len(game.events)
    for step in range(ahead + 1):
        d, e = game.decision, again.decision
        if (d is None) != (e is None):
            return f"after {step} answers: {'no decision' if e is None else e.kind} where the game asks " \
                   f"{'nothing' if d is None else d.kind}"
        if d is not None and d.to_json() != e.to_json():
            return f"after {step} answers: asks {e.to_json()} instead of {d.to_json()}"
        if again.state.hash() != game.state.hash():
            mine, theirs = again.state.to_json(), game.state.to_json()
            keys = [k for k in mine if mine[k] != theirs.get(k)]
            return f"after {step} answers: the state differs in {keys}"
        if again.events != game.events[start:]:
            return f"after {step} answers: other events ({again.events[-1:]} for {game.events[start:][-1:]})"
        if d is None:
            return None
        answer = agents[d.house].act(game, d)
        game.answer(answer)
        again.answer(answer)
    return None


def check_game(rules: Rules, setup: str, seed: int, tides: bool, rounds: int = 4, ahead: int = 2,
               every: int = 1) -> Report:
    """Play a random game; at every `every`-th decision check the restart from the state alone."""
    report = Report()
    game = new_game(rules, setup, seed=seed, options=ModOptions(tides_of_battle=tides, rounds=rounds))
    agents = {h: RandomAgent(seed * 31 + i) for i, h in enumerate(game.state.houses)}
    n = 0
    while game.decision is not None:
        d = game.decision
        if n % every == 0:
            report.checked[d.kind] += 1
            try:
                again = restart_here(rules, game)
                twin = game.clone()
                why = _why(twin, again, {h: RandomAgent(seed * 97 + n + i) for i, h in enumerate(agents)}, ahead)
            except Exception as e:  # noqa: BLE001 - a restart that breaks is a finding, reported by kind
                why = f"{type(e).__name__}: {e}"
            if why is not None:
                report.failed[d.kind] += 1
                report.first.setdefault(d.kind, f"{setup} seed {seed} decision {n}: {why}")
        game.answer(agents[d.house].act(game, d))
        n += 1
    return report


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else len(GAMES)
    rules = Rules.default()
    total = Report()
    for setup, seed, tides in GAMES[:games]:
        total.add(check_game(rules, setup, seed, tides))
    print(total.text())
    return 0 if not total.failed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
