"""The step catalogue: the game's procedure as declared data, the specification docs/procedures.md is made from.

Every procedure module declares its steps beside its code with `step(...)`: the step's id, its rule, what it
does, and its *body*: what happens in it, in the order it happens. A body is a sequence of parts:

- `Emit`: an event the step emits (its type and the rule ids it may cite, when it is emitted);
- `Ask`: a decision the step may ask (its kind, the decider, when it is asked, how the legal answers are made,
  when `done`/`none`/`pass` is among them, when the question is skipped and why);
- `Run`: another declared step, run here (a sub-procedure, or one repeated per house, per order, ...);
- `Effect`: a card's effect or abilities run here: their events and decisions carry `source` (and `card`), and
  may start the procedures the effect primitives name (muster, bidding, a wildling attack, ...);
- `Either`: exactly one of several bodies.

Each part has a multiplicity (`times`): "1" exactly once, "?" at most once, "*" any number of times, "+" at
least once. Together the bodies are a grammar of the game's trace (its events and decisions, in order):
`trace_problems` checks a trace against it, and a test plays random games of every setup through it, so the
declarations cannot drift from what the engine does. A step id is stable: other declarations (content
triggers, docs) name a moment of the game by it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

TIMES = {"1": "once", "?": "at most once", "*": "any number of times (maybe none)", "+": "at least once"}
# which rules a part belongs to: the base game, the optional Tides of Battle rule (R29), Mother of Dragons
GAMES = {"base": "", "tides": "Tides of Battle only", "mod": "Mother of Dragons only"}


def _rules(rules: str | Iterable[str]) -> tuple[str, ...]:
    return tuple(rules.split()) if isinstance(rules, str) else tuple(rules)


@dataclass(frozen=True)
class Emit:
    """An event the step emits: `type` of the event catalogue (events.py), citing one of `rules`."""

    type: str
    rules: tuple[str, ...]
    when: str
    times: str = "?"
    game: str = "base"


@dataclass(frozen=True)
class Ask:
    """A decision the step may ask (a kind of decision_kinds.py)."""

    kind: str
    rules: tuple[str, ...]
    decider: str  # who decides
    when: str  # when it is asked
    options: str  # how the legal answers are generated, in the order they are listed
    skipped: str = ""  # when the question is not asked, and why (what happens instead)
    times: str = "?"
    game: str = "base"


@dataclass(frozen=True)
class Run:
    """Another declared step, run at this point."""

    step: str
    when: str = ""
    times: str = "?"
    game: str = "base"


@dataclass(frozen=True)
class Effect:
    """A card's effect or abilities run here (effects.md): every event and decision they make carries `source`."""

    what: str
    rules: tuple[str, ...] = ()  # the rule ids its events and decisions cite (the timing window's)
    times: str = "*"
    game: str = "base"
    starts: tuple[str, ...] = ()  # steps its primitives may start (their events and decisions carry `source` too)


@dataclass(frozen=True)
class Hook:
    """An extension point of the base procedure: the parts rules modules add here (`extend`) run at this point."""

    name: str
    what: str
    times: str = "1"
    game: str = "base"


@dataclass(frozen=True)
class Either:
    """Exactly one of several bodies (each a tuple of parts), in the order the engine tries them."""

    choices: tuple[tuple, ...]
    when: str = ""
    times: str = "1"
    game: str = "base"


Part = Emit | Ask | Run | Effect | Either | Hook


@dataclass(frozen=True)
class Step:
    id: str  # e.g. "action.march.combat.clean-up": stable, the name of this moment of the game
    title: str
    rule: str  # the rule id of the whole step
    what: str  # normative English: what the step does, beyond its parts
    body: tuple[Part, ...]
    game: str = "base"
    module: str = ""  # the module declaring it (the code it describes)
    anywhere: bool = False  # may happen between any two items of the trace (an action between decisions)
    final: bool = False  # ends the game at once: nothing follows it
    notes: tuple[str, ...] = field(default_factory=tuple)


