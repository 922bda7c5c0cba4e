"""Shared fixtures: the compiled bundled content, and the reference files of ../shared/reference/ (or of
$MAESTER_SHARED/reference/ when the checkout is elsewhere: a clone in /tmp, a worktree)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# the project's shared folder (reference data, rulebook texts, standing tools): beside the repository by default
SHARED = Path(os.environ.get("MAESTER_SHARED") or REPO.parent / "shared")
REFERENCE = SHARED / "reference"
# the viewer and the seat are tested in the system's Chromium (never `playwright install`)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
NO_REFERENCE = "the reference checks need the shared folder beside the repository (../shared/reference/) or " \
    "MAESTER_SHARED=/path/to/shared"


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="run long stress tests")
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite the golden card text (tests/golden/cards) from the renderer, after review")
    parser.addoption("--fuzz-seconds", type=float, default=None,
                     help="time budget of each fuzz test in tests/fuzz/ (default: MAESTER_FUZZ_SECONDS or 2)")


# The longest tests of the default run (measured, longest first) start first: pytest-xdist hands tests out in
# collection order, and one of these left for the end kept a worker busy long after the other had finished.
RUN_FIRST = (
    "tests/test_serve.py::test_two_people_play_a_base_game_in_the_browser",
    "tests/test_authoring.py::test_the_authoring_walkthrough_works_as_written",
    "tests/test_benchmarks.py::test_bench_ray_runs_on_two_workers",
    "tests/test_skips.py::test_others_observe_nothing_of_a_secret_placement",
    "tests/test_traces.py::test_every_scenario_event_cites_a_plain_rule_id_and_card_events_a_real_source",
    "tests/test_wrappers.py::test_the_maskable_ppo_example_runs_a_few_hundred_steps_and_its_model_plugs_in",
    "tests/test_render.py::test_mother_of_dragons_log_shows_essos_the_bank_and_loyalty",
    "tests/test_lsp_incremental.py::test_random_edits_give_the_diagnostics_of_a_fresh_check",
    "tests/test_compile_speed.py::test_bench_compile_runs_the_old_and_the_new_code_side_by_side",
    "tests/test_benchmarks.py::test_bench_effects_runs",
    "tests/test_view.py::test_jumping_by_rounds_and_combats_in_a_game",
    "tests/test_human.py::test_stopping_and_resuming_plays_the_same_game",
    "tests/fuzz/test_fuzz.py::test_the_language_server_answers_every_hostile_request",
    "tests/test_variants.py::test_play_with_a_variant_logs_it_and_replays",
    "tests/test_cli_new_user.py::test_a_game_played_with_a_pack_replays",
    "tests/test_scenario_format.py::test_every_event_type_and_field_is_in_the_catalogue",
)


def _keep_xdist_groups(config, items) -> None:
    """`--dist loadgroup` sends the tests of one `xdist_group` to one worker by a suffix `@GROUP` that pytest-xdist
    (3.8) appends to their node ids; on pytest 9.2 its assignment no longer changes the id (pytest-dev/pytest-xdist
    #1386), and the groups were silently spread over the workers (two Ray clusters, two strict reports). The
    suffix is set here where it is missing; nothing changes where xdist set it."""
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import coerce_node_id

    for item in items:
        groups = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                         for m in item.iter_markers("xdist_group")})
        nodeid = item.nodeid
        if groups and nodeid.rfind("@") <= nodeid.rfind("]"):
            item._id = coerce_node_id(f"{nodeid}@{'_'.join(groups)}")


@pytest.hookimpl(trylast=True)  # after pytest-xdist's own hook (it reads the marks in the worker)
def pytest_collection_modifyitems(config, items):
    _keep_xdist_groups(config, items)
    first = {prefix: rank for rank, prefix in enumerate(RUN_FIRST)}

    def rank(item) -> int:
        name = item.nodeid.split("[")[0]
        return first.get(name, len(RUN_FIRST))

    items.sort(key=rank)  # stable: every other test keeps its place
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def reference_file(name: str) -> Path:
    """A file of ../shared/reference/, or a clear skip when the reference is not beside the repo."""
    path = REFERENCE / name
    if not path.exists():
        pytest.skip(f"reference file {path} not found: {NO_REFERENCE}")
    return path


@pytest.fixture(scope="session")
def bundle() -> dict:
    """The bundled content, compiled once per session; a compile error fails readably, not as a traceback."""
    from maester.dsl import CompileError, compile_paths

    try:
        return compile_paths()
    except CompileError as e:
        message = f"the bundled content does not compile:\n{e}"
    pytest.fail(message, pytrace=False)


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium per test process (a launch costs seconds): each test opens its own pages (or
    context) in it and closes them."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (the test extra)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
