// Barragoon board simulator page. Everything it shows comes from the host (tools/sim.py):
// GET /api/events streams the model (server-sent events), POST /api/action sends what the
// player does. window.sim.model is the latest model (tests read it).
"use strict";

const FILES = "abcdefg";
const LED_GAIN = 2.5;          // the strip runs at LED_BRIGHTNESS (40 %): scale up for the screen
const sim = window.sim = { model: null, replay: null, faces: null, rp: { game: 0, step: 0 },
                           ready: false, errors: [] };

function sqName(sq) { return FILES[sq % 7] + (Math.floor(sq / 7) + 1); }
function $(id) { return document.getElementById(id); }

async function api(op, args) {
  const body = Object.assign({ op: op }, args || {});
  try {
    const r = await fetch("/api/action", { method: "POST", body: JSON.stringify(body),
                                           headers: { "Content-Type": "application/json" } });
    const j = await r.json();
    if (!j.ok) { sim.errors.push(j.error); flashHint(j.error); }
    return j;
  } catch (e) {
    flashHint("simulator not reachable");
    return { ok: false, error: String(e) };
  }
}

let hintTimer = 0;
function flashHint(text) {
  const h = $("hint");
  h.textContent = text;
  h.style.color = "#ffb4a8";
  clearTimeout(hintTimer);
  hintTimer = setTimeout(() => { h.style.color = ""; updateHint(); }, 2500);
}

// --- pieces -----------------------------------------------------------------------------------
const PIPS = { 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8] };
const svgCache = {};

function faceSvg(face) {
  if (svgCache[face]) return svgCache[face];
  let d = "";
  const f = sim.faces;
  if (f && f.faces[face]) {
    f.faces[face].forEach((row, y) => {
      let x = 0;
      while (x < row.length) {
        if (row[x] === "1") {
          let e = x;
          while (e < row.length && row[e] === "1") e++;
          d += "M" + x + " " + y + "h" + (e - x) + "v1h" + (x - e) + "z";
          x = e;
        } else x++;
      }
    });
  }
  const size = f ? f.size : 24;
  const svg = '<svg viewBox="0 0 ' + size + " " + size + '" shape-rendering="crispEdges">' +
              '<path d="' + d + '"/></svg>';
  svgCache[face] = svg;
  return svg;
}

function pieceEl(p, small) {
  const d = document.createElement("div");
  if (p.kind === "tile") {
    d.className = "piece tile " + (p.side ? "brown" : "white");
    const on = PIPS[p.value] || [];
    for (let i = 0; i < 9; i++) {
      const s = document.createElement("span");
      if (on.indexOf(i) >= 0) s.className = "pip";
      d.appendChild(s);
    }
    d.title = (p.side ? "Brown " : "White ") + p.value + "-tile";
  } else {
    // A Barragoon put down shows "?" until the player confirms its face; while the OLED's
    // face picker is open it shows the face being chosen there.
    const state = p.choosing ? " choosing" : p.confirmed === false ? " unconfirmed" : "";
    d.className = "piece barragoon" + state;
    d.innerHTML = faceSvg(p.face);
    d.title = "Barragoon " + p.face + (p.choosing ? " (being chosen: UP/DOWN, then OK)" :
                                       p.confirmed === false ? " (face not confirmed yet)" : "");
  }
  if (small) d.classList.add("small");
  d.dataset.kind = p.kind;
  if (p.id !== undefined) d.dataset.piece = p.id;
  return d;
}

function pieceKey(p) {
  if (!p) return "";
  return p.kind === "tile" ? "t" + p.side + p.value :
         "b" + p.face + (p.choosing ? "*" : p.confirmed === false ? "?" : "");
}

// --- board ------------------------------------------------------------------------------------
function buildBoard(el, clickable) {
  el.innerHTML = "";
  const cells = [];
  for (let r = 8; r >= 0; r--) {
    const c = document.createElement("div");
    c.className = "coord";
    c.textContent = r + 1;
    el.appendChild(c);
    for (let f = 0; f < 7; f++) {
      const sq = r * 7 + f;
      const s = document.createElement("div");
      s.className = "sq";
      s.id = (clickable ? "sq-" : "rp-sq-") + sqName(sq);
      s.dataset.sq = sq;
      s.innerHTML = '<div class="glow"></div><span class="name">' + sqName(sq) + "</span>";
      s._key = "";
      if (clickable) s.addEventListener("click", () => onSquare(sq));
      el.appendChild(s);
      cells[sq] = s;
    }
  }
  el.appendChild(document.createElement("div"));
  for (let f = 0; f < 7; f++) {
    const c = document.createElement("div");
    c.className = "coord";
    c.textContent = FILES[f];
    el.appendChild(c);
  }
  return cells;
}