STEPS: dict[str, Step] = {}
ROOT = "game"  # the step the whole game is
# what rules modules add at the base procedure's extension points: hook name -> [(game, parts, module)]
HOOKS: dict[str, list[tuple[str, tuple, str]]] = {}
# what rules modules say about a base step or definition: id -> [(game, text, module)]
AMENDMENTS: dict[str, list[tuple[str, str, str]]] = {}
# the derived facts the steps read (who controls an area, whether armies fit supply...): name -> (rule, text, module)
DEFINITIONS: dict[str, tuple[str, str, str]] = {}


def define(name: str, rule: str, text: str, module: str = "") -> str:
    """Declare a derived fact of the game (computed from the state, never stored), beside the code computing it."""
    if name in DEFINITIONS:
        raise AssertionError(f"definition {name!r} declared twice")
    DEFINITIONS[name] = (rule, text, module)
    return name


def emit(type_: str, rules: str, when: str, times: str = "?", game: str = "base") -> Emit:
    return Emit(type_, _rules(rules), when, times, game)


def ask(kind: str, rules: str, decider: str, when: str, options: str, skipped: str = "", times: str = "?",
        game: str = "base") -> Ask:
    return Ask(kind, _rules(rules), decider, when, options, skipped, times, game)


def sub(step_id: str, when: str = "", times: str = "?", game: str = "base") -> Run:
    """Run another declared step here (`sub`, not `run`: procedure modules import the effects' `run`)."""
    return Run(step_id, when, times, game)


def effect(what: str, rules: str = "", times: str = "*", game: str = "base", starts: str = "") -> Effect:
    return Effect(what, _rules(rules), times, game, tuple(starts.split()))


def either(*choices: tuple | list, when: str = "", times: str = "1", game: str = "base") -> Either:
    return Either(tuple(tuple(c) for c in choices), when, times, game)


def hook(name: str, what: str) -> Hook:
    """An extension point in a base step's body (a rules module adds its parts there with `extend`)."""
    return Hook(name, what)


def extend(hook_name: str, *parts: Part, game: str, module: str = "") -> None:
    """A rules module's parts at a base extension point, in order (each part keeps its own multiplicity)."""
    HOOKS.setdefault(hook_name, []).append((game, tuple(parts), module))


def amend(target: str, text: str, game: str, module: str = "") -> None:
    """What a rules module changes in a base step or definition (`target`: its id or name), in words."""
    AMENDMENTS.setdefault(target, []).append((game, text, module))


def group(*parts: Part, when: str = "", times: str = "*", game: str = "base") -> Either:
    """Parts that happen together, repeated as `times` says (an `Either` of one choice)."""
    return Either((tuple(parts),), when, times, game)


def step(id_: str, title: str, rule: str, what: str, *body: Part, game: str = "base", module: str = "",
         anywhere: bool = False, final: bool = False, notes: Iterable[str] = ()) -> str:
    """Declare a step of the game's procedure; returns its id (for the module's constant)."""
    if id_ in STEPS:
        raise AssertionError(f"step {id_!r} declared twice")
    for part in _parts(body):
        if part.times not in TIMES:
            raise AssertionError(f"step {id_!r}: times {part.times!r} is not one of {sorted(TIMES)}")
        if part.game not in GAMES:
            raise AssertionError(f"step {id_!r}: game {part.game!r} is not one of {sorted(GAMES)}")
    STEPS[id_] = Step(id_, title, rule, what, tuple(body), game, module, anywhere, final, tuple(notes))
    return id_


def moment(step_id: str) -> Step:
    """The declared step `step_id` names (a moment of the game other declarations, e.g. content triggers, attach
    to); an undeclared id is an error naming the closest ids."""
    found = STEPS.get(step_id)
    if found is None:
        import difflib

        near = difflib.get_close_matches(step_id, list(STEPS), n=3)
        raise KeyError(f"no step {step_id!r} is declared" + (f" (did you mean {', '.join(near)}?)" if near else ""))
    return found


def _parts(body: Iterable[Part]) -> Iterable[Part]:
    """Every part of a body, those inside `Either` included."""
    for part in body:
        yield part
        if isinstance(part, Either):
            for choice in part.choices:
                yield from _parts(choice)
        if isinstance(part, Hook):
            for _, added, _ in HOOKS.get(part.name, []):
                yield from _parts(added)


def parts(step_id: str) -> list[Part]:
    return list(_parts(STEPS[step_id].body))


