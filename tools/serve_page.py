"""The pages of `maester serve`: the list of games, and a seat (one house's view of its game).

Plain HTML and JavaScript, no library and no network beyond the server itself. The seat page keeps a websocket
open; the server sends the whole view after every change (the map as SVG, the decision, the panels), and the
page sends back the index of the answer chosen. The map zooms with the wheel or the +/− buttons and pans by
dragging, so the board is legible on a laptop screen.
"""

INDEX = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>maester serve</title><link rel="icon" href="data:,">
<style>body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 2em; background: #f4f1e8; }</style></head>
<body><h1>maester — games on this server</h1>
<p>Each link is one house's seat: give each player theirs.</p>
<ul id="games">%GAMES%</ul>
<h2>A new game</h2>
<form id="new" action="/new" method="get">
  <label>setup <select name="setup">%SETUPS%</select></label>
  <label>variant <select name="variant"><option value="">none</option>%VARIANTS%</select></label>
  <label>seed <input name="seed" type="number" value="1" style="width: 6em"></label><br>
  <label>people play <input name="human" placeholder="stark,lannister" size="30"></label>
  <label>agents play the rest <select name="agents"><option>heuristic</option><option>random</option></select>
  </label>
  <button type="submit">start</button>
</form>
<p id="error">%ERROR%</p>
</body></html>
"""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>maester — %HOUSE%</title>
<style>
* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body { font-family: "DejaVu Sans", Arial, sans-serif; background: #f4f1e8; color: #1b1b1b; display: flex;
       flex-direction: column; font-size: 13px; }
header { background: #2c3e50; color: #fff; padding: 4px 10px; display: flex; gap: 12px; align-items: center;
         flex: 0 0 auto; }
header h1 { font-size: 15px; margin: 0; font-weight: normal; }
#status { flex: 1; }
#conn.down { color: #f5b7b1; }
main { flex: 1 1 auto; display: flex; min-height: 0; }
#board { flex: 1 1 auto; min-width: 0; position: relative; overflow: hidden; background: #d8d2c0; cursor: grab; }
#map { position: absolute; inset: 0; }
#board svg { width: 100%; height: 100%; display: block; }
#zoom { position: absolute; bottom: 6px; left: 6px; display: flex; gap: 4px; }
#zoom button { font-size: 15px; width: 30px; }
#side { flex: 0 0 clamp(300px, 30vw, 440px); overflow-y: auto; padding: 6px; display: flex; flex-direction: column;
        gap: 6px; }
section { background: #fff; border: 1px solid #bbb; padding: 6px; }
section h2 { font-size: 13px; margin: 0 0 4px 0; color: #7b241c; }
#question { font-weight: bold; margin-bottom: 4px; }
#options { display: flex; flex-direction: column; gap: 3px; max-height: 40vh; overflow-y: auto; }
#options button { text-align: left; padding: 3px 6px; font-size: 13px; cursor: pointer; }
#options button.dim { display: none; }
.card { border-left: 4px solid #b7950b; padding: 2px 6px; margin: 3px 0; }
.card .name { font-weight: bold; }
.card .numbers { color: #555; font-size: 12px; }
#digest { max-height: 28vh; overflow-y: auto; margin: 0; padding-left: 18px; font-size: 12px; }
#message { color: #b03a2e; font-weight: bold; }
table { border-collapse: collapse; font-size: 12px; width: 100%; }
td, th { padding: 1px 4px; text-align: left; }
.choice-ring { fill: none; stroke: #f1c40f; stroke-width: 5; pointer-events: none; }
.asked-ring { fill: none; stroke: #e74c3c; stroke-width: 6; pointer-events: none; }
#chooser { position: absolute; z-index: 5; background: #fff; border: 2px solid #e74c3c; padding: 4px;
           display: flex; flex-direction: column; gap: 2px; max-height: 80%; max-width: 300px; overflow-y: auto;
           cursor: default; font-size: 12px;
           box-shadow: 2px 2px 6px rgba(0, 0, 0, 0.4); }
#chooser[hidden] { display: none; }
#chooser .title { font-weight: bold; display: flex; justify-content: space-between; gap: 8px; }
#chooser button.choice { text-align: left; padding: 1px 6px; font-size: 12px; cursor: pointer; }
</style>
</head>
<body>
<header><h1>maester — you play <b>%HOUSE%</b></h1><span id="status">connecting…</span>
  <span id="conn"></span></header>
<main>
  <div id="board"><div id="map"></div><div id="chooser" hidden></div>
    <div id="zoom"><button id="zoom-in" title="zoom in">+</button><button id="zoom-out" title="zoom out">−</button>
      <button id="zoom-fit" title="the whole board">⤢</button></div></div>
  <div id="side">
    <section id="decision-box"><h2>Your decision</h2><div id="message"></div><div id="question"></div>
      <div id="asked-cards"></div><div id="options"></div>
      <div><button id="show-all" hidden>show every answer</button> <button id="undo" disabled>undo</button></div>
    </section>
    <section id="actions-box" hidden><h2>Between decisions</h2>
      <div id="gift-row"><label>give <input id="gift-amount" type="number" min="1" value="1" style="width: 4em">
        power to <select id="gift-to"></select></label> <button id="gift">give</button></div>
      <div id="leave-row"><button id="leave" title="your house becomes a vassal from the next round (R42.5)">leave
        the game at the end of this round</button></div></section>
    <section id="combat-box" hidden><h2>Combat</h2><div id="combat"></div></section>
    <section><h2>Since your last decision</h2><ol id="digest"></ol></section>
    <section><h2>Your hand</h2><div id="hand"></div></section>
    <section><h2>Houses</h2><table id="houses"></table></section>
  </div>
</main>
<script>
"use strict";
const TOKEN = "%TOKEN%";
const $ = (id) => document.getElementById(id);
let view = null, socket = null, box = null, full = null;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function cardBox(c) {
  const d = el("div", "card");
  d.dataset.card = c.id;
  d.append(el("div", "name", c.name));
  if (c.strength !== undefined) {
    d.append(el("div", "numbers", "strength " + c.strength + " · swords " + c.swords + " · fortifications " +
                c.fortifications));
  }
  d.append(el("div", "text", c.text));
  return d;
}

// ---- the map: zoom and pan by the viewBox ----
function svg() { return $("map").querySelector("svg"); }
function setBox(b) { box = b; const s = svg(); if (s) s.setAttribute("viewBox", b.join(" ")); }
function zoom(factor, cx, cy) {
  const [x, y, w, h] = box;
  const nw = Math.min(full[2] * 1.2, Math.max(200, w * factor)), k = nw / w, nh = h * k;
  setBox([cx - (cx - x) * k, cy - (cy - y) * k, nw, nh]);
}
function toMap(ev) {
  const s = svg(), r = s.getBoundingClientRect();
  const scale = Math.max(box[2] / r.width, box[3] / r.height);
  const ox = (r.width * scale - box[2]) / 2, oy = (r.height * scale - box[3]) / 2;
  return [box[0] - ox + (ev.clientX - r.left) * scale, box[1] - oy + (ev.clientY - r.top) * scale, scale];
}
$("board").addEventListener("wheel", (ev) => {
  ev.preventDefault();
  const [mx, my] = toMap(ev);
  zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, mx, my);
}, { passive: false });
let drag = null, dragged = false;
$("board").addEventListener("pointerdown", (ev) => { drag = [ev.clientX, ev.clientY, box.slice()]; dragged = false; });
window.addEventListener("pointerup", () => { drag = null; });
window.addEventListener("pointermove", (ev) => {
  if (!drag) return;
  const dx = ev.clientX - drag[0], dy = ev.clientY - drag[1];
  if (Math.abs(dx) + Math.abs(dy) > 4) dragged = true;
  if (!dragged) return;
  const scale = toMap(ev)[2];
  setBox([drag[2][0] - dx * scale, drag[2][1] - dy * scale, drag[2][2], drag[2][3]]);
});
$("zoom-in").addEventListener("click", () => zoom(1 / 1.3, box[0] + box[2] / 2, box[1] + box[3] / 2));
$("zoom-out").addEventListener("click", () => zoom(1.3, box[0] + box[2] / 2, box[1] + box[3] / 2));
$("zoom-fit").addEventListener("click", () => setBox(full.slice()));

// a click on an area picks the answer that names it (or narrows the answers to those that do)
$("map").addEventListener("click", (ev) => {
  if (dragged || !view || !view.decision) return;
  const hit = ev.target.closest("[data-area]");
  if (!hit) return;
  const area = hit.getAttribute("data-area");
  const d = view.decision;
  const matching = d.options.filter((o) => o.areas.includes(area));
  if (matching.length === 0 && d.area === area && !d.options.some((o) => o.areas.length)) {
    // the decision is about this area and its answers name none (an order token to place): choose right here
    openChooser(ev, d, d.options);
    return;
  }
  if (matching.length === 1) { send({ number: d.number, index: matching[0].index }); return; }
  if (matching.length === 0) return;
  for (const b of $("options").children) {
    b.classList.toggle("dim", !matching.some((o) => String(o.index) === b.dataset.index));
  }
  $("show-all").hidden = false;
  openChooser(ev, d, matching);  // and right there, beside the click
});
$("show-all").addEventListener("click", () => {
  for (const b of $("options").children) b.classList.remove("dim");
  $("show-all").hidden = true;
});
$("undo").addEventListener("click", () => send({ undo: true }));
// Mother of Dragons: a gift of power (R42.4) and leaving (R42.5), taken without being asked; the engine
// refuses what the rules do not allow (the message shows above the decision)
$("gift").addEventListener("click", () => send({ action: "gift", to: $("gift-to").value,
                                                 amount: Number($("gift-amount").value) }));
$("leave").addEventListener("click", () => {
  const b = $("leave");
  if (b.dataset.armed !== "yes") { b.dataset.armed = "yes"; b.textContent = "sure? click again to leave"; return; }
  send({ action: "leave" });
});

// the answers of a decision about one area, in a small box beside the click (e.g. the order tokens to place)
function openChooser(ev, d, options) {
  const c = $("chooser"), r = $("board").getBoundingClientRect();
  const title = el("div", "title");
  const close = el("button", "close", "×");
  close.title = "close";
  close.addEventListener("click", closeChooser);
  title.append(el("span", "", d.question), close);
  c.replaceChildren(title);
  for (const o of options) {
    const b = el("button", "choice", o.text);
    b.dataset.index = String(o.index);
    b.addEventListener("click", () => { closeChooser(); send({ number: d.number, index: o.index }); });
    c.append(b);
  }
  c.hidden = false;
  // beside the click, kept inside the board
  const x = Math.min(ev.clientX - r.left + 8, r.width - c.offsetWidth - 4);
  const y = Math.min(ev.clientY - r.top + 8, r.height - c.offsetHeight - 4);
  c.style.left = Math.max(4, x) + "px";
  c.style.top = Math.max(4, y) + "px";
}
function closeChooser() { $("chooser").hidden = true; $("chooser").replaceChildren(); }
$("chooser").addEventListener("pointerdown", (ev) => ev.stopPropagation());  // a click in it is not a drag
$("chooser").addEventListener("wheel", (ev) => ev.stopPropagation());

function ring(area, cls) {
  const s = svg();
  if (!s || !s.querySelector("#shape-" + CSS.escape(area))) return;
  const u = document.createElementNS("http://www.w3.org/2000/svg", "use");
  u.setAttribute("href", "#shape-" + area);
  u.setAttribute("class", cls);
  u.dataset.ring = area;
  s.append(u);
}

function render(v) {
  view = v;
  closeChooser();
  $("map").innerHTML = v.svg;
  const s = svg();
  const vb = s.getAttribute("viewBox").split(" ").map(Number);
  if (!full || full[2] !== vb[2]) { full = vb; box = vb.slice(); }
  s.removeAttribute("width"); s.removeAttribute("height");
  s.setAttribute("preserveAspectRatio", "xMidYMid meet");
  setBox(box);
  $("status").textContent = "round " + v.round + " · " + v.phase + " phase · " +
    (v.over ? "game over: " + v.over.winner + " wins (" + v.over.reason + ")" :
     v.decision ? "your decision" : "waiting for " + v.waiting_for);
  $("message").textContent = v.message || "";
  const d = v.decision;
  $("options").replaceChildren();
  $("asked-cards").replaceChildren();
  $("show-all").hidden = true;
  if (d) {
    $("question").textContent = d.question;
    for (const c of d.cards) $("asked-cards").append(cardBox(c));
    for (const o of d.options) {
      const b = el("button", "option", o.text);
      b.dataset.index = String(o.index);
      if (o.areas.length) b.dataset.areas = o.areas.join(" ");
      b.addEventListener("click", () => send({ number: d.number, index: o.index }));
      $("options").append(b);
      for (const a of o.areas) ring(a, "choice-ring");
    }
    if (d.area) ring(d.area, "asked-ring");
  } else {
    $("question").textContent = v.over ? "The game is over." : "Waiting for " + v.waiting_for + "…";
  }
  const a = v.actions;
  $("actions-box").hidden = !a;
  if (a) {
    $("gift-row").hidden = !a.kinds.includes("gift");
    const keep = $("gift-to").value;
    $("gift-to").replaceChildren(...a.to.map((h) => { const o = el("option", "", h); o.value = h; return o; }));
    if (a.to.includes(keep)) $("gift-to").value = keep;
    $("leave-row").hidden = !a.kinds.includes("leave");
    $("leave").disabled = a.leaving;
    $("leave").dataset.armed = "";
    $("leave").textContent = a.leaving ? "you leave the game at the end of this round" :
      "leave the game at the end of this round";
  }
  $("undo").disabled = !v.undo;
  $("undo").title = v.undo ? "take back your last answer" : v.undo_why;
  $("combat-box").hidden = !v.combat;
  $("combat").replaceChildren();
  if (v.combat) {
    const c = v.combat;
    $("combat").append(el("div", "where", "in " + c.area_name + (c.stage ? " (" + c.stage + ")" : "")));
    for (const [role, side] of Object.entries(c.sides)) {
      const line = el("div", "side " + role, role + " " + side.house + ": " + (side.units.join(", ") || "no units") +
        (side.strength != null ? " · strength " + side.strength : "") +
        (side.final != null ? " · final " + side.final : "") +
        (side.card_hidden ? " · a house card, face down" : "") +
        (side.tides ? " · Tides of Battle: " + side.tides : ""));
      line.dataset.house = side.house;
      $("combat").append(line);
      if (side.card) $("combat").append(cardBox(side.card));
    }
    const sup = Object.entries(c.support);
    if (sup.length) {
      $("combat").append(el("div", "support", "supports: " + sup.map(([k, x]) => k + " → " + x).join(", ")));
    }
  }
  $("digest").replaceChildren(...v.digest.map((t) => el("li", "", t)));
  $("hand").replaceChildren(...v.hand.map(cardBox));
  const rows = [el("tr")];
  for (const h of ["house", "victory", "supply", "power", "cards", "discards"]) rows[0].append(el("th", "", h));
  for (const h of v.houses) {
    const tr = el("tr");
    tr.dataset.house = h.house;
    for (const x of [h.house, h.victory, h.supply, h.power, h.hand, h.discards.join(", ")]) {
      tr.append(el("td", "", String(x)));
    }
    rows.push(tr);
  }
  $("houses").replaceChildren(...rows);
  document.body.dataset.decision = d ? String(d.number) : "";
  document.body.dataset.ready = "yes";
}

function send(msg) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    document.body.dataset.ready = "no";
    socket.send(JSON.stringify(msg));
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(proto + "//" + location.host + "/ws/" + TOKEN);
  socket.onopen = () => { $("conn").textContent = ""; $("conn").className = ""; };
  socket.onmessage = (ev) => {
    const v = JSON.parse(ev.data);
    if (v.error) { $("status").textContent = v.error; return; }
    render(v);
  };
  socket.onclose = () => {
    $("conn").textContent = "reconnecting…"; $("conn").className = "down";
    document.body.dataset.ready = "no";
    setTimeout(connect, 500);
  };
}
connect();
</script>
</body>
</html>
"""
