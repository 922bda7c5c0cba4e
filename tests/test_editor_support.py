"""Editor support: the language server (`maester lsp`) and the generated syntax grammars."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from maester.dsl.compile import default_content_dir
from maester.dsl.kinds import KINDS
from maester.dsl.registry import PRIMITIVES, TRIGGERS
from maester.tools import gen_editor_grammars as gen
from maester.tools.lsp import completion_items, content_roots, diagnostics_for, hover, hover_text, pack_root
from maester.tools.lsp_client import NoAnswer, ServerStopped, StdioClient

from .conftest import REPO

EDITORS = REPO / "editors"
TEXTMATE = EDITORS / "textmate" / "maester.tmLanguage.json"

TABLE = 'table editor-test "Editor test" {\n  description "a table of a test pack"\n  row a [1, 2]\n}\n'


def _range(d: lsp.Diagnostic) -> tuple[int, int, int, int]:
    r = d.range
    return r.start.line, r.start.character, r.end.line, r.end.character


# ---- diagnostics --------------------------------------------------------------------------------


def test_an_unsaved_error_in_a_bundled_file_is_reported_at_its_exact_place():
    path = default_content_dir() / "cards" / "base" / "greyjoy.mst"
    on_disk = path.read_text(encoding="utf-8")
    lines = on_disk.split("\n")
    row = next(i for i, line in enumerate(lines) if re.search(r"\bswords 1\b", line))
    col = lines[row].index("swords 1")
    lines[row] = lines[row][:col] + "sword 1" + lines[row][col + len("swords 1"):]
    diags = diagnostics_for(path, "\n".join(lines))
    assert len(diags) == 1, [d.message for d in diags]
    d = diags[0]
    assert _range(d) == (row, col, row, col + len("sword"))
    assert d.message.startswith("unknown key 'sword' in house-card\nhelp: did you mean 'swords'?")
    assert d.severity == lsp.DiagnosticSeverity.Error
    assert d.code == "unknown-key"
    assert d.source == "maester"
    # the file on disk is untouched, and its own text compiles without a problem in it
    assert path.read_text(encoding="utf-8") == on_disk
    assert diagnostics_for(path, on_disk) == []


def test_an_unsaved_edit_that_fixes_the_file_on_disk_gives_no_diagnostics(tmp_path):
    pack = tmp_path / "editor-pack"
    pack.mkdir()
    path = pack / "tables.mst"
    path.write_text(TABLE.replace("description", "descripton"), encoding="utf-8")
    broken = diagnostics_for(path, path.read_text(encoding="utf-8"))
    assert [(d.code, _range(d)) for d in broken] == [("unknown-key", (1, 2, 1, 12))]
    assert "did you mean 'description'?" in broken[0].message
    assert diagnostics_for(path, TABLE) == []  # the buffer wins over the disk


def test_syntax_errors_are_located_and_at_least_one_character_wide(tmp_path):
    path = tmp_path / "editor-pack" / "tables.mst"  # not saved yet: the folder does not even exist
    diags = diagnostics_for(path, TABLE.replace("[1, 2]", "[1, 2"))
    assert diags and all(d.severity == lsp.DiagnosticSeverity.Error for d in diags)
    first = diags[0]
    assert first.code == "syntax"
    assert (first.range.end.line, first.range.end.character) > (first.range.start.line, first.range.start.character)


def test_a_lint_warning_is_published_as_a_warning(tmp_path):
    pack = tmp_path / "editor-pack"
    pack.mkdir()
    path = pack / "sets.mst"
    text = '# a set without cards\ncard-set lonely "Lonely" {\n  description "no cards yet"\n}\n'
    diags = diagnostics_for(path, text)
    assert [(d.code, d.severity, _range(d)) for d in diags] == [
        ("empty-set", lsp.DiagnosticSeverity.Warning, (1, 0, 1, len("card-set")))]
    assert diags[0].message == "card set 'lonely' has no cards"


def test_a_pack_is_compiled_with_the_bundled_content_and_its_whole_folder(tmp_path):
    pack = tmp_path / "editor-pack"
    (pack / "cards").mkdir(parents=True)
    (pack / "sets.mst").write_text(TABLE, encoding="utf-8")
    card = pack / "cards" / "x.mst"
    assert pack_root(card) == pack
    assert content_roots(card) == [default_content_dir().resolve(), pack.resolve()]
    assert content_roots(default_content_dir() / "core" / "tables.mst") == [default_content_dir().resolve()]
    # the same table as the pack's other file: found, so the whole pack was compiled
    diags = diagnostics_for(card, TABLE)
    assert [(d.code, _range(d)) for d in diags] == [("duplicate-id", (0, 6, 0, 17))]
    assert "editor-pack/sets.mst" in diags[0].message


def test_a_copy_of_the_content_is_compiled_instead_of_the_bundled_one(tmp_path):
    """A repository checkout edited while maester is installed from elsewhere: no duplicate of every id."""
    import shutil

    copy = tmp_path / "checkout" / "content"
    shutil.copytree(default_content_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    path = copy / "core" / "tables.mst"
    assert content_roots(path) == [copy.resolve()]
    text = path.read_text(encoding="utf-8")
    assert diagnostics_for(path, text) == []
    broken = diagnostics_for(path, text.replace("description", "descripton", 1))
    assert [d.code for d in broken] == ["unknown-key"]


# ---- hover and completion -----------------------------------------------------------------------


def test_hover_on_a_primitive_shows_its_signature_and_doc():
    text = "house-card x \"X\" {\n  when after-winner-determination {\n    gain-power(you, 2)\n  }\n}\n"
    h = hover(text, 2, 7)
    assert h is not None and h.contents.kind == lsp.MarkupKind.Markdown
    assert "gain-power(house: house, amount: int)" in h.contents.value
    assert PRIMITIVES["gain-power"].doc in h.contents.value
    assert (h.range.start.line, h.range.start.character, h.range.end.character) == (2, 4, 14)
    assert TRIGGERS["after-winner-determination"].doc in hover(text, 1, 12).contents.value
    assert KINDS["house-card"].doc in hover(text, 0, 3).contents.value
    assert hover(text, 0, 11) is None  # `x`: a word the language does not define
    assert "key of house-card" in hover_text("swords")


def test_completion_offers_primitives_triggers_and_declaration_kinds():
    labels = {item.label: item for item in completion_items()}
    assert "gain-power" in labels and labels["gain-power"].kind == lsp.CompletionItemKind.Function
    assert labels["gain-power"].detail == "gain-power(house: house, amount: int)"
    assert set(PRIMITIVES) | set(TRIGGERS) | {k.name for k in KINDS.values() if k.top_level} <= set(labels)


# ---- the syntax grammars ------------------------------------------------------------------------


def _regexes(node, where="$"):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("match", "begin", "end") and isinstance(value, str):
                yield f"{where}.{key}", value
            else:
                yield from _regexes(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _regexes(value, f"{where}[{i}]")


def test_the_textmate_grammar_is_json_whose_regexes_python_compiles():
    grammar = json.loads(TEXTMATE.read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.maester" and grammar["fileTypes"] == ["mst"]
    found = list(_regexes(grammar))
    assert len(found) > 10
    for where, rx in found:
        try:
            re.compile(rx)
        except re.error as e:  # pragma: no cover - the message is the point
            pytest.fail(f"{where}: {rx!r} does not compile: {e}")
        assert r"\G" not in rx and r"\h" not in rx and "(?>" not in rx, f"{where}: Oniguruma-only syntax"
    for include in re.findall(r'"include": "#([a-z-]+)"', TEXTMATE.read_text(encoding="utf-8")):
        assert include in grammar["repository"]


def _flatten(grammar: dict, patterns: list) -> list[dict]:
    out = []
    for p in patterns:
        if "include" in p:
            out += _flatten(grammar, [grammar["repository"][p["include"][1:]]])
        elif "patterns" in p and "match" not in p and "begin" not in p:
            out += _flatten(grammar, p["patterns"])
        else:
            out.append(p)
    return out


def _scopes(line: str) -> dict[str, str]:
    """A small TextMate scanner for one line: each token → its scope (first pattern wins a tie)."""
    grammar = json.loads(TEXTMATE.read_text(encoding="utf-8"))
    rules = _flatten(grammar, grammar["patterns"])
    out, pos = {}, 0
    while pos < len(line):
        best = None
        for rule in rules:
            m = re.compile(rule.get("match") or rule["begin"], re.M).search(line, pos)
            if m and m.end() > m.start() and (best is None or m.start() < best[1].start()):
                best = (rule, m)
        if best is None:
            break
        rule, m = best
        if "begin" in rule:  # a region: inner patterns win over the end pattern when they start earlier
            stop = m.end()
            while True:
                end = re.compile(rule["end"], re.M).search(line, stop)
                inner = [x for x in (re.compile(r["match"]).search(line, stop) for r in rule.get("patterns", []))
                         if x and (end is None or x.start() < end.start())]
                if not inner:
                    break
                stop = min(inner, key=lambda x: x.start()).end()
            stop = end.end() if end else len(line)
            out[line[m.start():stop]] = rule["name"]
            pos = stop
            continue
        if rule.get("name"):
            out[m.group()] = rule["name"]
        for group, capture in rule.get("captures", {}).items():
            if m.group(int(group)):
                out[m.group(int(group))] = capture["name"]
        pos = m.end()
    return out


def test_the_textmate_grammar_gives_each_kind_of_word_its_scope():
    s = _scopes('house-card gain-power-card "A \\"text\\"" {  # a comment')
    assert s["house-card"].startswith("storage.type")
    assert s["gain-power-card"].startswith("entity.name.type")
    assert s['"A \\"text\\""'].startswith("string.quoted.double")
    assert s["# a comment"].startswith("comment.line")
    s = _scopes("  when after-winner-determination if is-winner(you) and not false {")
    assert s["when"] == s["if"] == "keyword.control.maester"
    assert s["after-winner-determination"] == "support.constant.trigger.maester"
    assert s["is-winner"] == "entity.name.function.maester"
    assert s["and"] == s["not"] == "keyword.operator.logical.maester"
    assert s["false"] == "constant.language.boolean.maester"
    s = _scopes("    gain-power(house: you, amount: 2 - 1)  # choose-one")
    assert s["gain-power"] == "entity.name.function.maester"
    assert s["house"] == s["amount"] == "variable.parameter.maester"
    assert s["you"] == "variable.other.maester"
    assert s["2"] == s["1"] == "constant.numeric.integer.maester"
    assert s["-"] == "keyword.operator.maester"
    s = _scopes("  set base  house greyjoy  strength 4  for-each-house 1")
    assert s["house"] == s["for-each-house"] == "variable.other.maester"  # no keyword inside a kebab word


def test_the_editor_grammars_are_generated_from_the_registry():
    assert gen.stale_files(REPO) == [], "editor grammars are stale: run `python tools/gen_editor_grammars.py`"
    tm = TEXTMATE.read_text(encoding="utf-8")
    vim = (EDITORS / "vim" / "syntax" / "maester.vim").read_text(encoding="utf-8")
    for kind in KINDS.values():
        if kind.top_level:
            assert kind.name in tm and kind.name in vim
    for trigger in TRIGGERS:
        assert trigger in tm and trigger in vim
    for word in ("when", "if", "else", "for", "in", "choose", "by", "count", "distinct", "may", "pay", "let",
                 "option", "and", "or", "not", "true", "false"):
        assert re.search(rf"(?<![a-z-]){word}(?![a-z-])", vim), word


def test_the_vscode_extension_points_at_files_that_exist():
    root = EDITORS / "vscode"
    package = json.loads((root / "package.json").read_text(encoding="utf-8"))
    (language,) = package["contributes"]["languages"]
    assert language["id"] == "maester" and language["extensions"] == [".mst"]
    config = json.loads((root / language["configuration"]).read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"
    (grammar,) = package["contributes"]["grammars"]
    assert grammar["scopeName"] == "source.maester"
    assert (root / grammar["path"]).read_text(encoding="utf-8") == TEXTMATE.read_text(encoding="utf-8")
    assert (root / package["main"]).exists()
    assert "autocmd" in (EDITORS / "vim" / "ftdetect" / "maester.vim").read_text(encoding="utf-8")


# ---- the server over stdio ----------------------------------------------------------------------


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if not k.endswith("_PROXY") and not k.endswith("_proxy")}


class _Client(StdioClient):
    """The tests' client: `wait_for` gives the message, and a silent or stopped server fails the test."""

    def __init__(self, cwd: Path):
        super().__init__(cwd=cwd, env=_env())

    def wait_for(self, predicate, timeout: float = 60) -> dict:
        try:
            return super().wait_for(predicate, timeout)[1]
        except NoAnswer:
            pytest.fail("the language server did not answer in time")
        except ServerStopped as e:
            pytest.fail(f"the language server stopped: {e}")


