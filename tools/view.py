"""`maester view`: one self-contained HTML file to step through a game log or a scenario.

No server, no network, no library: the page holds the board's static SVG once, every distinct piece of the
dynamic layer once (see render.dynamic_pieces), and for each step the list of pieces it shows, plus the trace
(rule ids, cards and their source lines). A few lines of plain JavaScript swap the pieces on the arrows, the
slider, a click in the trace, or a jump to the next combat or round.
"""

from __future__ import annotations

import json
from html import escape

from .position import DECISION, Timeline
from .render import DYNAMIC_CLOSE, DYNAMIC_OPEN, VIEW_ALL, dynamic_pieces, frame_of, static_layers, svg_open

# the event types the page can jump to
COMBAT_EVENT, ROUND_EVENT = "combat", "round"
CARD_SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans", "tides_cards")


def _card(bundle: dict, card_id: str | None) -> dict | None:
    if not card_id:
        return None
    for section in CARD_SECTIONS:
        rec = bundle.get(section, {}).get(card_id)
        if rec:
            return {"id": card_id, "name": rec.get("name") or card_id, "source": rec.get("source") or ""}
    return {"id": card_id, "name": card_id, "source": ""}


def decision_text(line: dict, viewer: str | None) -> str:
    """A decision in words; another house's answer is shown only to the all-seeing viewer (orders and bids are
    secret until revealed, and the events say the rest)."""
    who = line["house"] + (f" (for {line['for']})" if line.get("for") else "")
    if viewer is VIEW_ALL or viewer == line["house"]:
        return f"{who} decides {line['kind']}: {line['answer']} — {line['prompt']}"
    return f"{who} decides {line['kind']}"


def trace_of(timeline: Timeline, viewer: str | None = VIEW_ALL) -> list[dict]:
    """The trace lines the page shows (line i leads to step i+1), with the card a line names and where it is
    written."""
    bundle = timeline.rules.bundle
    out = []
    for i, e in enumerate(timeline.lines):
        decision = e["type"] == DECISION
        out.append({"step": i + 1, "n": e["n"], "round": e.get("round"), "phase": e.get("phase"),
                    "type": e["type"], "rule": e.get("rule", ""),
                    "text": decision_text(e, viewer) if decision else e.get("text", ""),
                    "card": None if decision else _card(bundle, e.get("card")),
                    "area": e.get("area") if isinstance(e.get("area"), str) else None})
    return out


def view_data(timeline: Timeline, viewer: str | None) -> dict:
    first = timeline.state(0)
    frame = frame_of(timeline.rules.board(first.board))
    pieces: dict[str, int] = {}
    steps, meta = [], []
    for k in range(len(timeline)):
        state = timeline.state(k)
        layer = dynamic_pieces(frame, timeline.rules, state, viewer, timeline.orders_face_down(k),
                               combat=timeline.combat(k))
        steps.append([pieces.setdefault(p, len(pieces)) for p in layer])
        meta.append({"round": state.round, "phase": state.phase})
    lines = timeline.lines
    combats = [i + 1 for i, e in enumerate(lines) if e["type"] == COMBAT_EVENT]
    rounds = [{"round": meta[0]["round"], "step": 0}]
    rounds += [{"round": e["round"], "step": i + 1} for i, e in enumerate(lines) if e["type"] == ROUND_EVENT]
    return {"title": timeline.title, "source": timeline.source, "viewer": viewer or "all",
            "pieces": list(pieces), "steps": steps, "meta": meta, "trace": trace_of(timeline, viewer),
            "combats": combats, "rounds": rounds}


