"""The scenario format checks everything it talks about (docs/scenarios.md): unknown ids are located errors
with a did-you-mean, vacuous expectations are refused, derived state paths and stop points inside the
Action Phase work, `variant` and `pack` keys select the content."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from maester.interpreter.core.events import EVENTS, markdown_table
from maester.interpreter.frontends.scenario import Scenario, ScenarioError, run_scenario

from .conftest import REPO

BASE = """\
name: a small combat
setup: base-6p
position:
  round: 2
  phase: action
  houses:
    lannister: {power: 3, hand: [ser-jaime-lannister, tywin-lannister]}
    stark: {power: 3, hand: [catelyn-stark, eddard-stark]}
  units:
    lannisport: "lannister: knight, footman"
    riverrun: "stark: footman, knight(routed)"
  orders:
    lannisport: "lannister: march"
stop-after: marches
decisions: [knight:riverrun, footman:riverrun, ser-jaime-lannister, catelyn-stark]
defaults: {blade: "no"}
"""


@pytest.fixture(scope="module")
def rules():
    from maester.interpreter.core.rules import Rules

    return Rules.default()


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def error_of(rules, path: Path) -> tuple[str, str, str]:
    """(place, message, hint) of the error loading or running the scenario."""
    with pytest.raises(ScenarioError) as e:
        run_scenario(rules, Scenario.load(path))
    item = e.value.diagnostics.items[0]
    return f"{item.span.line}:{item.span.column}", item.message, item.hint or ""


@pytest.mark.parametrize(("old", "new", "place", "message", "hint"), [
    ("[ser-jaime-lannister, tywin", "[ser-jamie-lannister, tywin", "7:34", "unknown house card 'ser-jamie-lannister'",
     "did you mean 'ser-jaime-lannister' or"),
    ("catelyn-stark, eddard-stark]", "catelyn-stark, tywin-lannister]", "8:45",
     "'tywin-lannister' is a lannister card, not one of stark's", ""),
    ("    riverrun: \"stark", "    riverun: \"stark", "11:5", "unknown area 'riverun' on board base",
     "did you mean 'riverrun'?"),
    ("lannisport: \"lannister: march\"", "lannisport: \"lanister: march\"", "13:17",
     "'lanister' is not a house of setup base-6p", "did you mean 'lannister'?"),
    ("lannister: march\"", "lannister: marsh\"", "13:17", "orders.lannisport: unknown order 'marsh'",
     "did you mean 'march'?"),
    ("knight(routed)", "knigth(routed)", "11:15", "units.riverrun: unknown unit kind 'knigth'",
     "did you mean 'knight'?"),
    ("stop-after: marches", "stop-after: march", "14:13", "stop-after: unknown stop point 'march'", "combat N"),
    ("stop-after: marches", "stop-after: combat 0", "14:13", "stop-after: unknown stop point 'combat 0'", ""),
    ("stop-after: marches", "otherwise: firts\nstop-after: marches", "14:12", "otherwise: unknown value 'firts'",
     "allowed: fail first stop"),
])
def test_unknown_ids_are_located_errors_with_did_you_mean(rules, tmp_path, old, new, place, message, hint):
    text = BASE.replace(old, new) + "expect:\n  state: {units.riverrun: \"lannister: knight, footman\"}\n"
    assert old in BASE
    got = error_of(rules, write(tmp_path, text))
    assert got[:2] == (place, message)
    assert hint in got[2]


@pytest.mark.parametrize(("expect", "place", "message", "hint"), [
    ("expect:\n  state:\n    control.riverun: stark\n", "19:5", "unknown area 'riverun' on board base",
     "did you mean 'riverrun'?"),
    ("expect:\n  state:\n    dominance.valyrian-blade.holder: stark\n", "19:5",
     "unknown dominance token 'valyrian-blade'", "did you mean 'valyrian-steel-blade'?"),
    ("expect:\n  state:\n    dominance.iron-throne.side: used\n", "19:5",
     "expect.state: the iron-throne token has no used side", "valyrian-steel-blade"),
    ("expect:\n  state:\n    victory.starks: 0\n", "19:5", "'starks' is not a house of setup base-6p",
     "did you mean 'stark'?"),
    ("expect:\n  state:\n    garisons.winterfell: 2\n", "19:5", "expect.state: the state has no 'garisons'",
     "did you mean 'garrisons'"),
    ("expect:\n  absent:\n    - {type: destroyed, house: stark}\n", "19:14", "expect.absent[0]: no event has the type "
     "'destroyed'", "did you mean 'destroy'?"),
    ("expect:\n  absent:\n    - {type: destroy, unit: knight}\n", "19:23",
     "expect.absent[0]: events of type 'destroy' have no field 'unit'", "kind"),
    ("expect:\n  absent:\n    - {rulez: R21.2.1}\n", "19:8", "expect.absent[0]: no event has a field 'rulez'",
     "did you mean 'rule'?"),
    ("expect:\n  events:\n    - {type: destroy, house: starck}\n", "19:30", "'starck' is not a house of setup "
     "base-6p", "did you mean 'stark'?"),
    ("expect:\n  absent:\n    - {type: destroy, rule: R21.3.55}\n", "19:29",
     "expect.absent[0]: no event of type 'destroy' cites the rule 'R21.3.55'", "did you mean 'R21.3.5'"),
    ("expect:\n  absent:\n    - {rule: R99}\n", "19:14", "expect.absent[0]: no event cites the rule 'R99'", ""),
    ("expect:\n  winner: stark\ndefaults: {blades: \"no\"}\n", "19:12", "defaults: no decision has the kind 'blades'",
     "did you mean 'blade'?"),
    ("expect:\n  winner: stark\ndecisions: [{kind: casualties, answer: knight}]\n", "19:20",
     "decisions[0]: no decision has the kind 'casualties'", "did you mean 'casualty'?"),
    ("expect: {}\n", "17:1", "the scenario checks nothing", "passes whatever"),
    ("expect:\n  absent: []\n", "18:11", "expect.absent is empty: it checks nothing", ""),
    ("", "1:1", "the scenario checks nothing", ""),
])
def test_vacuous_or_unknown_expectations_are_errors(rules, tmp_path, expect, place, message, hint):
    got = error_of(rules, write(tmp_path, BASE + expect))
    assert got[0] == place and got[1].startswith(message), got
    assert hint in got[2]


@pytest.mark.parametrize(("old", "new", "place", "message"), [
    # Lannister has 2 siege engines (game-content.yaml): a third is over its limit, reported at its first entry
    ('    riverrun: "stark: footman, knight(routed)"\n',
     '    riverrun: "stark: footman, knight(routed)"\n    stoney-sept: "lannister: siege-engine x2"\n'
     '    harrenhal: "lannister: siege-engine"\n', "12:5",
     "position.units: lannister has 3 siege-engine on the board; its limit is 2 (in stoney-sept, harrenhal)"),
    # a port holds at most 3 ships (R24.3)
    ('    riverrun: "stark: footman, knight(routed)"\n',
     '    riverrun: "stark: footman, knight(routed)"\n    port-of-lannisport: "lannister: ship x4"\n', "12:5",
     "position.units.port-of-lannisport: 4 ships in a port for 3"),
    # Stark has 20 power tokens (R2.5)
    ("stark: {power: 3,", "stark: {power: 21,", "8:13",
     "position.houses.stark.power: 21 available and 0 on the board; the house has 20 power tokens"),
    ("round: 2", "round: 11", "4:3", "position.round: round 11 is outside the game's rounds 1 to 10"),
])
def test_a_position_that_breaks_the_rules_limits_is_a_located_error(rules, tmp_path, old, new, place, message):
    """A scenario's position is checked like any position a command reads (interpreter/core/state_check.py)."""
    assert old in BASE
    assert error_of(rules, write(tmp_path, BASE.replace(old, new) + "expect: {state: {round: 2}}\n")) == (
        place, message, "a scenario's position must be one the rules allow: unit and power token limits, units in "
        "their domain, cards of the right house, rounds within the game (docs/scenarios.md)")