def test_maester_lsp_speaks_the_protocol_over_stdio(tmp_path):
    client = _Client(tmp_path)
    proc = client.proc
    try:
        client.send({"id": 1, "method": "initialize",
                     "params": {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}}})
        caps = client.wait_for(lambda m: m.get("id") == 1)["result"]["capabilities"]
        assert caps["hoverProvider"] is True
        assert "completionProvider" in caps
        assert caps["textDocumentSync"]["openClose"] is True and caps["textDocumentSync"]["change"] in (1, 2)
        client.send({"method": "initialized", "params": {}})

        uri = (tmp_path / "editor-pack" / "tables.mst").as_uri()
        client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "maester", "version": 1, "text": TABLE.replace("description", "descripton")}}})
        published = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
        assert published["uri"] == uri
        assert [(d["code"], d["severity"], d["source"]) for d in published["diagnostics"]] == [
            ("unknown-key", 1, "maester")]
        assert published["diagnostics"][0]["range"] == {"start": {"line": 1, "character": 2},
                                                        "end": {"line": 1, "character": 12}}
        client.send({"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 12}},
                                "text": "description"}]}})
        published = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
        assert published["diagnostics"] == [] and published["version"] == 2

        client.send({"id": 2, "method": "textDocument/completion",
                     "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}})
        result = client.wait_for(lambda m: m.get("id") == 2)["result"]
        labels = {item["label"] for item in result["items"]}  # at the top of a file: declarations only
        assert labels == {k.name for k in KINDS.values() if k.top_level}

        client.send({"id": 3, "method": "shutdown"})
        assert client.wait_for(lambda m: m.get("id") == 3)["result"] is None
        client.send({"method": "exit"})
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


# ---- navigation, hover, completion, symbols and formatting over stdio -----------------------------------


class _Session:
    """One `maester lsp` process for the tests below, with request helpers."""

    def __init__(self, cwd: Path):
        self.client = _Client(cwd)
        self.proc = self.client.proc
        self.ids = 100
        self.versions: dict[str, int] = {}
        caps = self.request("initialize", {"processId": os.getpid(), "rootUri": cwd.as_uri(), "capabilities": {}})
        self.capabilities = caps["capabilities"]
        self.client.send({"method": "initialized", "params": {}})

    def request(self, method: str, params: dict | None):
        self.ids += 1
        ident = self.ids
        self.client.send({"id": ident, "method": method, "params": params})
        reply = self.client.wait_for(lambda m: m.get("id") == ident)
        assert "error" not in reply, reply
        return reply["result"]

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8") if text is None else text
        if uri in self.versions:
            self.versions[uri] += 1
            self.client.send({"method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": self.versions[uri]}, "contentChanges": [{"text": text}]}})
        else:
            self.versions[uri] = 1
            self.client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "maester", "version": 1, "text": text}}})
        return uri

    def at(self, method: str, uri: str, line: int, character: int, **more):
        return self.request(method, {"textDocument": {"uri": uri}, "position": {"line": line, "character": character},
                                     **more})

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.client.send({"method": "exit"})
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    s = _Session(tmp_path_factory.mktemp("lsp"))
    yield s
    s.close()


