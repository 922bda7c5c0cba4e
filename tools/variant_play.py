"""Which setup `maester play --variant X` plays: the variant's own setups, for the player count asked.

A variant names its rules set and the setups it plays (`setups` in its bundle record: standard setup id
-> the variant's setup id), so `--variant` alone is enough: the rules set decides base or Mother of
Dragons, and a player count the variant does not support is refused with the counts it does.
"""

from __future__ import annotations

import shlex

from maester.dsl.diagnostics import Diagnostics, MaesterError
from maester.interpreter.core.rules import variant_games


def is_mod(bundle: dict, game_id: str) -> bool:
    return "vassal" in (bundle["games"][game_id].get("order_sets") or [])


def standard_setup(players: int, base: bool, targaryen: bool) -> str:
    """The standard setup for a player count: Mother of Dragons unless base (R31.1: Targaryen only with 4+)."""
    if base:
        return f"base-{players}p"
    if players == 8:
        return "mod-8p"
    if players == 3:
        return "mod-3p"
    return f"mod-{players}p-{'with' if targaryen else 'without'}-targaryen"


def _command(variant: str, packs: list, extra: str = "") -> str:
    parts = ["maester", "play", *extra.split(), "--variant", variant]
    for p in packs or []:
        parts += ["--pack", str(p)]
    return shlex.join(parts)


def variant_setup(bundle: dict, variant: str, players: int | None, base: bool, targaryen: bool,
                  setup: str | None, packs: list) -> str:
    """The setup id to play a variant with; a located one-line error (with the command that works) otherwise."""
    v = bundle["variants"][variant]
    games = variant_games(v)
    # a rule option of several rules sets: --base (or --setup) chooses among them, Mother of Dragons otherwise
    game = next((g for g in games if is_mod(bundle, g) != base), games[0]) if len(games) > 1 else games[0]
    mod = is_mod(bundle, game)
    diags = Diagnostics()
    if base and mod or setup and bundle["setups"].get(setup, {}).get("game") not in (None, *games):
        diags.error("variant-mismatch", f"variant '{variant}' is for the rules set '{', '.join(games)}', not "
                    f"'{'base' if base else bundle['setups'][setup]['game']}': run {_command(variant, packs)}", None)
        raise MaesterError(diags)
    setups = v.get("setups") or {}
    played = {sid: bundle["setups"][sid] for sid in setups.values() if sid in bundle["setups"]}
    if not setup and len(games) > 1:  # the setups of the rules set chosen
        played = {sid: s for sid, s in played.items() if s["game"] == game}
    if setup:
        chosen = setups.get(setup, setup)
        if chosen not in played:
            diags.error("variant-setup", f"variant '{variant}' does not play setup '{setup}'", None,
                        "its setups: " + ", ".join(sorted(played)))
            raise MaesterError(diags)
        return chosen
    counts = sorted({s["players"] for s in played.values()})
    if players is None:
        players = max(counts) if counts else 8
    wanted = standard_setup(players, not mod, targaryen)
    if wanted in setups:
        return setups[wanted]
    matching = sorted(sid for sid, s in played.items() if s["players"] == players)
    if len(matching) == 1:
        return matching[0]
    if not matching:
        diags.error("variant-players", f"variant '{variant}' is not played with {players} players: it plays "
                    f"{', '.join(map(str, counts))} (run {_command(variant, packs, f'--players {max(counts)}')})"
                    if counts else f"variant '{variant}' plays no setup", None)
    else:
        diags.error("variant-setup", f"variant '{variant}' has several setups for {players} players", None,
                    "choose one with --setup: " + ", ".join(matching))
    raise MaesterError(diags)


def scenario_setup(bundle: dict, variant: str | None, setup: str, label: str) -> str:
    """The setup a scenario runs with a variant: the variant's own setup in place of a standard one."""
    if not variant:
        return setup
    v = bundle["variants"][variant]
    played = v.get("setups") or {}
    if setup in played:
        return played[setup]
    if setup in played.values():
        return setup
    diags = Diagnostics()
    game = bundle["setups"].get(setup, {}).get("game")
    if game is not None and game not in variant_games(v):
        diags.error("variant-mismatch", f"{label}: setup '{setup}' plays the rules set '{game}', but variant "
                    f"'{variant}' is for '{v['game']}': run the scenario without --variant, or give it a setup "
                    f"of '{v['game']}' ({', '.join(sorted(played.values())[:4])}...)", None)
    else:
        diags.error("variant-setup", f"{label}: variant '{variant}' does not play setup '{setup}'", None,
                    "its setups: " + ", ".join(sorted(played.values())))
    raise MaesterError(diags)
