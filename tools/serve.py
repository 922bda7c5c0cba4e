"""`maester serve`: a game in the browser. Each human house gets its own link; agents play the others.

A local web server (Starlette on uvicorn, with websockets). Every page shows only what its house may know: the
map drawn for that house (other houses' orders face down until revealed), its hand with the card texts, the
pending decision with its legal answers in words and on the map (click an area), the combat under way and what
happened since the house's last decision. Games live in SQLite (tools/serve_store.py): a game is its parameters
and answers, so a restart of the server resumes every game where it was.

Undo: a house may take back its last answer while only agents have answered since and nothing hidden has been
shown to anyone since (no reveal of orders, bids or house cards, no card drawn): the position it goes back to is
then one nobody learned anything from.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from maester.dsl.diagnostics import MaesterError
from maester.interpreter.core.decisions import IllegalDecision
from maester.interpreter.core.position import GIFT, LEAVE, apply_actions
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import HeuristicAgent, RandomAgent
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.procedures.game import Game

from . import seat_info
from .serve_store import Store

AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent}


def between_decision_actions(game: Game) -> list[str]:
    """The actions a player may try between decisions in this game (the rules module's: Mother of Dragons)."""
    return [kind for kind, method in ((GIFT, "gift_power"), (LEAVE, "leave")) if callable(getattr(game, method, None))]
# events after which an answer can no longer be taken back: something hidden was shown
REVEALING = {"reveal-orders", "bids", "reveal", "westeros-card", "wildling-card", "raven-look", "cards", "reshuffle",
             "tides", "loan-drawn"}


@dataclass
class Table:
    """One game being played: the engine's game, who plays what, and the pages watching it."""

    id: str
    params: dict
    game: Game
    seats: dict[str, str]  # human house -> link token
    answered: list[tuple[str, int]] = field(default_factory=list)  # per answer: (house, events before it)
    watchers: dict[str, set] = field(default_factory=dict)  # house -> open websockets

    @property
    def humans(self) -> set[str]:
        return set(self.seats)

    def agent_answer(self):
        d = self.game.decision
        kind = self.params["agents"].get(d.house, self.params.get("default_agent", "heuristic"))
        # an agent made for this decision alone: the same game always gets the same answers, restart or not
        agent = AGENTS[kind](self.params["seed"] * 1009 + d.number)
        return agent.act(self.game, d)

    def last_decision_events(self, house: str) -> int:
        """Where the house's last decision was (events before it), for the digest."""
        return next((ev for h, ev in reversed(self.answered) if h == house), 0)

    def undo_allowed(self, house: str) -> tuple[bool, str]:
        mine = [i for i, (h, _) in enumerate(self.answered) if h == house]
        if not mine:
            return False, "you have not answered yet"
        k = mine[-1]
        if any(h in self.humans and h != house for h, _ in self.answered[k + 1:]):
            return False, "another player has answered since"
        if any(a["at"] > k and house not in (a.get("from"), a.get("house")) for a in self.game.actions):
            return False, "another player gave power since"  # an undo would take their gift back too
        shown = [e for e in self.game.events[self.answered[k][1]:] if e["type"] in REVEALING or "secret" in e]
        if shown:
            return False, f"something hidden was shown since ({shown[0]['type']})"
        return True, ""


class Hub:
    """Every game of the store, loaded on first use; the engine runs here (one lock: one move at a time)."""

    def __init__(self, store: Store, packs: list[Path] | None = None):
        self.store, self.packs = store, packs or []
        self.tables: dict[str, Table] = {}
        self._rules: dict[tuple, Rules] = {}
        self.lock = asyncio.Lock()

    def rules(self, variant: str | None, packs: list[str]) -> Rules:
        key = (variant, tuple(packs))
        if key not in self._rules:
            from maester.dsl.compile import default_content_dir

            paths = [default_content_dir(), *map(Path, packs)] if packs else None
            self._rules[key] = Rules.default(variant, paths)
        return self._rules[key]

    def new(self, setup: str, humans: list[str], seed: int = 1, variant: str | None = None,
            agents: dict[str, str] | None = None, default_agent: str = "heuristic", tides: bool = False,
            player_houses: list[str] | None = None) -> tuple[str, dict[str, str]]:
        rules = self.rules(variant, [str(p) for p in self.packs])
        game = new_game(rules, setup, seed=seed, options=ModOptions(tides_of_battle=tides, player_houses=player_houses),
                        start=False)
        houses = list(game.state.houses) or list(rules.setup(setup)["houses"])
        if any(h.isdigit() for h in humans):  # seats by number: the house each seat has at the game's start
            humans = _seated_humans(rules, setup, seed, tides, player_houses, humans)
        unknown = [h for h in humans if h not in houses]
        if unknown:
            from maester.dsl.diagnostics import Diagnostics, MaesterError

            diags = Diagnostics()
            diags.error("unknown-house", f"'{unknown[0]}' is not a house of setup '{setup}'", None,
                        "houses: " + ", ".join(houses))
            raise MaesterError(diags)
        params = {"setup": setup, "seed": seed, "variant": variant, "packs": [str(p) for p in self.packs],
                  "tides": tides, "player_houses": player_houses, "agents": agents or {},
                  "default_agent": default_agent}
        gid, tokens = self.store.create(params, humans)
        table = self.load(gid)
        self.play_agents(table)
        return gid, tokens

    def load(self, gid: str) -> Table:
        """The game, replayed from its answers (the first time it is asked for since the server started)."""
        if gid in self.tables:
            return self.tables[gid]
        p = self.store.params(gid)
        rules = self.rules(p["variant"], p["packs"])
        game = new_game(rules, p["setup"], seed=p["seed"],
                        options=ModOptions(tides_of_battle=p["tides"], player_houses=p["player_houses"]))
        table = Table(gid, p, game, self.store.seats(gid))
        actions = self.store.actions(gid)
        for i, (house, answer) in enumerate(self.store.answers(gid)):
            apply_actions(game, actions, i)
            table.answered.append((house, len(game.events)))
            game.answer(answer)
        apply_actions(game, actions, len(game.answers))
        self.tables[gid] = table
        self.play_agents(table)  # a server stopped while agents were to move
        return table

    def play_agents(self, table: Table) -> None:
        """Agents answer until a person is asked (or the game ends)."""
        game = table.game
        while game.decision is not None and game.decision.house not in table.humans:
            self._record(table, game.decision.house, table.agent_answer())

    def _record(self, table: Table, house: str, answer) -> None:
        n = len(table.game.answers)
        events = len(table.game.events)
        table.game.answer(answer)  # raises IllegalDecision and changes nothing if it is not legal
        table.answered.append((house, events))
        try:
            self.store.add(table.id, n, house, answer)
        except MaesterError:  # not kept (a full disk): taken back, so a restart replays what was played
            table.game.undo()
            table.answered.pop()
            raise

    def answer(self, table: Table, house: str, number: int, index: int) -> str | None:
        """A person's answer (the option's index in decision `number`); an error message, or None."""
        d = table.game.decision
        if d is None:
            return "the game is over"
        if d.house != house:
            return f"it is {d.house}'s decision, not yours"
        if d.number != number:
            return "that question was already answered"
        if not 0 <= index < len(d.options):
            return "no such answer"
        try:
            self._record(table, house, d.options[index])
            self.play_agents(table)
        except (IllegalDecision, MaesterError) as e:
            return e.diagnostics.items[0].message
        return None

    def act(self, table: Table, house: str, msg: dict) -> str | None:
        """A between-decision action of a person (Mother of Dragons: a gift of power R42.4, leaving R42.5): the
        engine judges it and refuses an illegal one whole; an error message, or None."""
        game = table.game
        kind = msg.get("action")
        if not between_decision_actions(game):
            return "this game has no actions between decisions"
        before = len(game.actions)
        try:
            if kind == GIFT:
                amount = msg.get("amount")
                if type(amount) is not int:
                    return "gift refused: give a whole number of power tokens"
                game.gift_power(house, str(msg.get("to", "")), amount)
            elif kind == LEAVE:
                game.leave(house)
            else:
                return f"no such action: {kind!r}"
        except IllegalDecision as e:
            return e.diagnostics.items[0].message
        for entry in game.actions[before:]:  # leaving twice records nothing the second time
            self.store.add_action(table.id, entry)
        return None

    def undo(self, table: Table, house: str) -> str | None:
        ok, why = table.undo_allowed(house)
        if not ok:
            return f"cannot take back: {why}"
        k = max(i for i, (h, _) in enumerate(table.answered) if h == house)
        while len(table.game.answers) > k:
            table.game.undo()
        del table.answered[k:]
        self.store.cut(table.id, k)
        return None


# ---- what a page is sent -------------------------------------------------------------------------------
def page_view(table: Table, house: str, message: str | None = None) -> dict:
    from maester.env.observe import orders_revealed

    from .render import render_svg

    game = table.game
    st = game.state
    svg = render_svg(game.rules, st, viewer=house, face_down=not orders_revealed(game))
    d = game.decision
    decision = None
    if d is not None and d.house == house:
        decision = {"number": d.number, "kind": d.kind, "question": seat_info.question(game, d), "rule": d.rule,
                    "options": [{"index": i, "text": seat_info.describe_answer(game, d, o),
                                 "areas": seat_info.option_areas(game, o)} for i, o in enumerate(d.options)],
                    "cards": seat_info.cards_at_stake(game, d), "area": d.info.get("area")}
    hs = st.houses.get(house)
    houses = []
    points = game.victory_table()
    for h in game.turn_order:
        other = st.houses[h]
        houses.append({"house": h, "power": other.power, "supply": other.supply, "victory": points.get(h, 0),
                       "hand": len(other.hand), "discards": [seat_info.name_of(game, c) for c in other.discards]})
    undo_ok, undo_why = table.undo_allowed(house)
    # offered where the rules allow them at all: to a player (not a vassal, R42.4.3), leaving to a house that can
    # become a vassal (R42.5); the engine judges each try (e.g. no gift during a bid) and its message is shown
    kinds = between_decision_actions(game) if d is not None and house in st.houses and not _is_vassal(game, house) \
        else []
    if game.rules.house(house).get("never_vassal") if house in st.houses else False:
        kinds = [k for k in kinds if k != LEAVE]
    actions = {"kinds": kinds, "to": [h for h in game.turn_order if h != house and not _is_vassal(game, h)],
               "leaving": house in getattr(getattr(game, "mod_state", None), "leaving", [])} if kinds else None
    return {
        "game": table.id, "house": house, "round": st.round, "phase": st.phase, "svg": svg,
        "decision": decision, "waiting_for": d.house if d is not None and d.house != house else None,
        "combat": seat_info.combat_panel(game, house),
        "digest": seat_info.digest(game, house, table.last_decision_events(house)),
        "hand": [seat_info.card_text(game, c) for c in (hs.hand if hs else [])],
        "houses": houses, "actions": actions, "undo": undo_ok, "undo_why": undo_why, "message": message,
        "over": {"winner": st.winner, "reason": st.end_reason} if d is None else None,
    }


def _is_vassal(game: Game, house: str) -> bool:
    is_vassal = getattr(game, "is_vassal", None)
    return bool(is_vassal and is_vassal(house))


# ---- the web application -------------------------------------------------------------------------------
def make_app(hub: Hub):
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from .serve_page import INDEX, PAGE

    async def index(request, error: str = ""):
        from html import escape

        rules = hub.rules(None, [str(p) for p in hub.packs])
        setups = "".join(f'<option value="{escape(sid)}">{escape(sid)} ({rec["players"]} players)</option>'
                         for sid, rec in sorted(rules.bundle["setups"].items()))
        variants = "".join(f'<option value="{escape(v)}">{escape(rec.get("name") or v)}</option>'
                           for v, rec in sorted(rules.bundle.get("variants", {}).items()))
        rows = []
        for gid in hub.store.games():
            p = hub.store.params(gid)
            links = ", ".join(f'<a href="/play/{t}">{h}</a>' for h, t in sorted(hub.store.seats(gid).items()))
            rows.append(f"<li>game {gid}: {p['setup']}, seed {p['seed']}"
                        f"{', variant ' + p['variant'] if p['variant'] else ''} — seats: {links}</li>")
        page = INDEX.replace("%SETUPS%", setups).replace("%VARIANTS%", variants).replace("%ERROR%", escape(error))
        return HTMLResponse(page.replace("%GAMES%", "\n".join(rows) or "<li>no game yet</li>"))

    async def start(request):
        """A new game from the form: its links are then on the list."""
        from starlette.responses import RedirectResponse

        from maester.dsl.diagnostics import MaesterError

        q = request.query_params
        humans = [h.strip() for h in q.get("human", "").split(",") if h.strip()]
        try:
            seed = int(q.get("seed") or 1)
            async with hub.lock:
                hub.new(q.get("setup", ""), humans, seed=seed, variant=q.get("variant") or None,
                        default_agent=q.get("agents") if q.get("agents") in AGENTS else "heuristic")
        except (MaesterError, ValueError) as e:
            message = e.diagnostics.items[0].message if isinstance(e, MaesterError) else str(e)
            return await index(request, f"cannot start that game: {message}")
        return RedirectResponse("/", status_code=303)

    async def play(request):
        seat = hub.store.seat(request.path_params["token"])
        if seat is None:
            return PlainTextResponse("no such seat: ask for your link again", status_code=404)
        return HTMLResponse(PAGE.replace("%TOKEN%", seat.token).replace("%HOUSE%", seat.house))

    async def state(request):
        seat = hub.store.seat(request.path_params["token"])
        if seat is None:
            return JSONResponse({"error": "no such seat"}, status_code=404)
        async with hub.lock:
            table = hub.load(seat.game)
            return JSONResponse(page_view(table, seat.house))

    async def send_all(table: Table, skip=None, note: tuple | None = None) -> None:
        for house, sockets in table.watchers.items():
            view = page_view(table, house, note[1] if note and note[0] == house else None)
            for ws in list(sockets):
                try:
                    await ws.send_json(view)
                except Exception:  # a page that went away
                    sockets.discard(ws)

    async def socket(ws: WebSocket):
        seat = hub.store.seat(ws.path_params["token"])
        await ws.accept()
        if seat is None:
            await ws.send_json({"error": "no such seat"})
            await ws.close()
            return
        async with hub.lock:
            table = hub.load(seat.game)
            table.watchers.setdefault(seat.house, set()).add(ws)
            await ws.send_json(page_view(table, seat.house))
        try:
            while True:
                msg = await ws.receive_json()
                if not isinstance(msg, dict):  # a page sends objects; anything else is answered, not crashed on
                    await ws.send_json({"error": "a message is a JSON object"})
                    continue
                async with hub.lock:
                    if msg.get("undo"):
                        error = hub.undo(table, seat.house)
                    elif msg.get("action"):
                        error = hub.act(table, seat.house, msg)
                    else:
                        error = hub.answer(table, seat.house, *_numbers(msg))
                    await send_all(table, note=(seat.house, error) if error else None)
        except WebSocketDisconnect:
            table.watchers.get(seat.house, set()).discard(ws)

    return Starlette(routes=[Route("/", index), Route("/new", start), Route("/play/{token}", play),
                             Route("/api/{token}", state),
                             WebSocketRoute("/ws/{token}", socket)])


def _numbers(msg: dict) -> tuple[int, int]:
    """The decision number and option index of an answer message; -1 (refused by `Hub.answer`) for anything
    that is not a whole number."""
    return tuple(v if type(v) is int else -1 for v in (msg.get("number", -1), msg.get("index", -1)))  # type: ignore[return-value]


def _seated_humans(rules, setup: str, seed: int, tides: bool, player_houses, humans: list[str]) -> list[str]:
    """People named by seat number (`--human 1,3`): the house each seat has when the game starts (drawn by
    `assign-houses`, or the setup's Nth player house: interpreter/effects/pregame.py `seats`). The links are the
    houses' (the games file keeps houses), so a draw made after the first decision cannot be seated by number."""
    from maester.dsl.diagnostics import Diagnostics, MaesterError
    from maester.interpreter.effects.pregame import draws_seats, seats, seats_drawn

    game = new_game(rules, setup, seed=seed, options=ModOptions(tides_of_battle=tides, player_houses=player_houses))
    order, diags = seats(game), Diagnostics()
    if draws_seats(game) and not seats_drawn(game):
        diags.error("seats-not-drawn", "the seats are drawn after the first decision of this game", None,
                    "name the houses people play instead of seat numbers")
    bad = [h for h in humans if h.isdigit() and not 1 <= int(h) <= len(order)]
    if bad:
        diags.error("unknown-seat", f"'{bad[0]}' is not a seat of this game", None, f"seats 1 to {len(order)}")
    if diags.errors:
        raise MaesterError(diags)
    return [order[int(h) - 1] if h.isdigit() else h for h in humans]

