"""`maester fmt` and dsl/fmt.py: one canonical layout, comments kept, meaning never changed."""

from __future__ import annotations

import random
import re
import shutil

import pytest
from typer.testing import CliRunner

from maester.dsl.compile import compile_paths, default_content_dir, find_sources
from maester.dsl.fmt import FormatError, format_text
from maester.tools.cli import app

runner = CliRunner()

MESSY = '''

# a messy file
house-card   x "X"{
set base house stark   strength 4
      swords 1 # trailing
\twhen after-winner-determination   if  count(units(you,knight))>0{
  gain-power(you , 2)   ;   add-strength( you, -1 )
let n = 3 -1
  if not(n>1) and (n - 2)<3 { gain-power(you,n*2) } else {}


}
  may by you pay 2 if true {
     choose c in [a,
  b,
     c] count 2 distinct { discard(c) }
  }
}
'''

TIDY = '''# a messy file
house-card   x "X" {
  set base house stark   strength 4
  swords 1  # trailing
  when after-winner-determination   if  count(units(you, knight)) > 0 {
    gain-power(you, 2); add-strength(you, -1)
    let n = 3 - 1
    if not (n > 1) and (n - 2) < 3 { gain-power(you, n * 2) } else { }
  }
  may by you pay 2 if true {
    choose c in [a,
                 b,
                 c] count 2 distinct { discard(c) }
  }
}
'''

CONTENT = sorted(find_sources([default_content_dir()]))


def _comments(text: str) -> list[str]:
    return [m.group().rstrip() for m in re.finditer(r'#[^\n]*', re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text))]


def _mangle(text: str, rng: random.Random) -> str:
    """The same file as a careless author might type it: any indentation, spaces lost or doubled, blank lines."""
    out = []
    for line in text.split("\n"):
        body = line.strip()
        if '"' not in body and "#" not in body:  # texts and comments are the author's, word for word
            body = re.sub(r", (?=\S)", lambda m: rng.choice([",", ", ", ",  "]), body)
            body = re.sub(r"(?<=\w)\(", lambda m: rng.choice(["(", "( "]), body)
        out.append(rng.choice(["", " ", "\t", "      "]) + body + rng.choice(["", "  ", "\t"]))
        if rng.random() < 0.1:
            out.append(rng.choice(["", "   "]))
    return "\n".join(out)


def test_a_messy_file_gets_the_canonical_layout():
    assert format_text(MESSY) == TIDY
    assert format_text(TIDY) == TIDY


def test_windows_line_ends_tabs_and_a_missing_final_newline_are_normalised():
    assert format_text('table t "T" {\r\n\trow a [1,2]\r\n}') == 'table t "T" {\n  row a [1, 2]\n}\n'
    assert format_text("") == "" and format_text("\n\n# only a comment\n\n") == "# only a comment\n"


def test_signs_and_subtraction_are_told_apart():
    text = 'order o "O" {\n  set house  type march  value -1\n}\nhouse-card c "C" {\n  when immediately {\n' \
           '    let a = 3-1\n    move-supply(you, -2)\n    let b = (a)-1\n  }\n}\n'
    out = format_text(text)
    assert "value -1" in out and "let a = 3 - 1" in out and "move-supply(you, -2)" in out
    assert "let b = (a) - 1" in out


@pytest.mark.parametrize("path", CONTENT, ids=lambda p: p.relative_to(default_content_dir()).as_posix())
def test_formatting_the_bundled_content_is_idempotent_and_keeps_every_comment(path):
    text = path.read_text(encoding="utf-8")
    once = format_text(text, str(path))
    assert format_text(once, str(path)) == once
    assert _comments(once) == _comments(text)


