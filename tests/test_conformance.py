"""The shipped conformance vectors replay exactly through this interpreter, and are up to date."""

from __future__ import annotations

import json

import pytest

from maester.interpreter.conformance import VECTOR_FORMAT, bundle_digest, replay_vector

from .conftest import REPO

VECTORS = REPO / "conformance"
FILES = sorted(p for p in VECTORS.glob("*.json") if p.name not in ("index.json", "bundle.json"))


@pytest.fixture(scope="module")
def rules():
    from maester.interpreter.rules import Rules

    return Rules.default()


def test_the_shipped_bundle_is_the_current_bundle(rules):
    shipped = json.loads((VECTORS / "bundle.json").read_text())
    index = json.loads((VECTORS / "index.json").read_text())
    assert bundle_digest(shipped) == index["bundle_sha256"]
    assert bundle_digest(shipped) == bundle_digest(rules.bundle), (
        "the content changed since the vectors were made: run `maester conformance --write conformance`")


def test_vectors_are_shipped_with_their_index(rules):
    index = json.loads((VECTORS / "index.json").read_text())
    assert len(FILES) >= 60 and len(index["vectors"]) == len(FILES)
    assert len(index["bundle_sha256"]) == 64 and index["bundle_format"] == rules.bundle["format_version"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_vector_replays(rules, path):
    vector = json.loads(path.read_text())
    assert vector["format"] == VECTOR_FORMAT
    assert replay_vector(rules, vector) == []
