"""`maester check` warns about content that compiles but is probably a mistake."""

from __future__ import annotations

from maester.dsl.compile import Source, compile_sources
from maester.dsl.diagnostics import Diagnostics
from maester.dsl.lint import lint

from .test_errors import WORLD

# the decks a rules set plays (the compiler refuses a rules set without them)
DECKS = ('deck d "D" { westeros i }\nwesteros-card w1 "W1" { deck i  effect { } }\n'
         'deck wl "WL" { wildling }\n'
         'wildling-card x1 "X1" {\n  lowest-bidder { }\n  everyone-else { }\n  night-watch-victory { }\n}\n')

CARDS = "\n".join(f'house-card c{i} "C{i}" {{ set base  house stark  strength {s} }}'
                  for i, s in enumerate([0, 1, 1, 2, 2, 3, 4]))


def warnings_of(text: str) -> list:
    diags = Diagnostics()
    bundle = compile_sources([Source("world.mst", WORLD), Source("x.mst", text)], diags)
    lint(bundle, diags)
    return [(d.code, d.message) for d in diags.warnings]


def test_a_clean_deck_gives_no_warning():
    game = 'game g "G" { victory-points 7 max-rounds 10 wildling-track [0, 2] wildling-start 2 ' \
           'supply-limits t kings-court-stars t tiebreakers [most-castles-and-strongholds] order-sets [house] ' \
           'tracks [iron-throne] turn-order-track iron-throne blade-track iron-throne raven-track iron-throne ' \
           'port-capacity 3 ' \
           'westeros-decks [i] house-card-sets [base] }\ntable t "T" { row 0 [2]  row 1 [2] }\n' + DECKS
    assert warnings_of(CARDS + "\n" + game) == []


def test_unused_card_set_and_missing_card():
    text = CARDS.replace('house-card c6 "C6" { set base  house stark  strength 4 }', "")
    got = warnings_of(text)
    assert ("unreachable-set", "card set 'base' is used by no rules set or variant") in got
    assert ("deck-size", "stark's deck in set 'base' has 6 cards, not 6") not in got


def test_condition_that_can_never_hold():
    text = CARDS + '\nhouse-card x "X" { set base  house stark  strength 1\n' \
                   '  when after-winner-determination if is-winner(you) and is-loser(you) { gain-power(you, 1) }\n}\n'
    assert ("never-holds", "x: the condition of this ability can never hold") in warnings_of(text)


def test_name_never_used():
    text = 'loan l "L" { effect { choose a in [winterfell] { gain-power(buyer, 1) } } }\n'
    assert ("unused-name", "l: 'a' is never used") in warnings_of(text)


def test_the_bundled_content_is_lint_clean(bundle):
    diags = Diagnostics()
    lint(bundle, diags)
    assert [d.message for d in diags.warnings] == []
