"""Generate the card gallery, the board pictures and the bundle field reference at `mkdocs build` time.

Every page comes from the compiled bundle (run by the mkdocs-gen-files plugin): card text is the
English generated from each card's effect, never stored text, so the site always shows what the
engine plays.
"""

from __future__ import annotations

from pathlib import Path

import mkdocs_gen_files

from maester.dsl import compile_paths
from maester.dsl.compile import default_content_dir
from maester.dsl.english import English
from maester.interpreter.core.rules import Rules
from maester.tools import position
from maester.tools.render import board_svg, render_svg
from maester.tools.view import view_html

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

# ---- the boards, laid out from the content's geometry, and a viewer example -------------------------
# names are drawn larger than in `maester render` so the pictures stay legible at the page's width
LABEL_SCALE = {"base": 1.6, "mod-westeros": 1.6, "mod-essos": 1.9}
rules = Rules(bundle)
with mkdocs_gen_files.open("boards.md", "w") as f:
    f.write("# Boards\n\nThe three boards of the game, drawn from each area's position in the content "
            "(`at X Y`, see [render and view](viewer.md)), north at the top. Land areas are parchment discs "
            "with their printed castle or stronghold towers, supply (brown dots) and power (gold crowns); seas "
            "are blue discs and ports small pale ones; a line is a border, a dashed blue line a Westeros–Essos "
            "sea link. Open a picture on its own for the full size.\n\n")
    for board_id in sorted(bundle["boards"]):
        svg = board_svg(rules, board_id, LABEL_SCALE.get(board_id, 1.6))
        with mkdocs_gen_files.open(f"boards/{board_id}.svg", "w") as out:
            out.write(svg)
        rec = bundle["boards"][board_id]
        f.write(f"## {rec['name']} (`{board_id}`)\n\n{rec.get('description') or ''}\n\n"
                f"{len(rec['areas'])} areas, {len(rec['borders'])} borders.\n\n"
                f"[![{rec['name']}](boards/{board_id}.svg)](boards/{board_id}.svg)\n\n")
        if any(a["side"] == "essos" for a in rec["areas"].values()):  # a close-up of the side board
            with mkdocs_gen_files.open(f"boards/{board_id}-essos.svg", "w") as out:
                out.write(board_svg(rules, board_id, 1.4, side="essos"))
            f.write(f"The Essos side board, closer (its seas link to The Shivering Sea, The Narrow Sea, "
                    f"Shipbreaker Bay and the East Summer Sea, R32.2):\n\n"
                    f'<img src="../boards/{board_id}-essos.svg" alt="Essos side board" style="max-width:60%">\n\n')

# the docs are built from a checkout (CI installs the package, so the scenario is found next to this file)
EXAMPLE = Path(__file__).resolve().parent.parent / "tests/scenarios/base/rules/a10-garrison-only-home.yaml"
timeline = position.load(EXAMPLE)
with mkdocs_gen_files.open(f"views/{EXAMPLE.stem}.html", "w") as out:
    out.write(view_html(timeline))
with mkdocs_gen_files.open("views/a10-before.svg", "w") as out:
    out.write(render_svg(rules, timeline.state(0), caption="scenario A10, step 0"))
with mkdocs_gen_files.open("viewer-example.md", "w") as f:
    f.write("# Viewer example\n\nScenario A10 (`tests/scenarios/base/rules/a10-garrison-only-home.yaml`): "
            "Lannister marches a knight and a footman from Moat Cailin into Winterfell, held only by Stark's "
            "garrison. [Open the viewer](views/a10-garrison-only-home.html) (one HTML file; arrows, slider, "
            "C for the combat), or see the position before the march as `maester render` draws it:\n\n"
            "[![A10 before the march](views/a10-before.svg)](views/a10-before.svg)\n\n"
            '<iframe src="../views/a10-garrison-only-home.html" title="maester view: scenario A10" '
            'style="width:100%;height:720px;border:1px solid #ccc"></iframe>\n')
