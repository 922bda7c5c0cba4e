"""A seat at the table for a person, in the terminal: `maester play --agents stark=human`.

At each of its decisions the seat prints the position in brief (only what its house may know: other
houses' orders stay face down until they are revealed, other hands stay hidden), the question and its
legal answers numbered, each said in words. The player answers with a number, or a command:

    help            what can be typed
    board [FILE]    the position as a picture (SVG) or, without the renderer, as text
    undo            take back your last answer (and the answers of others given since)
    save [FILE]     save the game here (resume with `maester play --resume FILE`)
    quit            stop (`maester play --save FILE` then saves the game)

`drive` runs a game with any mix of agents and seats and carries out their commands.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path

from maester.dsl.diagnostics import MaesterError
from maester.dsl.files import write_file
from maester.interpreter.core.decision_kinds import DECISION_KINDS
from maester.interpreter.core.decisions import Decision
from maester.interpreter.mod.state import DragonsState
from maester.interpreter.procedures.game import Game

from .seat_info import (  # noqa: F401  (describe_answer is part of this module's interface)
    cards_at_stake,
    combat_lines,
    combat_panel,
    describe_answer,
    digest,
    name_of,
    question,
)

# a saved table: the position, who plays each house and the agents' random state (`--resume` goes on exactly)
TABLE_FORMAT, TABLE_VERSION = "maester-table", 1

HELP = """answer with the number of an answer, or type:
  help            this text
  status          the whole position (each decision shows only what changed since your last one)
  board [FILE]    the position as a picture (SVG; default: a file in a temporary folder), or as text
  undo            take back your last answer
  save [FILE]     save the game (default: the --save file, else maester-save.json)
  quit            stop playing (saving first if a save file was given)"""


class UndoRequest(Exception):  # noqa: N818 - control flow between the seat and the driver
    """The player asked to take back its last answer."""


class QuitRequest(Exception):  # noqa: N818
    """The player asked to stop."""


def _name_of(game: Game, part: str) -> str:
    return name_of(game, part)


def brief(game: Game, house: str) -> list[str]:
    """The position in a few lines, as `house` may see it."""
    st = game.state
    lines = [f"round {st.round}, {st.phase} phase; wildling threat {st.wildling_threat}"]
    victory = game.victory_table()
    for h in game.turn_order:
        hs = st.houses[h]
        tag = " (you)" if h == house else (" (vassal)" if (h in DragonsState.of(game.state).vassals) else "")
        lines.append(f"  {h}{tag}: {victory.get(h, 0)} {game.victory_words(h)}, power {hs.power}, supply {hs.supply}, "
                     f"{len(hs.hand)} cards in hand")
    for track, order in st.tracks.items():
        lines.append(f"  {track}: {', '.join(order)}")
    mine = st.areas_of(house)
    lines.append("your units: " + ("; ".join(f"{_name_of(game, a)}: " + ", ".join(
        u[0] + (" (routed)" if u[1] else "") for u in st.units[a]["units"]) for a in mine) or "none"))
    hand = st.houses[house].hand
    if hand:
        lines.append("your hand: " + ", ".join(_name_of(game, c) for c in hand))
    revealed = st.phase == "action"  # orders are face down until revealed in the Planning Phase (R13.4)
    orders = [(a, o) for a, o in sorted(st.orders.items()) if revealed or o["house"] == house]
    if orders:
        lines.append("orders: " + "; ".join(f"{_name_of(game, a)}: {o['house']} {_name_of(game, o['order'])}"
                                            for a, o in orders))
    return lines


def text_board(game: Game, house: str) -> list[str]:
    """Every occupied or marked area as one line (the public board, plus the house's own face-down orders)."""
    st = game.state
    revealed = st.phase == "action"
    lines = []
    for area in sorted(set(st.units) | set(st.power_tokens) | set(st.garrisons) | set(st.neutral_forces)):
        bits = []
        if area in st.units:
            army = st.units[area]
            bits.append(f"{army['house']}: " + ", ".join(u[0] + ("*" if u[1] else "") for u in army["units"]))
        if area in st.power_tokens:
            bits.append(f"power token of {st.power_tokens[area]}")
        if area in st.garrisons:
            bits.append(f"garrison {st.garrisons[area]}")
        if area in st.neutral_forces:
            bits.append(f"neutral force {st.neutral_forces[area]}")
        order = st.orders.get(area)
        if order:
            bits.append(f"order {order['order']}" if revealed or order["house"] == house else "order (face down)")
        lines.append(f"  {_name_of(game, area)}: " + "; ".join(bits))
    return lines


class HumanSeat:
    """Answers the decisions of the houses a person plays, reading the terminal."""

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 save_to: Path | None = None):
        self.read, self.write, self.save_to = read, write, save_to
        self.seen_events: dict[str, int] = {}  # per house: the events at its last decision (the digest)
        self.last_status: dict[str, list[str]] = {}  # per house: the status lines shown at its last decision
        self.crew: dict = {}  # house -> agent or seat, and house -> kind: what a save records
        self.kinds: dict[str, str] = {}

    def act(self, game: Game, d: Decision):
        house = d.info.get("for", d.house)
        self.write("")
        since = self.seen_events.get(d.house, 0)
        news = digest(game, d.house, since, limit=15)
        if news and since:
            self.write("since your last decision:")
            for line in news:
                self.write(f"  {line}")
        status = brief(game, d.house)
        before = self.last_status.get(d.house)
        changed = status if before is None else [line for line in status if line not in before]
        for line in changed:
            self.write(line)
        if before is not None and len(changed) < len(status):
            self.write(f"  ({len(status) - len(changed)} status lines unchanged: type status to see them)")
        self.last_status[d.house] = status
        self.seen_events[d.house] = len(game.events)
        panel = combat_panel(game, d.house)
        if panel:
            for line in combat_lines(panel):
                self.write(line)
        for card in cards_at_stake(game, d):
            numbers = (f" (strength {card['strength']}, swords {card['swords']}, fortifications "
                       f"{card['fortifications']})" if "strength" in card else "")
            self.write(f"  [{card['name']}]{numbers}: {card['text']}")
        kind = DECISION_KINDS.get(d.kind)
        asked = question(game, d)
        asked = asked if asked.startswith(f"{d.house}") else f"{d.house}: {asked}"
        self.write(f"== {asked}" + (f" (deciding for {house})" if house != d.house else ""))
        if kind:
            self.write(f"   ({kind.meaning})")
        for i, option in enumerate(d.options, 1):
            self.write(f"  {i:>3}. {describe_answer(game, d, option)}")
        while True:
            try:
                line = self.read(f"{d.house}> ").strip()
            except EOFError:
                raise QuitRequest from None
            word, _, rest = line.partition(" ")
            if line.isdigit() and 1 <= int(line) <= len(d.options):
                return d.options[int(line) - 1]
            if word == "help":
                self.write(HELP)
            elif word == "status":
                for status_line in brief(game, d.house):
                    self.write(status_line)
            elif word == "board":
                self._board(game, d.house, rest.strip())
            elif word == "undo":
                raise UndoRequest
            elif word == "save":
                self.save(game, Path(rest.strip()) if rest.strip() else None)
            elif word == "quit":
                raise QuitRequest  # the driver's caller saves, if it was asked to
            else:
                self.write(f"'{line}' is not an answer: type a number from 1 to {len(d.options)}, or help")

    def save(self, game: Game, path: Path | None) -> None:
        """The seat's `save` command: a failure is said, and the person may try another file."""
        target = path or self.save_to or Path("maester-save.json")
        try:
            save_table(game, target, self.kinds, self.crew)
        except MaesterError as e:
            self.write(e.diagnostics.items[0].message if e.diagnostics.items else f"cannot save to {target}")
            return
        self.write(f"saved to {target}; resume with: maester play --resume {target}")

    def _picture_dir(self) -> Path:
        if getattr(self, "_pictures", None) is None:
            self._pictures = Path(tempfile.mkdtemp(prefix="maester-board-"))
        return self._pictures

    def _board(self, game: Game, house: str, where: str) -> None:
        """The board as text, and as a picture (SVG) where the renderer is installed."""
        for line in text_board(game, house):
            self.write(line)
        try:
            from maester.tools.render import render_svg
        except ImportError:  # a trimmed install without the picture: the text is the board
            return
        # never written into the player's folder uninvited: without FILE, a temporary folder of this seat
        target = Path(where) if where else self._picture_dir() / "maester-board.svg"
        face_down = game.state.phase == "planning"  # orders are revealed at the end of planning (R13.4)
        try:
            write_file(target, render_svg(game.rules, game.state, viewer=house, face_down=face_down))
        except MaesterError as e:
            self.write(f"cannot write {target}: {e.diagnostics.items[0].message}")
            return
        self.write(f"the board as a picture: {target}")


