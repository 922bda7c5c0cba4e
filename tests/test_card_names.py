"""The interpreter knows no card by name: the project's standing check finds nothing in interpreter/."""

from __future__ import annotations

import subprocess
import sys

from .conftest import REPO, reference_file


def test_engine_code_names_no_card():
    tool = reference_file("rules.md").parent.parent / "tools" / "card-names-in-code"
    result = subprocess.run([sys.executable, str(tool), str(REPO / "interpreter")], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
