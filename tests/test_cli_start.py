"""A command line that starts at once: `maester version` loads none of typer, rich, the compiler or the engine;
the command list (for `--help`) loads neither Lark nor networkx; every command loads what it needs when it runs.
(Times are measured in benchmarks/README.md, never asserted here.)"""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from maester.tools.cli import app
from maester.tools.front import version_text

HEAVY = ("typer", "rich", "lark", "networkx", "jsonschema", "maester.interpreter", "maester.dsl.compile")


def _loaded_after(code: str) -> list[str]:
    probe = (f"import sys\n{code}\n"
             f"print('LOADED', sorted({{m.split('.')[0] if not m.startswith('maester') else m for m in sys.modules}}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    loaded = json.loads(out.rsplit("LOADED ", 1)[1].replace("'", '"'))
    return sorted({h for h in HEAVY for m in loaded if m == h or m.startswith(h + ".")})


def test_version_is_answered_by_the_front_alone():
    code = "sys.argv = ['maester', 'version']\nfrom maester.tools.front import main\nmain()"
    assert _loaded_after(code) == []
    code = "sys.argv = ['maester', 'version', '--json']\nfrom maester.tools.front import main\nmain()"
    assert _loaded_after(code) == []


def test_the_front_answers_as_the_full_command_line():
    runner = CliRunner()
    assert runner.invoke(app, ["version"]).stdout == version_text(False)
    assert json.loads(runner.invoke(app, ["version", "--json"]).stdout) == json.loads(version_text(True))


def test_the_command_list_loads_no_compiler_and_no_engine():
    assert _loaded_after("from maester.tools.cli import app") == ["rich", "typer"]
