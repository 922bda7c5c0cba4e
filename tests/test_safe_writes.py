"""Issue 20.1: every file a command writes is written whole or not at all, never over its own input, and a
failed write is a failure (exit 1, `"ok": false`, no traceback, no temporary file left, the old file kept).

Each writing command runs against
- a really full file system: a small tmpfs filled up (needs root and mount; skipped with the reason otherwise);
- a really read-only file system: a tmpfs remounted read-only (root ignores chmod, not a read-only mount);
- injected faults (always): `os.open` and `os.write` under the output folder fail with ENOSPC or EROFS, the errors a
  full disk or a read-only folder gives, for machines where mounting is refused;
- /dev/full, a device whose writes fail with ENOSPC;
and against its own input.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maester.dsl.files import TEMP_PREFIX, write_file, write_files
from maester.tools.cli import app

from .conftest import REPO

runner = CliRunner()
OLD = "the old content\n"
SCENARIO = REPO / "tests" / "scenarios" / "base" / "rules"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("inputs")
    log, pos = d / "log.json", d / "pos.json"
    # a game stopped early: a real log that render and view (run once per failing target) read quickly
    assert runner.invoke(app, ["play", "--base", "-p", "3", "-q", "--seed", "3", "--stop-at", "60", "--log",
                               str(log)]).exit_code == 0
    assert runner.invoke(app, ["play", "--base", "-p", "3", "-q", "--seed", "3", "--stop-at", "30", "--save",
                               str(pos)]).exit_code == 0
    scenarios = d / "scenarios"
    scenarios.mkdir()
    first = sorted(SCENARIO.glob("*.yaml"))[0]
    shutil.copy(first, scenarios / first.name)
    return {"log": log, "pos": pos, "scenarios": scenarios}


def _prepare(d: Path, inputs: dict[str, Path]) -> None:
    """The files a case finds in its output folder before the disk fills up (old outputs to keep intact)."""
    for name in ("bundle.json", "map.json", "pic.svg", "game.html", "pos.json", "log.json", "effect.schema.json"):
        (d / name).write_text(OLD)
    shutil.copy(inputs["pos"], d / "keep.json")
    (d / "docs").mkdir()
    (d / "docs" / "dsl.md").write_text("# The language (its generated reference is missing: --write adds it)\n")
    (d / "messy.mst").write_text('house-card a "A" {\nset base  house stark  strength 1\n}\n')
    (d / "vectors").mkdir()


# (name, arguments given the output folder and the inputs, the files that must be unchanged afterwards)
CASES = [
    ("compile -o", lambda d, i: ["compile", "-o", f"{d}/bundle.json"], ["bundle.json"]),
    ("map -o", lambda d, i: ["map", "-o", f"{d}/map.json"], ["map.json"]),
    ("render -o", lambda d, i: ["render", str(i["log"]), "-o", f"{d}/pic.svg"], ["pic.svg"]),
    ("view -o", lambda d, i: ["view", str(i["log"]), "-o", f"{d}/game.html"], ["game.html"]),
    ("play --save", lambda d, i: ["play", "--base", "-p", "3", "-q", "--stop-at", "3", "--save", f"{d}/pos.json"],
     ["pos.json"]),
    ("play --log", lambda d, i: ["play", "--base", "-p", "3", "-q", "--seed", "3", "--log", f"{d}/log.json"],
     ["log.json"]),
    ("play --resume F --save F", lambda d, i: ["play", "--resume", f"{d}/keep.json", "--save", f"{d}/keep.json",
                                               "-q", "--stop-at", "40"], ["keep.json"]),
    ("schema --write", lambda d, i: ["schema", "--write", "--path", f"{d}/effect.schema.json"],
     ["effect.schema.json"]),
    ("docs --write", lambda d, i: ["docs", "--write", "--path", f"{d}/docs/dsl.md"], ["docs/dsl.md"]),
    ("conformance --write", lambda d, i: ["conformance", f"{d}/vectors", "--write", "--scenarios",
                                          str(i["scenarios"])], []),
    ("new variant", lambda d, i: ["new", "variant", "my-pack", "--dir", str(d)], []),
    ("new variant --from", lambda d, i: ["new", "variant", "my-patch", "--dir", str(d), "--from",
                                         "card:tywin-lannister"], []),
    ("fmt", lambda d, i: ["fmt", f"{d}/messy.mst"], ["messy.mst"]),
]
JSON_LESS = {"fmt"}  # commands without --json


def _snapshot(d: Path, names: list[str]) -> dict[str, bytes]:
    return {n: (d / n).read_bytes() for n in names}


def _assert_failed_cleanly(name: str, d: Path, result, before: dict[str, bytes], as_json: bool) -> None:
    out = result.output
    assert result.exit_code == 1, f"{name}: exit {result.exit_code}\n{out}"
    assert "Traceback" not in out and result.exception is None or isinstance(result.exception, SystemExit), out
    if as_json:
        doc = json.loads(result.stdout)
        assert doc["ok"] is False and doc["exit_code"] == 1
        assert any(d_["code"] == "write-failed" for d_ in doc["diagnostics"]), doc["diagnostics"]
    else:
        assert "cannot be written" in out or "cannot be created" in out, out
    left = [p.name for p in d.rglob(f"{TEMP_PREFIX}*")]
    assert not left, f"{name}: temporary files left behind: {left}"
    for file, data in before.items():
        assert (d / file).read_bytes() == data, f"{name}: {file} changed"
    assert not (d / "my-pack").exists() and not (d / "my-patch").exists(), f"{name}: half a pack left"
    assert not list((d / "vectors").iterdir()), f"{name}: vectors half-written"


def _run(args: list[str], name: str, as_json: bool):
    if as_json and name not in JSON_LESS:
        args = [*args, "--json"]
    return runner.invoke(app, args)


# ---- a real full disk and a real read-only file system --------------------------------------------------

def _mount(where: Path, size: str) -> None:
    where.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        pytest.skip(f"cannot mount a tmpfs here ({e}); the injected faults below cover the same errors")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or 'not permitted'}); the injected faults "
                    "below cover the same errors")


def _umount(where: Path) -> None:
    subprocess.run(["umount", str(where)], capture_output=True, timeout=30)


def _fill(d: Path) -> None:
    with open(d / "filler", "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as e:
            assert e.errno == errno.ENOSPC
    probe = d / "probe"
    with pytest.raises(OSError):
        probe.write_bytes(b"x" * 8192)
    probe.unlink(missing_ok=True)


@pytest.mark.parametrize(("name", "args", "kept"), CASES, ids=[c[0] for c in CASES])
def test_a_full_disk(tmp_path, inputs, name, args, kept):
    as_json = False  # text here; the injected faults run with --json
    d = tmp_path / "full"
    _mount(d, "2m")
    try:
        _prepare(d, inputs)
        _fill(d)
        before = _snapshot(d, kept)
        result = _run(args(d, inputs), name, as_json)
        _assert_failed_cleanly(name, d, result, before, as_json and name not in JSON_LESS)
    finally:
        _umount(d)


@pytest.mark.parametrize(("name", "args", "kept"), CASES, ids=[c[0] for c in CASES])
def test_a_read_only_file_system(tmp_path, inputs, name, args, kept):
    d = tmp_path / "ro"
    _mount(d, "2m")
    try:
        _prepare(d, inputs)
        done = subprocess.run(["mount", "-o", "remount,ro", str(d)], capture_output=True, timeout=30)
        if done.returncode:
            pytest.skip("cannot remount the tmpfs read-only here")
        before = _snapshot(d, kept)
        result = _run(args(d, inputs), name, False)
        _assert_failed_cleanly_ro(name, d, result, before)
    finally:
        _umount(d)


def _assert_failed_cleanly_ro(name: str, d: Path, result, before: dict[str, bytes]) -> None:
    out = result.output
    assert result.exit_code == 1, f"{name}: exit {result.exit_code}\n{out}"
    assert "Traceback" not in out, out
    for file, data in before.items():
        assert (d / file).read_bytes() == data, f"{name}: {file} changed"


# ---- injected faults: the same errors on any machine ---------------------------------------------------------

@pytest.fixture
def inject(monkeypatch):
    """Make writes under a folder fail as a full disk (ENOSPC at write) or a read-only one (EROFS at open)."""
    real_open, real_write = os.open, os.write

    def arm(root: Path, code: int) -> None:
        opened: set[int] = set()
        prefix = str(root.resolve())

        def fake_open(path, flags, *a, **k):
            writing = flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)
            if writing and os.path.abspath(os.fspath(path)).startswith(prefix):
                if code != errno.ENOSPC:
                    raise OSError(code, os.strerror(code), os.fspath(path))
                fd = real_open(path, flags, *a, **k)
                opened.add(fd)
                return fd
            return real_open(path, flags, *a, **k)

        def fake_write(fd, data):
            if fd in opened:
                raise OSError(code, os.strerror(code))
            return real_write(fd, data)

        monkeypatch.setattr(os, "open", fake_open)
        monkeypatch.setattr(os, "write", fake_write)

    return arm


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS], ids=["full", "read-only"])
@pytest.mark.parametrize(("name", "args", "kept"), CASES, ids=[c[0] for c in CASES])
def test_injected_faults(tmp_path, inputs, inject, name, args, kept, code):
    d = tmp_path / "out"
    d.mkdir()
    _prepare(d, inputs)
    before = _snapshot(d, kept)
    inject(d, code)
    result = _run(args(d, inputs), name, True)
    _assert_failed_cleanly(name, d, result, before, name not in JSON_LESS)


def test_dev_full_is_a_failure():
    """A device is written directly (it cannot be renamed over), and its failure is still a failure."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    for args in (["play", "--base", "-p", "3", "-q", "--stop-at", "3", "--save", "/dev/full"],
                 ["compile", "-o", "/dev/full"], ["map", "-o", "/dev/full"]):
        result = runner.invoke(app, [*args, "--json"])
        doc = json.loads(result.stdout)
        assert result.exit_code == 1 and doc["ok"] is False, (args, result.output)
        assert "the disk is full" in doc["diagnostics"][0]["message"]