def view_html(timeline: Timeline, viewer: str | None = None) -> str:
    first = timeline.state(0)
    rules = timeline.rules
    frame = frame_of(rules.board(first.board))
    below, above = static_layers(frame, rules.bundle["boards"][first.board]["name"])
    data = view_data(timeline, viewer)
    start = "".join(data["pieces"][i] for i in data["steps"][0])
    svg = f"{svg_open(frame)}\n{below}\n{DYNAMIC_OPEN}{start}{DYNAMIC_CLOSE}\n{above}\n</svg>"
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    title = escape(f"maester — {timeline.title}")
    page = PAGE.replace("%STYLE%", STYLE).replace("%SCRIPT%", SCRIPT).replace("%TITLE%", title)
    return page.replace("%SVG%", svg).replace("%DATA%", payload)  # the data last: it is the only free text


STYLE = """
html, body { height: 100%; }
body { margin: 0; font-family: "DejaVu Sans", Arial, sans-serif; background: #f4f1e8; color: #1b1b1b;
       display: flex; flex-direction: column; }
header { flex: 0 0 auto; z-index: 2; background: #2c3e50; color: #fff; padding: 6px 10px;
         display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
header h1 { font-size: 16px; margin: 0 12px 0 0; font-weight: normal; }
header button, header select { font-size: 13px; padding: 2px 8px; }
#slider { flex: 1 1 260px; }
#where { font-size: 13px; min-width: 260px; }
main { flex: 1 1 auto; min-height: 0; display: flex; gap: 8px; padding: 8px; }
#board { flex: 1 1 auto; min-width: 0; position: relative; overflow: hidden; border: 1px solid #bbb;
         background: #fff; cursor: grab; }
#board svg { position: absolute; inset: 0; width: 100%; height: 100%; }
#zoom { position: absolute; bottom: 6px; left: 6px; display: flex; gap: 4px; z-index: 1; }
#zoom button { font-size: 15px; width: 30px; }
#side { flex: 0 0 clamp(280px, 28vw, 430px); display: flex; flex-direction: column; gap: 8px; min-height: 0; }
#current { background: #fff; border: 1px solid #bbb; padding: 8px; font-size: 13px; min-height: 64px; }
#current .rule { font-weight: bold; color: #7b241c; }
#trace { list-style: none; margin: 0; padding: 0; background: #fff; border: 1px solid #bbb; font-size: 12px;
         flex: 1 1 auto; min-height: 0; overflow-y: auto; }
#trace li { padding: 2px 6px; border-bottom: 1px solid #eee; cursor: pointer; }
#trace li.current { background: #fcf3cf; font-weight: bold; }
#trace li.combat { border-left: 4px solid #c0392b; }
#trace li.round { border-top: 2px solid #2c3e50; }
#trace li.decision { color: #1a5276; font-style: italic; }
#trace .rule { color: #7b241c; margin-right: 4px; }
#trace .n { color: #888; margin-right: 4px; }
#focus-ring { fill: none; stroke: #e74c3c; stroke-width: 5; pointer-events: none; }
#focus-region { fill: none; stroke: #e74c3c; stroke-width: 5; stroke-linejoin: round; pointer-events: none; }
kbd { background: #eee; color: #000; border-radius: 3px; padding: 0 3px; font-size: 11px; }
#help { font-size: 11px; color: #ddd; }
"""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>%TITLE%</title>
<style>%STYLE%</style>
</head>
<body>
<header>
  <h1>%TITLE%</h1>
  <button id="first" title="first step (Home)">|◀</button>
  <button id="prev" title="previous step (←)">◀</button>
  <button id="next" title="next step (→)">▶</button>
  <button id="last" title="last step (End)">▶|</button>
  <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
  <button id="prev-combat" title="previous combat (Shift+C)">◀ combat</button>
  <button id="next-combat" title="next combat (C)">combat ▶</button>
  <select id="round" aria-label="jump to a round" title="jump to a round (R / Shift+R)"></select>
  <span id="where"></span>
  <span id="help"><kbd>←</kbd><kbd>→</kbd> step, <kbd>C</kbd> combat, <kbd>R</kbd> round,
    <kbd>Home</kbd><kbd>End</kbd></span>
