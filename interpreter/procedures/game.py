"""`Game`: one game from a setup and a seed, driven by answers to decisions.

The rules procedure is a Python generator (`_play`) that yields a `Decision` whenever a player must
choose and receives the answer. `Game.answer` validates the answer against the decision's legal
options *before* resuming the procedure, so a rejected answer changes nothing. Every change is
recorded as an event citing its rule id; a game is reproducible from its seed and its answers.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from maester.dsl.diagnostics import BundleError, Diagnostics

from ..core import control, cursor, position, snapshot
from ..core.decision_kinds import DECISION_KINDS
from ..core.decisions import Decision, IllegalDecision, loosely_equal
from ..core.events import EVENTS
from ..core.extensions import RulesHooks
from ..core.position import Checkpoint
from ..core.rng import Rng, seed_state
from ..core.rules import Rules
from ..core.skips import skip_kind
from ..core.state import BOARD_LOG, GameState, HouseState, board_replaced, board_written
from . import moments, victory
from .phases import action_phase, planning_phase, westeros_phase

Proc = Generator[Decision, object, object]

_EVENT_MOMENTS = moments.EVENT_MOMENTS  # (read by `emit`, at every event)

# The end-of-game tiebreakers a rules set may list, in its order (R26.3): what each compares (lower first).
TIEBREAKERS = {
    "most-castles-and-strongholds": ("castles and strongholds", lambda g, h: -g.victory_points(h)),
    "most-land-areas": ("land areas", lambda g, h: -len(control.controlled_areas(g.state, g.board, h))),
    "highest-supply": ("supply", lambda g, h: -g.state.houses[h].supply),
    "highest-iron-throne": ("iron throne", lambda g, h: g.state.position(h, g.turn_track)),
    "most-victory-points": ("victory points", lambda g, h: -g.victory_points(h)),
    "most-power": ("power", lambda g, h: -g.state.houses[h].power),
}


def _from_state(rules: Rules, doc: dict) -> Game:
    return Game.from_state(rules, doc, position.TRUSTED)  # unpickling: a document this process made (pickle runs
    # code anyway: its data is trusted by nature)


class GameOver(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Raised inside the procedure when a house wins at once (R26.1)."""


