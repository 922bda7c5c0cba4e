"""The Planning Phase (R13): assign orders, reveal them, the Messenger Raven."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import cursor
from ..core.procedure_registry import procedure
from . import moments

if TYPE_CHECKING:
    from .game import Game, Proc

PASS = "pass"
LOOK = "look-at-wildlings"
NONE = "none"


def star_limit(g: Game, house: str) -> int:
    """Special orders a house may place, from its King's Court position (R13.3)."""
    stars = g.__dict__.get("_stars")  # the row of the setup never changes: read the table once per game
    if stars is None:
        stars = g._stars = g.rules.stars(g.state.game, g.setup_rec["kings_court_stars"])
    pos = g.state.position(house, g.raven_track)
    return stars[pos - 1] if pos - 1 < len(stars) else 0


def order_sets(g: Game) -> list[str]:
    return g.house_order_sets()


def house_tokens(g: Game) -> list[str]:
    """Every order token a house owns (one entry per copy)."""
    tokens = g.__dict__.get("_house_tokens")  # the same for every house and round: built once per game
    if tokens is None:
        out: list[str] = []
        for s in order_sets(g):
            out.extend(g.rules.orders_of_set(s))
        tokens = g._house_tokens = tuple(out)
    return list(tokens)


def _special_tokens(g: Game) -> frozenset[str]:
    """The house tokens that are special (★) orders, looked up once per game (planning asks for each token)."""
    special = g.__dict__.get("_special_tokens")
    if special is None:
        special = g._special_tokens = frozenset(t for t in house_tokens(g) if g.rules.order(t)["star"])
    return special


def _placed(g: Game, house: str) -> list[str]:
    """The order tokens the house has on the board (read once by each helper below: the orders are many)."""
    return [o["order"] for o in g.state.orders.values() if o["house"] == house]


def _unused(g: Game, placed: list[str]) -> list[str]:
    tokens = house_tokens(g)
    for tok in placed:
        if tok in tokens:
            tokens.remove(tok)
    return tokens


def _stars_in(g: Game, placed: list[str]) -> int:
    order = g.rules.order
    return sum(1 for tok in placed if order(tok)["star"])


@procedure("unused-tokens")
def unused_tokens(g: Game, house: str) -> list[str]:
    return _unused(g, _placed(g, house))


def stars_used(g: Game, house: str) -> int:
    return _stars_in(g, _placed(g, house))


def _token_counts(g: Game) -> dict[str, int]:
    """Token -> copies a house owns (`house_tokens` counted), once per game."""
    counts = g.__dict__.get("_token_counts")
    if counts is None:
        counts = {}
        for tok in house_tokens(g):
            counts[tok] = counts.get(tok, 0) + 1
        g._token_counts = counts
    return counts


def _is_star(g: Game, token: str) -> bool:
    """Is the order token a special (★) one? Looked up once per token and game."""
    stars = g.__dict__.setdefault("_star_tokens", {})
    star = stars.get(token)
    if star is None:
        star = stars[token] = bool(g.rules.order(token)["star"])
    return star


def _tokens_left(g: Game, placed: list[str]) -> tuple[dict[str, int], int]:
    """(token -> copies still unused, special orders among `placed`): what `_unused` and `_stars_in` count, by
    token rather than by copy."""
    left = dict(_token_counts(g))
    stars_placed = 0
    for tok in placed:
        n = left.get(tok)
        if n:
            left[tok] = n - 1
        if _is_star(g, tok):
            stars_placed += 1
    return left, stars_placed


def _options(g: Game, left: dict[str, int], stars_left: int) -> tuple[list[str], int]:
    """The legal tokens (sorted) and how many can still be placed, from the unused counts and the special
    orders the house may still place."""
    forbidden, special = g.state.forbidden_orders, _special_tokens(g)
    legal: list[str] = []
    plain = stars = 0
    for tok, n in left.items():
        if not n or tok in forbidden:
            continue
        if tok in special:
            stars += n
            if stars_left:
                legal.append(tok)
        else:
            plain += n
            legal.append(tok)
    legal.sort()
    return legal, plain + min(stars, stars_left)


def _legal_and_placeable(g: Game, house: str) -> tuple[list[str], int]:
    """`legal_tokens` and `placeable` from one reading of the house's orders."""
    left, stars_placed = _tokens_left(g, _placed(g, house))
    return _options(g, left, max(0, star_limit(g, house) - stars_placed))


def legal_tokens(g: Game, house: str, area: str) -> list[str]:
    """Tokens the house may still put in `area` (R13.2.3: restrictions and the star limit)."""
    return _legal_and_placeable(g, house)[0]


