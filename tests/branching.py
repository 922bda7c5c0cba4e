"""Branching a game: the same game up to its current decision, then another answer.

A branch is `game.clone()` (a restart from a copy of the state: tests/test_clone.py checks it has the same future);
it used to replay `game.answers` from the start, which made a sampled game cost quadratic in its length.
"""

from __future__ import annotations

from maester.interpreter.procedures.game import Game

FOLLOW = 40  # decisions followed after the answer to tell two branches apart


def branch(game: Game) -> Game:
    """An independent copy of `game` at its pending decision."""
    return game.clone()


def outcome(game: Game, answer, follow: int = FOLLOW, pick: int = 0) -> tuple:
    """What answering `answer` leads to: the events, the decisions asked and the final position, following
    the next `follow` decisions with their legal answer number `pick` (the same for every branch)."""
    g = branch(game)
    start = len(g.events)
    g.answer(answer)
    asked = []
    for _ in range(follow):
        d = g.decision
        if d is None:
            break
        asked.append((d.house, d.kind, d.prompt, tuple(map(str, d.options)), repr(sorted(d.info.items()))))
        g.answer(d.options[pick])
    events = [{k: v for k, v in e.items() if k != "n"} for e in g.events[start:]]
    return repr(events), tuple(asked), g.state.hash()


def meaningless(game: Game, max_answers: int = 12) -> bool:
    """Does every legal answer of the pending decision lead to the same outcome, whether the following decisions
    take their first or their last answer? (Decisions with more than `max_answers` answers are judged on their
    first ones.)"""
    options = game.decision.options[:max_answers]
    for pick in (0, -1):  # two ways to go on: a difference may show only when the next answers act (buy a loan)
        first = outcome(game, options[0], pick=pick)
        if any(outcome(game, o, pick=pick) != first for o in options[1:]):
            return False
    return True
