"""The fuzzing oracles and minimizers shared by the fuzz tests, the regression replay and the campaign.

A content case fails when compiling it raises anything but `CompileError`, reports an error without
file:line:col, prints unbounded output or runs past the time guard. A bundle case (one to three
mutations of the compiled bundle, as JSON patches) fails when a bundle that passes `validate_all`
(schema + cross-references, also as each variant plays it) crashes `Rules` or a game played on it by
random agents, or is stopped in play by a clean error (a `BundleError` mid-game: an id the load check
did not follow).
"""

from __future__ import annotations

import copy
import json
import random
import signal
import traceback
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from maester.dsl.compile import Source, compile_sources, default_content_dir, read_sources
from maester.dsl.diagnostics import Diagnostics, MaesterError

REGRESSIONS = Path(__file__).parent / "regressions"
CASE_SECONDS = 30  # a case running longer than this is a hang (the largest inputs take ~5 s)
MAX_OUTPUT = 400_000  # characters of diagnostics for one run: the bound the error cap promises
GAME_DECISIONS = 3000  # a bundle case plays at most this many decisions of a game
TARGETED = 0.3  # the share of bundle edits aimed at ids the engine computes from bundle data in play


class Hang(Exception):
    pass


@contextmanager
def time_guard(seconds: int = CASE_SECONDS):
    """Raise `Hang` in the case if it runs too long (SIGALRM: main thread, POSIX; otherwise no guard)."""
    try:
        old = signal.signal(signal.SIGALRM, _alarm)
    except (ValueError, AttributeError):  # not the main thread, or no SIGALRM
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _alarm(_signum, _frame):
    raise Hang(f"ran longer than {CASE_SECONDS} s")