</header>
<main>
  <div id="board">%SVG%<div id="zoom"><button id="zoom-in" title="zoom in (+)">+</button>
    <button id="zoom-out" title="zoom out (-)">−</button><button id="zoom-fit" title="the whole board (0)">⤢</button>
  </div></div>
  <div id="side">
    <div id="current"></div>
    <ol id="trace"></ol>
  </div>
</main>
<script type="application/json" id="maester-data">%DATA%</script>
<script>%SCRIPT%</script>
</body>
</html>
"""

SCRIPT = r"""
"use strict";
const data = JSON.parse(document.getElementById("maester-data").textContent);
const last = data.steps.length - 1;
const $ = (id) => document.getElementById(id);
const layer = $("dynamic"), slider = $("slider"), trace = $("trace"), current = $("current");
let step = 0;
slider.max = String(last);
const ring = document.createElementNS("http://www.w3.org/2000/svg", "circle");
ring.id = "focus-ring";
$("labels").append(ring);
// on a map, the area's whole region is outlined too (the ring marks where its pieces are)
const outline = document.createElementNS("http://www.w3.org/2000/svg", "use");
outline.id = "focus-region";
$("labels").append(outline);

function text(tag, cls, content) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  el.textContent = content;
  return el;
}

// the trace: one line per event or decision; line i leads to step i + 1
const lines = data.trace.map((e) => {
  const li = document.createElement("li");
  li.dataset.step = String(e.step);
  li.dataset.type = e.type;
  if (e.type === "combat") li.classList.add("combat");
  if (e.type === "round") li.classList.add("round");
  if (e.type === "decision") li.classList.add("decision");
  li.append(text("span", "n", (e.type === "decision" ? "?" : "#") + e.n), text("span", "rule", e.rule),
            text("span", "text", e.text));
  li.addEventListener("click", () => show(e.step));
  trace.append(li);
  return li;
});

for (const r of data.rounds) {
  const opt = document.createElement("option");
  opt.value = String(r.step);
  opt.textContent = "round " + r.round;
  $("round").append(opt);
}

function describe(k) {
  current.replaceChildren();
  const m = data.meta[k];
  current.append(text("div", "step", "step " + k + " of " + last + " — round " + m.round + ", " + m.phase));
  if (k === 0) {
    current.append(text("div", "text", "the position before the first trace line"));
    return;
  }
  const e = data.trace[k - 1];
  current.append(text("div", "rule", e.rule + "  (" + e.type + ")"), text("div", "text", e.text));
  if (e.card) {
    current.append(text("div", "card", "card: " + e.card.name + (e.card.source ? " — " + e.card.source : "")));
  }
}

function show(k) {
  step = Math.max(0, Math.min(last, k));
  layer.innerHTML = data.steps[step].map((i) => data.pieces[i]).join("");
  slider.value = String(step);
  const m = data.meta[step];
  $("where").textContent = "step " + step + " / " + last + " · round " + m.round + " · " + m.phase;
  for (const li of trace.querySelectorAll("li.current")) li.classList.remove("current");
  // a ring around the area the current trace line names
  const area = step > 0 ? data.trace[step - 1].area : null;
  const marker = area ? document.querySelector('circle.marker[data-area="' + area + '"]') : null;
  ring.style.display = marker ? "" : "none";
  const shape = area ? document.getElementById("shape-" + area) : null;
  outline.style.display = shape ? "" : "none";
  if (shape) outline.setAttribute("href", "#shape-" + area);
  if (marker) {
    ring.setAttribute("cx", marker.getAttribute("cx"));
    ring.setAttribute("cy", marker.getAttribute("cy"));
    ring.setAttribute("r", String(Number(marker.getAttribute("r")) + 7));
  }
  if (step > 0) {
    const li = lines[step - 1];
    li.classList.add("current");
    li.scrollIntoView({ block: "nearest" });
  }
  let r = data.rounds[0];
  for (const x of data.rounds) if (x.step <= step) r = x;
  $("round").value = String(r.step);
  describe(step);
  history.replaceState(null, "", "#step=" + step);
}