def placeable(g: Game, house: str) -> int:
    """How many more tokens the house can still place: its unused legal tokens, ★ ones up to its limit."""
    return _legal_and_placeable(g, house)[1]


# the Planning Phase in progress: which of its parts (PLANNING_STAGES) is being resolved
BEFORE_ORDERS, ORDERS, AFTER_ORDERS, PLACED, RAVEN_STAGE = PLANNING_STAGES = (
    "before-orders", "orders", "after-orders", "orders-placed", "raven")
PLANNING = cursor.frame_kind(
    "planning.phase", "the Planning Phase in progress", "R13",
    stage=("string", "its part in progress: before-orders (a rules module's choices before the orders), orders "
                     "(the houses place theirs, the cursor says whose turn, R13.2), after-orders (a rules "
                     "module's orders after them), orders-placed (the game abilities of that moment, then the "
                     "reveal, R13.4), raven (the Messenger Raven, R13.5)"))
# one house placing its orders: the orders placed so far are on the board, face down
PLACING = cursor.frame_kind(
    "planning.house-orders", "a house placing its orders, one area at a time", "R13.2",
    next=("int", "the area (0-based, in the sorted list of the areas holding its units) asked next"))
# the Messenger Raven: after a look at the top wildling card its holder decides where it goes
RAVEN = cursor.frame_kind(
    "planning.raven", "the Messenger Raven's holder looked at the top wildling card and places it", "R13.5.2",
    card=("wildling-card", "the card looked at (the top of the wildling deck)"))


def assign_orders(g: Game) -> Proc:
    """Every house puts one order in each area holding its units while it has a legal token (R13.2).

    A house with more areas than tokens it may still place chooses which areas stay without one
    (R13.2.4): while that is so, `none` is also offered.
    """
    st = g.state
    resume = cursor.resumed(st, cursor.PLANNING_ORDERS)
    houses, start = (list(resume["pass"]), resume["next"]) if resume else (g.turn_order, 0)
    # the areas holding each house's units, sorted (`areas_of`), from one reading: the units do not move in this
    # phase
    areas_of: dict[str, list[str]] = {}
    units = st.units
    for a in sorted(units):
        house = units[a]["house"]
        if house in areas_of:
            areas_of[house].append(a)
        else:
            areas_of[house] = [a]
    for i in range(start, len(houses)):
        house = houses[i]
        if not g.places_own_orders(house):
            continue  # its orders come after the houses' own (R34.1)
        if cursor.restarting(g):  # restarted inside this house's placements: its frame says which area is next
            f = cursor.enter(g, PLACING)
        else:
            cursor.place(st, cursor.PLANNING_ORDERS, **{"pass": list(houses), "next": i})
            f = cursor.enter(g, PLACING, next=0)
        areas = areas_of.get(house, [])
        # its unused tokens and special orders placed, kept up to date here (only this loop places meanwhile)
        left, stars_placed = _tokens_left(g, _placed(g, house))
        limit, special = star_limit(g, house), _special_tokens(g)
        options, room = _options(g, left, max(0, limit - stars_placed))  # legal_tokens and placeable at once
        for k in range(f["next"], len(areas)):
            area = areas[k]
            if not options:
                g.emit("no-order", "R13.2.4", f"{house} has no legal order left for {area}", house=house, area=area)
                continue
            asked = [*options, NONE] if len(areas) - k > room else options
            f["next"] = k
            # asked even with a single legal token: whether a token is forced depends on the house's secret
            # placements, so skipping it would show the others (who is asked next, how many face-down tokens
            # lie on the board) what it placed before the reveal (R13.2: orders are placed in secret)
            token = yield g.ask(house, "place-order", f"{house}: order for {area}", asked, "R13.2.1", area=area)
            if token == NONE:
                g.emit("no-order", "R13.2.4", f"{house} leaves {area} without an order (too few legal tokens)",
                       house=house, area=area)
                continue
            st.orders[area] = {"house": house, "order": token}
            # what `_options` would now say, from what it said before: one placement fewer (a plain token's
            # copies, or both the ★ tokens' copies and the ★ orders left, go down by one), the token gone when
            # its last copy is placed; when no ★ order is left, the ★ tokens go: read them again
            left[token] -= 1  # (an option: an unused token of the house)
            room -= 1
            if token in special:
                stars_placed += 1
                if stars_placed >= limit:
                    options, room = _options(g, left, 0)
                    continue
            if not left[token]:
                options.remove(token)  # (a list of this loop's own: the decision asked holds a copy)
        cursor.leave(g, f)


def reveal_orders(g: Game) -> None:
    placed = {a: f"{o['house']}:{o['order']}" for a, o in sorted(g.state.orders.items())}
    g.emit("reveal-orders", "R13.4", f"orders revealed ({len(placed)})", orders=placed)