def _find(path: Path, pattern: str) -> tuple[int, int]:
    """The 0-based line and column of the first match of `pattern` in a content file."""
    for row, line in enumerate(path.read_text(encoding="utf-8").split("\n")):
        m = re.search(pattern, line)
        if m:
            return row, m.start()
    raise AssertionError(f"{pattern} not in {path}")


def _text_at(location: dict) -> str:
    path = Path(location["uri"].removeprefix("file://"))
    r = location["range"]
    assert r["start"]["line"] == r["end"]["line"]
    line = path.read_text(encoding="utf-8").split("\n")[r["start"]["line"]]
    return line[r["start"]["character"]:r["end"]["character"]]


CONTENT = default_content_dir()


def test_the_server_announces_every_feature(session):
    caps = session.capabilities
    for provider in ("hoverProvider", "definitionProvider", "referencesProvider", "documentSymbolProvider",
                     "documentFormattingProvider", "completionProvider"):
        assert caps.get(provider), provider


def test_go_to_definition_of_a_house_a_card_set_and_an_area(session):
    card_file = CONTENT / "cards" / "base" / "lannister.mst"
    uri = session.open(card_file)
    row, col = _find(card_file, r"(?<=house )lannister")
    (loc,) = session.at("textDocument/definition", uri, row, col + 3)
    houses = CONTENT / "core" / "houses.mst"
    assert loc["uri"] == houses.resolve().as_uri()
    assert (loc["range"]["start"]["line"], loc["range"]["start"]["character"]) == _find(houses, r"(?<=^house )lannister")
    assert _text_at(loc) == "lannister"

    row, col = _find(card_file, r"(?<=set )base")  # `set base`: the card set, not the board or the game
    (loc,) = session.at("textDocument/definition", uri, row, col)
    assert loc["uri"].endswith("/cards/sets.mst") and _text_at(loc) == "base"

    setup_file = CONTENT / "setups" / "base.mst"
    uri = session.open(setup_file)
    row, col = _find(setup_file, r"(?<=neutral-force )kings-landing")
    (loc,) = session.at("textDocument/definition", uri, row, col + 1)
    assert loc["uri"].endswith("/boards/base.mst") and _text_at(loc) == "kings-landing"
    row, col = _find(setup_file, r"(?<=board )base")
    (loc,) = session.at("textDocument/definition", uri, row, col)
    assert loc["uri"].endswith("/boards/base.mst")
    assert (CONTENT / "boards" / "base.mst").read_text(encoding="utf-8").split("\n")[loc["range"]["start"]["line"]] \
        .startswith("board base")


