"""The suite tests the checkout: the README installs it in place (`pip install -e`)."""

from __future__ import annotations

from .conftest import REPO


def test_the_tests_run_this_checkout():
    """An installed copy of an older state would make every other test meaningless."""
    import maester.content
    import maester.dsl
    import maester.interpreter

    for package in (maester.dsl, maester.interpreter, maester.content):
        where = {str(p) for p in package.__path__}
        assert where == {str(REPO / package.__name__.split(".")[1])}, f"{package.__name__} is imported from {where}"