def messenger_raven(g: Game) -> Proc:
    """The Raven holder may swap one of its orders or look at the top wildling card (R13.5)."""
    st = g.state
    holder = g.holder(g.token_of_track(g.raven_track))
    if cursor.restarting(g):  # restarted at the question where the card looked at goes
        yield from _place_wildling_card(g, holder, cursor.enter(g, RAVEN))
        return
    if st.raven_used:
        return
    options = [PASS, LOOK]
    swaps = g.game_rec.get("raven_swap", True)  # a rules set may take the swap away (bundle `raven_swap`)
    if swaps:
        # the swapped-out token becomes available again; the star limit counts the swap. `legal_tokens` with
        # that order taken off the board, from one reading of the holder's orders: taking one copy of a token
        # off gives it back (unless more copies than the house owns were placed) and one ★ order if it is one
        placed = _placed(g, holder)
        left_all, stars_all = _tokens_left(g, placed)
        owned, limit = _token_counts(g), star_limit(g, holder)
        for area, o in sorted(st.orders.items()):
            if o["house"] != holder:
                continue
            current = o["order"]
            left = dict(left_all)
            if current in owned and placed.count(current) <= owned[current]:
                left[current] += 1
            stars = stars_all - 1 if _is_star(g, current) else stars_all
            st.orders[area] = st.orders.pop(area)  # (the order's entry moves last, as taking it off and back did)
            for tok in _options(g, left, max(0, limit - stars))[0]:
                if tok != current:
                    options.append(f"replace:{area}:{tok}")
    choice = yield g.ask(holder, "messenger-raven", f"{holder}: use the Messenger Raven?", options, "R13.5")
    if choice == PASS:
        return
    st.raven_used = True
    if choice == LOOK:
        top = st.wildling_deck[0]
        g.emit("raven-look", "R13.5.2", f"{holder} looks at the top wildling card", house=holder,
               secret={"card": top})
        yield from _place_wildling_card(g, holder, cursor.enter(g, RAVEN, card=top))
        return
    _, area, tok = choice.split(":")
    old = st.orders[area]["order"]
    st.orders[area] = {"house": holder, "order": tok}
    g.emit("raven-swap", "R13.5.1", f"{holder} replaces its {old} in {area} with {tok}", house=holder, area=area)


def _place_wildling_card(g: Game, holder: str, f: dict) -> Proc:
    """The card looked at stays on top or goes to the bottom of the wildling deck (R13.5.2)."""
    st, top = g.state, f["card"]
    where = yield g.ask(holder, "wildling-top", f"{holder}: leave {top} on top or put it at the bottom?",
                        ["top", "bottom"], "R13.5.2", card=top)
    cursor.leave(g, f)
    if where == "bottom":
        st.wildling_deck.append(st.wildling_deck.pop(0))
        g.emit("raven-bottom", "R13.5.2", f"{holder} puts the top wildling card at the bottom", house=holder)


def remove_unresolvable(g: Game) -> None:
    """Tokens that cannot be resolved where they stand are removed after the Raven (R13.6, R42.1.2)."""
    sea_only = g.__dict__.get("_sea_only")  # order token -> is it a sea-only order? (read once per token and game)
    if sea_only is None:
        sea_only = g._sea_only = {}
    found = []
    for area, o in g.state.orders.items():
        tok = o["order"]
        only = sea_only.get(tok)
        if only is None:
            only = sea_only[tok] = bool(g.rules.order(tok).get("sea_only"))
        if only:
            found.append(area)
    for area in sorted(found):  # (most rules sets have no sea-only order: nothing to sort)
        o = g.state.orders[area]
        if g.board.area(area).is_land:
            del g.state.orders[area]
            g.emit("order-removed", "R42.1.2", f"{o['house']}'s sea order in {area} is removed (on land)",
                   area=area)


def planning_phase(g: Game) -> Proc:
    """Orders, their reveal, the Messenger Raven (R13). Its frame says which part is in progress, so a restart
    goes on there: inside a house's placements, among a rules module's orders after them, at the Raven."""
    st = g.state
    restart = cursor.restarting(g)
    begun = cursor.within(st, "planning")  # a state with the cursor set and no frame yet: at the orders
    f = cursor.enter(g, PLANNING, stage=ORDERS if begun else BEFORE_ORDERS)
    if not restart and not begun:
        g.emit("phase", "R13", f"round {st.round}: Planning Phase")
    if f["stage"] == BEFORE_ORDERS:
        yield from g.before_orders()  # an extension point (e.g. R33: who commands which house)
        f["stage"] = ORDERS
    if f["stage"] == ORDERS:
        yield from assign_orders(g)
        f["stage"] = AFTER_ORDERS
    if f["stage"] == AFTER_ORDERS:
        yield from g.after_own_orders()  # an extension point (e.g. R34.1: orders a rules module adds)
        f["stage"] = PLACED
    if f["stage"] == PLACED:
        yield from moments.fire(g, "orders-placed", "orders-placed", round=st.round)  # game abilities, face down
        reveal_orders(g)
        f["stage"] = RAVEN_STAGE
    yield from messenger_raven(g)
    cursor.leave(g, f)
    cursor.clear(st)
    remove_unresolvable(g)
    st.forbidden_orders = []  # restrictions last for this Planning Phase only (R6.5)