def _bare_word_count(word: str) -> int:
    """How often `word` stands alone (not inside a longer kebab-case name) in the code of the bundled content."""
    n = 0
    for f in find_sources_of_content():
        for line in f.read_text(encoding="utf-8").split("\n"):
            code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line).split("#")[0]
            n += len(re.findall(rf"(?<![a-z0-9-]){word}(?![a-z0-9-])", code))
    return n


def find_sources_of_content() -> list[Path]:
    from maester.dsl.compile import find_sources

    return find_sources([CONTENT])


def test_find_references_of_a_house_lists_every_use_in_every_file(session):
    houses = CONTENT / "core" / "houses.mst"
    uri = session.open(houses)
    row, col = _find(houses, r"(?<=^house )lannister")
    locations = session.at("textDocument/references", uri, row, col, context={"includeDeclaration": True})
    assert all(_text_at(loc) == "lannister" for loc in locations)
    assert len(locations) == _bare_word_count("lannister")
    files = {loc["uri"].rsplit("/content/", 1)[1] for loc in locations}
    assert {"core/houses.mst", "cards/base/lannister.mst", "setups/base.mst", "boards/base.mst"} <= files
    without = session.at("textDocument/references", uri, row, col, context={"includeDeclaration": False})
    assert len(without) == len(locations) - 1


