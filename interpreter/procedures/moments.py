"""Game abilities at the moments of the procedure (the vocabulary: dsl/moments.py).

A rules set lists its game abilities (`game_abilities` of the rules set, records in the bundle's
`game_abilities`); each holds `when MOMENT` abilities. The procedures call this module at their moments with
one generic call each:

- `fire(g, point, moment, **bindings)`: a moment the procedure reaches itself (after an order is resolved);
- `phase_start` / `phase_end` / `round_end`: the moments of the round loop (game.py);
- `settle(g, point)`: the moments queued since the last settling point run now, in the order they happened.
  Events that make a moment (a unit destroyed, a retreat, a hand refreshed, a Westeros card revealed:
  `EVENT_MOMENTS`) are queued by `Game.emit` through `queue_event`, because the procedure emitting them may be
  in the middle of a combat that cannot stop to ask a question; an area that changed hands is found at each
  settling point by comparing controllers with the last one.

Everything in progress is in the state: the queue and the last controllers in `state.modules["moments"]`
(absent when empty, so a game without game abilities has the same state as before), and the abilities
running in a frame (`MOMENT`, cursor.py) naming the settling point, the moment, its bindings and the ability
in progress. Restarted inside one, `fire` finds its frame again and goes on; a procedure calls `ended` to know
that the restart is past its body (a phase-end ability in progress).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from maester.dsl.moments import EVENT, EVENT_MOMENTS, MOMENTS, SETTLE

from ..core import control, cursor
from ..effects import Scope, ev, run

if TYPE_CHECKING:
    from .game import Game, Proc

STATE_KEY = "moments"  # the part of `state.modules` this module keeps (queue, last controllers)

MOMENT = cursor.frame_kind(
    "moment", "the game abilities of a moment are running (dsl/moments.py)", "",
    point=("string", "the settling point of the procedure that runs them: 'phase-start:PHASE', 'phase-end:PHASE', "
                     "'round-end', 'order' (after an order of the Action Phase), 'card' (before a Westeros card)"),
    moment=("string", "the moment"),
    bindings=("object", "the names the moment binds (name -> value)"),
    queued=("bool", "true: a moment taken from the queue (an event's moment or a change of hands)"),
    next=("int", "the 0-based ability (in the rules set's order) running now"))


def abilities(g: Game, moment: str) -> list[tuple[str, dict]]:
    """The abilities in play at `moment`: (game ability id, compiled ability), in the rules set's order."""
    table = g.__dict__.get("_moment_abilities")  # fixed by the bundle: built once per game object
    if table is None:
        table = {}
        records = g.rules.bundle.get("game_abilities") or {}
        for ability_id in g.game_rec.get("game_abilities") or ():
            for ab in records[ability_id]["abilities"]:
                table.setdefault(ab["trigger"], []).append((ability_id, ab))
        g._moment_abilities = table
    return table.get(moment, [])


def any_abilities(g: Game) -> bool:
    return bool(g.game_rec.get("game_abilities"))


def _part(g: Game) -> dict:
    return g.state.modules.setdefault(STATE_KEY, {})


def _tidy(g: Game) -> None:
    part = g.state.modules.get(STATE_KEY)
    if part is not None and not part.get("queue"):
        part.pop("queue", None)
        if not part:
            del g.state.modules[STATE_KEY]


def queue_event(g: Game, event: dict) -> None:
    """An event that makes a moment (EVENT_MOMENTS): queue the moment, with its bindings, when in play."""
    for moment in EVENT_MOMENTS.get(event["type"], ()):
        if moment.source_rule and event.get("rule") != moment.source_rule:
            continue
        table = abilities(g, moment.name)
        if not table:
            continue
        if any(ability_id == event.get("card") for ability_id, _ in table):
            continue  # an event of an ability of this very moment: it never triggers itself again (no loop)
        bindings = {name: event.get(name) for name in moment.bindings}
        if "count" in bindings and bindings["count"] is None:
            bindings["count"] = 1
        _part(g).setdefault("queue", []).append([moment.name, bindings])


def _control_changes(g: Game) -> None:
    """Queue `area-control-changed` for every land area whose controller differs from the last settling point."""
    name = next(m.name for m in MOMENTS.values() if m.how == SETTLE)
    if not abilities(g, name):
        return
    st, board = g.state, g.board
    now = {a.id: control.controller(st, board, a.id) for a in board.areas if a.is_land}
    part = _part(g)
    before = part.get("control")
    part["control"] = now
    if before is None:  # the first settling point: what follows is compared with it
        return
    for area, house in now.items():
        if before.get(area) != house:
            part.setdefault("queue", []).append([name, {"area": area, "from": before.get(area), "to": house}])


