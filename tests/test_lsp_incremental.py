"""The language server's incremental diagnostics are those of a compile from scratch, edit after edit.

Random edits of real content files (insertions of comments, stray words, keys and broken text; deletions; a line
typed twice; the file fixed again) are each compiled the way the language server compiles them
(`tools/lsp.analyse`: the parse cache, the declaration pieces of a large file, the reuse of the last compile's
checks in dsl/incremental.py), and the result is compared with a fresh full check: `compile_sources` and `lint` with
the edited file parsed whole by the parser itself.
"""

from __future__ import annotations

import random

import pytest

from maester.dsl.compile import compile_sources, default_content_dir
from maester.dsl.diagnostics import CompileError, Diagnostics
from maester.dsl.lint import lint
from maester.dsl.parse import parse_text
from maester.dsl.parse_cache import SHARED
from maester.tools import lsp

CONTENT = default_content_dir()


@pytest.fixture(autouse=True)
def as_the_server_parses(monkeypatch):
    """The parse cache as the language server sets it: unsaved texts in memory only, a large file's pieces kept."""
    monkeypatch.setattr(SHARED, "write_disk", False)
    monkeypatch.setattr(SHARED, "keep_pieces", True)


def fresh(path, text):
    """A from-scratch check of the content with `text` as `path`: every diagnostic, and the bundle."""
    result, sources = lsp.gather(path, text)
    label = result.labels[path.resolve()]
    diags = Diagnostics()

    def parse(body, file, d):  # the edited file by the parser itself; the others are the files on disk
        return parse_text(body, file, d) if file == label else SHARED.parse(body, file, d)

    try:
        bundle = compile_sources(sources, diags, parse=parse)
    except CompileError:
        bundle = None
    else:
        lint(bundle, diags)
    return list(diags), bundle


def check_same(path, text):
    analysis = lsp.analyse(path, text)
    expected, bundle = fresh(path, text)
    assert analysis.items == expected
    assert analysis.bundle == bundle
    published = analysis.for_file(path)
    label = analysis.labels[path.resolve()]
    assert published == [lsp.to_lsp(d, text) for d in expected if d.span is not None and d.span.file == label]
    return analysis


def _line_starts(text: str) -> list[int]:
    return [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]


def random_edit(rng: random.Random, text: str, original: str, step: int) -> str:
    """One edit as a person makes them, typed or broken or fixed."""
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    kind = rng.choice(["comment", "stray", "key", "delete", "broken", "twice", "number", "fix", "append"])
    if kind == "comment":
        lines.insert(at, f"# typed {step}")
    elif kind == "stray":  # a word that declares nothing (at the top level: an unknown declaration)
        lines.insert(at, f"bogus-{step}")
    elif kind == "key":
        lines.insert(at, f"  power {step}")
    elif kind == "delete":
        del lines[at]
    elif kind == "broken":
        lines[at] = lines[at] + rng.choice(["{", '"unterminated', " [3", "}", " (", " _x"])
    elif kind == "twice":
        lines.insert(at, lines[at])
    elif kind == "number":
        lines[at] = "".join(str(rng.randrange(1, 9)) if ch.isdigit() else ch for ch in lines[at])
    elif kind == "fix":
        return original
    else:  # typing at the end of the file, as the benchmark does
        return text + rng.choice([f"\n# typed {step}\n", f"\nbogus-{step}\n"])
    return "\n".join(lines)


@pytest.mark.parametrize(("file", "edits", "seed"), [
    ("setups/mother-of-dragons.mst", 10, 1),  # the largest file: parsed declaration by declaration
    ("cards/base/stark.mst", 8, 2),
    ("core/houses.mst", 6, 3),
])
def test_random_edits_give_the_diagnostics_of_a_fresh_check(file, edits, seed):
    path = CONTENT / file
    original = path.read_text(encoding="utf-8")
    rng = random.Random(seed)
    check_same(path, original)
    text = original
    for step in range(edits):
        text = random_edit(rng, text, original, step)
        check_same(path, text)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 16))
def test_many_random_edits_give_the_diagnostics_of_a_fresh_check(seed):
    rng = random.Random(seed)
    path = CONTENT / rng.choice(["setups/mother-of-dragons.mst", "setups/base.mst", "cards/base/stark.mst",
                                 "boards/base.mst", "variants/asos.mst", "core/tracks.mst"])
    original = path.read_text(encoding="utf-8")
    text = original
    for step in range(30):
        text = random_edit(rng, text, original, step)
        check_same(path, text)


def test_typing_a_comment_or_a_stray_word_reuses_the_checks_of_the_content():
    """What bench_lsp types: no declaration changes, so the content is not checked again, and the diagnostics
    are still exact (a stray word is an unknown declaration; a comment is nothing)."""
    path = CONTENT / "setups" / "mother-of-dragons.mst"
    good = path.read_text(encoding="utf-8")
    check_same(path, good)
    engine = lsp._compiler_for(lsp.gather(path, good)[1])  # the server's compiler of the bundled content
    full = engine.full
    for i in range(4):
        text = good + (f"\n# typed {i}\n" if i % 2 else f"\n# typed {i}\nbogus-{i}\n")
        analysis = check_same(path, text)
        codes = [d.code for d in analysis.for_file(path)]
        assert codes == ([] if i % 2 else ["unknown-kind"])
    assert engine.full == full  # every edit reused the checks of the first compile
    broken = good.replace("power-tokens 7", "power-tokens 6", 1)  # a declaration changes: all is checked again
    check_same(path, broken)
    assert engine.full == full + 1


@pytest.mark.parametrize(("file", "old", "new"), [
    ("core/houses.mst", 'house stark "Stark"', 'house starq "Stark"'),  # every Stark card now names an unknown house
    ("core/tracks.mst", "dominance-token valyrian-steel-blade", "dominance-token valyrian-steel-sword"),
])
def test_an_edit_that_changes_what_other_declarations_read_checks_them_again(file, old, new):
    """Declarations of other files lowered by the last compile are reused only while the ids declared and the
    tracks are the same: renaming a house or a dominance token reports every use of the old name."""
    path = CONTENT / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    check_same(path, text)
    renamed = check_same(path, text.replace(old, new, 1))
    assert renamed.items and renamed.bundle is None  # errors in other files (the uses of the old name)
    assert any(d.span is not None and d.span.file != renamed.labels[path.resolve()] for d in renamed.items)
    check_same(path, text)


def test_declarations_typed_in_next_to_a_stray_line_keep_its_diagnostics():
    """A full compile declares again only the items it has not seen (a large file's unchanged declarations keep
    their trees): the others' diagnostics (here an unknown declaration, and a setup with an extra word after its
    name, declared all the same) are replayed, edit after edit."""
    path = CONTENT / "setups" / "mother-of-dragons.mst"
    good = path.read_text(encoding="utf-8")
    header = good.index('"Mother of Dragons, 3 players"') + len('"Mother of Dragons, 3 players"')
    texts = [good + "\nbogus-word\n"]
    texts.append(texts[0][:header] + " extra" + texts[0][header:])
    last = texts[1].rindex("power-tokens ")
    for n in (1, 2, 3):  # then a declaration changes at each edit: every compile is a full one
        texts.append(texts[1][:last] + f"power-tokens {n}" + texts[1][last + len("power-tokens 7"):])
    for text in texts:
        codes = [d.code for d in check_same(path, text).for_file(path)]
        assert "unknown-kind" in codes and ("extra-value" in codes) == (text is not texts[0])