def test_hover_on_a_card_id_shows_its_generated_text_and_numbers(session, bundle):
    from maester.dsl.english import English

    card_file = CONTENT / "cards" / "base" / "lannister.mst"
    uri = session.open(card_file)
    row, col = _find(card_file, r"tywin-lannister")
    value = session.at("textDocument/hover", uri, row, col + 2)["contents"]["value"]
    tywin = bundle["house_cards"]["tywin-lannister"]
    assert English(bundle).card("house_cards", tywin) in value
    assert "gain 2 power" in value and "strength 4 · swords 0 · fortifications 0" in value


def test_hover_on_an_area_shows_its_icons_and_neighbours(session, bundle):
    board_file = CONTENT / "boards" / "base.mst"
    uri = session.open(board_file)
    row, col = _find(board_file, r"(?<=area )winterfell")
    value = session.at("textDocument/hover", uri, row, col)["contents"]["value"]
    base = bundle["boards"]["base"]
    neighbours = sorted({b for pair in base["borders"] for b in pair if "winterfell" in pair} - {"winterfell"})
    assert "Neighbours: " + ", ".join(base["areas"][n]["name"] for n in neighbours) in value
    assert "stronghold, supply 1, power 1, home of stark, garrison 2" in value  # as map.yaml has it
    assert {"castle-black", "karhold", "moat-cailin", "white-harbor", "the-stony-shore"} <= set(neighbours)