def test_formatting_a_mangled_copy_of_the_content_gives_back_the_same_bundle(tmp_path):
    rng = random.Random(13)
    copy = tmp_path / "content"
    shutil.copytree(default_content_dir(), copy, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    for f in find_sources([copy]):
        mangled = _mangle(f.read_text(encoding="utf-8"), rng)
        f.write_text(format_text(mangled, str(f)), encoding="utf-8")
    assert _without_positions(compile_paths([copy], cache=False)) == _without_positions(compile_paths(cache=False))


def test_formatting_the_bundled_content_leaves_its_bundle_identical(tmp_path):
    copy = tmp_path / "content"  # the same folder name: the same file labels in the bundle
    shutil.copytree(default_content_dir(), copy, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    for f in find_sources([copy]):
        f.write_text(format_text(f.read_text(encoding="utf-8"), str(f)), encoding="utf-8")
    assert compile_paths([copy], cache=False) == compile_paths(cache=False)


def _without_positions(node):
    """A bundle without what layout changes: `file:line:col` positions and the sources' hashes."""
    if isinstance(node, dict):
        return {k: _without_positions(v) for k, v in node.items() if k not in ("source", "at", "sources")}
    if isinstance(node, list):
        return [_without_positions(x) for x in node]
    return node


def test_a_file_that_does_not_parse_is_not_formatted():
    with pytest.raises(FormatError) as e:
        format_text('table t "T" {\n  row a [1, 2\n', "broken.mst")
    (d,) = e.value.diagnostics.errors
    assert d.code == "syntax" and d.span.file == "broken.mst"


# ---- the command -------------------------------------------------------------------------------------


def test_fmt_check_lists_unformatted_files_and_exits_1_without_changing_them(tmp_path):
    (tmp_path / "ok.mst").write_text(TIDY, encoding="utf-8")
    (tmp_path / "messy.mst").write_text(MESSY, encoding="utf-8")
    r = runner.invoke(app, ["fmt", "--check", str(tmp_path)])
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [f"would reformat {tmp_path / 'messy.mst'}"]
    assert "1 file would be reformatted, 1 already formatted" in r.stderr
    assert (tmp_path / "messy.mst").read_text(encoding="utf-8") == MESSY

    r = runner.invoke(app, ["fmt", str(tmp_path)])
    assert r.exit_code == 0 and r.stdout.splitlines() == [f"reformatted {tmp_path / 'messy.mst'}"]
    assert (tmp_path / "messy.mst").read_text(encoding="utf-8") == TIDY
    r = runner.invoke(app, ["fmt", "--check", str(tmp_path)])
    assert r.exit_code == 0 and r.stdout == "" and "2 files already formatted" in r.stderr


def test_fmt_leaves_a_broken_file_alone_and_reports_its_error(tmp_path):
    broken = tmp_path / "broken.mst"
    broken.write_text('table t "T" {\n  row a [1, 2\n', encoding="utf-8")
    (tmp_path / "messy.mst").write_text(MESSY, encoding="utf-8")
    r = runner.invoke(app, ["fmt", str(tmp_path)])
    assert r.exit_code == 1
    assert f"{broken}:" in r.stderr and "[syntax]" in r.stderr and "Traceback" not in r.stderr
    assert broken.read_text(encoding="utf-8") == 'table t "T" {\n  row a [1, 2\n'
    assert (tmp_path / "messy.mst").read_text(encoding="utf-8") == TIDY  # the good file is still formatted


def test_fmt_reads_stdin_and_rejects_a_missing_path(tmp_path):
    r = runner.invoke(app, ["fmt", "-"], input=MESSY)
    assert r.exit_code == 0 and r.stdout == TIDY
    r = runner.invoke(app, ["fmt", str(tmp_path / "nowhere")])
    assert r.exit_code == 1 and "no such file or folder" in r.stderr


def test_the_bundled_content_is_formatted():
    r = runner.invoke(app, ["fmt", "--check", str(default_content_dir())])
    assert r.exit_code == 0, f"run `maester fmt content`: {r.stdout}"
    assert r.stdout == "" and f"{len(CONTENT)} files already formatted" in r.stderr


def test_fmt_reads_at_most_one_content_file_from_stdin():
    """A standard input that never ends (`maester fmt - < /dev/zero`) is refused once it holds more than a content
    file may; it was read to its end: the command never ended. (The timeout only stops a regression.)"""
    import subprocess
    import sys

    with open("/dev/zero", "rb") as zero:
        r = subprocess.run([sys.executable, "-m", "maester.tools.cli", "fmt", "-", "--json"], stdin=zero,
                           capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert '"file-too-large"' in r.stdout and "standard input has more than 1,000,000 characters" in r.stdout


def test_fmt_refuses_an_empty_path_instead_of_formatting_the_current_folder(tmp_path, monkeypatch):
    """Case 201:499 of the command-line campaign (`fmt position.json --json ''`): '' is Path('.'), so an empty
    argument formatted the whole current folder, recursively, unasked."""
    messy = tmp_path / "messy.mst"
    messy.write_text(MESSY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["fmt", ""])
    assert r.exit_code == 1 and "an empty path names no file or folder" in r.stderr
    assert messy.read_text(encoding="utf-8") == MESSY  # nothing formatted
    r = runner.invoke(app, ["fmt", "."])  # the current folder, when asked for
    assert r.exit_code == 0 and messy.read_text(encoding="utf-8") == TIDY


def test_fmt_refuses_a_file_too_large_before_reading_it(tmp_path):
    big = tmp_path / "big.mst"
    with big.open("wb") as f:
        f.truncate(4_000_001)  # sparse: no disk used
    r = runner.invoke(app, ["fmt", str(big)])
    assert r.exit_code == 1 and "has 4,000,001 bytes; content files are at most 1,000,000 characters" in r.stderr