def test_explain_refuses_a_position_over_a_unit_limit(tmp_path):
    """On the command line: one located error, exit 1, no traceback."""
    from typer.testing import CliRunner

    from maester.tools.cli import app

    path = write(tmp_path, BASE.replace('    riverrun: "stark', '    winterfell: "stark: knight x5"\n    riverrun: "stark')
                 + "expect: {state: {round: 2}}\n")
    result = CliRunner().invoke(app, ["explain", str(path)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert (f"{path}:11:5: error: position.units: stark has 6 knight on the board; its limit is 5 (in winterfell, "
            "riverrun)") in result.output
    assert "Traceback" not in result.output


def test_the_error_quotes_the_line(rules, tmp_path):
    path = write(tmp_path, BASE.replace("ser-jaime-lannister, tywin", "ser-jamie-lannister, tywin")
                 + "expect:\n  winner: stark\n")
    with pytest.raises(ScenarioError) as e:
        run_scenario(rules, Scenario.load(path))
    text = str(e.value)
    assert f"{path}:7:34: error: unknown house card 'ser-jamie-lannister'" in text
    assert "lannister: {power: 3, hand: [ser-jamie-lannister, tywin-lannister]}" in text


def test_derived_state_paths_mid_action_phase(rules, tmp_path):
    """Stopped after the marches, before the clean up: routed units are still routed, the blade unused."""
    path = write(tmp_path, BASE + textwrap.dedent("""\
        expect:
          state:
            routed.riverrun: []
            control.riverrun: lannister
            castle.riverrun: stronghold
            castle.stoney-sept: none
            castles.lannister: 2
            victory.lannister: 2
            supply.stark: 1
            dominance.valyrian-steel-blade.holder: greyjoy
            dominance.valyrian-steel-blade.side: available
            dominance.messenger-raven.side: available
            dominance.iron-throne.holder: baratheon
            phase: action
        """))
    result = run_scenario(rules, Scenario.load(path))
    assert result.ok, result.checks
    assert result.game.state.phase == "action" and result.game.decision is None


@pytest.mark.parametrize(("stop", "orders_left", "routed"), [("raids", 1, []), ("marches", 0, ["knight"]),
                                                            ("consolidate-power", 0, ["knight"]), ("action", 0, [])])
def test_stop_points_of_the_action_phase(rules, tmp_path, stop, orders_left, routed):
    """Before the clean up the routed units are still routed; after the Action Phase they stand up (R18.5)."""
    text = (BASE.replace("stop-after: marches", f"stop-after: {stop}")
            .replace("stark: footman, knight(routed)", "stark: footman, knight")
            .replace("catelyn-stark]", "catelyn-stark, footman, stoney-sept]"))
    if stop == "raids":
        text = text.replace("decisions: [knight:riverrun, footman:riverrun, ser-jaime-lannister, catelyn-stark, "
                            "footman, stoney-sept]", "decisions: []")
    path = write(tmp_path, text + f"expect:\n  state:\n    routed.stoney-sept: {routed}\n")
    result = run_scenario(rules, Scenario.load(path))
    assert result.ok, result.checks
    assert len(result.game.state.orders) == orders_left
    assert result.game.state.phase == ("over" if stop == "action" else "action")


def test_stop_after_a_given_combat(rules, tmp_path):
    """`combat N` stops after the Nth combat of the run: the loser's units are still routed, later marches wait."""
    text = (BASE.replace("stop-after: marches", "stop-after: combat 1")
            .replace("stark: footman, knight(routed)", "stark: footman, knight")
            .replace("  orders:\n", "  orders:\n    seagard: \"greyjoy: march\"\n")
            .replace("  units:\n", "  units:\n    seagard: \"greyjoy: footman\"\n")
            .replace("catelyn-stark]", "catelyn-stark, footman, stoney-sept]"))
    path = write(tmp_path, text + textwrap.dedent("""\
        expect:
          state:
            routed.stoney-sept: [knight]
            orders.seagard: {house: greyjoy, order: march}
            units.seagard: "greyjoy: footman"
        """))
    result = run_scenario(rules, Scenario.load(path))
    assert result.ok, result.checks
    assert [e["type"] for e in result.game.events].count("combat") == 1


def test_a_variant_key_selects_the_variant(rules, tmp_path):
    path = write(tmp_path, textwrap.dedent("""\
        name: the A Dance with Dragons decks are dealt
        variant: adwd-base
        setup: base-3p
        position: {round: 1, phase: planning}
        otherwise: stop
        expect:
          state:
            houses.stark.discards: []
        """))
    sc = Scenario.load(path)
    hand = sc.build_state(rules).houses["stark"].hand
    assert hand and all(rules.bundle["house_cards"][c]["set"] != "base" for c in hand)
    assert run_scenario(rules, sc).ok
    bad = write(tmp_path, path.read_text().replace("adwd-base", "adwd-bass"), "bad.yaml")
    place, message, hint = error_of(rules, bad)
    assert (place, message, hint.startswith("did you mean 'adwd-base'")) == ("2:10", "unknown variant 'adwd-bass'",
                                                                               True)


def test_a_pack_key_compiles_the_pack(rules, tmp_path):
    pack = tmp_path / "packs" / "tiny"
    pack.mkdir(parents=True)
    (pack / "stark.mst").write_text(textwrap.dedent("""\
        card-set tiny "Tiny" {
          description "One card, for a test."
        }

        house-card winter-rose "Winter Rose" {
          set tiny  house stark  strength 5  swords 1
        }
        """), encoding="utf-8")
    path = write(tmp_path, BASE.replace("stark: {power: 3, hand: [catelyn-stark, eddard-stark]}",
                                        "stark: {power: 3, hand: [winter-rose, eddard-stark]}")
                 .replace("catelyn-stark]", "winter-rose, footman]") + "pack: packs/tiny\nexpect:\n  events:\n"
                 "    - {type: combat-result, winner: stark, final: {lannister: 5, stark: 6}}\n")
    result = run_scenario(rules, Scenario.load(path))
    assert result.ok, result.checks
    missing = write(tmp_path, path.read_text().replace("packs/tiny", "packs/tinny"), "missing.yaml")
    with pytest.raises(ScenarioError, match="no such content pack 'packs/tinny'"):
        Scenario.load(missing)


def test_every_event_type_and_field_is_in_the_catalogue(rules):
    """Games of every rules set and every scenario emit only declared event types with declared fields."""
    from maester.interpreter.core.events import fields_of
    from maester.interpreter.frontends.agents import agents_for
    from maester.interpreter.mod import ModOptions, new_game

    games = []
    for setup, seed in (("base-4p", 1), ("base-6p", 2), ("mod-8p", 3), ("mod-4p-with-targaryen", 4)):
        g = new_game(rules, setup, seed=seed, options=ModOptions(tides_of_battle=seed % 2 == 0))
        g.play(agents_for(g.state.houses, "random", seed=seed))
        games.append(g)
    for path in sorted((REPO / "tests" / "scenarios").rglob("*.yaml")):
        games.append(run_scenario(rules, Scenario.load(path)).game)
    seen = set()
    for g in games:
        for e in g.events:
            assert e["type"] in EVENTS, e
            extra = set(e) - set(fields_of(e["type"]))
            assert not extra, f"event {e['type']} has undeclared fields {sorted(extra)}: {e['text']}"
            seen.add(e["type"])
    assert len(seen) >= 60  # most of the catalogue is exercised


def test_emit_refuses_an_undeclared_event_type(rules):
    from maester.interpreter.procedures.game import Game

    g = Game(rules, "base-3p", seed=0)
    with pytest.raises(AssertionError, match="'exploded' is not declared"):
        g.emit("exploded", "R0", "nothing")


def test_the_docs_list_the_event_catalogue():
    doc = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert markdown_table() in doc, "docs/scenarios.md: paste interpreter.events.markdown_table() (Event types)"


def test_the_docs_list_every_decision_kind(rules):
    from maester.interpreter.core.decisions import kinds_table
    from maester.interpreter.procedures.game import Game

    doc = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert kinds_table() in doc, "docs/scenarios.md: paste interpreter.decisions.kinds_table() (Decisions)"
    g = Game(rules, "base-3p", seed=0)
    with pytest.raises(AssertionError, match="'guess' is not declared"):
        g.ask(next(iter(g.state.houses)), "guess", "?", ["a", "b"])


def test_the_docs_example_passes(rules, tmp_path):
    import re

    doc = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = re.search(r"## A complete example\n\n```yaml\n(.*?)```", doc, re.S).group(1)
    result = run_scenario(rules, Scenario.load(write(tmp_path, example)))
    assert result.ok and len(result.checks) == 5, result.checks