def _labels(items) -> list[str]:
    return [i["label"] for i in (items["items"] if isinstance(items, dict) else items)]


def test_completion_knows_the_slot(session, tmp_path, bundle):
    path = tmp_path / "pack" / "cards.mst"
    text = 'house-card x "X" {\n  set base  house \n  \n  when \n  when immediately {\n    \n  }\n}\n'
    uri = session.open(path, text)
    houses = _labels(session.at("textDocument/completion", uri, 1, 18))
    assert houses == sorted(bundle["houses"])
    sets = _labels(session.at("textDocument/completion", uri, 1, 6))
    assert sets == sorted(bundle["card_sets"])
    keys = _labels(session.at("textDocument/completion", uri, 2, 2))
    assert set(keys) == set(KINDS["house-card"].keys) | {"when"}
    assert set(_labels(session.at("textDocument/completion", uri, 3, 7))) == set(TRIGGERS)
    in_effect = set(_labels(session.at("textDocument/completion", uri, 5, 4)))
    assert {"gain-power", "if", "choose"} <= in_effect and "strength" not in in_effect
    setup = tmp_path / "pack" / "setup.mst"
    uri = session.open(setup, 'setup s "S" {\n  houses [stark, ]\n  game \n}\n')
    assert _labels(session.at("textDocument/completion", uri, 1, 17)) == sorted(bundle["houses"])
    assert _labels(session.at("textDocument/completion", uri, 2, 7)) == sorted(bundle["games"])


def test_document_symbols_list_the_declarations_with_their_areas(session):
    board_file = CONTENT / "boards" / "base.mst"
    uri = session.open(board_file)
    symbols = session.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["name"] for s in symbols] == ["base"]
    declared = re.findall(r"^\s*(?:area|port) ([a-z0-9-]+)", board_file.read_text(encoding="utf-8"), re.M)
    assert [c["name"] for c in symbols[0]["children"]] == declared
    cards = CONTENT / "cards" / "base" / "stark.mst"
    uri = session.open(cards)
    names = [s["name"] for s in session.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})]
    assert names == re.findall(r"^house-card ([a-z0-9-]+)", cards.read_text(encoding="utf-8"), re.M)