class StopRun(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Raised inside the procedure at the run's stop point inside the Action Phase (scenarios)."""


# where a run may stop (`Options.stop_after`): after a phase, after a step of the Action Phase, or after
# the Nth combat of the run ("combat N"); "consolidate-power" is just before the Action Phase clean up
PHASE_STOPS = ("westeros", "planning", "action", "round")
ACTION_STOPS = ("raids", "marches", "consolidate-power")


@dataclass
class Options:
    tides_of_battle: bool = False  # on if the rules set says so, or if asked for (`--tides-of-battle`)
    max_decisions: int = 1_000_000  # a safety net for runaway agents
    stop_after: str | None = None  # PHASE_STOPS, ACTION_STOPS or "combat N": end the run there (scenarios)
    rounds: int | None = None  # a shorter game (experiments, agents): end after this round as after the last (R26.2)
    # a debug switch: ask every question the engine would skip as unable to change anything (core/skips.py), its
    # decision marked `info["skip"]`, so a test can branch every answer there (tests/test_skips.py)
    ask_skipped: bool = False


_LAZY = "_lazy"  # a clone not yet restarted keeps what it needs here (`Game.clone`)


class _LazyClone:
    """What a clone needs to restart: its own copy of the state (`snapshot.Deferred`) and everything else
    `Game.restarted` takes, as it was at the clone (each list its own copy)."""

    __slots__ = ("state", "rules", "options", "run", "answers", "actions", "checkpoints", "events", "event_base")

    def __init__(self, state: snapshot.Deferred, rules: Rules, options: Options, run: dict, answers: list,
                 actions: list, checkpoints: list, events: list, event_base: int):
        self.state, self.rules, self.run = state, rules, run
        self.options = object.__new__(type(options))  # `replace(options)` without its __init__: 6x cheaper
        self.options.__dict__ = vars(options).copy()
        self.answers, self.actions, self.checkpoints, self.events = answers, actions, checkpoints, events
        self.event_base = event_base

    def again(self) -> _LazyClone:
        """The same for another clone (its own copy of everything)."""
        return _LazyClone(self.state.again(), self.rules, self.options, self.run, self.answers[:],
                          self.actions[:], self.checkpoints[:], self.events[:], self.event_base)

    def wake(self, game: Game) -> None:
        """Make `game` (an object holding nothing but its decision) the clone: the procedure restarted from the
        state down to the pending decision. The restart asks an equal decision; the clone keeps the one it was
        given, which its holder may have read or marked."""
        decision = game.decision
        try:
            game._restart(self.rules, self.state.state(), self.options, self.run,
                          (self.answers, self.actions, self.checkpoints), copy_history=False)
        except AttributeError as e:  # not "no such attribute" for the caller of `__getattr__`
            raise RuntimeError(f"a clone could not restart: {e}") from e
        game.events, game._event_base = self.events, self.event_base
        if decision is not None:
            game.decision = decision


def _wake(self, name: str):
    # only for what the clone does not have yet: its attributes come to life here, and it becomes a plain game
    lazy = self.__dict__.pop(_LAZY, None)
    awake = type(self).__mro__[1]
    if lazy is None:
        raise AttributeError(f"{awake.__name__!r} object has no attribute {name!r}")
    self.__class__ = awake
    lazy.wake(self)
    return getattr(self, name)


_ASLEEP: dict[type, type] = {}


def _asleep(cls: type) -> type:
    """The class of a clone not restarted yet: `cls` with a `__getattr__` that restarts it (`_wake`). Kept off
    `Game` itself: a class with `__getattr__` loses CPython's fast attribute reads (about 9% of a game)."""
    if getattr(cls, "__getattr__", None) is _wake:  # a clone of a clone still asleep
        cls = cls.__mro__[1]
    lazy = _ASLEEP.get(cls)
    if lazy is None:
        lazy = _ASLEEP[cls] = type(f"Asleep{cls.__name__}", (cls,), {"__getattr__": _wake,
                                                                     "__module__": cls.__module__})
    return lazy


_RULES_MODULES: list[type[Game]] = []  # subclasses that play some rules sets (rules modules)


class _KeptCastles:
    """`Game.castle_counts` kept: the house counted for each castle area, and the counts."""

    __slots__ = ("state", "read", "owners", "counts", "homes")

    def __init__(self, g: Game) -> None:
        self.state = g.state
        self.read = -1  # how far the board log was read (`state.BoardLog.end`)
        self.homes = dict(g.board.castle_homes)  # castle area -> its house's home, or None
        self.owners = {area: g._castle_owner(area, home) for area, home in g.board.castle_homes}
        self.counts = counts = dict.fromkeys(g.state.houses, 0)
        for owner in self.owners.values():
            if owner in counts:
                counts[owner] += 1

    def update(self, g: Game, written: list[str]) -> None:
        """Look again at the castle areas among the areas `written`."""
        homes, owners, counts = self.homes, self.owners, self.counts
        for area in homes.keys() & written:
            owner = g._castle_owner(area, homes[area])
            was = owners[area]
            if owner != was:
                owners[area] = owner
                if was in counts:
                    counts[was] -= 1
                if owner in counts:
                    counts[owner] += 1


class Game(RulesHooks):
    """The base rules; a rules module subclasses it and overrides only the extension points (extensions.py)."""

    options_type: type[Options] = Options

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "plays" in cls.__dict__:  # a rules module: it claims the rules sets it plays
            _RULES_MODULES.insert(0, cls)

    @classmethod
    def plays(cls, game_rec: dict) -> bool:
        """Does this class play the rules set `game_rec`? The base rules play whatever no module claims."""
        return True

    @staticmethod
    def class_for(rules: Rules, setup_id: str) -> type[Game]:
        game_rec = rules.game(rules.setup(setup_id)["game"])
        return next((cls for cls in _RULES_MODULES if cls.plays(game_rec)), Game)

    def __init__(self, rules: Rules, setup_id: str, seed: int = 0, options: Options | None = None,
                 state: GameState | None = None, start: bool = True):
        self.rules = rules
        self.options = options or Options()
        self.setup_rec = rules.setup(setup_id)
        self.game_rec = rules.game(self.setup_rec["game"])
        self.board = rules.board(self.setup_rec["board"])
        self.events: list[dict] = []
        self.answers: list = []
        self.actions: list[dict] = []  # between-decision actions a rules module allows, each with its place `at`
        self.checkpoints: list[Checkpoint] = []  # where the procedure could restart from the state alone
        self.decision: Decision | None = None
        self._count = 0
        self._event_base = 0  # events emitted before this object's first one (a resumed game)
        # answers given when this game was restarted from a state (None: it began at the setup); a checkpoint
        # with no answer since then is the restart point itself, known already
        self._restart_answers: int | None = None
        self.embattled: str | None = None  # the area of the combat being resolved (set by the action phase)
        # (card id, "file:line:col") of the card statement running now: its events carry both (see emit)
        self.origin: tuple[str, str] | None = None
        # origins of what a card statement sets up for later (a card kept or removed at the clean up)
        self.later: dict[tuple[str, str], tuple[str, str] | None] = {}
        self.combats = 0  # combats resolved in this run (for a "combat N" stop point)
        self.frame_depth = 0  # frames of state.frames the procedures running now have entered (cursor.enter)
        if state is None:
            state = GameState(game=self.setup_rec["game"], setup=setup_id, board=self.setup_rec["board"],
                              seed=seed, rng=seed_state(seed),
                              tides_of_battle=self.options.tides_of_battle or self.game_rec["tides_of_battle"])
        self.state = state
        self.rng = Rng(self.state)
        self._proc = self._run()
        if start:
            self._advance(None, first=True)

    # ---- driving -------------------------------------------------------------------------------
    def start(self) -> None:
        """Run the rules up to the first decision (for a game made with `start=False`)."""
        self._advance(None, first=True)

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def answer(self, value) -> None:
        """Answer the pending decision; an illegal answer raises `IllegalDecision` and changes nothing."""
        d = self.decision
        if d is None:
            raise IllegalDecision(None, value, "the game is over" if self.over else "nothing is asked")
        if type(value) is str:  # most answers: `Decision.legal_option`'s first test, written out (once per decision)
            options = d.options
            try:
                value = options[options.index(value)]
            except ValueError:
                self._refuse(d, value)
        else:
            found = d.legal_option(value)
            if found is None:
                self._refuse(d, value)
            value = found[0]  # the engine goes on with its own option (e.g. a tuple where JSON gave a list)
        self.answers.append(value)
        self.decision = None  # (`_advance`, written out: once per decision)
        try:
            d = self._proc.send(value)
        except StopIteration:  # the game is over
            d = None
        self.decision = d

    @staticmethod
    def _refuse(d: Decision, value) -> None:
        """Raise `IllegalDecision` for an answer that is none of the decision's options."""
        why = "it is not one of the legal answers"
        if any(loosely_equal(o, value) for o in d.options):  # equal by Python's rules only: 3.0 for 3, true for 1
            why = f"it has the wrong type ({type(value).__name__}, where the legal answer is not)"
        raise IllegalDecision(d, value, why)

    def _advance(self, value, first: bool = False) -> None:
        self.decision = None
        try:
            d = next(self._proc) if first else self._proc.send(value)
        except StopIteration:
            return
        self.decision = d

    def ask(self, decider: str, kind: str, prompt: str, options: list, rule: str = "", **info) -> Decision:
        """Make a decision to yield: `answer = yield game.ask(...)`."""
        if not options:
            raise AssertionError(f"a decision with no legal answer: {kind} for {decider}")
        if kind not in DECISION_KINDS:
            raise AssertionError(f"decision kind '{kind}' is not declared in decision_kinds.py")
        count = self._count
        if count >= self.options.max_decisions:
            raise AssertionError("too many decisions: an agent or a rule loops")
        origin = self.origin
        if origin is not None:  # a decision a card statement asks names the card and the statement
            info.setdefault("card", origin[0])
            info.setdefault("source", origin[1])
        actor = self.actor(decider)
        if actor != decider:  # another house decides for it (R33.7)
            info.setdefault("for", decider)
            decider = actor
        self._count = count + 1
        return Decision(count, decider, kind, prompt, list(options), rule, info)

    def skips(self, kind: str) -> bool:
        """Does the engine skip this question (a declared kind of core/skips.py)? Not with `ask_skipped`."""
        skip_kind(kind)
        return not self.options.ask_skipped

    def choose(self, decider: str, kind: str, prompt: str, options: list, rule: str = "", **info):
        """Ask only when there is a real choice: one option is taken at once (no decision recorded)."""
        if len(options) == 1:
            return options[0]
        return (yield self.ask(decider, kind, prompt, options, rule, **info))

    # ---- the position as a value (see position.py) -------------------------------------------------
    @property
    def event_count(self) -> int:
        return self._event_base + len(self.events)

    @property
    def decision_count(self) -> int:
        return self._count

    def _checkpoint_at_phase_start(self) -> None:
        """Keep the state at a phase's start: the points `undo` reruns the answers from (the state alone goes
        on from any decision; only going back needs the past). A restart inside a phase keeps none."""
        if self.state.step or self.state.frames or self._restart_answers == len(self.answers):
            return
        last = self.checkpoints[-1] if self.checkpoints else None
        if last is not None and last.answers == len(self.answers) and len(self.checkpoints) > 1:
            self.checkpoints.pop()  # no decision since the last one: the later point reruns less
        self.checkpoints.append(Checkpoint.take(self.state, len(self.answers), self.event_count, self._count,
                                                self._run_counts()))

    def _run_counts(self) -> dict:
        """What this run keeps outside the state that a restart needs (see `Checkpoint.run`)."""
        run: dict = {}
        if self.combats:
            run["combats"] = self.combats
        if self.later:
            run["later"] = [[*key, *origin] for key, origin in self.later.items() if origin is not None]
        return run

    def resume_at(self, checkpoints: list[Checkpoint], answers: list, actions: list[dict]) -> None:
        """Prepare a game made with `start=False` from the last checkpoint's state to continue the history
        `answers`/`actions` given before that checkpoint (the caller then calls `start`)."""
        cp = checkpoints[-1]
        self._event_base, self._count = cp.events, cp.decisions
        self.answers, self.actions, self.checkpoints = list(answers), list(actions), list(checkpoints)
        self.combats = cp.run.get("combats", 0)
        self.later = {(kind, key): (card, source) for kind, key, card, source in cp.run.get("later", [])}
        self._restart_answers = cp.answers

    def run_counts(self) -> dict:
        """What a restart from the state alone needs besides the state: the numbers of events and decisions so
        far (the pending decision is asked again, with its number), and what the run counts outside the game
        (`Checkpoint.run`)."""
        asked = self.decision.number if self.decision is not None else self._count
        return {"events": self.event_count, "decisions": asked, **self._run_counts()}

    @classmethod
    def restarted(cls, rules: Rules, state: GameState, options: Options, run: dict,
                  history: tuple[list, list, list[Checkpoint]] | None = None) -> Game:
        """A game going on from `state` alone (taken at a decision, `run` its `run_counts` then): the procedure
        restarts at the state's cursor and frames and asks the same decision. `history` (answers, actions,
        checkpoints) is what came before, for undo and the log; the state itself needs none of it."""
        game = cls.__new__(cls)
        game._restart(rules, state, options, run, history)
        return game

    def _restart(self, rules: Rules, state: GameState, options: Options, run: dict,
                 history: tuple[list, list, list[Checkpoint]] | None, copy_history: bool = True) -> None:
        """Make this object the game `restarted` describes (a new one, or a clone coming to life, whose history
        lists are its own already: `copy_history=False`)."""
        type(self).__init__(self, rules, state.setup, seed=state.seed, options=options, state=state, start=False)
        self._event_base, self._count = run.get("events", 0), run.get("decisions", 0)
        self.combats = run.get("combats", 0)
        self.later = {(kind, key): (card, source) for kind, key, card, source in run.get("later", [])}
        if history is not None:
            self.answers, self.actions, self.checkpoints = (list(h) for h in history) if copy_history else history
        self._restart_answers = len(self.answers)
        if not self.over:
            self.start()

    def record_action(self, entry: dict) -> None:
        """Keep a between-decision action in the history, placed after the answers given so far."""
        self.actions.append({"at": len(self.answers), **entry})

    def to_state(self) -> dict:
        """The whole position as one JSON document; `Game.from_state` continues it exactly."""
        return position.to_document(self)

    @classmethod
    def from_state(cls, rules: Rules, doc: dict, check: str = position.REPLAY) -> Game:
        """A game continuing a position saved by `to_state` (raises `PositionError` if it cannot). `check`: how
        much of the document is believed (position.py: REPLAY, the default, proves it by its history; ANALYSIS
        takes an edited position without history that keeps every invariant of the rules)."""
        return position.from_document(lambda setup: Game.class_for(rules, setup), rules, doc, check)

    @classmethod
    def analysis_position(cls, rules: Rules, doc: dict) -> Game:
        """An edited position to study (no history): accepted when it keeps every invariant of the rules."""
        return cls.from_state(rules, doc, position.ANALYSIS)

    def _rebuilt(self, upto: int, actions: list[dict]) -> Game:
        """A new game at the position after the first `upto` answers (and `actions` among them)."""
        cps = [c for c in self.checkpoints if c.answers <= upto]
        return position.rebuild(type(self), self.rules, self.state.setup, self.state.seed, replace(self.options),
                                cps, self.answers, actions, upto)

    def clone(self) -> Game:
        """An independent game at exactly this position (same decision, same future for the same answers).

        The state is copied at once (`snapshot.Deferred`: by its shape, every list and dict new, strings, numbers
        and the units' `[kind, routed]` lists shared, which the rules never change in place; the free-form cursor,
        frames and modules' states as bytes until the restart), the history
        lists too (checkpoints are immutable); the procedure restarts (`_LazyClone.wake`:
        from the state's cursor and frames down to the pending decision) only when something else than its
        decision is first read or called: its state, an answer, its events... A clone that is only looked at for
        its decision, or thrown away, costs no restart; one that is played costs what it did before."""
        lazy = self.__dict__.get(_LAZY)
        if lazy is None:
            lazy = _LazyClone(snapshot.Deferred(self.state), self.rules, self.options, self.run_counts(),
                              self.answers[:], self.actions[:], self.checkpoints[:], self.events[:],
                              self._event_base)
        else:  # a clone not restarted yet: its state is still the one it was given
            lazy = lazy.again()
        g = object.__new__(_asleep(type(self)))
        g.__dict__[_LAZY] = lazy
        d = self.decision
        if d is not None:  # the clone's own (a restart asks an equal one): nothing of it is shared
            d = object.__new__(Decision)
            d.__dict__.update(vars(self.decision), options=self.decision.options[:], info=self.decision.info.copy())
        g.decision = d
        return g

    def __deepcopy__(self, memo) -> Game:
        return self.clone()

    def __reduce__(self):  # pickling (e.g. to send a game to another process) goes through the position
        return (_from_state, (self.rules, self.to_state()))

    def undo(self) -> None:
        """Take back the last answer: the game is again where it was when that decision was asked
        (between-decision actions taken after the answer are taken back with it)."""
        if not self.answers:
            raise IllegalDecision(None, None, "there is no answer to take back")
        target = len(self.answers) - 1
        if not any(c.answers <= target for c in self.checkpoints):
            raise IllegalDecision(None, None, "the history before this position was not kept")
        g = self._rebuilt(target, [a for a in self.actions if a["at"] <= target])
        count = g.event_count  # the events emitted up to that point, as the rerun counts them
        g.events = self.events[: max(0, count - self._event_base)]
        # the count stays true when the answer taken back was given before this game was resumed (its earlier
        # events are not in `events`): a position saved after such an undo resumes (its history is replayed)
        g._event_base = count - len(g.events)
        # become that game, for whoever holds this object: the same attribute dictionary, not a copy of it. The
        # rules running in `g`'s procedure set attributes on `g` (combats counted, the combat under way, ...): a
        # copy would freeze them here, and a position saved after an undo could not be resumed
        self.__dict__ = g.__dict__

    @contextmanager
    def origin_of(self, key: tuple[str, str]):
        """Emit as the card statement that set `key` up earlier (nothing changes when none did)."""
        origin = self.later.pop(key, None)
        if origin is None or self.origin is not None:
            yield
            return
        self.origin = origin
        try:
            yield
        finally:
            self.origin = None

    # ---- events ----------------------------------------------------------------------------------
    def emit(self, type_: str, rule: str, text: str, **data) -> dict:
        if type_ not in EVENTS:  # every event type is declared, with its fields (interpreter/core/events.py)
            raise AssertionError(f"event type {type_!r} is not declared in interpreter/core/events.py")
        if self.origin is not None:
            # an event of a card ability: `card` names that card, `source` its DSL statement; a different card
            # the event is about (the card a cancel sends back, the one revealed instead) moves to `subject`
            card, source = self.origin
            if data.get("card") not in (None, card):
                data["subject"] = data["card"]
            data["card"], data["source"] = card, source
        events, st = self.events, self.state
        event = {"n": self._event_base + len(events), "round": st.round, "phase": st.phase,
                 "type": type_, "rule": rule, "text": text, **data}
        events.append(event)
        if type_ in _EVENT_MOMENTS and self.game_rec.get("game_abilities"):
            moments.queue_event(self, event)  # a moment of a game ability: it resolves at the next settling point
        return event

    # ---- the game --------------------------------------------------------------------------------
    def _run(self) -> Proc:
        st = self.state
        stop = self.options.stop_after
        try:
            if st.phase == "setup":
                if not st.houses:  # (a restart at a question of `after_setup` finds the setup made)
                    self._setup()
                yield from self.after_setup()
                st.phase = "planning"  # no Westeros Phase in round 1 (R1.4)
            max_rounds = self.options.rounds or self.game_rec["max_rounds"]
            # each phase: its start, its body and its end, with the moments of game abilities (moments.py); a
            # restart inside the abilities that follow a phase's body does not run the body again (`ended`)
            while True:
                if st.phase == "westeros":
                    if not moments.ended(self, "westeros"):
                        self._checkpoint_at_phase_start()
                        yield from moments.phase_start(self, "westeros")
                        yield from westeros_phase(self)
                    yield from moments.phase_end(self, "westeros")
                    if stop == "westeros":
                        break
                    st.phase = "planning"
                if st.phase == "planning":
                    if not moments.ended(self, "planning"):
                        self._checkpoint_at_phase_start()
                        yield from moments.phase_start(self, "planning")
                        yield from planning_phase(self)
                    yield from moments.phase_end(self, "planning")
                    if stop == "planning":
                        break
                    st.phase = "action"
                if st.phase == "action":
                    if not moments.ended(self, "action"):
                        self._checkpoint_at_phase_start()
                        yield from moments.phase_start(self, "action")
                        yield from action_phase(self)
                        self.check_victory()
                    yield from moments.phase_end(self, "action")
                    if stop == "action":
                        break
                    yield from moments.round_end(self)
                    self.check_victory_at_round_end()
                    if stop == "round":
                        break
                if st.round >= max_rounds:
                    self._end_after_last_round()
                    break
                st.round += 1
                st.phase = "westeros"
                self.emit("round", "R6.2.1", f"round {st.round} begins")
        except GameOver:
            cursor.clear(st)  # the game ends where it stood: no step is in progress any more
            cursor.reset_frames(self)
        except StopRun:  # a stop inside the Action Phase: the position stays as it is, mid-phase
            return None
        st.phase = "over"
        return None

    def reached(self, point: str) -> None:
        """The procedure passes a stop point inside the Action Phase: end the run here if asked to."""
        if self.options.stop_after == point:
            raise StopRun

    def _setup(self) -> None:
        """The setup (R4): houses, tracks, units, garrisons, neutral forces, decks, power; a rules module adds to
        it through the setup extension points (`before_setup`, `setup_house`, ...)."""
        s, st = self.setup_rec, self.state
        self.before_setup()
        for h in s["houses"]:
            st.houses[h] = self.setup_house(h)
        st.turn_track = self.turn_track
        for track in self.game_rec["tracks"]:
            st.tracks[track] = self.starting_track(track, [h for h in s["influence"][track] if h in st.houses])
        for h in st.houses:
            self._place_units(h, self.starting_units(h))
        for area, house in (s.get("starting_power_tokens") or {}).items():  # tokens on the board at the start
            if house in st.houses:
                st.power_tokens[area] = house
        self._place_garrisons()
        st.neutral_forces = dict(s["neutral_forces"])
        board_replaced()  # (the board set up: its tokens placed, a dict of the state replaced whole)
        st.blocked = list(s.get("blocked") or [])
        self._shuffle_decks()
        self.finish_setup()
        st.round = 1
        rule, text, data = self.setup_report()
        self.emit("setup", rule, text, **data)

    def player_house_at_setup(self, house: str) -> HouseState:
        """A player's house at setup: the setup's power, its starting supply and house cards (R4.11)."""
        sets = self.game_rec["house_card_sets"]
        supply = (self.setup_rec.get("starting_supply") or {}).get(house, self.rules.house(house)["starting_supply"])
        hs = HouseState(power=self.starting_power(house), supply=supply, hand=self.rules.cards_of(house, sets))
        if not hs.hand:
            diags = Diagnostics()
            diags.error("no-house-cards", f"house '{house}' has no house cards in the sets {sets}", None)
            raise BundleError(diags)
        return hs

    def _place_units(self, house: str, placements: list[dict]) -> None:
        for p in placements:
            for kind, n in sorted(p["units"].items()):  # by kind id: never the JSON's key order
                for _ in range(n):
                    self.state.add_unit(p["area"], house, kind)

    def _place_garrisons(self) -> None:
        """Each house in the game puts its garrison in its home area (R4.10, R31.13); a garrison a setup puts in an
        area that is nobody's home belongs to the house holding the area at the start (its units or power token)."""
        for area, strength in self.setup_rec["garrisons"].items():
            owner = self.board.area(area).home
            if owner is None:
                owner = self.controller(area)
            if owner in self.state.houses:
                self.state.garrisons[area] = strength
                self.state.garrison_owner[area] = owner

    def _shuffle_decks(self) -> None:
        """The Westeros decks of the setup and the wildling deck, shuffled; the threat at its start (R4.2–4.3)."""
        st, rules = self.state, self.rules
        for deck in self.setup_rec.get("westeros_decks") or self.game_rec["westeros_decks"]:
            cards = rules.westeros_deck(deck, self.game_rec)
            self.rng.shuffle(cards)
            st.decks[deck] = cards
        st.wildling_deck = rules.wildling_deck(self.game_rec)
        self.rng.shuffle(st.wildling_deck)
        st.wildling_threat = self.game_rec["wildling_start"]

    # ---- shared rule helpers ----------------------------------------------------------------------
    @property
    def turn_order(self) -> list[str]:
        return self.state.turn_order()

    def track_ids(self) -> list[str]:
        return list(self.game_rec["tracks"])

    def holder(self, token: str) -> str:
        """The house holding a dominance token: position 1 of its track (R5.2), unless a card effect
        seized it until the track's next bidding."""
        if token in self.state.seized_tokens:
            return self.state.seized_tokens[token]
        track = self.rules.dominance_tokens[token]
        return next(h for h in self.state.tracks[track] if self.may_hold_dominance(h))

    def token_of_track(self, track: str) -> str:
        return self.rules.tracks[track]["dominance_token"]["id"]

    # the roles of the tracks are content (the rules set names them), not positions in a list
    @property
    def turn_track(self) -> str:
        return self.game_rec["turn_order_track"]

    @property
    def blade_track(self) -> str:
        return self.game_rec["blade_track"]

    @property
    def raven_track(self) -> str:
        return self.game_rec["raven_track"]

    @property
    def port_capacity(self) -> int:
        return self.game_rec["port_capacity"]

    def starting_power(self, house: str) -> int:
        """A house's power at setup: its own value in the setup, or the setup's power-tokens (R4.11)."""
        return self.setup_rec.get("starting_power", {}).get(house, self.setup_rec["power_tokens"])

    def power_total(self, house: str) -> int:
        return self.rules.house(house)["power_tokens"]

    def gain_power(self, house: str, amount: int, rule: str, why: str = "") -> int:
        """Take power from the pool, as much as is left (R2.5.3)."""
        if not self.may_hold_power(house):
            return 0
        left = control.power_in_pool(self.state, house, self.power_total(house))
        got = max(0, min(amount, left))
        self.state.houses[house].power += got
        if got or amount:
            self.emit("power", rule, f"{house} gains {got} power{(' (' + why + ')') if why else ''}",
                      house=house, amount=got)
        return got

    def gain_victory_points(self, house: str, amount: int, rule: str, why: str = "") -> None:
        """Points from another source than castles (R26; victory.py), then the victory check."""
        victory.gain(self, house, amount, rule, why)
        self.check_victory()

    def discard_power(self, house: str, amount: int, rule: str, why: str = "") -> int:
        if not self.may_hold_power(house):
            return 0
        have = self.state.houses[house].power
        lost = max(0, min(amount, have))
        self.state.houses[house].power -= lost
        if lost or amount:
            self.emit("power", rule, f"{house} discards {lost} power{(' (' + why + ')') if why else ''}",
                      house=house, amount=-lost)
        return lost

    def controller(self, area: str) -> str | None:
        return control.controller(self.state, self.board, area)

    def castle_counts(self) -> dict[str, int]:
        """Castle and stronghold areas each house controls (R23.7), lost castles counted (R42.3). Kept between
        calls: only the castle areas written since (`state.BoardLog`) are looked at again. It is asked after every
        march, muster and clean up, and most of those leave the castle areas as they were."""
        st = self.state
        kept = self.__dict__.get("_castles_kept")
        log = BOARD_LOG
        if kept is None or kept.state is not st:
            kept = self._castles_kept = _KeptCastles(self)
        elif kept.read != log.start + len(log.areas):
            written = log.since(kept.read)
            if written is None:
                kept = self._castles_kept = _KeptCastles(self)
            else:
                kept.update(self, written)
        kept.read = log.start + len(log.areas)
        return kept.counts.copy()

    def _castle_owner(self, area: str, home: str | None) -> str | None:
        """The house whose castle `area` (a castle area: `board.castle_homes`) counts, or None (R23, R42.3)."""
        st = self.state
        army = st.units.get(area)
        if army and army["units"]:
            owner = army["house"]  # R23.1, R23.5
        else:
            owner = st.power_tokens.get(area)  # R23.2
            if owner is None:
                if home is None or home not in st.houses or area in st.neutral_forces:
                    return None
                owner = home  # R23.4.1
        changed = self.changed_areas()
        if changed and area in changed and self.castle_level(area) == "none":
            return None  # only a changed area can have lost its printed castle (R42.3)
        return owner

    def victory_points(self, house: str) -> int:
        """The house's position on the victory track, as the rules set counts it (victory.py)."""
        return victory.totals(self, self.victory_table()).get(house, 0)

    def victory_winner(self, table: dict[str, int]) -> str | None:
        """The house that wins by its threshold at this check (victory.py), or None: at once, the first in turn
        order to reach it (R26.1); at the end of a round, the best ranked of those that reached it."""
        low = self.__dict__.get("_castles_at_once_low")
        if low is None and self.state.houses:  # the rules set is fixed: read once per game
            at_once = victory.when(self) == victory.AT_ONCE and victory.count(self) == victory.CASTLES
            low = self._castles_at_once_low = victory.lowest_threshold(self) if at_once else 0
        if low and max(table.values(), default=0) < low:
            return None  # the common case (castles, checked at once): nobody is near, in one test
        if not victory.check_now(self, self.__dict__.get("_round_end_check", False)):
            return None
        totals = victory.totals(self, table)
        if max(totals.values(), default=0) < victory.lowest_threshold(self):
            return None  # the common case: nobody is near (the full test below asks every house)
        houses = victory.reached(self, totals, self.may_win)
        if len(houses) > 1 and self.__dict__.get("_round_end_check"):
            houses = sorted(houses, key=self.ranking_key)
        return houses[0] if houses else None

    def check_victory_at_round_end(self) -> None:
        """The victory check of a rules set that checks at the end of each round (`victory-check`)."""
        if victory.when(self) != victory.END_OF_ROUND:
            return
        self._round_end_check = True
        try:
            self.check_victory()
        finally:
            self._round_end_check = False

    def ranking_key(self, house: str) -> tuple:
        """A house's place in the rules set's ranking (R26.3): lower first."""
        return tuple(measure(self, house) for _, measure in (TIEBREAKERS[t] for t in self.game_rec["tiebreakers"]))

    def unit_limit(self, house: str, kind: str) -> int:
        return self.rules.house(house)["unit_limits"].get(kind, 0)

    def available_units(self, house: str, kind: str) -> int:
        return self.unit_limit(house, kind) - self.state.unit_count(house, kind)

    def supply_limits(self, house: str) -> list[int]:
        return self.rules.supply_limits(self.state.game, self.state.houses[house].supply)

    def fits_supply(self, house: str, extra: dict[str, int] | None = None,
                    counts: dict[str, int] | None = None) -> bool:
        """Would the house's armies fit its supply limits, with `extra` units per area (R8.3)? `counts`: the
        house's `control.unit_counts`, when a caller testing many positions of one state read them once."""
        if counts is None:
            counts = control.unit_counts(self.state, house)
        # `control.fits_supply` of `control.unit_counts_with`, in one pass (tested for every march destination
        # and muster option): the armies after the change, largest first, against the limits, largest first
        armies = [n for n in counts.values() if n >= 2]
        if extra:
            get = counts.get
            for area, n in extra.items():
                before = get(area, 0)
                if before >= 2:
                    armies.remove(before)
                if before + n >= 2:
                    armies.append(before + n)
        if not armies:
            return True
        try:  # `_sorted_limits`, read from its cache (a call less: this is tested for every march and muster option)
            limits = self._limits_by_level[self.state.houses[house].supply]
        except (AttributeError, KeyError):
            limits = self._sorted_limits(house)
        if len(armies) > len(limits):
            return False
        armies.sort(reverse=True)
        for n, lim in zip(armies, limits):  # noqa: B905, SIM110 (no generator; paired largest first)
            if n > lim:
                return False
        return True

    def _sorted_limits(self, house: str) -> tuple[int, ...]:
        """The house's supply limits, largest first (R8.3), read once per supply level and game."""
        level = self.state.houses[house].supply
        cache = self.__dict__.setdefault("_limits_by_level", {})  # (read directly by `fits_supply`)
        limits = cache.get(level)
        if limits is None:
            limits = cache[level] = tuple(sorted(self.supply_limits(house), reverse=True))
        return limits

    def destroy_unit(self, area: str, index: int, rule: str, why: str = "") -> list:
        house = self.state.units[area]["house"]
        unit = self.state.remove_unit(area, index)
        self.emit("destroy", rule, f"{house} {unit[0]} in {area} is destroyed{(' (' + why + ')') if why else ''}",
                  house=house, area=area, kind=unit[0])
        self.after_area_emptied(area)
        return unit

    def after_area_emptied(self, area: str) -> None:
        """An order left without its house's units goes at once outside combat; during a combat it stays, and
        counts, until the end of the Combat Clean Up (R14.7, `remove_unmanned_order`). Abandoned ports lose
        their ships (R24.8)."""
        if self.embattled is None:
            self.remove_unmanned_order(area, "R14.7")
        a = self.board.area(area)
        if a.is_land and area != self.embattled:  # the embattled area waits for action.port_consequences
            port = self.board.port_of(area)
            if port and port in self.state.units and self.controller(area) is None:
                ships = self.state.units.pop(port)
                board_written(port)
                self.emit("destroy", "R24.8", f"{ships['house']}'s {len(ships['units'])} ship(s) in {port} are "
                          "destroyed (the port's land area is no longer theirs)", house=ships["house"], area=port)
                self.state.orders.pop(port, None)

    def remove_unmanned_order(self, area: str, rule: str) -> None:
        """Remove the order in `area` if none of its house's units is there (R14.7, R16.13, R21.5.5)."""
        order = self.state.orders.get(area)
        if order and self.state.house_in(area) != order["house"]:
            del self.state.orders[area]
            self.emit("order-removed", rule, f"{order['house']}'s {order['order']} in {area} is removed "
                      "(no units left)", area=area, house=order["house"], order=order["order"])

    def castle_victory(self) -> None:
        """A house with 7 castles and strongholds wins at once (R26.1); the rules set may say otherwise (victory.py:
        thresholds per house, points, when it is checked)."""
        house = self.victory_winner(self.victory_table())
        if house is None:
            return
        need = victory.threshold(self, house)
        self.state.winner = house
        if victory.count(self) == victory.CASTLES:
            self.state.end_reason = "victory-points"  # END_REASONS
            self.emit("victory", "R26.1", f"{house} controls {need} castles and strongholds and wins", house=house)
        else:
            self.state.end_reason = "victory-points"  # END_REASONS
            self.emit("victory", "R26.1", f"{house} reaches {need} victory points and wins", house=house)
        raise GameOver

    def _end_after_last_round(self) -> None:
        """After the last round the most castles wins; ties by land areas, supply, Iron Throne (R26.3)."""
        st = self.state
        order = [TIEBREAKERS[t] for t in self.game_rec["tiebreakers"]]  # the rules set's order (R26.3)

        def key(h):
            return tuple(measure(self, h) for _, measure in order)

        ranking = sorted((h for h in st.houses if self.may_win(h)), key=key)
        st.winner = ranking[0]
        st.end_reason = "last-round"  # END_REASONS
        steps = [words for words, _ in order]
        first, second = key(ranking[0]), key(ranking[1]) if len(ranking) > 1 else None
        last = len(steps) - 1
        decided = steps[next((i for i in range(last + 1) if second is None or first[i] != second[i]), last)]
        self.emit("victory", "R26.3", f"after round {st.round}, {st.winner} wins "
                  f"with {self.victory_points(st.winner)} {self.victory_words(st.winner)}"
                  + ("" if decided == steps[0] else f" (tie broken by {decided})"), house=st.winner,
                  ranking=ranking, decided_by=decided)

    # ---- orders --------------------------------------------------------------------------------------
    def order_type(self, order_id: str) -> str:
        return self.rules.order(order_id)["type"]

    def is_support(self, order_id: str) -> bool:
        return self.order_type(order_id) in ("support", "raid-or-support")

    def support_value(self, order_id: str) -> int:
        rec = self.rules.order(order_id)
        return (rec.get("support_value") if rec["type"] == "raid-or-support" else rec.get("value")) or 0

    def resolves_in_step(self, order: dict, step: str) -> bool:
        """Does this placed order resolve in the Action Phase step `step` (raid, march, consolidate-power)?"""
        rec = self.rules.order(order["order"])
        if rec.get("resolves_at") == "consolidate-power":
            return step == "consolidate-power"  # orders a rules module adds to that step (R18.4)
        if rec["type"] == "raid-or-support":
            return step == "raid" and not order.get("kept")  # R34.4
        return rec["type"] == step

    def order_value(self, area: str) -> int:
        order = self.state.orders.get(area)
        return (self.rules.order(order["order"]).get("value") or 0) if order else 0

    def has_order(self, area: str, type_: str, house: str | None = None) -> bool:
        order = self.state.orders.get(area)
        if order is None or (house is not None and order["house"] != house):
            return False
        # a combined token (raid-or-support, defense-or-muster) is an order of each of its types
        return type_ in self.order_type(order["order"]).split("-or-")

    def defense_bonus(self, area: str, house: str) -> int:
        """A defense order of the defender in the embattled area (R19.4.2); none in ports (R24.6)."""
        order = self.state.orders.get(area)
        if order is None or order["house"] != house or self.board.area(area).is_port:
            return 0
        rec = self.rules.order(order["order"])
        if rec["type"] == "defense":
            return rec.get("value") or 0
        return rec.get("defense_value") or 0 if rec["type"] == "defense-or-muster" else 0

    def can_raid(self, raid_id: str, target_id: str, special: bool) -> bool:
        """Normal raids remove support, raid and consolidate power orders; a special raid also defense (R15.4)."""
        target = self.rules.order(target_id)
        if target["raidable_by"]:
            return raid_id in target["raidable_by"]
        t = target["type"]
        if t in ("support", "raid", "consolidate-power", "iron-bank", "raid-or-support"):
            return True
        return special and t in ("defense", "defense-or-muster")

    def pillages(self, order_id: str) -> bool:
        rec = self.rules.order(order_id)
        if rec.get("raid_gives_power") is not None:
            return rec["raid_gives_power"] == "yes"
        return rec["type"] == "consolidate-power"

    # ---- tracks --------------------------------------------------------------------------------------
    def last_places_kept(self, order: list[str]) -> list[str]:
        """`order` with the houses that keep the last places moved to the end (R36.2)."""
        fixed = [h for h in order if self.keeps_last_place(h)]
        return [h for h in order if h not in fixed] + fixed if fixed else list(order)

    def set_track(self, track: str, order: list[str], rule: str) -> None:
        order = self.last_places_kept(order)
        self.state.tracks[track] = list(order)
        self.emit("track", rule, f"{track}: " + ", ".join(order), track=track, order=list(order))

    def move_on_track(self, house: str, track: str, position: int | None, rule: str) -> None:
        """Put a house at a 0-based position (None: last); the others shift to fill the gap (R5.6)."""
        order = self.track_after_move(house, track, position)
        if order != self.state.tracks[track]:
            self.set_track(track, order, rule)

    def track_after_move(self, house: str, track: str, position: int | None) -> list[str]:
        """The track as `move_on_track` would leave it (nothing is changed); a house that keeps the last
        places never moves, and the others move among themselves only (R36.2)."""
        if self.keeps_last_place(house):
            return list(self.state.tracks[track])
        order = [h for h in self.state.tracks[track] if h != house]
        movable = [h for h in order if not self.keeps_last_place(h)]
        last = len(movable)
        pos = last if position is None else max(0, min(position, last))
        movable.insert(pos, house)
        return movable + [h for h in order if h not in movable]

    # ---- areas and icons ------------------------------------------------------------------------------
    def has_icon(self, area: str, icon: str) -> bool:
        if icon in ("castle", "stronghold"):  # two different icons: a stronghold is not a castle (R41.2, R41.9)
            return self.castle_level(area) == icon
        return (self.power_icons(area) if icon == "power" else self.supply_of_area(area)) > 0

    def barrel_count(self, house: str) -> int:
        return sum(self.supply_of_area(a) for a in control.controlled_areas(self.state, self.board, house))

    def river_areas(self) -> list[str]:
        return [a.id for a in self.board.areas if getattr(a, "river", False)]

    def can_fly(self, kind: str) -> bool:
        return bool(self.rules.unit_kinds[kind].get("flies"))

    def flying_kinds(self) -> set[str]:
        kinds = self.__dict__.get("_flying_kinds")  # fixed by the bundle; combat asks for every unit
        if kinds is None:
            kinds = self._flying_kinds = frozenset(k for k, rec in self.rules.unit_kinds.items() if rec.get("flies"))
        return set(kinds)

    # ---- house cards ----------------------------------------------------------------------------------
    def discard_to_pile(self, house: str, card: str, keep: bool = False) -> None:
        """A played card, held apart from the hand since it was chosen, goes to its house's discards, or back
        into the hand when a card says so (R21.5.3); then the hand refresh (R21.5.4)."""
        hs = self.state.houses[house]
        if card in hs.hand or card in hs.discards or card in hs.removed:
            return  # an effect already put it somewhere
        if keep:
            hs.hand.append(card)
            with self.origin_of(("keep", house)):
                self.emit("cards", "R21.5.3", f"{house} keeps {card} in its hand", house=house, card=card)
            return
        hs.discards.append(card)
        self.refresh_hand(house, keep=card)

    def refresh_hand(self, house: str, keep: str | None = None) -> None:
        """With no card left in hand, the discards come back except the last one played (R21.5.4)."""
        hs = self.state.houses[house]
        if hs.hand:
            return
        back = [c for c in hs.discards if c != keep]
        hs.hand = back
        hs.discards = [c for c in hs.discards if c == keep]
        self.emit("cards", "R21.5.4", f"{house} takes back its {len(back)} discarded cards", house=house)

    def remove_card(self, house: str, card: str) -> None:
        hs = self.state.houses[house]
        for pile in (hs.hand, hs.discards):
            if card in pile:
                pile.remove(card)
        hs.removed.append(card)
        with self.origin_of(("remove", card)):
            self.emit("cards", "R43", f"{card} is removed from the game", house=house, card=card)
        if not hs.hand:
            self.refresh_hand(house)

    # ---- convenience -------------------------------------------------------------------------------
    def play(self, agents: dict) -> None:
        """Run to the end, asking `agents[house].act(game, decision)` for every answer."""
        while self.decision is not None:
            d = self.decision
            self.answer(agents[d.house].act(self, d))

    def summary(self) -> dict:
        return {
            "winner": self.state.winner,
            "reason": self.state.end_reason,
            "rounds": self.state.round,
            "castles": {h: self.victory_points(h) for h in self.turn_order},
            "decisions": len(self.answers),
            "events": self.event_count,
            "state_hash": self.state.hash(),
        }


# ---- the steps of the game and of a round (core/steps.py; docs/procedures.md) ----------------------------------
from ..core.steps import emit, hook, step, sub  # noqa: E402  (declarations only: nothing runs at import)

_M = "interpreter/procedures/game.py"
step("game", "The game", "R1",
     "A game is a seed and the answers to its decisions. It is set up, then rounds are played until the last round "
     "of the rules set (`max_rounds`, or the shorter game an option asks for), after which the winner is ranked "
     "(R26.3); a house that reaches the victory points during a round wins at once (step `game.victory`).",
     sub("game.setup", times="1"),
     hook("game.after-setup", "setup steps of a rules module that ask decisions, before round 1"),
     sub("game.round", times="+"),
     sub("game.last-round", times="1"),
     module=_M)
step("game.setup", "Setup", "R4 R31",
     "The setup runs in one go and asks nothing. In order: (1) the houses in play: the setup's houses (a rules "
     "module may decide which of them the players take, before anything else); (2) each house's state, in the "
     "setup's house order: power (the setup's `starting_power` of the house, else the setup's `power_tokens`), "
     "supply (the house's starting supply), house cards (the house's cards of the rules set's card sets, sorted by "
     "id) (R4.7, R4.11); (3) the influence tracks in the rules set's track order, each in the setup's order of the "
     "houses in play (a house that keeps the last places goes last, R36.2); (4) the starting units, house by house "
     "in the setup's house order, each placement in order, its kinds sorted by kind id, each unit appended to the "
     "area's list (R4.9); (5) the garrisons of the houses in play (R4.10); (6) the neutral forces and blocked areas "
     "of the setup (R4.4); (7) the Westeros decks, in the setup's (else the rules set's) deck order, each built as "
     "every card id of the deck sorted by id with one entry per copy and then shuffled; then the wildling deck, "
     "built the same way and shuffled; the wildling threat at the rules set's start (R4.2, R4.3: the engine "
     "shuffles the Westeros decks before the wildling deck, the reverse of R4's numbering; only the order of the "
     "draws matters); (8) what a rules module adds after the decks; (9) round 1. Shuffles are the Fisher-Yates "
     "shuffle of docs/conformance.md. There is no Westeros Phase in round 1 (R1.4).",
     emit("setup", "R4 R31", "once, when the setup is complete: `houses` the houses played by players in the "
          "setup's order", times="1"),
     module=_M)
step("game.round", "A round", "R1.3",
     "A round is its three phases in order; round 1 has no Westeros Phase (R1.4). After the Action Phase, if this "
     "was the last round the game ends (`game.last-round`); otherwise the round number grows by one and the "
     "`round` event opens the next round, whose phase is `westeros`.",
     sub("westeros", "every round but the first", times="?"),
     sub("planning", times="1"),
     sub("action", times="1"),
     emit("round", "R6.2.1", "after the Action Phase when another round follows (the event's `round` is the new "
          "round's number)"),
     module=_M)
step("game.last-round", "The end of the last round", "R26.2 R26.3",
     "After the Action Phase of the last round, every house that may win is ranked by the rules set's tiebreakers "
     "in their order (`most-castles-and-strongholds`: more victory points first; `most-land-areas`; "
     "`highest-supply`; `highest-iron-throne`: the better position on the turn-order track); the first wins. The "
     "state's `winner` is that house and `end_reason` the code `last-round`.",
     emit("victory", "R26.3", "once: `house` the winner, `ranking` every house that may win from first to last, "
          "`decided_by` the words of the first tiebreaker that separates the first two (`castles and "
          "strongholds` when the first one does)", times="1"),
     module=_M)
step("game.victory", "A house wins at once", "R26.1 R37.3",
     "Whenever the procedure checks for victory (after each Westeros card, each mustering area, each march or "
     "combat, each wildling attack, at the end of the Action Phase, and where a rules module says), the houses are "
     "checked in turn order: the first that may win and has the rules set's victory points (see the definitions) "
     "wins at once: the state's `winner` is that house and `end_reason` the code `victory-points`. Nothing follows "
     "this event: the game is over.",
     emit("victory", "R26.1 R37.3", "once, ending the game: `house` the winner", times="1"),
     module=_M, final=True)