# ---- the steps of the Planning Phase (core/steps.py; docs/procedures.md) -------------------------------------
from ..core.steps import ask, either, emit, hook, step, sub  # noqa: E402  (declarations only)

_M = "interpreter/procedures/planning.py"
step("planning", "The Planning Phase", "R13",
     "The state's `phase` is `planning`. After the Messenger Raven, orders that cannot be resolved where they "
     "stand are removed (R13.6, R42.1.2: a sea-only order on land, in area id order); then the order types "
     "forbidden by a Westeros card (`forbidden_orders`) are cleared: they last for this Planning Phase only "
     "(R6.5).",
     emit("phase", "R13", "once, first", times="1"),
     hook("planning.before-orders", "a rules module's choices before any order is placed"),
     sub("planning.house-orders", "for each house in turn order that places its own orders (a rules module may "
         "leave some houses' orders to others, R34.1)", times="*"),
     hook("planning.after-own-orders", "the orders a rules module places after the houses' own"),
     emit("reveal-orders", "R13.4", "once: `orders` every order on the board, area id -> `HOUSE:ORDER`", times="1"),
     sub("planning.raven", times="?"),
     emit("order-removed", "R42.1.2", "for each order that cannot be resolved where it stands (area id order); "
          "`area` only", times="*"),
     module=_M)
step("planning.house-orders", "A house places its orders", "R13.2",
     "The house's areas are the areas holding its units, sorted by id (its units do not move in this phase); "
     "they are taken in that order, one decision each.",
     sub("planning.area-order", "for each area holding the house's units", times="*"),
     module=_M)
step("planning.area-order", "An order for one area", "R13.2.1 R13.2.3 R13.2.4",
     "The legal tokens are the house's order tokens not on the board and not forbidden this round "
     "(`forbidden_orders`), special (★) ones only while the house has placed fewer than its King's Court "
     "position allows (R13.3; the setup's `kings_court_stars` row of the rules set's star table, position 1 "
     "first; none beyond the row). `placeable` is how many more tokens it could place: its unused legal plain "
     "tokens plus its unused legal special ones up to the star limit left.",
     either(
         [emit("no-order", "R13.2.4", "no legal token is left for this area: `area`, `house`", times="1")],
         [ask("place-order", "R13.2.1", "the house", "for the area, when a legal token is left",
              "the legal tokens' ids, each once, sorted by id; then `none` when the house has more areas left "
              "(this one included) than tokens it can still place",
              "never, not even with a single legal answer: whether a token is forced depends on the house's "
              "secret placements, so taking it unasked would show the others what the house placed before the "
              "reveal (R13.2)", times="1"),
          emit("no-order", "R13.2.4", "the answer was `none`: `area`, `house`")]),
     module=_M)
step("planning.raven", "The Messenger Raven", "R13.5",
     "The holder of the Messenger Raven (first on the raven track among the houses that may hold a dominance "
     "token) may replace one of its orders or look at the top wildling card. Skipped when the raven was used "
     "this round already (`raven_used`).",
     ask("messenger-raven", "R13.5", "the Messenger Raven's holder", "after the orders are revealed",
         "`pass`, `look-at-wildlings`, then for each order of its own house in area id order and each legal "
         "token for that area with the order taken off (the "
         "star limit counted without it) other than the order itself, sorted by token id: `replace:AREA:TOKEN` (none "
         "when the rules set's `raven_swap` is false)",
         "when the raven was used this round", times="1"),
     either(
         [],
         [emit("raven-look", "R13.5.2", "answer `look-at-wildlings`: `secret.card` the top wildling card",
               times="1"),
          ask("wildling-top", "R13.5.2", "the Messenger Raven's holder", "after the look",
              "`top`, `bottom`", times="1"),
          emit("raven-bottom", "R13.5.2", "answer `bottom`: the card goes to the bottom of the wildling deck")],
         [emit("raven-swap", "R13.5.1", "answer `replace:AREA:TOKEN`: the order in AREA becomes TOKEN", times="1")]),
     module=_M)