def test_formatting_gives_what_maester_fmt_gives(session, tmp_path):
    from maester.dsl.fmt import format_text

    from .test_fmt import MESSY, TIDY

    uri = session.open(tmp_path / "pack" / "messy.mst", MESSY)
    (edit,) = session.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                         "options": {"tabSize": 2, "insertSpaces": True}})
    assert edit["range"]["start"] == {"line": 0, "character": 0}
    assert edit["newText"] == format_text(MESSY) == TIDY
    uri = session.open(tmp_path / "pack" / "messy.mst", TIDY)
    assert session.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                      "options": {"tabSize": 2, "insertSpaces": True}}) == []


def test_bench_lsp_runs_at_a_tiny_size(capsys):
    import importlib.util

    spec = importlib.util.spec_from_file_location("maester_bench_lsp", REPO / "benchmarks" / "bench_lsp.py")
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    result = bench.main(["--edits", "2", "--pause", "0.05"])
    assert result["edits"] == 2 and result["median_ms"] > 0
    assert "90th percentile" in capsys.readouterr().out
    inside = bench.main(["--edits", "1", "--pause", "0.05", "--inside"])  # typing into a declaration
    assert inside["inside"] is True and inside["median_ms"] > 0
    assert "typed inside a declaration" in capsys.readouterr().out


def test_an_edit_parses_only_the_edited_file(monkeypatch):
    """Incremental diagnostics: every other file's tree comes from the parse cache."""
    from maester.dsl import parse_cache
    from maester.dsl.compile import find_sources

    cache = parse_cache.ParseCache(disk=False)  # memory only, as fresh as a server that just started
    monkeypatch.setattr(parse_cache, "SHARED", cache)
    path = CONTENT / "cards" / "base" / "stark.mst"
    text = path.read_text(encoding="utf-8")
    assert diagnostics_for(path, text) == []
    files = len(find_sources([CONTENT]))
    assert (cache.misses, cache.hits) == (files, 0)
    broken = diagnostics_for(path, text.replace("strength", "strenght", 1))
    assert (cache.misses, cache.hits) == (files + 1, files - 1)
    assert [d.code for d in broken] == ["unknown-key", "missing-key"]  # 'strenght' is unknown, 'strength' missing
    assert diagnostics_for(path, text) == [] and cache.misses == files + 1  # the old text is still cached


def test_hover_on_a_house_shows_what_its_declaration_says(session, bundle):
    houses = CONTENT / "core" / "houses.mst"
    uri = session.open(houses)
    row, col = _find(houses, r"(?<=^house )stark")
    value = session.at("textDocument/hover", uri, row, col)["contents"]["value"]
    stark = bundle["houses"]["stark"]
    assert f'house stark "{stark["name"]}"' in value
    assert f"home {stark['home']}" in value and f"power-tokens {stark['power_tokens']}" in value
    assert stark["home"] == "winterfell"


# ---- a server that answers every request, whatever it is sent -------------------------------------------


def _raw(client: _Client, message: dict) -> None:
    """A message as a client might send it, lone surrogates included (escaped in the JSON, as JSON allows)."""
    client.send_raw(json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=True).encode("ascii"))


def _diagnostics_of(client: _Client, uri: str) -> list[dict]:
    return client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                           and m["params"]["uri"] == uri)["params"]["diagnostics"]


