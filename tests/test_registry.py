"""The registry is the single source: schema, docs and checker must agree with it exactly."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from maester.dsl.docgen import generated_part, reference_markdown
from maester.dsl.effect_schema import effect_schema
from maester.dsl.registry import PRIMITIVES, STATEMENTS, TRIGGERS

from .conftest import REPO, reference_file

SCHEMA = REPO / "schemas" / "effect.schema.json"
DOCS = REPO / "docs" / "dsl.md"


def test_effect_schema_file_is_generated_from_the_registry():
    on_disk = json.loads(SCHEMA.read_text())
    assert on_disk == effect_schema(), "schemas/effect.schema.json is stale: run `maester schema --write`"


def test_docs_reference_is_generated_from_the_registry():
    assert generated_part(DOCS) == reference_markdown(), "docs/dsl.md is stale: run `maester docs --write`"


def test_every_primitive_is_in_the_schema_and_nothing_else_is():
    defs = json.loads(SCHEMA.read_text())["$defs"]
    in_schema = {k.split("-", 1)[1] for k in defs if k.startswith(("do-", "query-"))}
    assert in_schema == set(PRIMITIVES)
    for name, prim in PRIMITIVES.items():
        key = f"do-{name}" if prim.kind == "effect" else f"query-{name}"
        args = defs[key]["properties"]["args"]
        assert set(args["properties"]) == {p.name for p in prim.params}, name
        assert set(args["required"]) == {p.name for p in prim.params if p.required}, name


def test_every_primitive_is_documented_and_nothing_else_is():
    documented = set(re.findall(r"^#### `([a-z0-9-]+)`$", DOCS.read_text(), re.M))
    assert documented == set(PRIMITIVES) | set(STATEMENTS)


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_english_template_names_only_parameters(name):
    prim = PRIMITIVES[name]
    fields = {f for _, f, _, _ in string.Formatter().parse(prim.english) if f}
    assert fields <= {p.name for p in prim.params}, f"{name}: template uses {fields}"
    assert prim.english and (prim.doc or prim.kind == "query" or prim.english)


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_primitive_names_are_kebab_case_verbs_or_questions(name):
    assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name)


def test_rule_ids_cited_by_the_registry_exist_in_the_rules_digest():
    rules = reference_file("rules.md").read_text()
    cited = {r for p in PRIMITIVES.values() for r in p.rules} | {r for t in TRIGGERS.values() for r in t.rules}
    missing = sorted(r for r in cited if not re.search(rf"\*\*{re.escape(r)}(\*\*|[ .])", rules)
                     and not re.search(rf"^## {re.escape(r)} ", rules, re.M))
    assert not missing, f"rule ids not found in rules.md: {missing}"


def test_docs_rules_reference_uses_the_same_ids():
    ours = REPO / "docs" / "rules.md"
    if not ours.exists():
        pytest.skip("docs/rules.md not written yet")
    digest = reference_file("rules.md").read_text()
    ids = set(re.findall(r"\*\*(R\d+(?:\.\d+)+)", digest))
    mine = set(re.findall(r"\b(R\d+(?:\.\d+)+)\b", ours.read_text()))
    assert ids <= mine, f"docs/rules.md lacks {sorted(ids - mine)[:20]}"


def test_schema_files_are_valid_draft_2020_12():
    from jsonschema import Draft202012Validator

    for path in sorted((REPO / "schemas").glob("*.json")):
        Draft202012Validator.check_schema(json.loads(path.read_text()))


def test_card_names_are_absent_from_registry_names():
    data_dir = Path(reference_file("house-cards.yaml")).parent
    import yaml

    cards = yaml.safe_load((data_dir / "house-cards.yaml").read_text())["cards"]
    content = yaml.safe_load((data_dir / "game-content.yaml").read_text())
    ids = {c["id"] for c in cards}
    for key in ("westeros_cards", "wildling_cards", "loans"):
        ids |= {c["id"] for c in content.get(key) or []}
    generic = {"supply", "mustering", "muster", "famine", "march"}
    clash = sorted(n for n in PRIMITIVES if any(i in n for i in ids - generic if len(i) >= 5))
    assert not clash, f"primitive names that name a card: {clash}"


def test_every_primitive_has_exactly_one_interpreter_handler():
    from maester.interpreter.effects import HANDLERS, QUERIES

    effects = {n for n, p in PRIMITIVES.items() if p.kind == "effect"}
    queries = {n for n, p in PRIMITIVES.items() if p.kind == "query"}
    assert set(HANDLERS) == effects, f"missing {sorted(effects - set(HANDLERS))}, extra {sorted(set(HANDLERS) - effects)}"
    assert set(QUERIES) == queries, f"missing {sorted(queries - set(QUERIES))}, extra {sorted(set(QUERIES) - queries)}"


def test_bundle_field_reference_is_generated_from_the_schema():
    from maester.dsl.docgen import BUNDLE_BEGIN, BUNDLE_END, bundle_fields_markdown

    text = (REPO / "docs" / "bundle.md").read_text()
    part = text[text.index(BUNDLE_BEGIN):text.index(BUNDLE_END) + len(BUNDLE_END)] + "\n"
    schema = json.loads((REPO / "schemas" / "bundle.schema.json").read_text())
    assert part == bundle_fields_markdown(schema), "docs/bundle.md is stale: run `maester docs --write`"
    for name, spec in schema["$defs"].items():  # every field of every record is documented
        for field in spec.get("properties", {}):
            assert f"| `{field}` |" in part, f"{name}.{field}"