function setPiece(cell, p) {
  const key = pieceKey(p);
  if (cell._key === key) return;
  cell._key = key;
  const old = cell.querySelector(".piece");
  if (old) old.remove();
  if (p) cell.appendChild(pieceEl(p, false));
}

function setLed(cell, rgb) {
  const m = Math.max(rgb[0], rgb[1], rgb[2]);
  const key = rgb.join(",");
  if (cell._led === key) return;
  cell._led = key;
  if (m === 0) {
    cell.classList.remove("lit");
    cell.style.setProperty("--led-a", 0);
    return;
  }
  const hue = rgb.map(v => Math.round(v * 255 / m));
  const a = Math.max(0.3, Math.min(1, m * LED_GAIN / 255));
  cell.style.setProperty("--led", "rgba(" + hue.join(",") + "," + a + ")");
  cell.style.setProperty("--led-mid", "rgba(" + hue.join(",") + "," + (a * 0.55).toFixed(3) + ")");
  cell.style.setProperty("--led-a", 1);
  cell.classList.add("lit");
}

let cells = null, rpCells = null;

function onSquare(sq) {
  const m = sim.model;
  if (!m) return;
  if (m.board[sq]) api("lift", { sq: sq });
  else api("put", { sq: sq });
}

// --- hands, supply, captured tiles --------------------------------------------------------------
function renderHands(m) {
  for (const side of [0, 1]) {
    const hand = $("hand-" + side);
    hand.classList.toggle("active", m.active === side);
    const box = hand.querySelector(".hand-pieces");
    const key = JSON.stringify(m.hands[side]) + m.next;
    if (box._key === key) continue;
    box._key = key;
    box.innerHTML = "";
    for (const p of m.hands[side]) {
      const w = document.createElement("div");
      w.className = "hand-piece" + (p.id === m.next ? " selected" : "");
      w.id = "hand-piece-" + p.id;
      w.appendChild(pieceEl(p, true));
      w.addEventListener("click", ev => { ev.stopPropagation(); api("select", { id: p.id }); });
      const x = document.createElement("button");
      x.className = "away";
      x.innerHTML = "&times;";
      x.title = p.kind === "tile" ? "put aside (off the board)" : "back to the supply";
      x.addEventListener("click", ev => { ev.stopPropagation(); api("put_away", { id: p.id }); });
      w.appendChild(x);
      box.appendChild(w);
    }
  }
}

function renderStock(m) {
  $("supply-count").textContent = m.supply;
  $("take-supply").disabled = m.supply === 0;
  // A placement is due and no Barragoon is at hand or waiting for its face: take one.
  const inHand = m.hands[0].concat(m.hands[1]).some(p => p.kind === "barragoon");
  const waiting = m.board.some(p => p && p.kind === "barragoon" && p.confirmed === false);
  $("take-supply").classList.toggle("attention",
    m.game.exists && m.game.placing >= 0 && !inHand && !waiting && m.supply > 0);
  const box = $("box");
  const key = JSON.stringify(m.box);
  if (box._key !== key) {
    box._key = key;
    box.innerHTML = "";
    for (const p of m.box) {
      const e = pieceEl(p, true);
      e.id = "box-piece-" + p.id;
      e.title += ": click to take it into the active hand";
      e.addEventListener("click", () => api("take_box", { id: p.id }));
      box.appendChild(e);
    }
  }
  $("setup").disabled = !!m.busy;
}

// --- OLED -------------------------------------------------------------------------------------
const OLED_ON = [200, 232, 255];
const OLED_OFF = [6, 8, 12];
let oledKey = "";