def test_every_request_is_answered_and_a_bad_document_breaks_no_other(tmp_path):
    s = _Session(tmp_path)
    try:
        pack = tmp_path / "robust-pack"
        pack.mkdir()
        good = pack / "tables.mst"
        good.write_text(TABLE, encoding="utf-8")
        # params that do not parse: an InvalidParams error, not silence
        s.ids += 1
        s.client.send({"id": s.ids, "method": "textDocument/hover", "params": {"textDocument": 5, "position": "x"}})
        reply = s.client.wait_for(lambda m, i=s.ids: m.get("id") == i)
        assert reply["error"]["code"] == -32602
        # a document whose URI holds %00 (no file can have that path), and one with a lone surrogate in its text
        bad = (pack / "nul.mst").as_uri().replace("nul.mst", "n%00ul.mst")
        s.client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": bad, "languageId": "maester", "version": 1, "text": TABLE.replace("editor-test", "nul")}}})
        surrogate = (pack / "surrogate.mst").as_uri()
        _raw(s.client, {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": surrogate, "languageId": "maester", "version": 1,
            "text": 'table surrogate "A \ud800 name" {\n  row a [1]\n}\n'}}})
        uri = s.open(good)
        assert _diagnostics_of(s.client, uri) == []  # the good document: compiled, with no problem
        word = hover_text("table").split("\n")[0]
        for target in (uri, bad, surrogate):  # every document answers, the bad ones too
            result = s.at("textDocument/hover", target, 0, 2)
            assert result is not None and word in result["contents"]["value"], (target, result)
        s.open(good, TABLE.replace("description", "descripton"))  # and the good one still gets its diagnostics
        assert [d["code"] for d in _diagnostics_of(s.client, uri)] == ["unknown-key"]
    finally:
        s.close()


def test_a_loose_file_in_a_big_folder_is_compiled_alone_with_the_bundled_content(tmp_path):
    """A folder of 4,000 files is not a pack: the file beside them is compiled alone (the bound: MAX_PACK_FILES
    content files, MAX_PACK_ENTRIES entries looked at)."""
    from maester.tools.lsp import MAX_PACK_ENTRIES, MAX_PACK_FILES, pack_is_small

    big = tmp_path / "downloads"
    big.mkdir()
    for i in range(4000):
        (big / f"note-{i:04}.mst").write_text(f'table note-{i} "Note" {{\n  row a [1]\n}}\n', encoding="utf-8")
    loose = big / "mine.mst"
    loose.write_text(TABLE, encoding="utf-8")
    assert MAX_PACK_FILES < 4000 and MAX_PACK_ENTRIES < 4000 * 2 and not pack_is_small(big)
    assert content_roots(loose) == [default_content_dir().resolve(), loose.resolve()]
    assert diagnostics_for(loose, TABLE.replace("description", "descripton"))[0].code == "unknown-key"
    small = tmp_path / "pack"
    small.mkdir()
    (small / "tables.mst").write_text(TABLE, encoding="utf-8")
    assert pack_is_small(small) and content_roots(small / "tables.mst")[-1] == small.resolve()


def test_many_unreadable_requests_are_each_answered_and_logged_in_one_line(tmp_path):
    """Found by a hostile campaign: pygls wrote a whole traceback to stderr for each request whose params do not
    parse; a client that does not read stderr (this one) filled the pipe after about eight, and the server then
    answered nothing. One short line each now: all forty get InvalidParams."""
    client = _Client(tmp_path)
    try:
        client.send({"id": 1, "method": "initialize",
                     "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}})
        client.wait_for(lambda m: m.get("id") == 1)
        for ident in range(2, 42):
            client.send({"id": ident, "method": "textDocument/semanticTokens/full", "params": None})
            assert client.wait_for(lambda m, i=ident: m.get("id") == i)["error"]["code"] == -32602
    finally:
        client.proc.kill()
        client.proc.wait(timeout=30)
    assert "Traceback" not in client.stderr_text()


def test_hover_on_a_line_with_a_lone_surrogate():
    """Found by a hostile campaign: a document holding a lone surrogate (an editor may send one) made hover an
    internal error (the UTF-16 offset of the word could not be counted)."""
    from maester.tools.lsp import word_at

    word, where = word_at("\ud800zz stark", 0, 5)  # the surrogate is one UTF-16 unit, as the editor counts it
    assert (word, where.start.character, where.end.character) == ("stark", 4, 9)
    assert hover("\ud800zz stark", 0, 5) is None  # no internal error (a house name has no hover of its own)