def problems() -> list[str]:
    """What is wrong with the catalogue itself: unknown steps, event types, decision kinds; unreachable steps."""
    from .decision_kinds import DECISION_KINDS
    from .events import EVENTS, cites

    out = []
    for s in STEPS.values():
        for p in _parts(s.body):
            if isinstance(p, Run) and p.step not in STEPS:
                out.append(f"step {s.id}: runs an undeclared step {p.step!r}")
            if isinstance(p, Effect):
                out.extend(f"step {s.id}: an effect starts an undeclared step {x!r}" for x in p.starts
                           if x not in STEPS)
            if isinstance(p, Emit):
                if p.type not in EVENTS:
                    out.append(f"step {s.id}: emits an undeclared event type {p.type!r}")
                else:
                    out.extend(f"step {s.id}: event {p.type!r} may not cite {r}" for r in p.rules
                               if not cites(p.type, r))
            if isinstance(p, Ask) and p.kind not in DECISION_KINDS:
                out.append(f"step {s.id}: asks an undeclared decision kind {p.kind!r}")
    hooks = {p.name for s in STEPS.values() for p in _parts(s.body) if isinstance(p, Hook)}
    out.extend(f"rules module extends an undeclared extension point {h!r}" for h in HOOKS if h not in hooks)
    out.extend(f"rules module amends an undeclared step or definition {t!r}" for t in AMENDMENTS
               if t not in STEPS and t not in DEFINITIONS)
    seen = reachable()
    out.extend(f"step {s} is declared but never run" for s in STEPS if s not in seen and not STEPS[s].anywhere
               and not STEPS[s].final)
    return out


def reachable(root: str = ROOT) -> list[str]:
    """The steps run from `root`, in the order the docs show them (depth first, each once)."""
    seen: list[str] = []

    def visit(sid: str) -> None:
        if sid in seen or sid not in STEPS:
            return
        seen.append(sid)
        for p in _parts(STEPS[sid].body):
            if isinstance(p, Run):
                visit(p.step)
            if isinstance(p, Effect):
                for sid2 in p.starts:
                    visit(sid2)

    visit(root)
    return seen


# ---- the grammar of a trace -------------------------------------------------------------------------------
# A trace is the game's events and decisions in the order they happened; an item is ("event", event dict) or
# ("decision", decision dict with kind, rule and info). The declarations are compiled into a nondeterministic
# automaton (Thompson's construction) and the trace is run through it: each item must be one a declared step may
# emit or ask at that point.

@dataclass(frozen=True)
class Token:
    """What the grammar reads of an item: event or decision, its type or kind, its rule, whether a card's
    effect made it (it carries `source`)."""

    item: str  # "event" | "decision"
    name: str
    rule: str
    sourced: bool

    @classmethod
    def of(cls, item: str, data: dict) -> Token:
        if item == "event":
            return cls(item, data["type"], data.get("rule", ""), "source" in data)
        info = data.get("info") or {}
        return cls(item, data["kind"], data.get("rule", ""), "source" in info)


def _matches(part: Part, tok: Token) -> bool:
    if isinstance(part, Emit):
        return tok.item == "event" and tok.name == part.type and (not part.rules or tok.rule in part.rules)
    if isinstance(part, Ask):
        return tok.item == "decision" and tok.name == part.kind and (not part.rules or tok.rule in part.rules)
    if isinstance(part, Effect):
        return tok.sourced
    return False