def test_dev_null_is_written():
    assert runner.invoke(app, ["compile", "-o", "/dev/null"]).exit_code == 0


# ---- never over its own input ----------------------------------------------------------------------------

def test_an_output_that_is_an_input_is_refused_before_anything_runs(tmp_path, inputs):
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "content", tree)
    log = tmp_path / "log.json"
    shutil.copy(inputs["log"], log)
    pos = tmp_path / "pos.json"
    shutil.copy(inputs["pos"], pos)
    houses = (tree / "core" / "houses.mst").read_bytes()
    (tmp_path / "link.json").symlink_to(log)
    cases = [
        (["compile", str(tree), "-o", str(tree / "core" / "houses.mst")], tree / "core" / "houses.mst", houses),
        (["render", str(log), "-o", str(log)], log, log.read_bytes()),
        (["render", str(log), "-o", str(tmp_path / "link.json")], log, log.read_bytes()),
        (["view", str(log), "-o", str(log)], log, log.read_bytes()),
        (["play", "--resume", str(pos), "--log", str(pos)], pos, pos.read_bytes()),
        (["play", "--base", "-q", "--save", str(pos), "--log", str(pos)], pos, pos.read_bytes()),
    ]
    for args, file, data in cases:
        for as_json in (False, True):
            result = runner.invoke(app, [*args, "--json"] if as_json else args)
            assert result.exit_code == 1, (args, result.output)
            assert "output-is-input" in result.output or "also an input" in result.output, result.output
            assert file.read_bytes() == data, f"{args}: the input was changed"


