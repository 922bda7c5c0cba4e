"""Issue 20.3: integers are integers in every schema and reader (`4.0` refused with its JSON pointer), and no
number, string, nesting depth, file name or count read from a file is unbounded: each has a stated limit
(dsl/limits.py) and a located error, never exit 3."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maester.dsl import json_input
from maester.dsl.diagnostics import MaesterError
from maester.dsl.files import MAX_NAME_BYTES
from maester.dsl.json_input import loads
from maester.dsl.limits import MAX_DATA_INTEGER, MAX_DATA_VALUES, MAX_JSON_DEPTH, MAX_UNIT_COUNT
from maester.interpreter.core.rules import Rules
from maester.tools.cli import app

from .conftest import REPO

runner = CliRunner()
BUNDLE = REPO / "conformance" / "bundle.json"

# the places where an integral float once crashed a game (supply, decks, orders, swords, Tides, units, bids)
FLOAT_PLACES = [
    ("/houses/stark/starting_supply", ("houses", "stark", "starting_supply")),
    ("/westeros_cards/{w}/copies", ("westeros_cards", "{w}", "copies")),
    ("/orders/consolidate-power/copies", ("orders", "consolidate-power", "copies")),
    ("/house_cards/{h}/swords", ("house_cards", "{h}", "swords")),
    ("/tides_cards/tob-0/copies", ("tides_cards", "tob-0", "copies")),
    ("/houses/stark/unit_limits/knight", ("houses", "stark", "unit_limits", "knight")),
    ("/houses/stark/power_tokens", ("houses", "stark", "power_tokens")),
    ("/games/base/max_rounds", ("games", "base", "max_rounds")),
]


@pytest.fixture(scope="module")
def bundle() -> dict:
    return json.loads(BUNDLE.read_text())


def _with_float(bundle: dict, path: tuple) -> tuple[dict, str]:
    b = copy.deepcopy(bundle)
    w = sorted(b["westeros_cards"])[0]
    h = next(c for c, rec in sorted(b["house_cards"].items()) if rec["swords"])
    keys = [k.format(w=w, h=h) for k in path]
    node = b
    for k in keys[:-1]:
        node = node[k]
    node[keys[-1]] = float(node[keys[-1]] or 1)
    return b, "/" + "/".join(keys)


@pytest.fixture(scope="module")
def with_floats(tmp_path_factory, bundle) -> tuple[int, dict, str]:
    """One bundle with a float at every place, validated once and loaded once (each costs a full walk of the
    reference validator over the bundle): the exit code and JSON document of `maester validate`, and the error
    `Rules.from_file` raises. Every violation is reported (at most 50), so each place is checked on its own."""
    b = bundle
    for _, path in FLOAT_PLACES:
        b, _ = _with_float(b, path)
    f = tmp_path_factory.mktemp("floats") / "bundle.json"
    f.write_text(json.dumps(b))
    result = runner.invoke(app, ["validate", str(f), "--json"])
    with pytest.raises(MaesterError, match="integer") as refused:  # a game is never started on it
        Rules.from_file(f)
    return result.exit_code, json.loads(result.stdout), str(refused.value)


@pytest.mark.parametrize(("label", "path"), FLOAT_PLACES, ids=[p[0] for p in FLOAT_PLACES])
def test_an_integral_float_in_a_bundle_is_refused_with_its_pointer(with_floats, bundle, label, path):
    exit_code, doc, refused = with_floats
    _, pointer = _with_float(bundle, path)
    assert exit_code == 1, doc
    assert any(pointer in d["message"] and "is not of type 'integer'" in d["message"] for d in doc["diagnostics"]), \
        doc["diagnostics"]
    assert f"at {pointer}: " in refused and "is not of type 'integer'" in refused, refused  # no game on it


def test_a_float_in_a_scenario_or_a_log_is_refused(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nsetup: base-3p\nseed: 3.0\nstop-after: planning\nexpect:\n  winner: stark\n")
    result = runner.invoke(app, ["explain", str(scenario)])
    assert result.exit_code == 1 and "seed: 3.0 is not of type 'integer'" in result.output, result.output
    log = tmp_path / "log.json"
    log.write_text(json.dumps({"format": "maester-game-log", "version": 1, "bundle_format": "1.0.0", "variant": None,
                               "setup": "base-3p", "seed": 3.0, "options": {}, "agents": "", "answers": [],
                               "actions": [], "events": [], "summary": {}}))
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1 and "/seed" in result.output and "integer" in result.output, result.output


@pytest.mark.parametrize("text", [
    '{"a": ' + "9" * 5000 + "}",  # past Python's 4,300-digit conversion limit
    '{"a": ' + str(MAX_DATA_INTEGER + 1) + "}",
    '{"a": 1e400}',  # infinity
    '{"a": NaN}', '{"a": -Infinity}',
    "[" * 100_000 + "]" * 100_000,
    "[" * (MAX_JSON_DEPTH + 5) + "]" * (MAX_JSON_DEPTH + 5),
])
def test_numbers_and_depth_beyond_the_limits_are_located_errors_in_every_reader(tmp_path, text):
    f = tmp_path / "x.json"
    f.write_text(text)
    with pytest.raises(MaesterError):
        loads(text, "x.json")
    for command in (["validate", str(f)], ["replay", str(f)], ["render", str(f)], ["view", str(f), "-o",
                    str(tmp_path / "x.html")], ["play", "--resume", str(f)], ["diff", str(f), str(f)]):
        result = runner.invoke(app, [*command, "--json"])
        assert result.exit_code == 1, (command, result.output[-500:])
        doc = json.loads(result.stdout)
        assert doc["diagnostics"][0]["code"] in ("bad-number", "too-deep"), (command, doc["diagnostics"])


def test_a_number_error_says_where(tmp_path):
    with pytest.raises(MaesterError) as info:
        loads('{\n  "seed": ' + "1" * 50 + "\n}", "pos.json")
    (d,) = info.value.diagnostics.items
    assert (d.code, d.span.line, d.span.column) == ("bad-number", 2, 11)


def test_a_scenario_unit_count_is_bounded(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nsetup: base-3p\nposition:\n  units:\n    winterfell: \"stark: knight x999999999\"\n"
                        "expect:\n  winner: stark\n")
    result = runner.invoke(app, ["explain", str(scenario), "--json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == 1
    (d,) = doc["diagnostics"]
    assert f"a number from 1 to {MAX_UNIT_COUNT}" in d["message"] and (d["line"], d["column"]) == (5, 17), d


@pytest.mark.parametrize("limit", [
    100_000,  # the same walk and message with a lower limit: the real one costs about 5 s of counting
    pytest.param(MAX_DATA_VALUES, marks=pytest.mark.slow),
])
def test_a_yaml_alias_bomb_is_refused(tmp_path, monkeypatch, limit):
    monkeypatch.setattr(json_input, "MAX_DATA_VALUES", limit)
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
              f"*a{i - 1}, *a{i - 1}]" for i in range(1, 9)]
    scenario = tmp_path / "bomb.yaml"
    scenario.write_text("name: bomb\nsetup: base-3p\ndescription:\n  " + "\n  ".join(lines) + "\n")
    result = runner.invoke(app, ["explain", str(scenario)])
    assert result.exit_code == 1 and f"holds more than {limit:,} values" in result.output, result.output


def test_a_file_name_too_long_in_every_path_taking_command(tmp_path):
    long = str(tmp_path / ("a" * (MAX_NAME_BYTES + 1)))
    for command in (["validate", long], ["replay", long], ["render", long], ["view", long], ["explain", long],
                    ["check", long], ["compile", "-o", long], ["compile", long], ["map", "-o", long],
                    ["play", "--resume", long], ["play", "--save", long], ["play", "--log", long], ["diff", long, long],
                    ["conformance", long], ["new", "variant", "x", "--dir", long], ["fmt", long],
                    ["schema", "--write", "--path", long], ["docs", "--write", "--path", long],
                    ["card", "tywin", "--pack", long]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1, (command, result.output)
        assert "names are at most 255 bytes" in result.output and "Traceback" not in result.output, result.output


def test_the_limits_hold_the_real_files(bundle):
    """The limits are far above real data: the bundled content, a logged game and a saved position load."""
    assert loads(BUNDLE.read_text(), "bundle.json") == bundle
    for path in sorted((REPO / "conformance").glob("*.json"))[:5]:
        loads(Path(path).read_text(), str(path))