class _Nfa:
    def __init__(self) -> None:
        self.eps: list[list[int]] = []
        self.sym: list[tuple[Part, int, str] | None] = []  # (part, next state, step id) of a symbol edge

    def new(self) -> int:
        self.eps.append([])
        self.sym.append(None)
        return len(self.eps) - 1

    def body(self, parts: tuple[Part, ...], owner: str, stack: tuple[str, ...]) -> tuple[int, int]:
        start = end = self.new()
        for p in parts:
            s, e = self.part(p, owner, stack)
            self.eps[end].append(s)
            end = e
        return start, end

    def part(self, p: Part, owner: str, stack: tuple[str, ...]) -> tuple[int, int]:
        if isinstance(p, Run):
            if p.step in stack:
                raise AssertionError(f"step {p.step!r} runs itself ({' > '.join(stack)})")
            frag = lambda: self.body(STEPS[p.step].body, p.step, (*stack, p.step))  # noqa: E731
        elif isinstance(p, Hook):
            added = tuple(q for _, parts_, _ in HOOKS.get(p.name, []) for q in parts_)
            frag = lambda: self.body(added, owner, stack)  # noqa: E731
        elif isinstance(p, Either):
            def frag() -> tuple[int, int]:
                s, e = self.new(), self.new()
                for choice in p.choices:
                    cs, ce = self.body(choice, owner, stack)
                    self.eps[s].append(cs)
                    self.eps[ce].append(e)
                return s, e
        else:
            def frag() -> tuple[int, int]:
                s, e = self.new(), self.new()
                self.sym[s] = (p, e, owner)
                return s, e
        return self.repeat(frag, p.times)

    def repeat(self, frag, times: str) -> tuple[int, int]:
        s, e = frag()
        if times == "1":
            return s, e
        start, end = self.new(), self.new()
        self.eps[start].append(s)
        self.eps[e].append(end)
        if times in ("?", "*"):
            self.eps[start].append(end)
        if times in ("*", "+"):
            self.eps[e].append(s)
        return start, end


class Grammar:
    """The declared steps as an automaton over traces."""

    def __init__(self, root: str = ROOT, body: tuple[Part, ...] | None = None):
        self.nfa = _Nfa()
        self.start, self.end = self.nfa.body(STEPS[root].body if body is None else body, root, (root,))
        self._closure: dict[frozenset, frozenset] = {}
        self._moves: dict[tuple[frozenset, Token], frozenset] = {}
        self.anywhere = [(s.id, p) for s in STEPS.values() if s.anywhere for p in _parts(s.body)]
        self.final = [(s.id, p) for s in STEPS.values() if s.final for p in _parts(s.body)]

    def closure(self, states: frozenset) -> frozenset:
        found = self._closure.get(states)
        if found is None:
            out, todo = set(states), list(states)
            while todo:
                for nxt in self.nfa.eps[todo.pop()]:
                    if nxt not in out:
                        out.add(nxt)
                        todo.append(nxt)
            found = self._closure[states] = frozenset(out)
        return found

    def move(self, states: frozenset, tok: Token) -> frozenset:
        key = (states, tok)
        found = self._moves.get(key)
        if found is None:
            nxt = set()
            for s in states:
                edge = self.nfa.sym[s]
                if edge is not None and _matches(edge[0], tok):
                    nxt.add(edge[1])
            found = self._moves[key] = self.closure(frozenset(nxt))
        return found

    def expected(self, states: frozenset) -> list[str]:
        """What the grammar would accept next (for a failure message)."""
        out = set()
        for s in states:
            edge = self.nfa.sym[s]
            if edge is not None:
                out.add(f"{edge[2]}: {describe(edge[0])}")
        return sorted(out)

    @classmethod
    def from_phase(cls, phase: str) -> Grammar:
        """The grammar of a game going on from the start of `phase` (a conformance vector's `initial_state`): the
        rest of that round, then further rounds, then the end."""
        rest = {"setup": None, "westeros": ("westeros", "planning", "action"), "planning": ("planning", "action"),
                "action": ("action",)}[phase]
        if rest is None:
            return cls()
        body = (*(Run(p, times="1") for p in rest), Emit("round", ("R6.2.1",), "", "?"),
                Run("game.round", times="*"), Run("game.last-round", times="?"))
        return cls(ROOT, body)

    def problems(self, trace: list[tuple[str, dict]], complete: bool = True) -> list[str]:
        """Why `trace` is not a trace of the declared procedure (empty: it is one). `complete=False`: the trace may
        stop anywhere (a run that ends at a stop point)."""
        states = self.closure(frozenset([self.start]))
        for i, (item, data) in enumerate(trace):
            tok = Token.of(item, data)
            if any(_matches(p, tok) for _, p in self.anywhere):
                continue
            if any(_matches(p, tok) for _, p in self.final):
                if i != len(trace) - 1:
                    return [f"item {i} ({_show(item, data)}) ends the game, yet items follow it"]
                return []
            nxt = self.move(states, tok)
            if not nxt:
                before = "; ".join(_show(*t) for t in trace[max(0, i - 4):i])
                return [f"item {i} ({_show(item, data)}) comes from no declared step at this point (after: "
                        f"{before}); expected one of: " + "; ".join(self.expected(states)[:40])]
            states = nxt
        if complete and self.end not in states:
            return ["the trace ends where the declared procedure does not: expected one of: "
                    + "; ".join(self.expected(states)[:40])]
        return []