function jump(targets, forward) {
  const t = forward ? targets.find((s) => s > step) : [...targets].reverse().find((s) => s < step);
  if (t !== undefined) show(t);
}
const roundSteps = data.rounds.map((r) => r.step);

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(step - 1));
$("next").addEventListener("click", () => show(step + 1));
$("last").addEventListener("click", () => show(last));
$("prev-combat").addEventListener("click", () => jump(data.combats, false));
$("next-combat").addEventListener("click", () => jump(data.combats, true));
$("round").addEventListener("change", (ev) => show(Number(ev.target.value)));
slider.addEventListener("input", () => show(Number(slider.value)));

document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLSelectElement || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const keys = {
    ArrowRight: () => show(step + (ev.shiftKey ? 10 : 1)),
    ArrowLeft: () => show(step - (ev.shiftKey ? 10 : 1)),
    Home: () => show(0),
    End: () => show(last),
    c: () => jump(data.combats, true),
    C: () => jump(data.combats, false),
    r: () => jump(roundSteps, true),
    R: () => jump(roundSteps, false),
  };
  const act = keys[ev.key];
  if (act) {
    ev.preventDefault();  // the slider would move a second time
    act();
  }
});

// zoom with the wheel or the buttons, pan by dragging: the board stays legible on a laptop screen
const map = document.querySelector("#board svg");
const full = map.getAttribute("viewBox").split(" ").map(Number);
let box = full.slice();
map.removeAttribute("width");
map.removeAttribute("height");
function setBox(b) { box = b; map.setAttribute("viewBox", b.join(" ")); }
function toMap(ev) {
  const r = map.getBoundingClientRect();
  const scale = Math.max(box[2] / r.width, box[3] / r.height);
  const ox = (r.width * scale - box[2]) / 2, oy = (r.height * scale - box[3]) / 2;
  return [box[0] - ox + (ev.clientX - r.left) * scale, box[1] - oy + (ev.clientY - r.top) * scale, scale];
}
function zoom(factor, cx, cy) {
  const w = Math.min(full[2] * 1.2, Math.max(200, box[2] * factor)), k = w / box[2];
  setBox([cx - (cx - box[0]) * k, cy - (cy - box[1]) * k, w, box[3] * k]);
}
const centre = () => [box[0] + box[2] / 2, box[1] + box[3] / 2];
$("board").addEventListener("wheel", (ev) => {
  ev.preventDefault();
  const [x, y] = toMap(ev);
  zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, x, y);
}, { passive: false });
let drag = null;
$("board").addEventListener("pointerdown", (ev) => {
  if (ev.target.closest("#zoom")) return;
  drag = [ev.clientX, ev.clientY, box.slice()];
});
window.addEventListener("pointerup", () => { drag = null; });
window.addEventListener("pointermove", (ev) => {
  if (!drag) return;
  const scale = toMap(ev)[2];
  setBox([drag[2][0] - (ev.clientX - drag[0]) * scale, drag[2][1] - (ev.clientY - drag[1]) * scale,
          drag[2][2], drag[2][3]]);
});
$("zoom-in").addEventListener("click", () => zoom(1 / 1.3, ...centre()));
$("zoom-out").addEventListener("click", () => zoom(1.3, ...centre()));
$("zoom-fit").addEventListener("click", () => setBox(full.slice()));
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLSelectElement || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.key === "+" || ev.key === "=") zoom(1 / 1.3, ...centre());
  else if (ev.key === "-") zoom(1.3, ...centre());
  else if (ev.key === "0") setBox(full.slice());
});

const fromHash = /step=(\d+)/.exec(location.hash);
show(fromHash ? Number(fromHash[1]) : 0);
"""
