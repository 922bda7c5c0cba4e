"""Generate the card gallery, the board pictures and the bundle field reference at `mkdocs build` time.

Every page comes from the compiled bundle (run by the mkdocs-gen-files plugin): card text is the
English generated from each card's effect, never stored text, so the site always shows what the
engine plays.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import mkdocs_gen_files

from maester.dsl import compile_paths
from maester.dsl.compile import default_content_dir
from maester.dsl.english import English
from maester.interpreter.board import Board
from maester.tools.draw import draw_board

bundle = compile_paths()
english = English(bundle)
SETS = ["base", "mod-arryn", "mod-targaryen-a", "mod-targaryen-b", "mod-vassal", "adwd", "ffc-arryn", "asos"]


def source_of(where: str) -> str:
    file, line, _ = where.rsplit(":", 2)
    path = default_content_dir().parent / file
    lines = path.read_text(encoding="utf-8").splitlines()
    out, depth = [], 0
    for text in lines[int(line) - 1:]:
        out.append(text)
        depth += text.count("{") - text.count("}")
        if depth <= 0 and "{" in "".join(out):
            break
    return "\n".join(out)


def card_block(section: str, cid: str, rec: dict) -> str:
    return (f"### {rec['name']}\n\n`{cid}` — from `{rec['source']}`\n\n{english.card(section, rec)}\n\n"
            f"```\n{source_of(rec['source'])}\n```\n\n")


with mkdocs_gen_files.open("cards/index.md", "w") as f:
    f.write("# Card gallery\n\nEvery card of every set in the bundled content. The text of each card is generated "
            "from its compiled effect (`maester card NAME`), followed by its source in the content language.\n\n")
    f.write("| set | cards | with text |\n|---|---|---|\n")
    for s in SETS:
        cards = [c for c in bundle["house_cards"].values() if c["set"] == s]
        f.write(f"| {s} | {len(cards)} | {sum(1 for c in cards if c['abilities'])} |\n")
    for section, label in (("westeros_cards", "Westeros cards"), ("wildling_cards", "wildling cards"),
                           ("loans", "loans"), ("tides_cards", "Tides of Battle cards")):
        f.write(f"| {label} | {len(bundle[section])} | {len(bundle[section])} |\n")

for s in SETS:
    cards = sorted((c for c in bundle["house_cards"].items() if c[1]["set"] == s),
                   key=lambda kv: (kv[1]["house"] or "", -kv[1]["strength"], kv[0]))
    desc = bundle["card_sets"].get(s, {}).get("description") or ""
    with mkdocs_gen_files.open(f"cards/{s}.md", "w") as f:
        f.write(f"# {bundle['card_sets'].get(s, {}).get('name') or s}\n\n{desc}\n\n")
        if not cards:
            f.write("No cards of this set are in the bundled content yet.\n")
        f.write("| card | house | strength | swords | fortifications |\n|---|---|---|---|---|\n")
        for _cid, c in cards:
            f.write(f"| {c['name']} | {c['house'] or 'vassal'} | {c['strength']} | {c['swords']} | "
                    f"{c['fortifications']} |\n")
        f.write("\n")
        for cid, c in cards:
            f.write(card_block("house_cards", cid, c))

for section, page, title in (("westeros_cards", "westeros", "Westeros cards"),
                             ("wildling_cards", "wildlings", "Wildling cards"), ("loans", "loans", "Loans"),
                             ("tides_cards", "tides-of-battle", "Tides of Battle")):
    items = sorted(bundle[section].items(), key=lambda kv: (kv[1].get("deck", ""), kv[0]))
    with mkdocs_gen_files.open(f"cards/{page}.md", "w") as f:
        f.write(f"# {title}\n\n")
        for cid, rec in items:
            f.write(card_block(section, cid, rec))

with mkdocs_gen_files.open("boards.md", "w") as f:
    f.write("# Boards\n\nThe three boards of the game, drawn from the map graph (`maester map --format png`): "
            "land areas are squares (red edge: castle or stronghold), seas circles, ports diamonds; dashed "
            "blue lines are the Westeros–Essos sea links.\n\n")
    for board_id in sorted(bundle["boards"]):
        board = Board.from_bundle(bundle, board_id)
        with tempfile.TemporaryDirectory() as tmp:
            png = Path(tmp) / f"{board_id}.png"
            draw_board(board, png, size=(18, 18))
            with mkdocs_gen_files.open(f"boards/{board_id}.png", "wb") as out:
                out.write(png.read_bytes())
        rec = bundle["boards"][board_id]
        f.write(f"## {rec['name']} (`{board_id}`)\n\n{rec.get('description') or ''}\n\n"
                f"{len(rec['areas'])} areas, {len(rec['borders'])} borders.\n\n"
                f"![{rec['name']}](boards/{board_id}.png)\n\n")
