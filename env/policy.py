"""Plug-in policies: an agent given as `module:factory` (a learned policy, your own search) in `maester simulate`,
`maester tournament` and the wrappers.

The protocol (documented in docs/agents.md):

    def make_policy(context: PolicyContext) -> Policy        # the factory, named in `--agents`

    class Policy:
        def act(self, observation: np.ndarray, action_mask: np.ndarray, decision: Decision) -> int: ...

- `context` says which game the policy is dealt into: the house it plays, its seed (derived from the game's seed,
  so a game is reproducible), the setup and variant, the setup's `action_table` and `encoder` (the same as
  `maester_v1`'s).
- `act` receives what `maester_v1` gives the house at that step: `observation` (the float32 vector of the house's
  information set, `Encoder.encode`), `action_mask` (int8, 1 for the legal action ids) and the pending
  `Decision` (its kind, prompt, options and `info`; all of it the house's own to see). It returns an action id
  of the table whose mask entry is 1, or None to leave this decision to the built-in heuristic agent (e.g. the
  kinds a policy was not trained on); anything else is an error naming the policy and the decision.

A spec is `package.module:factory` (imported as a module) or `path/to/file.py:factory` (loaded from that file;
the path is made absolute when the spec is read, so Ray workers on this machine find it too).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from maester.dsl.diagnostics import Diagnostics, MaesterError

BUILT_IN = ("random", "heuristic", "search", "isearch")


class Policy(Protocol):
    def act(self, observation: np.ndarray, action_mask: np.ndarray, decision: Any) -> int: ...


@dataclass(frozen=True)
class PolicyContext:
    house: str
    seed: int
    setup: str
    variant: str | None
    action_table: Any  # maester.env.actions.ActionTable
    encoder: Any  # maester.env.observe.Encoder


def _fail(code: str, message: str, hint: str | None = None) -> MaesterError:
    diags = Diagnostics()
    diags.error(code, message, None, hint)
    return MaesterError(diags)


def is_plugin(kind: str) -> bool:
    return ":" in kind


def normalise(kind: str) -> str:
    """A plug-in spec with a file path made absolute (the same spec for every worker); others unchanged."""
    if not is_plugin(kind):
        return kind
    module, _, factory = kind.rpartition(":")
    if module.endswith(".py") or "/" in module:
        module = str(Path(module).expanduser().resolve())
    return f"{module}:{factory}"


def load_factory(kind: str):
    """The factory a `module:factory` spec names; a clear error if the module or the name is missing."""
    module, _, name = kind.rpartition(":")
    if not module or not name:
        raise _fail("bad-agent-spec", f"agent '{kind}' is not of the form module:factory",
                    "e.g. mypkg.agents:make_policy or path/to/file.py:make_policy")
    try:
        if module.endswith(".py") or "/" in module:
            path = Path(module)
            if not path.is_file():
                raise _fail("agent-not-found", f"agent '{kind}': no file {path}", "give the path of a Python file")
            mod_name = f"_maester_policy_{abs(hash(str(path.resolve())))}"
            mod = sys.modules.get(mod_name)
            if mod is None:
                spec = importlib.util.spec_from_file_location(mod_name, path)
                mod = importlib.util.module_from_spec(spec)
                sys.modules[mod_name] = mod
                spec.loader.exec_module(mod)
        else:
            mod = importlib.import_module(module)
    except MaesterError:
        raise
    except Exception as e:  # an import error in the user's module: said in one line
        raise _fail("agent-import", f"agent '{kind}': cannot import {module}: {type(e).__name__}: {e}",
                    "the module must be importable from this folder (or give a file path)") from None
    factory = getattr(mod, name, None)
    if not callable(factory):
        raise _fail("agent-not-found", f"agent '{kind}': {module} has no callable '{name}'",
                    "the factory takes a PolicyContext and returns an object with act(observation, action_mask, "
                    "decision)")
    return factory


def check_kind(kind: str, diags: Diagnostics) -> None:
    """Report a kind that is neither built in nor a loadable plug-in."""
    if is_plugin(kind):
        try:
            load_factory(kind)
        except MaesterError as e:
            diags.extend(e.diagnostics)
        return
    if kind not in BUILT_IN:
        diags.error("unknown-agent", f"unknown agent kind '{kind}'", None,
                    "use " + ", ".join(BUILT_IN) + ", or module:factory for your own policy (docs/agents.md)")


class PolicyAgent:
    """An engine agent (`act(game, decision)`) around a plug-in policy: it builds the observation and the mask
    exactly as `maester_v1` does and turns the action id back into the answer."""

    def __init__(self, kind: str, context: PolicyContext):
        self.kind, self.context = kind, context
        factory = load_factory(kind)
        try:
            self.policy = factory(context)
        except MaesterError:
            raise
        except Exception as e:  # the plug-in's own failure (a missing model file, ...): its message, not a bug here
            raise _fail("policy-factory-failed", f"agent '{kind}': its factory failed for {context.house} "
                        f"({type(e).__name__}: {e})", "fix the policy or what it reads") from e
        self._default = None  # the heuristic agent, made when the policy first leaves a decision to it
        if not callable(getattr(self.policy, "act", None)):
            raise _fail("bad-policy", f"agent '{kind}': the factory returned {type(self.policy).__name__}, which "
                        "has no act(observation, action_mask, decision)")

    def act(self, game, d):
        from .observe import lean_view

        table = self.context.action_table
        obs = self.context.encoder.encode(lean_view(game, d.house))
        mask = np.zeros(len(table), dtype=np.int8)
        mask[table.ids_of(d.options, d)] = 1
        action = self.policy.act(obs, mask, d)
        if action is None:
            if self._default is None:
                from maester.interpreter.frontends.agents import HeuristicAgent

                self._default = HeuristicAgent(self.context.seed)
            return self._default.act(game, d)
        try:
            a = int(action)
        except (TypeError, ValueError):
            a = -1
        if not (0 <= a < len(table)) or not mask[a]:
            raise _fail("illegal-policy-action", f"agent '{self.kind}' answered {action!r} to decision #{d.number} "
                        f"({d.kind}, {d.house}), which is not a legal action id",
                        "return an id whose action_mask entry is 1")
        return table.answer(a)