def _show(item: str, data: dict) -> str:
    tok = Token.of(item, data)
    return f"{tok.item} {tok.name} {tok.rule}{' (card effect)' if tok.sourced else ''}"


def describe(p: Part) -> str:
    if isinstance(p, Emit):
        return f"event {p.type} ({', '.join(p.rules)})"
    if isinstance(p, Ask):
        return f"decision {p.kind} ({', '.join(p.rules)})"
    if isinstance(p, Effect):
        return f"a card effect ({p.what})"
    if isinstance(p, Run):
        return f"step {p.step}"
    return "one of several"


def trace_problems(trace: list[tuple[str, dict]], root: str = ROOT) -> list[str]:
    return Grammar(root).problems(trace)


# ---- docs/procedures.md ------------------------------------------------------------------------------------------

DOC_HEADER = """# The game's procedure

<!-- Generated from the step catalogue (interpreter/core/steps.py and the `step(...)` declarations of the
procedure modules) by `maester docs --write`; do not edit: a test fails when this file is stale. -->

This document is normative: with docs/conformance.md (the state, the random number generator, the vectors),
docs/effects.md (what card effects do) and docs/bundle.md (the content), it specifies the game an engine must
play to reproduce the conformance vectors. It lists every step of the game in the order it runs — the base
game, the optional Tides of Battle rule and Mother of Dragons — and for each step the events it emits, in the
order it emits them, and the decisions it may ask: who decides, when, which answers are legal and in which order
they are listed, and when the question is not asked.

## How to read it

- A step's parts happen in the order listed. Each part says how often it happens: **once**, **at most once**,
  **any number of times (maybe none)** or **at least once**. **One of** lists alternatives: exactly one of them
  happens (an empty alternative: nothing). A **group** is a sequence repeated as a whole.
- **event** `TYPE` (RULES): an event of that type citing one of those rules (docs/scenarios.md lists every event
  type and field; schemas/event.schema.json is their schema). Every event has `n`, `round`, `phase`, `type`, `rule`
  and `text` (`text` is English, informative only).
- **decision** `KIND` (RULES): a decision of that kind (schemas/decision.schema.json), citing one of those rules;
  its options are listed in the order given. A decision with a single legal answer is never asked: that answer is
  taken, and nothing is recorded (no decision number is used); except an order placement (`place-order`), always
  asked, so that a forced token shows nothing of the house's secret placements (R13.2).
- **step**: another step, run at that point (its own section says what it does).
- **card effect**: a card's effect or its abilities run at that point (docs/effects.md). Every event and decision
  they make carries `source` (and `card`), including those of the procedures their primitives start (listed).
- **The game ends at once** (step `game.victory`) at any victory check; nothing follows its event.
- **Between decisions** (step `game.between-decisions`), Mother of Dragons players may act unasked.
- Ids: the step ids below (`combat.clean-up`) name moments of the game; they are stable.
- Words: *turn order* is the order of the turn-order track (the rules set's `turn_order_track`, the Iron
  Throne), position 1 first. The *holder* of a dominance token is the house a card gave it to until that
  track's next bidding (`seized_tokens`), else the first house on its track that may hold one (Mother of
  Dragons: not a vassal). *Victory is checked*: step `game.victory`.

A test plays random games of every setup, with and without Tides of Battle, and checks that every trace (events
and decisions in order) is one this document allows.
"""


def _times(times: str) -> str:
    return TIMES[times]


def _game(game: str) -> str:
    return f" *({GAMES[game]})*" if GAMES.get(game) else ""


