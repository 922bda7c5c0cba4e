"""The side panel of a position: round and phase, wildlings, the influence tracks and dominance tokens, each
house's supply, victory and power, the Iron Bank, dragons and vassals, and the legend."""

from __future__ import annotations

from html import escape

from maester.interpreter.mod.state import DragonsState
from maester.interpreter.procedures.game import Game

from .render_style import PANEL_WIDTH, Frame, house_colour, text_colour


def panel(frame: Frame, game: Game, caption: str, combat: dict | None = None) -> list[str]:
    """Beside the board: round, wildlings, the influence tracks, supply, victory, power, tokens, the bank."""
    st, rules = game.state, game.rules
    ms = DragonsState.of(st)  # the Mother of Dragons pieces (empty in the base game)
    houses = list(st.houses)
    x0, line = frame.map_width + 16, 24
    y = 36
    rows: list[str] = [f'<g id="panel" font-size="13"><rect x="{frame.map_width}" y="0" width="{PANEL_WIDTH}" '
                       f'height="{frame.height}" fill="#fbf8ef" stroke="#ccc"/>']

    def text(s: str, cls: str = "", size: int = 13, bold: bool = False, **data) -> None:
        nonlocal y
        extra = "".join(f' data-{k.replace("_", "-")}="{escape(str(v))}"' for k, v in data.items())
        weight = ' font-weight="bold"' if bold else ""
        rows.append(f'<text class="{cls}" x="{x0}" y="{y}" font-size="{size}"{weight}{extra}>{escape(s)}</text>')
        y += line if size <= 13 else line + 4

    def chips(items: list[tuple[str, str]], cls: str, **data) -> None:
        nonlocal y
        extra = "".join(f' data-{k}="{escape(str(v))}"' for k, v in data.items())
        rows.append(f'<g class="{cls}"{extra}>')
        for i, (house, note) in enumerate(items):
            cx = x0 + i * 50
            fill = house_colour(house, houses)
            rows.append(f'<g class="chip" data-house="{house}" data-position="{i + 1}"><rect x="{cx}" y="{y - 14}" '
                        f'width="46" height="20" rx="4" fill="{fill}" stroke="#000"/><text x="{cx + 23}" y="{y + 1}" '
                        f'font-size="10" text-anchor="middle" fill="{text_colour(fill)}">{escape(note)}</text>'
                        f'<title>{house}</title></g>')
        rows.append("</g>")
        y += line + 4

    text(caption, "caption", 12)
    text(f"Round {st.round} of {game.game_rec['max_rounds']} — {st.phase}", "round", 16, True, round=st.round)
    wt = game.game_rec.get("wildling_track") or []
    text(f"Wildling threat {st.wildling_threat}" + (f" of {max(wt)}" if wt else ""), "wildlings",
         threat=st.wildling_threat)
    if st.winner:
        text(f"Winner: {st.winner} ({st.end_reason or ''})", "winner", 14, True, house=st.winner)
    if combat:
        text(f"Combat in {frame.board.area(combat['area']).name}", "combat-title", 13, True, area=combat["area"])
        text(f"{combat['attacker']} attacks {combat['defender']}", "combat-sides", 12)
    if not st.turn_track:  # a log's first step: the rules have not set the game up yet
        text("before the setup: no house, track or unit yet", "setup", 12)
        rows.append("</g>")
        return rows
    for track in game.track_ids():
        token = game.token_of_track(track)
        holder = game.holder(token) if st.tracks.get(track) else "—"  # before the setup, no track is filled
        text(f"{rules.tracks[track]['name']} — {rules.tracks[track]['dominance_token']['name']}: {holder}",
             "track-title", 13, True, track=track, token=token, holder=holder)
        chips([(h, f"{i + 1} {h[:4]}") for i, h in enumerate(st.tracks.get(track, []))], "track", track=track)
    text("Supply, victory, power", "title", 13, True)
    for label, dx in (("house", 0), ("supply", 160), ("victory", 215), ("power", 275), ("cards", 325)):
        rows.append(f'<text class="table-head" x="{x0 + dx}" y="{y}" font-size="11" fill="#555">{label}</text>')
    y += 18
    for h in game.turn_order:
        hs = st.houses[h]
        vassal = " (vassal)" if (h in DragonsState.of(game.state).vassals) else ""
        rows.append(f'<g class="house-row" data-house="{h}" data-supply="{hs.supply}" '
                    f'data-victory="{game.victory_points(h)}" data-power="{hs.power}">'
                    f'<rect x="{x0}" y="{y - 12}" width="12" height="12" fill="{house_colour(h, houses)}" '
                    f'stroke="#000"/><text x="{x0 + 18}" y="{y}" font-size="12">{escape(h + vassal)}</text>'
                    f'<text x="{x0 + 170}" y="{y}" font-size="12">{hs.supply}</text>'
                    f'<text x="{x0 + 225}" y="{y}" font-size="12">{game.victory_points(h)}</text>'
                    f'<text x="{x0 + 285}" y="{y}" font-size="12">{hs.power}</text>'
                    f'<text x="{x0 + 335}" y="{y}" font-size="12">{len(hs.hand)}</text></g>')
        y += 20
    y += 8
    discarded = [(h, st.houses[h].discards) for h in game.turn_order if st.houses[h].discards]
    if discarded:  # discards are face up (R20.5): everyone knows which cards a house has left
        text("House cards discarded", "title", 13, True)
        for h, cards in discarded:
            names = [str(rules.bundle["house_cards"].get(c, {}).get("name", c)) for c in cards]
            lines = _wrap(f"{h}: ", names, DISCARD_LINE)
            text(lines[0], "discards", 11, house=h, count=len(cards))
            for more in lines[1:]:  # the panel is narrow: a long list goes on, indented
                text(more, "discards-more", 11, house=h)
    if st.blade_used or st.raven_used:
        text("used this round: " + ", ".join(n for n, used in (("Valyrian Steel Blade", st.blade_used),
                                                               ("Messenger Raven", st.raven_used)) if used),
             "tokens-used", 12)
    if ms.bank:
        costs = game.game_rec.get("loan_costs") or []
        text("Iron Bank", "title", 13, True)
        for i, loan in enumerate(ms.bank):
            cost = costs[i] if i < len(costs) else "?"
            name = rules.bundle["loans"].get(loan, {}).get("name", loan) if loan else "(empty)"
            text(f"slot {i + 1} (cost {cost}): {name}", "bank-slot", 12, slot=i + 1, loan=loan or "")
        if ms.loans:
            for h, loans in sorted(ms.loans.items()):
                if loans:
                    text(f"{h}: {', '.join(loans)}", "loans", 11, house=h)
        if ms.discount_holder:
            text(f"loan discount: {ms.discount_holder}", "discount", 12, house=ms.discount_holder)
    if ms.dragon_strength or ms.dragon_tokens:
        text(f"Dragon strength {ms.dragon_strength}", "dragons", 12, strength=ms.dragon_strength)
    if ms.vassals:
        text("Vassals: " + ", ".join(f"{v}" + (f" (commanded by {ms.commanders[v]})" if v in ms.commanders else "")
                                     for v in ms.vassals), "vassals", 11)
    rows.append(_legend(x0, max(y + 10, frame.height - 175)))
    rows.append("</g>")
    return rows


DISCARD_LINE = 64  # characters of a discards line that fit the panel at 11 units


def _wrap(head: str, names: list[str], width: int) -> list[str]:
    """`head` and the names, comma-separated, in lines of at most `width` characters (a name is never cut)."""
    lines, line = [], head
    for i, name in enumerate(names):
        piece = name + ("," if i < len(names) - 1 else "")
        if len(line) + len(piece) > width and line.strip() and line != head:
            lines.append(line.rstrip())
            line = "    "
        line += piece + " "
    lines.append(line.rstrip())
    return lines


def _legend(x0: int, y: int) -> str:
    items = ["F footman  K knight  S ship  E siege engine  D dragon", "grey and turned: a routed unit",
             "white disc: an order face up; dark disc: face down", "gold-rimmed disc: a power token",
             "square: garrison (house colour), neutral force (grey)", "gold disc: loyalty tokens",
             "towers: castle (1), stronghold (2)", "brown dots: supply; gold crowns: power",
             "dashed blue lines: the Westeros-Essos sea links"]
    return "".join(f'<text class="legend" x="{x0}" y="{y + 18 * i}" font-size="11" fill="#555">{escape(s)}</text>'
                   for i, s in enumerate(items))