def _holder(agent):
    """Where an agent keeps its random state (the agents of interpreter/frontends/agents.py), if it has one."""
    inner = getattr(agent, "_random", agent)
    return getattr(inner, "_holder", None)


def table_document(game: Game, kinds: dict[str, str], crew: dict) -> dict:
    """A saved table: the position, who plays each house, and each agent's random state."""
    rng = {h: holder.rng for h, agent in crew.items() if (holder := _holder(agent)) is not None}
    return {"format": TABLE_FORMAT, "version": TABLE_VERSION, "position": game.to_state(), "seats": dict(kinds),
            "agent_rng": rng}


def restore_agents(crew: dict, doc: dict) -> None:
    """Give each agent back the random state it had when the table was saved."""
    for h, state in (doc.get("agent_rng") or {}).items():
        holder = _holder(crew.get(h))
        if holder is not None and isinstance(state, int):
            holder.rng = state


def save_table(game: Game, path: Path, kinds: dict[str, str], crew: dict) -> None:
    """Write the saved table whole or not at all (a `WriteError` otherwise; the old file is kept)."""
    write_file(path, json.dumps(table_document(game, kinds, crew)) + "\n")


def drive(game: Game, agents: dict, on_answer: Callable[[Game], None] | None = None) -> bool:
    """Play until the game is over or a seat quits (returns False then). An `undo` from a seat takes back
    the answers back to that seat's previous decision in this session."""
    asked: list[str] = []  # who answered each decision of this session, to undo back to a person's turn
    while game.decision is not None:
        d = game.decision
        seat = agents[d.house]
        try:
            answer = seat.act(game, d)
        except QuitRequest:
            return False
        except UndoRequest:
            if seat not in (agents[h] for h in asked):
                seat.write("nothing of yours to take back in this session")
                continue
            while asked:
                game.undo()
                if agents[asked.pop()] is seat:
                    break
            continue
        game.answer(answer)
        asked.append(d.house)
        if on_answer:
            on_answer(game)
    return True