function renderOled(o) {
  const key = o.rows.join("") + o.on;
  if (key === oledKey) return;
  oledKey = key;
  const cv = $("oled");
  const ctx = cv.getContext("2d");
  const img = ctx.createImageData(o.width, o.height);
  for (let y = 0; y < o.height; y++) {
    const row = o.rows[y];
    for (let x = 0; x < o.width; x++) {
      const nib = parseInt(row[x >> 2], 16);
      const on = (nib >> (3 - (x & 3))) & 1;
      const c = on ? OLED_ON : OLED_OFF;
      const i = (y * o.width + x) * 4;
      img.data[i] = c[0]; img.data[i + 1] = c[1]; img.data[i + 2] = c[2]; img.data[i + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
}

// --- buttons ----------------------------------------------------------------------------------
let audio = null, osc = null;

function ensureAudio() {
  if (!audio && window.AudioContext) {
    try { audio = new AudioContext(); } catch (e) { audio = null; }
  }
}

function renderBuzzer(pwm) {
  const on = pwm && pwm[1] > 0 && pwm[0] > 0;
  $("buzzer").classList.toggle("on", !!on);
  if (!audio) return;
  if (on && !osc) {
    osc = audio.createOscillator();
    const g = audio.createGain();
    g.gain.value = 0.04;
    osc.type = "square";
    osc.frequency.value = pwm[0];
    osc.connect(g).connect(audio.destination);
    osc.start();
  } else if (on && osc) {
    osc.frequency.value = pwm[0];
  } else if (!on && osc) {
    osc.stop();
    osc = null;
  }
}

function hookButton(el) {
  const name = el.dataset.button;
  let down = false;
  const press = ev => {
    ev.preventDefault();
    ensureAudio();
    if (down) return;
    down = true;
    el.classList.add("down-now");
    api("press", { button: name });
  };
  const release = () => {
    if (!down) return;
    down = false;
    el.classList.remove("down-now");
    api("release", { button: name });
  };
  el.addEventListener("pointerdown", press);
  el.addEventListener("pointerup", release);
  el.addEventListener("pointerleave", release);
  el.addEventListener("pointercancel", release);
}

const KEYS = { ArrowUp: "up", ArrowDown: "down", Enter: "ok" };
const keysDown = {};

function onKey(ev, isDown) {
  if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT")) return;
  if (!$("view-replay").hidden) {
    if (!isDown) return;
    const map = { ArrowLeft: -1, ArrowRight: 1, Home: -1e9, End: 1e9 };
    if (ev.key in map) { ev.preventDefault(); rpGo(sim.rp.step + map[ev.key]); }
    return;
  }
  if (ev.key === "Escape" || ev.key === "Backspace") {
    if (isDown && !ev.repeat) { ev.preventDefault(); api("back", { button: "ok" }); }
    return;
  }
  const b = KEYS[ev.key];
  if (!b) return;
  ev.preventDefault();
  if (isDown && !keysDown[b]) { keysDown[b] = true; api("press", { button: b }); }
  if (!isDown && keysDown[b]) { keysDown[b] = false; api("release", { button: b }); }
}

// --- saved game, status -----------------------------------------------------------------------
const SIDES = ["White", "Brown"];

function renderGame(m) {
  const g = m.game;
  let summary = "";
  if (g.exists) {
    if (g.over) summary = g.winner === 2 ? "draw" : SIDES[g.winner] + " won";
    else if (g.placing >= 0) summary = SIDES[g.placing] + " places a Barragoon";
    else summary = SIDES[g.side] + " to move";
    summary += " \u00b7 supply " + g.supply;
  } else if (g.problem) {
    summary = "unreadable: " + g.problem;
  } else {
    summary = "none yet" + (m.records ? " \u00b7 " + m.records + " finished" : "");
  }
  $("game-summary").textContent = summary;
  const rec = g.exists ? g.record : "";
  if ($("record")._text !== rec) { $("record")._text = rec; $("record").textContent = rec || "(no game saved)"; }
  const log = m.log.join("\n");
  const c = $("console");
  if (c._text !== log) { c._text = log; c.textContent = log; c.scrollTop = c.scrollHeight; }
  const st = $("status");
  const cpython = m.device.runtime === "cpython";
  st.className = "status " + m.device.status;
  st.textContent = "firmware: " + m.device.status + (cpython ? " on CPython" :
                   m.device.runtime === "rp2040" ? " on the emulated Pico" : "") +
                   (m.busy ? " \u00b7 " + m.busy : "");
  st.title = m.device.text || "the firmware process";
  const note = $("runtime-note");
  const said = m.device.runtime === "micropython" ? "" :   // CPython or the emulated Pico
               "The firmware runs on " + m.device.runtime_text + ".";
  if (note.textContent !== said) {
    note.hidden = !said;
    note.textContent = said;
  }
}

// What to do next, in one line under the board.
function hintText(m) {
  const SIDE = ["White", "Brown"];
  const inHand = m.hands[0].length + m.hands[1].length;
  const onBoard = m.board.some(p => p);
  const barragoonAtHand = m.hands[0].concat(m.hands[1]).some(p => p.kind === "barragoon");
  if (m.busy) return "Setting up the start position\u2026";
  if (m.board.some(p => p && p.choosing))
    return "Choose the Barragoon\u2019s face with UP and DOWN (arrow keys), confirm with OK (Enter).";
  if (inHand)
    return "Click an empty square to put the highlighted piece down; click a hand piece to choose it.";
  if (!onBoard)
    return "To begin, click \u201cSet up start position\u201d: the pieces go onto their squares " +
           "and the game starts. (Or click a tile under \u201cTiles off the board\u201d, then a square.)";
  const g = m.game;
  if (g.exists && !g.over && g.placing >= 0 && !barragoonAtHand)
    return SIDE[g.placing] + " places a Barragoon: click \u201cTake a Barragoon\u201d, then an empty square.";
  return "Click a piece to pick it up: the board lights where it can go.";
}

function updateHint() {
  const m = sim.model;
  if (!m) return;
  const h = $("hint");
  h.textContent = hintText(m);
  const empty = !m.busy && !m.board.some(p => p) && !m.hands[0].length && !m.hands[1].length;
  h.classList.toggle("start", empty);
  $("setup").classList.toggle("attention", empty);
  $("board-empty").hidden = !empty;
}

function render(m) {
  sim.model = m;
  for (let sq = 0; sq < 63; sq++) {
    setPiece(cells[sq], m.board[sq]);
    setLed(cells[sq], m.leds[sq]);
  }
  renderHands(m);
  renderStock(m);
  renderOled(m.oled);
  renderBuzzer(m.buzzer);
  renderGame(m);
  if ($("hint").style.color === "") updateHint();
  if (m.replay_version !== sim.replayVersion) loadReplay(m.replay_version);
  sim.ready = true;
}

// --- replay -----------------------------------------------------------------------------------
async function loadReplay(version) {
  sim.replayVersion = version;
  const r = await fetch("/api/replay");
  sim.replay = await r.json();
  const sel = $("replay-game");
  const games = sim.replay.games || [];
  sel.innerHTML = "";
  games.forEach((g, i) => {
    const o = document.createElement("option");
    const t = g.tags || {};
    o.value = i;
    o.textContent = "Game " + (i + 1) + " \u00b7 " + (t.Variant || "closed") + " \u00b7 " +
                    (g.result || "?") + " \u00b7 " + (g.steps.length ? g.steps.length - 1 : 0) + " actions" +
                    (g.error ? " \u00b7 faulty" : "");
    sel.appendChild(o);
  });
  sel.hidden = games.length < 2;
  sim.rp.game = Math.max(0, games.length - 1);
  sel.value = sim.rp.game;
  if (games.length) rpSelect(sim.rp.game, 0);
}

function rpGame() {
  const games = sim.replay && sim.replay.games;
  return games && games.length ? games[sim.rp.game] : null;
}

function rpSelect(i, step) {
  sim.rp.game = i;
  const g = rpGame();
  $("replay-error").textContent = !g || !g.error ? "" :
    (g.steps.length > 1 ? "The record stops being playable after action " + (g.steps.length - 1) +
                          ": " : "Cannot replay: ") + g.error;
  buildTurns(g);
  rpGo(step || 0);
}

function buildTurns(g) {
  const ol = $("rp-turns");
  ol.innerHTML = "";
  if (!g) return;
  let li = null, half = null, num = -1, mover = -2;
  g.steps.forEach((s, i) => {
    if (i === 0) return;
    if (s.number !== num) {
      num = s.number;
      li = document.createElement("li");
      li.value = num;
      ol.appendChild(li);
      mover = -2;
      if (s.mover === 1) {               // the game starts with Brown: leave White's half empty
        const empty = document.createElement("span");
        empty.className = "half";
        empty.textContent = "\u2026";
        li.appendChild(empty);
      }
    }
    if (s.mover !== mover) {
      mover = s.mover;
      half = document.createElement("span");
      half.className = "half";
      li.appendChild(half);
    }
    const t = document.createElement("span");
    t.className = "tok";
    t.id = "rp-tok-" + i;
    t.textContent = s.label;
    t.addEventListener("click", () => rpGo(i));
    half.appendChild(t);
  });
}

function rpGo(step) {
  const g = rpGame();
  const n = g ? g.steps.length - 1 : 0;
  step = Math.max(0, Math.min(n, step));
  sim.rp.step = step;
  $("rp-slider").max = n;
  $("rp-slider").value = step;
  $("rp-pos").textContent = step + " / " + n;
  const s = g && g.steps.length ? g.steps[step] : null;
  for (let sq = 0; sq < 63; sq++) {
    setPiece(rpCells[sq], s ? s.board[sq] : null);
    rpCells[sq].classList.toggle("mark", !!(s && s.squares.indexOf(sqName(sq)) >= 0));
  }
  document.querySelectorAll("#rp-turns .tok.current").forEach(e => e.classList.remove("current"));
  const cur = $("rp-tok-" + step);
  if (cur) { cur.classList.add("current"); cur.scrollIntoView({ block: "nearest" }); }
  const head = $("replay-head"), info = $("replay-info");
  if (!g) { head.textContent = "Load a game record to replay it."; info.textContent = ""; return; }
  const tags = g.tags || {};
  head.textContent = sim.replay.name + " \u00b7 " + (tags.Variant || "closed") +
                     (tags.Express && tags.Express !== "0 0" ? " \u00b7 express " + tags.Express : "") +
                     " \u00b7 result " + (g.result || "?");
  if (!s) { info.textContent = ""; return; }
  let text = step === 0 ? "Start position" :
             s.number + (s.mover === 1 ? "... " : ". ") + s.label + "  (" + SIDES[s.mover] + ")";
  if (s.over) text += " \u2014 " + (s.winner === 2 ? "draw" : SIDES[s.winner] + " wins") + ": " + s.reason;
  else if (s.placing >= 0) text += " \u2014 " + SIDES[s.placing] + " places a Barragoon";
  else text += " \u2014 " + SIDES[s.side] + " to move";
  text += " \u00b7 supply " + s.supply;
  info.textContent = text;
}

function showTab(name) {
  $("view-play").hidden = name !== "play";
  $("view-replay").hidden = name !== "replay";
  $("tab-play").classList.toggle("active", name === "play");
  $("tab-replay").classList.toggle("active", name === "replay");
  if (location.hash !== "#" + name) history.replaceState(null, "", name === "play" ? "#" : "#replay");
}

// --- start ------------------------------------------------------------------------------------
async function start() {
  cells = buildBoard($("board"), true);
  rpCells = buildBoard($("replay-board"), false);
  try { sim.faces = await (await fetch("/api/faces")).json(); } catch (e) { sim.faces = null; }
  document.querySelectorAll(".tab").forEach(b => b.addEventListener("click", () => showTab(b.dataset.tab)));
  showTab(location.hash === "#replay" ? "replay" : "play");
  document.querySelectorAll(".hw[data-button]").forEach(hookButton);
  $("btn-back").addEventListener("click", () => { ensureAudio(); api("back", { button: "ok" }); });
  $("take-supply").addEventListener("click", () => api("take_supply"));
  $("setup").addEventListener("click", () => api("setup", { variant: $("setup-variant").value }));
  $("clear").addEventListener("click", () => api("clear"));
  for (const side of [0, 1]) $("hand-" + side).addEventListener("click", () => api("active", { side: side }));
  $("replay-current").addEventListener("click", async () => {
    const r = await api("replay_current");
    if (r.ok) showTab("replay");
  });
  $("replay-board-game").addEventListener("click", () => api("replay_current"));
  $("replay-file").addEventListener("change", ev => {
    const f = ev.target.files[0];
    if (!f) return;
    const rd = new FileReader();
    rd.onload = () => api("replay_load", { text: rd.result, name: f.name });
    rd.readAsText(f);
    ev.target.value = "";
  });
  $("replay-game").addEventListener("change", ev => rpSelect(parseInt(ev.target.value, 10), 0));
  $("rp-first").addEventListener("click", () => rpGo(0));
  $("rp-prev").addEventListener("click", () => rpGo(sim.rp.step - 1));
  $("rp-next").addEventListener("click", () => rpGo(sim.rp.step + 1));
  $("rp-last").addEventListener("click", () => rpGo(1e9));
  $("rp-slider").addEventListener("input", ev => rpGo(parseInt(ev.target.value, 10)));
  document.addEventListener("keydown", ev => onKey(ev, true));
  document.addEventListener("keyup", ev => onKey(ev, false));
  rpGo(0);
  const es = new EventSource("/api/events");
  es.onmessage = ev => render(JSON.parse(ev.data));
  es.onerror = () => { $("status").className = "status stopped"; $("status").textContent = "simulator not reachable"; };
}

start();