def _part_md(p: Part, indent: str) -> list[str]:
    from .events import EVENTS

    tail = f" — {_times(p.times)}{_game(p.game)}"
    if isinstance(p, Emit):
        ev = EVENTS.get(p.type)
        fields = ", ".join(f"`{f}`" + ("?" if f in ev.optional else "") for f in ev.fields) if ev else ""
        return [f"{indent}- **event** `{p.type}` ({', '.join(p.rules)}){tail}: {p.when}"
                + (f". Fields: {fields}." if fields else ".")]
    if isinstance(p, Ask):
        rules = f" ({', '.join(p.rules)})" if p.rules else ""
        lines = [f"{indent}- **decision** `{p.kind}`{rules}{tail}.",
                 f"{indent}  Decider: {p.decider}. Asked: {p.when}. Answers: {p.options}."]
        if p.skipped:
            lines.append(f"{indent}  Not asked: {p.skipped}.")
        return lines
    if isinstance(p, Run):
        when = f": {p.when}" if p.when else ""
        return [f"{indent}- **step** [`{p.step}`](#{_anchor(p.step)}) ({STEPS[p.step].title}){tail}{when}."]
    if isinstance(p, Hook):
        added = HOOKS.get(p.name, [])
        lines = [f"{indent}- **extension point** `{p.name}`: {p.what}. In the base game nothing happens here."]
        for game, parts_, _module in added:
            lines.append(f"{indent}  {_amend_label(game)}, in order:")
            for q in parts_:
                lines.extend(_part_md(q, indent + "  "))
        return lines
    if isinstance(p, Effect):
        rules = f" ({', '.join(p.rules)})" if p.rules else ""
        starts = (" It may start: " + ", ".join(f"[`{s}`](#{_anchor(s)})" for s in p.starts) + ".") if p.starts \
            else ""
        return [f"{indent}- **card effect**{rules}: {p.what}{tail}.{starts}"]
    lines = []
    if len(p.choices) == 1:
        when = f" ({p.when})" if p.when else ""
        lines.append(f"{indent}- **group**{when}{tail}:")
        for q in p.choices[0]:
            lines.extend(_part_md(q, indent + "  "))
        return lines
    when = f" ({p.when})" if p.when else ""
    lines.append(f"{indent}- **one of**{when}{tail}:")
    for i, choice in enumerate(p.choices):
        lines.append(f"{indent}  {i + 1}. " + ("nothing" if not choice else "in order:"))
        for q in choice:
            lines.extend(_part_md(q, indent + "     "))
    return lines


def _amend_label(game: str) -> str:
    return {"mod": "Mother of Dragons", "tides": "Tides of Battle"}.get(game, game)


def _anchor(step_id: str) -> str:
    return "step-" + step_id.replace(".", "-")