def test_resume_and_save_to_the_same_file_replaces_it_atomically(tmp_path, inputs):
    """The one legitimate case: the position resumed is replaced by the later one, whole."""
    keep = tmp_path / "keep.json"
    shutil.copy(inputs["pos"], keep)
    inode = keep.stat().st_ino
    result = runner.invoke(app, ["play", "--resume", str(keep), "--save", str(keep), "-q", "--stop-at", "40"])
    assert result.exit_code == 0, result.output
    doc = json.loads(keep.read_text())  # a saved table (the position with its seats, tools/human.py)
    assert doc["format"] == "maester-table" and len(doc["position"]["history"]["answers"]) == 40
    assert keep.stat().st_ino != inode  # a new file renamed over the old one, not the old one truncated
    assert not list(tmp_path.glob(f"{TEMP_PREFIX}*"))


# ---- the writer itself --------------------------------------------------------------------------------------

def test_write_files_is_all_or_nothing(tmp_path, inject):
    a, b = tmp_path / "a.json", tmp_path / "sub" / "b.json"
    b.parent.mkdir()
    a.write_text(OLD)
    b.write_text(OLD)
    inject(b.parent, errno.ENOSPC)
    from maester.dsl.files import WriteError

    with pytest.raises(WriteError, match="the disk is full"):
        write_files({a: "new a", b: "new b"})
    assert a.read_text() == OLD and b.read_text() == OLD  # a was written to a temporary file, never renamed
    assert not list(tmp_path.rglob(f"{TEMP_PREFIX}*"))


def test_a_link_is_followed_and_kept(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text(OLD)
    os.chmod(target, 0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_file(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert (target.stat().st_mode & 0o777) == 0o640  # the file keeps its permissions


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS], ids=["full", "read-only"])
def test_simulate_results_are_written_whole_or_not_at_all(tmp_path, inject, code):
    """`simulate -o DIR` writes its table and records through the same writer (Ray itself is not needed here)."""
    from maester.dsl.files import WriteError
    from maester.tools.simulate_cmd import COLUMNS, write_results

    record = {c: 0 for c in COLUMNS}
    (tmp_path / "games.json").write_text(OLD)
    inject(tmp_path, code)
    with pytest.raises(WriteError, match="cannot be written"):
        write_results([record], tmp_path, "csv")
    assert (tmp_path / "games.json").read_text() == OLD
    assert not list(tmp_path.glob(f"{TEMP_PREFIX}*")) and not (tmp_path / "games.csv").exists()
