"""A command line that starts at once: `maester version` loads none of typer, rich, the compiler or the engine;
the command list (for `--help`) loads neither Lark nor networkx; every command loads what it needs when it runs.
(Times are measured in benchmarks/README.md, never asserted here.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maester.tools import front, help_pages
from maester.tools.cli import app
from maester.tools.front import version_text

HEAVY = ("typer", "rich", "lark", "networkx", "jsonschema", "maester.interpreter", "maester.dsl.compile")


def _loaded_after(code: str) -> list[str]:
    probe = (f"import sys\n{code}\n"
             f"print('LOADED', sorted({{m.split('.')[0] if not m.startswith('maester') else m for m in sys.modules}}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    loaded = json.loads(out.rsplit("LOADED ", 1)[1].replace("'", '"'))
    return sorted({h for h in HEAVY for m in loaded if m == h or m.startswith(h + ".")})


def test_version_is_answered_by_the_front_alone(monkeypatch):
    monkeypatch.delenv("MAESTER_COMPILED", raising=False)  # (with it, the full command line also says what is compiled)
    code = "sys.argv = ['maester', 'version']\nfrom maester.tools.front import main\nmain()"
    assert _loaded_after(code) == []
    code = "sys.argv = ['maester', 'version', '--json']\nfrom maester.tools.front import main\nmain()"
    assert _loaded_after(code) == []


def test_the_front_answers_as_the_full_command_line(monkeypatch):
    monkeypatch.delenv("MAESTER_COMPILED", raising=False)
    runner = CliRunner()
    assert runner.invoke(app, ["version"]).stdout == version_text(False)
    assert json.loads(runner.invoke(app, ["version", "--json"]).stdout) == json.loads(version_text(True))


def test_the_command_list_loads_no_compiler_and_no_engine():
    assert _loaded_after("from maester.tools.cli import app") == ["rich", "typer"]


# ---- help pages: printed by the front from tools/help_pages.json, exactly as typer prints them ----------------

MAESTER = str(Path(sys.executable).with_name("maester"))
FULL = [sys.executable, "-c", "import sys; sys.argv[0] = 'maester'\nfrom maester.tools.cli import main\nmain()"]
PAGES = [[], ["--help"], ["play", "--help"]]
PROBE = ("import sys, runpy; sys.argv = ['maester', *sys.argv[1:]]\ntry:\n runpy.run_path({script!r}, "
         "run_name='__main__')\nfinally:\n print('TYPER' if 'typer' in sys.modules else 'NO TYPER', file=sys.stderr)")


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in front.RICH_ENVIRONMENT and k not in ("COLUMNS", "LINES")}
    return {**env, **extra}


def test_the_stored_help_pages_are_what_typer_renders_now():
    stored = json.loads(front.HELP_FILE.read_text(encoding="utf-8"))
    assert stored == help_pages.pages(), "tools/help_pages.json is stale: run `maester docs --write`"
    assert set(stored["pages"]) == {" ".join(a) for a in help_pages.page_arguments()}
    assert "Usage: maester check [OPTIONS]" in stored["pages"]["check --help"]["plain"]
    assert stored["pages"][""]["exit_code"] == 2 and stored["pages"]["--help"]["exit_code"] == 0  # as click does


@pytest.mark.parametrize("args", PAGES, ids=lambda a: " ".join(a) or "no-arguments")
def test_the_front_prints_a_help_page_to_a_pipe_as_typer_does_without_loading_typer(args):
    mine = subprocess.run([sys.executable, "-c", PROBE.format(script=MAESTER), *args], capture_output=True,
                          stdin=subprocess.DEVNULL, env=_env())
    full = subprocess.run([*FULL, *args], capture_output=True, stdin=subprocess.DEVNULL, env=_env())
    assert mine.stdout == full.stdout and mine.returncode == full.returncode
    assert mine.stderr.decode().strip() == "NO TYPER"
    assert b"Usage: maester" in mine.stdout


def _on_a_terminal(command: list[str], columns: int, env: dict) -> tuple[bytes, int]:
    """What a command writes to a terminal `columns` wide (a pseudo-terminal), and its exit code."""
    pty = pytest.importorskip("pty")
    import fcntl
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=follower, stderr=subprocess.DEVNULL, env=env)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    return out, proc.wait()


@pytest.mark.parametrize(("columns", "args"), [(120, ["--help"]), (80, ["check", "--help"]), (60, ["--help"])])
def test_on_a_terminal_the_front_prints_the_coloured_page_typer_prints(columns, args):
    """At 120 and 80 columns the front prints its stored page; at 60 typer renders it (narrower than the pages)."""
    env = _env(TERM="xterm-256color")
    mine = _on_a_terminal([MAESTER, *args], columns, env)
    assert mine == _on_a_terminal([*FULL, *args], columns, env)
    assert b"\x1b[" in mine[0], "a terminal gets rich's colours"
    served = front.stored_help(["--help"])  # (this process's stdout is no terminal: the plain page)
    assert served is not None and "\x1b[" not in served[0]


def test_a_stale_damaged_or_missing_page_file_is_never_printed(tmp_path, monkeypatch):
    assert front.stored_help(["check", "--help"]) is not None
    assert front.stored_help(["no-such-command", "--help"]) is None
    monkeypatch.setattr(front, "help_fingerprint", lambda: "another command line")
    assert front.stored_help(["check", "--help"]) is None  # cli.py changed since the pages were rendered
    monkeypatch.undo()
    damaged = tmp_path / "help_pages.json"
    damaged.write_text(front.HELP_FILE.read_text(encoding="utf-8")[:5000], encoding="utf-8")
    monkeypatch.setattr(front, "HELP_FILE", damaged)
    assert front.stored_help(["check", "--help"]) is None
    monkeypatch.setattr(front, "HELP_FILE", tmp_path / "missing.json")
    assert front.stored_help(["check", "--help"]) is None


@pytest.mark.parametrize("variable", ["NO_COLOR", "FORCE_COLOR", "TERMINAL_WIDTH"])
def test_an_environment_that_changes_rich_output_goes_to_typer(variable, monkeypatch):
    monkeypatch.setenv(variable, "1")
    assert front.stored_help(["--help"]) is None


def test_a_narrow_output_goes_to_typer(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    assert front.stored_help(["--help"]) is None
    monkeypatch.setenv("COLUMNS", "200")
    assert front.stored_help(["--help"]) is not None


# ---- values converted without pydantic where typer's conversion needs none (tools/quick_coercion.py) ----------

VALUES = ["3", "0", "-7", "11", "007", "+3", " 3", "1_0", "3.0", "abc", "", "-", "x\0y", "pack dir/ü.mst", "/tmp",
          "99999999999999999999", "~/a", "a" * 300]


def test_quick_values_are_what_typer_makes_of_them():
    """For every parameter of every command and many values: the quick conversion gives the adapter's result, or
    leaves the value to the adapter (an error is then typer's own)."""
    from typer._click import Context
    from typer._coercion import build_runtime_param
    from typer.main import get_command

    from maester.tools.quick_coercion import NOT_QUICK, _quick

    group = get_command(app)
    quick_kinds = set()
    for name, cmd in group.commands.items():
        ctx = Context(cmd, info_name=name)
        for param in cmd.params:
            for value in [*VALUES, *([VALUES[:3], VALUES[-4:-1]] if param.type_descriptor.is_list else [])]:
                try:
                    quick = _quick(param.type_descriptor, value, param, ctx)
                except Exception as e:  # noqa: BLE001 - then the adapter converts it
                    quick = e
                if quick is NOT_QUICK or isinstance(quick, Exception):
                    continue
                quick_kinds.add(repr(param.type_descriptor.annotation))
                expected = build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)
                assert quick == expected and type(quick) is type(expected), (name, param.name, value)
    assert {"<class 'str'>", "<class 'int'>", "<class 'pathlib.Path'>", "list[pathlib.Path]"} <= quick_kinds


def test_a_warm_command_with_values_loads_no_pydantic():
    probe = ("import sys\nsys.argv = ['maester', 'play', '-p', '3', '--stop-at', '0', '-q', '--seed', '4',"
             " '--variant', 'asos']\nfrom maester.tools.front import main\ntry:\n main()\nfinally:\n print('pydantic' "
             "in sys.modules, file=sys.stderr)")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr.strip().splitlines()[-1] == "False", run.stderr