def signature(exc: BaseException) -> str:
    """Exception type and the innermost maester frame: one crash, however many inputs trigger it."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "maester" in f.filename or "/dsl/" in
              f.filename or "/interpreter/" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(exc).__name__} at {where}"


# ---- content ------------------------------------------------------------------------------------

_WORLD: list[Source] | None = None
_CONTENT: list[Source] | None = None


def real_content() -> list[Source]:
    global _CONTENT
    if _CONTENT is None:
        _CONTENT = read_sources([default_content_dir()], Diagnostics())
    return _CONTENT


def world() -> list[Source]:
    """The core declarations (houses, tracks, tables, games, orders, card sets): cheap cross-references."""
    global _WORLD
    if _WORLD is None:
        _WORLD = [s for s in real_content() if "/core/" in s.label or s.label.endswith("sets.mst")]
    return _WORLD


def content_failure(text: str, with_world: bool = False, label: str = "fuzz.mst") -> str | None:
    """None if the pipeline handles `text` as promised, else what went wrong (a short signature)."""
    sources = [s for s in world() if s.label != label] if with_world else []
    diags = Diagnostics()
    try:
        with time_guard():
            compile_sources(sources + [Source(label, text)], diags)
    except MaesterError:
        pass
    except Hang:
        return "hang"
    except RecursionError as e:
        return signature(e)
    except Exception as e:  # noqa: BLE001 - any other exception is the finding
        return signature(e)
    for d in diags.errors:
        if d.span is None or d.span.line <= 0 or d.span.column <= 0:
            return f"unlocated error [{d.code}]"
    if len(diags.format()) > MAX_OUTPUT:
        return "unbounded output"
    return None


def minimize_text(text: str, fails: Callable[[str], bool], budget: int = 400) -> str:
    """A smaller text that still fails: drop chunks of lines, then of characters (a bounded ddmin)."""
    for unit in ("\n", ""):
        parts = text.split("\n") if unit else list(text)
        chunk = max(1, len(parts) // 2)
        while chunk >= 1 and budget > 0:
            i, changed = 0, False
            while i < len(parts) and budget > 0:
                trial = parts[:i] + parts[i + chunk:]
                budget -= 1
                if trial and fails(unit.join(trial)):
                    parts, changed = trial, True
                else:
                    i += chunk
            if not changed:
                chunk //= 2
        text = unit.join(parts)
    return text


# ---- bundles ------------------------------------------------------------------------------------

@dataclass
class BundleCase:
    patches: list[dict]  # {"path": [...], "value": ...} or {"path": [...], "delete": true}
    setup: str
    seed: int
    variant: str | None = None  # played as this variant plays the setup (its patched records in place)

    def to_json(self) -> dict:
        return {"patches": self.patches, "setup": self.setup, "seed": self.seed,
                **({"variant": self.variant} if self.variant else {})}

    @classmethod
    def from_json(cls, data: dict) -> BundleCase:
        return cls(data["patches"], data["setup"], data["seed"], data.get("variant"))


def apply_patches(bundle: dict, patches: list[dict]) -> dict:
    out = copy.deepcopy(bundle)
    for p in patches:
        *parents, last = p["path"]
        node = out
        for step in parents:
            node = node[step]
        if p.get("delete"):
            del node[last]
        elif p.get("append"):
            node[last].append(p["value"])
        else:
            node[last] = p["value"]
    return out


def _paths(node, path, out):
    out.append(path)
    if isinstance(node, dict):
        for k, v in node.items():
            _paths(v, path + [k], out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _paths(v, path + [i], out)


class BundleMutator:
    """Random schema-plausible edits of a compiled bundle: ids swapped for other ids, numbers pushed to
    their bounds, lists emptied or shortened, optional records dropped."""

    def __init__(self, bundle: dict):
        self.bundle = bundle
        self.paths: list[list] = []
        _paths(bundle, [], self.paths)
        self.paths = [p for p in self.paths if p and p[0] not in ("sources", "format", "format_version",
                                                                   "dsl_version", "generator")]
        ids: set[str] = set()
        for section in bundle.values():
            if isinstance(section, dict):
                ids.update(k for k in section if isinstance(k, str))
        for board in bundle["boards"].values():
            ids.update(board["areas"])
        self.ids = sorted(ids) + ["nowhere", "you", "buyer", "lowest-bidder"]
        self.areas = sorted({a for board in bundle["boards"].values() for a in board["areas"]})
        self.targeted = [self._home, self._deck_slot, self._deck_card, self._dealt_card, self._track_role,
                         self._game_tracks, self._setup_decks, self._loan, self._variant_setup,
                         self._variant_patch, self._literal_house, self._supply_level]
        self.var_paths = [p for p in self.paths if isinstance(self._get(p), dict) and "var" in self._get(p)]

    def _get(self, path):
        node = self.bundle
        for step in path:
            node = node[step]
        return node

    # ---- targeted edits: the ids the engine computes from bundle data while it plays (a house's home,
    # the decks a game draws and the cards they hold, the tracks it reads by role, loans, what a variant
    # plays), where a dangling id would stop a game in the middle instead of at load
    def _home(self, rng):
        return {"path": ["houses", rng.choice(sorted(self.bundle["houses"])), "home"], "value": rng.choice(self.areas)}

    def _deck_slot(self, rng):
        game = rng.choice(sorted(self.bundle["games"]))
        slot = rng.choice(sorted(self.bundle["games"][game]["decks"]))
        return {"path": ["games", game, "decks", slot], "value": rng.choice(sorted(self.bundle["decks"]) + ["nope"])}

    def _deck_card(self, rng):
        deck = rng.choice(sorted(self.bundle["decks"]))
        card = rng.choice(sorted(self.bundle["westeros_cards"]) + sorted(self.bundle["wildling_cards"]) + ["nope"])
        return {"path": ["decks", deck, "cards", card], "value": rng.choice([1, 2, 5])}

    def _dealt_card(self, rng):
        cset = rng.choice(sorted(self.bundle["card_sets"]))
        return {"path": ["card_sets", cset, "cards"], "append": True,
                "value": rng.choice(sorted(self.bundle["house_cards"]) + ["nope"])}

    def _track_role(self, rng):
        game = rng.choice(sorted(self.bundle["games"]))
        role = rng.choice(["turn_order_track", "blade_track", "raven_track"])
        return {"path": ["games", game, role], "value": rng.choice(sorted(self.bundle["tracks"]) + ["nope"])}

    def _game_tracks(self, rng):
        game = rng.choice(sorted(self.bundle["games"]))
        tracks = self.bundle["games"][game]["tracks"]
        return {"path": ["games", game, "tracks"], "value": rng.sample(tracks, rng.randrange(1, len(tracks)))}

    def _setup_decks(self, rng):
        setup = rng.choice(sorted(self.bundle["setups"]))
        slots = ["i", "ii", "iii", "iv", "wildling", "v"]
        return {"path": ["setups", setup, "westeros_decks"], "value": rng.sample(slots, rng.randrange(1, 5))}

    def _loan(self, rng):
        setup = rng.choice(sorted(s for s, r in self.bundle["setups"].items() if r.get("loan_deck")))
        deck = self.bundle["setups"][setup]["loan_deck"]
        return {"path": ["setups", setup, "loan_deck", rng.randrange(len(deck))],
                "value": rng.choice(sorted(self.bundle["loans"]) + ["nope"])}

    def _variant_setup(self, rng):
        vid = rng.choice(sorted(self.bundle["variants"]))
        played = sorted(self.bundle["variants"][vid]["setups"])
        return {"path": ["variants", vid, "setups", rng.choice(played)],
                "value": rng.choice(sorted(self.bundle["setups"]) + ["nope"])}

    def _variant_patch(self, rng):
        """One of the fields a variant writes over its rules set: its record in the variant's patches."""
        vid = rng.choice(sorted(self.bundle["variants"]))
        patches = self.bundle["variants"][vid]["patches"]
        section = rng.choice(sorted(patches))
        rid = rng.choice(sorted(patches[section]))
        fld = rng.choice(sorted(k for k, v in patches[section][rid].items() if isinstance(v, str | list)))
        value = patches[section][rid][fld]
        if isinstance(value, list) and value and rng.random() < 0.5:
            return {"path": ["variants", vid, "patches", section, rid, fld, rng.randrange(len(value))],
                    "value": rng.choice(self.ids)}
        return {"path": ["variants", vid, "patches", section, rid, fld],
                "value": [] if isinstance(value, list) else rng.choice(self.ids)}

    def _literal_house(self, rng):
        """A variable of an effect replaced by a house named by its id (perhaps one not in the game)."""
        return {"path": rng.choice(self.var_paths),
                "value": {"node": "id", "id": rng.choice(sorted(self.bundle["houses"])), "type": "house"}}

    def _supply_level(self, rng):
        """A supply level the game starts a house on (a row of the supply table is read by it)."""
        if rng.random() < 0.5:
            return {"path": ["houses", rng.choice(sorted(self.bundle["houses"])), "starting_supply"],
                    "value": rng.randrange(0, 12)}
        return {"path": ["games", "mother-of-dragons", "vassal_supply"], "value": rng.randrange(0, 12)}

    def patch(self, rng: random.Random) -> dict:
        if rng.random() < TARGETED:
            return rng.choice(self.targeted)(rng)
        path = rng.choice(self.paths)
        value = self._get(path)
        r = rng.random()
        if isinstance(value, bool):
            return {"path": path, "value": not value}
        if isinstance(value, int):
            return {"path": path, "value": rng.choice([0, 1, -1, 2, 3, 7, 12, 16, 17, 100, 101, value + 1,
                                                       value - 1, 1000000])}
        if isinstance(value, str):
            if r < 0.1:
                return {"path": path, "value": value + "x"}
            return {"path": path, "value": rng.choice(self.ids)}
        if isinstance(value, list):
            if r < 0.3 or not value:
                return {"path": path, "value": []}
            if r < 0.6:
                return {"path": path + [rng.randrange(len(value))], "delete": True}
            if r < 0.8:
                return {"path": path, "append": True, "value": copy.deepcopy(rng.choice(value))}
            return {"path": path, "value": list(reversed(value))}
        if isinstance(value, dict):
            if value and r < 0.5:
                return {"path": path + [rng.choice(list(value))], "delete": True}
            if r < 0.7:
                return {"path": path, "value": {}}
            if "var" in value:
                return {"path": path + ["var"], "value": rng.choice(self.ids)}
            if value and r < 0.9:  # replace a sub-expression by another of the bundle (wrong types)
                key = rng.choice(list(value))
                other = self._get(rng.choice(self.paths))
                return {"path": path + [key], "value": copy.deepcopy(other)}
        return {"path": path, "value": None}

    def case(self, rng: random.Random, setups: list[str]) -> BundleCase:
        patches = [self.patch(rng) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
        touched = [p["path"][1] for p in patches if p["path"][0] == "setups" and len(p["path"]) > 1]
        setup = touched[0] if touched and touched[0] in setups else rng.choice(setups)
        variants = [p["path"][1] for p in patches if p["path"][0] == "variants" and len(p["path"]) > 1]
        variant = variants[0] if variants and variants[0] in self.bundle["variants"] else None
        if variant is not None:  # play one of the setups the variant plays
            setup = rng.choice(sorted(set(self.bundle["variants"][variant]["setups"].values())))
        return BundleCase(patches, setup, rng.randrange(10_000), variant)


@dataclass
class BundleOutcome:
    valid: bool  # passed the schema and the cross-reference checks
    failure: str | None  # a crash of the loader or the game on a valid bundle, or the game stopped by an error
    refused_in_game: bool = False  # a MaesterError during the game: the load check missed it (a finding)
    message: str = ""  # the first line of that error


def bundle_outcome(bundle: dict, case: BundleCase) -> BundleOutcome:
    from maester.interpreter.core.rules import Rules, apply_variant
    from maester.interpreter.frontends.agents import agents_for
    from maester.interpreter.mod import new_game

    try:
        mutated = apply_patches(bundle, case.patches)
    except (KeyError, IndexError, TypeError):
        return BundleOutcome(False, None)
    diags = Diagnostics()
    try:
        with time_guard():
            _validate_touched(mutated, case, diags)
    except Exception as e:  # noqa: BLE001
        return BundleOutcome(False, "validate: " + signature(e))
    if diags.errors:
        return BundleOutcome(False, None)
    try:
        with time_guard():
            rules = Rules(mutated)
            if case.variant is not None:  # loads like `play --variant`: the variant applied, checked again
                rules = Rules(apply_variant(mutated, case.variant))
    except Hang:
        return BundleOutcome(True, "hang")
    except MaesterError as e:  # validate_all passed it, so loading it must too
        return BundleOutcome(True, "refused at load after validation: " + _codes(e))
    except Exception as e:  # noqa: BLE001
        return BundleOutcome(True, signature(e))
    try:
        with time_guard():
            if case.setup not in rules.bundle["setups"]:
                return BundleOutcome(True, None)
            game = new_game(rules, case.setup, seed=case.seed)
            agents = agents_for(game.state.houses, "random", case.seed)
            n = 0
            while game.decision is not None and n < GAME_DECISIONS:
                d = game.decision
                game.answer(agents[d.house].act(game, d))
                n += 1
    except Hang:
        return BundleOutcome(True, "hang")
    except MaesterError as e:  # e.g. a dangling id met in play: the load check must have refused the bundle
        return BundleOutcome(True, "stopped mid-game: " + _codes(e), refused_in_game=True,
                             message=str(e).splitlines()[0][:300])
    except Exception as e:  # noqa: BLE001
        return BundleOutcome(True, signature(e))
    return BundleOutcome(True, None)


def _codes(e: MaesterError) -> str:
    """The error codes of a clean error: one finding, however many inputs trigger it."""
    return ", ".join(sorted({d.code for d in e.diagnostics.errors})) or "?"


@cache
def _section_validator():
    """The bundle schema without its top-level `required`: validates a bundle holding some sections only."""
    from jsonschema import Draft202012Validator

    from maester.dsl.validate import bundle_validator

    full = bundle_validator()
    root = {**full.schema, "required": []}
    return Draft202012Validator(root, registry=full._registry)


def _validate_touched(mutated: dict, case: BundleCase, diags: Diagnostics) -> None:
    """`validate_all`, with the schema run only over the sections the patches touched (the others are
    the compiled content's, valid already): the whole bundle takes seconds, a section a fraction."""
    from maester.dsl.limits import json_depth_problem
    from maester.interpreter.core.bundle_check import check_bundle

    if any(len(p["path"]) < 2 for p in case.patches) or json_depth_problem(mutated):
        from maester.interpreter.core.rules import validate_all

        validate_all(mutated, diags)
        return
    part: dict = {}
    for p in case.patches:  # only the touched records: sections are maps of independent records
        section, record = p["path"][0], p["path"][1]
        if section not in mutated:
            continue
        if isinstance(mutated[section], dict) and not isinstance(mutated[section].get(record, 0), int | float):
            part.setdefault(section, {})[record] = mutated[section][record]
        elif isinstance(mutated[section], dict) and record not in mutated[section]:
            part.setdefault(section, {})
        else:
            part[section] = mutated[section]
    if next(_section_validator().iter_errors(part), None) is not None:
        diags.error("schema", "a touched record does not match the schema")
        return
    check_bundle(mutated, diags, variants=any(p["path"][0] == "variants" for p in case.patches))


def minimize_bundle_case(bundle: dict, case: BundleCase, failure: str) -> BundleCase:
    """Drop patches that are not needed for the same failure."""
    patches = list(case.patches)
    for p in list(patches):
        trial = BundleCase([q for q in patches if q is not p], case.setup, case.seed, case.variant)
        if trial.patches and bundle_outcome(bundle, trial).failure == failure:
            patches = trial.patches
    return BundleCase(patches, case.setup, case.seed, case.variant)


def save_regression(kind: str, name: str, payload: str | dict) -> Path:
    folder = REGRESSIONS / kind
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(payload, dict):
        path = folder / f"{name}.json"
        path.write_text(json.dumps(payload, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    else:
        path = folder / f"{name}.mst"
        path.write_text(payload, encoding="utf-8", errors="surrogatepass")
    return path


# ---- scenarios and game logs ----------------------------------------------------------------------

HOSTILE_VALUES = [0, -1, 7, 10**6, 2**70, 3.5, 3.0, True, False, None, "", "nope", "stark", "winterfell", [], {},
                  ["x"], {"a": 1}, "stark: dragon x3", "lannister: footman x999999", [[[]]]]


def mutate_json(data, rng: random.Random, n: int = 2):
    """Copy of a JSON/YAML value with `n` random leaves or branches replaced by hostile values."""
    data = copy.deepcopy(data)
    paths: list[list] = []
    _paths(data, [], paths)
    paths = [p for p in paths if p]
    for _ in range(n):
        if not paths:
            break
        path = rng.choice(paths)
        node = data
        try:
            for step in path[:-1]:
                node = node[step]
            node[path[-1]] = copy.deepcopy(rng.choice(HOSTILE_VALUES))
        except (KeyError, IndexError, TypeError):
            continue
    return data


def scenario_failure(rules, text: str, folder: Path) -> str | None:
    """None if loading and running the scenario text either works or fails with a MaesterError."""
    from maester.interpreter.frontends.scenario import Scenario, run_scenario

    path = folder / "fuzz.yaml"
    path.write_text(text, encoding="utf-8")
    return _failure_of(lambda: run_scenario(rules, Scenario.load(path)))


def log_failure(rules, data: dict, folder: Path) -> str | None:
    """None if reading and replaying the log either works or fails with a MaesterError."""
    from maester.interpreter.frontends.log import read_log, replay_log

    path = folder / "fuzz-log.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return _failure_of(lambda: replay_log(rules, read_log(path)))


def _failure_of(work) -> str | None:
    """None if `work` runs or fails with a MaesterError; else "hang" or the exception's signature."""
    try:
        with time_guard():
            work()
    except MaesterError:
        return None
    except Hang:
        return "hang"
    except Exception as e:  # noqa: BLE001
        return signature(e)
    return None
