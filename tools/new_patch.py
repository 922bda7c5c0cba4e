"""`maester new variant NAME --from KIND:ID`: scaffold a variant that patches one card, setup or rule.

The pack holds one file, `variant.mst`, with a `patch` of the chosen declaration restating one of its
values, ready to be changed; the printed play command works as written.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from maester.dsl.diagnostics import Diagnostics, MaesterError, hint_for
from maester.dsl.files import write_folder

# what `--from` may name: the word before the colon -> (bundle section, DSL kind)
SOURCES = {"card": ("house_cards", "house-card"), "setup": ("setups", "setup"), "rule": ("games", "game"),
           "game": ("games", "game")}


def scaffold_patch(bundle: dict, name: str, source: str, target: Path, packs: list) -> tuple[list[str], str]:
    """Write the pack; return its file names and the command that plays it."""
    diags = Diagnostics()
    what, _, ident = source.partition(":")
    if what not in SOURCES or not ident:
        diags.error("bad-from", f"--from '{source}': expected card:ID, setup:ID or rule:GAME-ID", None,
                    "for example: --from card:aeron-damphair-dwd, --from setup:mod-8p, --from rule:base")
        raise MaesterError(diags)
    section, kind = SOURCES[what]
    rec = bundle[section].get(ident)
    if rec is None:
        diags.error(f"unknown-{kind}", f"--from {source}: no {kind} '{ident}'", None,
                    hint_for(ident, bundle[section], show_all=20))
        raise MaesterError(diags)
    title = name.replace("-", " ").title()
    extra = ""
    if what == "card":
        game = next((g for g, r in sorted(bundle["games"].items()) if rec["set"] in (r["house_card_sets"] or [])),
                    None)
        if game is None:  # a set no rules set deals by default (e.g. adwd): the variant deals it
            game, extra = "base", f"  house-card-sets [{rec['set']}]\n"
        body = (f"  # change the card here: its keys, or new `when` abilities (they replace its own)\n"
                f"  patch house-card {ident} {{\n    strength {rec['strength']}\n  }}\n")
    elif what == "setup":
        game = rec["game"]
        body = (f"  # change the setup here: power-tokens, garrison AREA N, start HOUSE AREA {{ ... }},\n"
                f"  # house HOUSE {{ power N  loan random  replace-unit knight dragon }}, remove KEY ...\n"
                f"  setups [{ident}]\n"
                f"  patch setup {ident} {{\n    power-tokens {rec['power_tokens']}\n  }}\n")
    else:
        game = ident
        body = (f"  # change the rules set here: victory-points, max-rounds, tides-of-battle yes, ...\n"
                f"  patch game {ident} {{\n    victory-points {rec['victory_points']}\n  }}\n")
    packs_args = [a for p in packs for a in ("--pack", str(p))]
    command = shlex.join(["maester", "play", "--pack", str(target), *packs_args, "--variant", name])
    write_folder(target, {"variant.mst":  # the new pack whole or not at all
        f"# Play with this pack: {command}\n"
        f'variant {name} "{title}" {{\n'
        f'  description "{title}: a patch of {kind} {ident}."\n'
        f"  game {game}\n{extra}{body}}}\n"})
    return ["variant.mst"], command