def _resuming(g: Game) -> dict | None:
    """The saved moment frame at this depth, if the game restarts inside one."""
    frames, depth = g.state.frames, g.frame_depth
    if depth < len(frames) and frames[depth]["at"] == MOMENT:
        return frames[depth]
    return None


def resuming(g: Game) -> bool:
    """Is the game restarting inside abilities run at this depth (the procedure before them is done)?"""
    return _resuming(g) is not None


def ended(g: Game, phase: str) -> bool:
    """Is the game restarting inside the abilities that follow `phase` (its body is done)?"""
    f = _resuming(g)
    return f is not None and f["point"] in (f"phase-end:{phase}", "round-end")


def fire(g: Game, point: str, moment: str, queued: bool = False, **bindings) -> Proc:
    """Run the abilities in play at `moment` (restarting inside them when the state says so)."""
    if cursor.restarting(g):
        saved = _resuming(g)
        if saved is None or (saved["point"], saved["moment"], saved["queued"]) != (point, moment, queued):
            return  # the restart is further on: this moment was run before it
        f = cursor.enter(g, MOMENT)
        start, resumed = f["next"], True
    else:
        if not abilities(g, moment):
            return
        f = cursor.enter(g, MOMENT, point=point, moment=moment, bindings=dict(bindings), queued=queued, next=0)
        start, resumed = 0, False
    spec = MOMENTS[moment]
    values = dict(f["bindings"])
    owner = values.get(spec.chooser) if spec.chooser else None
    table = abilities(g, moment)
    for i in range(start, len(table)):
        ability_id, ab = table[i]
        sc = Scope(vars=dict(values), owner=owner, card=ability_id, rule=spec.rule)
        if not (resumed and i == start):
            if "if" in ab and not ev(g, ab["if"], sc):
                continue
            f["next"] = i
        yield from run(g, ab["body"], sc)
        g.check_victory()
    cursor.leave(g, f)


def settle(g: Game, point: str) -> Proc:
    """A settling point: the queued moments (and the areas that changed hands) run now, oldest first."""
    if not any_abilities(g):
        return
    while True:
        if cursor.restarting(g):
            saved = _resuming(g)
            if saved is None or not saved["queued"] or saved["point"] != point:
                return  # the restart is further on
            yield from fire(g, point, saved["moment"], queued=True)
            continue
        queue = g.state.modules.get(STATE_KEY, {}).get("queue")
        if not queue:
            _control_changes(g)
            queue = g.state.modules.get(STATE_KEY, {}).get("queue")
            if not queue:
                break
        moment, bindings = queue.pop(0)
        yield from fire(g, point, moment, queued=True, **bindings)
    _tidy(g)


def _first_phase(g: Game, phase: str) -> bool:
    return phase == "westeros" or (phase == "planning" and g.state.round == 1)  # no Westeros Phase in round 1


def phase_start(g: Game, phase: str) -> Proc:
    """Before a phase's first step: the queue settles, then game-start (the game's first phase), round-start (the
    round's first phase), phase-start."""
    if g.state.step or not any_abilities(g):
        return  # the phase has begun (a restart inside it)
    point = f"phase-start:{phase}"
    yield from settle(g, point)
    if _first_phase(g, phase):
        if g.state.round == 1 and phase != "westeros":  # the game's first phase (no Westeros Phase in round 1)
            yield from fire(g, point, "game-start")
        yield from fire(g, point, "round-start", round=g.state.round)
    yield from fire(g, point, "phase-start", round=g.state.round, phase=phase)


def phase_end(g: Game, phase: str) -> Proc:
    """After a phase's last step: the queue settles, then phase-end."""
    if not any_abilities(g):
        return
    point = f"phase-end:{phase}"
    yield from settle(g, point)
    yield from fire(g, point, "phase-end", round=g.state.round, phase=phase)


def round_end(g: Game) -> Proc:
    if not any_abilities(g):
        return
    yield from settle(g, "round-end")
    yield from fire(g, "round-end", "round-end", round=g.state.round)


def after_order(g: Game, house: str, area: str, order_type: str) -> Proc:
    """After an order of the Action Phase is resolved: the queue settles, then order-resolved."""
    if not any_abilities(g):
        return
    yield from settle(g, "order")
    yield from fire(g, "order", "order-resolved", house=house, area=area, **{"order-type": order_type})


__all__ = ["EVENT", "EVENT_MOMENTS", "after_order", "ended", "fire", "phase_end", "phase_start", "queue_event",
           "resuming", "round_end", "settle"]