def markdown() -> str:
    """docs/procedures.md, generated from the declarations."""
    out = [DOC_HEADER]
    order = reachable() + [s for s in STEPS if s not in reachable()]
    out.append('<a id="definitions"></a>\n\n## Definitions\n')
    out.append("Facts the steps read, computed from the state and the bundle (never stored in the state).\n")
    for name, (rule, text, module) in DEFINITIONS.items():
        extra = "".join(f" *{_amend_label(g)}:* {t}" for g, t, _ in AMENDMENTS.get(name, []))
        out.append(f"- **{name}** ({rule}): {text}{extra} *({module})*")
    out.append("")
    out.append("## Contents\n")
    out.extend(f"- [`{sid}`](#{_anchor(sid)}) {STEPS[sid].title}" for sid in order)
    out.append("")
    for sid in order:
        s = STEPS[sid]
        out.append(f'<a id="{_anchor(sid)}"></a>\n\n## `{sid}`: {s.title} ({s.rule}){_game(s.game)}\n')
        if s.what:
            out.append(s.what + "\n")
        out.extend(f"*{_amend_label(g)}:* {text}\n" for g, text, _ in AMENDMENTS.get(sid, []))
        if s.final:
            out.append("The game ends with this step.\n")
        if s.anywhere:
            out.append("This step may happen between any two decisions.\n")
        out.extend(note + "\n" for note in s.notes)
        if s.body:
            for p in s.body:
                out.extend(_part_md(p, ""))
            out.append("")
        out.append(f"*Declared in {s.module}.*\n")
    out += _appendices()
    return "\n".join(out).rstrip() + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _appendices() -> list[str]:
    """The catalogues the steps refer to, generated here so that no module is the specification: every decision
    kind, the cursor's places and the frames of the procedures in progress."""
    from .cursor import FIELD_TYPES, FRAMES, PLACES
    from .decision_kinds import DECISION_KINDS

    out = ['<a id="decision-kinds"></a>\n\n## Appendix: decision kinds\n',
           "Every decision the rules may ask is of one of these kinds (schemas/decision.schema.json gives the JSON "
           "Schema of one legal answer of each kind). A decision a card's effect asks cites the rule of the card's "
           "context instead of the kind's rule.\n",
           "| kind | decider | rule | an answer | what it does |", "|---|---|---|---|---|"]
    out += [f"| `{k}` | {_cell(d.decider)} | {d.rule} | {_cell(d.written or '')} | {_cell(d.meaning)} |"
            for k, d in DECISION_KINDS.items()]
    out += ['\n<a id="cursor"></a>\n\n## Appendix: where a phase stands (the state\'s `step`)\n',
            "Between two of its restart points a phase keeps its place in the state's `step`: `{\"at\": PLACE, "
            "...counters}`; it is empty at a phase's start.\n", "| `at` | meaning and counters |", "|---|---|"]
    out += [f"| `{place}` | {_cell(meaning)} |" for place, meaning in PLACES.items()]
    out += ['\n<a id="frames"></a>\n\n## Appendix: the procedures in progress (the state\'s `frames`)\n',
            "Every procedure that asks a decision keeps a frame `{\"at\": PLACE, ...fields}` while it runs, outermost "
            "first (docs/position.md: a game restarted on the state goes on inside them). Field types: "
            + ", ".join(f"`{w}`" for w in FIELD_TYPES) + ".\n",
            "| `at` | rule | what | fields |", "|---|---|---|---|"]
    for place, kind in sorted(FRAMES.items()):
        fields = "; ".join(f"`{n}` ({w}): {m}" for n, (w, m) in kind.fields.items()) or "none"
        out.append(f"| `{place}` | {kind.rule} | {_cell(kind.meaning)} | {_cell(fields)} |")
    return out + _moments_appendix() + [""]


def _moments_appendix() -> list[str]:
    """The moments a variant's game abilities hook (the vocabulary of maester.dsl.moments): where in the steps
    above each one runs. None runs in a game whose rules set lists no game ability."""
    from maester.dsl.moments import DIRECT, EVENT, MOMENTS

    reached = {DIRECT: "fired by the procedure at that point",
               EVENT: "queued by an event, resolved at the next settling point",
               "settle": "found at each settling point by comparing the controllers with the last one"}
    out = ['\n<a id="moments"></a>\n\n## Appendix: the moments game abilities hook\n',
           "A rules set may list *game abilities* (`when MOMENT [if CONDITION] { effect }`, docs/dsl.md). They run "
           "only at these moments: the abilities of a moment in the order the rules set lists its game abilities, "
           "each run as a card effect is (its events carry `card`: the game ability's id). A moment queued by an "
           "event waits for the next *settling point* of the procedure — after each order of the Action Phase is "
           "resolved (its combat included), before each Westeros card is resolved, and at the start and end of "
           "every phase — and the moments queued run there in the order they happened. An event emitted by a game "
           "ability of a moment never queues that same moment again. While they run, the frame `moment` keeps the "
           "settling point, the moment, its bindings and the ability in progress.\n",
           "| moment | rule | how it is reached | names bound | when |", "|---|---|---|---|---|"]
    for m in MOMENTS.values():
        how = reached.get(m.how, m.how) + (f" (`{m.source_event}`" + (f", {m.source_rule}" if m.source_rule else "")
                                           + ")" if m.source_event else "")
        names = ", ".join(f"`{n}` ({t})" for n, t in m.bindings.items()) or "none"
        out.append(f"| `{m.name}` | {m.rule} | {_cell(how)} | {_cell(names)} | {_cell(m.doc)} |")
    return out


def refresh_procedures_doc(path) -> bool:
    """Write docs/procedures.md from the declarations (the caller imports every procedure module first, e.g.
    maester.interpreter.mod); True when it changed."""
    from pathlib import Path

    path = Path(path)
    text = markdown()
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True
