"""Scenario files state the format version they were written for (issue 19): an older file is read as it was
meant, or refused with an error naming what changed and how to update it; a newer one is refused; an expectation
that can never match is an error."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.scenario import SCENARIO_FORMAT, Scenario, ScenarioError, run_scenario

from .conftest import REPO

JAQEN = REPO / "tests" / "scenarios" / "mod" / "vassals" / "cards" / "jaqen-h-ghar.yaml"


@pytest.fixture(scope="module")
def rules():
    return Rules.default()


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _error(rules, path: Path):
    with pytest.raises(ScenarioError) as e:
        run_scenario(rules, Scenario.load(path))
    return e.value.diagnostics.items[0]


def test_every_shipped_scenario_states_the_current_format():
    files = sorted(REPO.glob("tests/scenarios/**/*.yaml")) + sorted(REPO.glob("examples/packs/*/scenarios/*.yaml"))
    assert files
    assert [f for f in files if Scenario.load(f).format != SCENARIO_FORMAT] == []


def test_an_old_file_using_castles_of_a_loyalty_house_is_refused_with_the_change(rules, tmp_path):
    old = """\
        name: Targaryen's count, as format 1 meant it
        setup: mod-8p
        position: {round: 2, phase: planning}
        otherwise: stop
        expect:
          state:
            castles.targaryen: 1
        """
    item = _error(rules, _file(tmp_path, old))
    assert (item.span.line, item.span.column) == (7, 5)
    assert item.message == ("expect.state: 'castles.targaryen' changed meaning: scenario format 1 counted "
                            "targaryen's loyalty points in castles.targaryen, format 2 counts its castles and "
                            "strongholds only (R37.1)")
    assert "victory.targaryen" in item.hint and "format: 2" in item.hint
    # stated as format 2, the same file runs, and castles.stark of a format 1 file means what it always meant
    assert run_scenario(rules, Scenario.load(_file(tmp_path, "format: 2\n" + textwrap.dedent(old)))).ok
    assert run_scenario(rules, Scenario.load(_file(tmp_path, textwrap.dedent(old).replace(
        "castles.targaryen: 1", "castles.stark: 2")))).ok


def test_a_newer_format_is_refused(rules, tmp_path):
    item = _error(rules, _file(tmp_path, f"format: {SCENARIO_FORMAT + 1}\nname: x\nexpect: {{winner: stark}}\n"))
    assert item.message.startswith(f"format: this scenario was written for format {SCENARIO_FORMAT + 1}")


def test_an_old_card_check_is_read_as_it_was_meant(rules, tmp_path):
    """Format 1's `card` named the card an event is about: Jaqen cancels Eddard, and the cancel event's `card` is
    now Jaqen (the acting card) with Eddard its `subject`. A format 1 `{type: cancel, card: eddard-stark}` still
    finds it; in format 2 it must be written with `subject`."""
    text = JAQEN.read_text(encoding="utf-8").replace("format: 2\n", "")
    text = text.replace("{type: cancel, house: stark, subject: eddard-stark}", "{type: cancel, card: eddard-stark}")
    text = text.replace("{type: reveal, house: stark, subject: ser-rodrick-cassel}",
                        "{type: reveal, card: ser-rodrick-cassel}")
    old = _file(tmp_path, text)
    assert run_scenario(rules, Scenario.load(old)).ok
    as_new = _file(tmp_path, "format: 2\n" + text)
    assert not run_scenario(rules, Scenario.load(as_new)).ok  # `card` is Jaqen's: the check would fail
    absent = text.replace("expect:\n", "expect:\n  absent:\n    - {type: cancel, card: eddard-stark}\n", 1)
    assert not run_scenario(rules, Scenario.load(_file(tmp_path, absent))).ok  # format 1: it did happen


def test_a_subject_on_an_event_that_never_names_a_card_is_an_error(rules, tmp_path):
    item = _error(rules, _file(tmp_path, """\
        format: 2
        name: x
        setup: base-3p
        position: {round: 2, phase: planning}
        otherwise: stop
        expect:
          absent:
            - {type: combat, subject: eddard-stark}
        """))
    assert item.message == "expect.absent[0]: events of type 'combat' never name a card, so they never have a 'subject'"
