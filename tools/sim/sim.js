// Barragoon board simulator page. Everything it shows comes from the host (tools/sim.py):
// GET /api/events streams the model (server-sent events), POST /api/action sends what the
// player does. window.sim.model is the latest model (tests read it). The legend's colours come
// from the firmware's colour table (GET /api/leds), in the palette the model names.
"use strict";

// --- every text of the page, in every language ------------------------------------------------
// One table per language in text.json beside this file (GET /text.json), so that the page is
// translated in one place: index.html names its texts with data-t (an element's text),
// data-t-html (a text with the markup written there) and data-t-title (a tooltip); the code
// takes them with t(key, {values}), where {name} in a text is a value filled in when it is
// shown. host_tests/test_sim_text.py fails when a key or a {value} misses in any language.
// Each table also names its language (langName, as its speakers write it) and the section of
// RULES.md in it (rulesAnchor). Not here: what the firmware writes on its OLED (it has its own
// tables, controller/lang_*.py), the host's error messages (tools/sim.py) and RULES.md itself.
const LANGUAGES = ["en", "de", "it", "es"];
const LANG_KEY = "barragoon.sim.lang";      // localStorage: the language chosen on this page
let TEXTS = null;
let TEXT = {};

// The legend's groups of LED meanings (the firmware's names, controller/colours.py). Not
// listed: "off", and the LED test's pure colours (its screen says what they are).
const LED_GROUPS = [
  ["lifted", ["origin", "move", "capture tile", "capture barragoon"]],
  ["victim", ["capturer"]],
  ["touch", ["must move", "must capture"]],
  ["place", ["place", "set up"]],
  ["fix", ["error", "take off", "put back"]],
  ["hint", ["hint", "hint to"]],
  ["over", ["winner", "loser", "draw"]],
  ["test", ["sensed"]],
];
const LED_UNLISTED = ["off", "test red", "test green", "test blue", "test white"];
const FACE_ORDER = ["X", "1N", "1E", "1S", "1W", "2V", "2H", "RN", "RE", "RS", "RW",
                    "LN", "LE", "LS", "LW", "A"];

function t(key, values) {
  let s = TEXT[key];
  if (s === undefined) return key;
  if (values) s = s.replace(/\{(\w+)\}/g, (all, k) => (k in values ? String(values[k]) : all));
  return s;
}

function applyText(root) {
  root.querySelectorAll("[data-t]").forEach(e => { e.textContent = t(e.dataset.t); });
  root.querySelectorAll("[data-t-html]").forEach(e => { e.innerHTML = t(e.dataset.tHtml); });
  root.querySelectorAll("[data-t-title]").forEach(e => { e.title = t(e.dataset.tTitle); });
  document.title = t("pageTitle");
}

// --- the language -------------------------------------------------------------------------------
// The page and the simulated board speak one language. At the start the page takes the board's
// (tools/sim.py --lang, or the one saved in the board's settings), else the one last chosen on
// this page (localStorage), else the browser's first language among the four, else English.
// Choosing one on the page sets the board's language too, as its menu does.
function browserLanguage() {
  for (const l of navigator.languages || [navigator.language || ""]) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (LANGUAGES.indexOf(code) >= 0) return code;
  }
  return "";
}

function storedLanguage() {
  try { return localStorage.getItem(LANG_KEY) || ""; } catch (e) { return ""; }
}

function firstLanguage(board) {
  for (const code of [board, storedLanguage(), browserLanguage()])
    if (LANGUAGES.indexOf(code) >= 0) return code;
  return "en";
}

function buildLanguageChoice() {
  const sel = $("lang");
  sel.innerHTML = "";
  for (const code of LANGUAGES) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = TEXTS[code].langName;
    o.lang = code;
    sel.appendChild(o);
  }
  sel.addEventListener("change", () => chooseLanguage(sel.value));
}

function chooseLanguage(code) {
  setLanguage(code);
  try { localStorage.setItem(LANG_KEY, sim.lang); } catch (e) { /* private mode: not kept */ }
  sim.boardLang = sim.lang;
  // the models already on their way still carry the board's old language: until one carries
  // this choice, none may switch the page back
  sim.langAsked = sim.lang;
  api("language", { code: sim.lang }).then(j => { if (!j.ok) sim.langAsked = ""; });
}

// Every text on the page in the language code; what was drawn in another is drawn again.
function setLanguage(code) {
  if (!TEXTS[code]) code = "en";
  sim.lang = code;
  TEXT = sim.text = TEXTS[code];
  SIDES = TEXT.sides;
  document.documentElement.lang = code;
  $("lang").value = code;
  applyText(document);
  const rules = "/rules?lang=" + code + "#" + TEXT.rulesAnchor;
  $("rules-link").href = rules;
  $("legend-rules").href = rules;
  if (!cells) return;
  for (const c of cells.concat(rpCells)) c._key = "";
  document.querySelectorAll(".hand-pieces").forEach(b => { b._key = ""; });
  $("box")._key = "";
  $("record")._text = undefined;
  sim.palette = -1;
  buildFaceLegend();
  if (sim.model) render(sim.model);
  if (sim.replay) fillReplayGames();
  if (rpGame()) rpSelect(sim.rp.game, sim.rp.step);
  else rpGo(0);
}

const FILES = "abcdefg";
const LED_GAIN = 2.5;          // the strip runs at LED_BRIGHTNESS (40 %): scale up for the screen
const sim = window.sim = { model: null, replay: null, faces: null, leds: null, palette: -1,
                           rp: { game: 0, step: 0 }, ready: false, errors: [], text: TEXT,
                           lang: "" };

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
    flashHint(t("notReachable"));
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
    d.title = t("tileTitle", { side: TEXT.sides[p.side], value: p.value });
  } else {
    // A Barragoon put down shows "?" until the player confirms its face; while the OLED's
    // face picker is open it shows the face being chosen there.
    const state = p.choosing ? " choosing" : p.confirmed === false ? " unconfirmed" : "";
    d.className = "piece barragoon" + state;
    d.innerHTML = faceSvg(p.face);
    d.title = t(p.choosing ? "barragoonChoosing" : p.confirmed === false ? "barragoonUnconfirmed" :
                "barragoonTitle", { face: p.face });
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

// How an LED's colour shows on the screen: its hue at full strength, its brightness as the
// glow's opacity (never below 0.3, so that a dim LED stays visible). The legend uses it too.
function showLed(el, rgb) {
  const m = Math.max(rgb[0], rgb[1], rgb[2]);
  if (m === 0) {
    el.classList.remove("lit");
    el.style.setProperty("--led-a", 0);
    return;
  }
  const hue = rgb.map(v => Math.round(v * 255 / m));
  const a = Math.max(0.3, Math.min(1, m * LED_GAIN / 255));
  el.style.setProperty("--led", "rgba(" + hue.join(",") + "," + a + ")");
  el.style.setProperty("--led-mid", "rgba(" + hue.join(",") + "," + (a * 0.55).toFixed(3) + ")");
  el.style.setProperty("--led-a", 1);
  el.classList.add("lit");
}

function setLed(cell, rgb) {
  const key = rgb.join(",");
  if (cell._led === key) return;
  cell._led = key;
  showLed(cell, rgb);
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
      x.title = t(p.kind === "tile" ? "awayTile" : "awayBarragoon");
      x.addEventListener("click", ev => { ev.stopPropagation(); api("put_away", { id: p.id }); });
      w.appendChild(x);
      box.appendChild(w);
    }
  }
}

// The Barragoons left, as the board counts them (its OLED's "Supply"): a capture's placements
// count from the capture on, before their pieces are taken from the pile.
function boardSupply(m) {
  if (m.ctl && m.ctl.supply >= 0) return m.ctl.supply;
  return m.game.exists && !m.game.over ? m.game.supply : m.supply;
}

function renderStock(m) {
  $("supply-count").textContent = boardSupply(m);
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
      e.title = t("boxPieceTitle", { piece: e.title });
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
let SIDES = [];                // the players' names in the page's language

function renderGame(m) {
  const g = m.game;
  let summary = "";
  if (g.exists) {
    if (g.over) summary = g.winner === 2 ? t("summaryDraw") :
                          t("summaryWon", { side: SIDES[g.winner] });
    else if (g.placing >= 0) summary = t("summaryPlacing", { side: SIDES[g.placing] });
    else summary = t("summaryToMove", { side: SIDES[g.side] });
    summary = t("summarySupply", { summary: summary, n: g.supply });
  } else if (g.problem) {
    summary = t("summaryUnreadable", { problem: g.problem });
  } else {
    summary = m.records ? t("summaryFinished", { n: m.records }) : t("summaryNone");
  }
  $("game-summary").textContent = summary;
  const rec = g.exists ? g.record : "";
  if ($("record")._text !== rec) {
    $("record")._text = rec;
    $("record").textContent = rec || t("noGameSaved");
  }
  const log = m.log.join("\n");
  const c = $("console");
  if (c._text !== log) { c._text = log; c.textContent = log; c.scrollTop = c.scrollHeight; }
  const st = $("status");
  const cpython = m.device.runtime === "cpython";
  st.className = "status " + m.device.status;
  const status = t(cpython ? "statusCPython" : m.device.runtime === "rp2040" ? "statusPico" :
                   "status", { status: TEXT.statuses[m.device.status] || m.device.status });
  st.textContent = m.busy ? t("statusBusy", { status: status, busy: t("busySettingUp") }) : status;
  st.title = m.device.text || t("statusTitle");
  const note = $("runtime-note");
  const said = m.device.runtime === "cpython" ? t("runtimeCPython") :
               m.device.runtime === "rp2040" ? t("runtimePico") : "";
  if (note.textContent !== said) {
    note.hidden = !said;
    note.textContent = said;
    note.title = m.device.runtime_text;       // the details, as the terminal says them
  }
}

// What to do next, in one line under the board. A piece in a hand that was lifted off the
// board carries the square it came from (p.from): that tells a move from a capture.
function handName(side) { return t("handOf", { side: SIDES[side] }); }
function tileName(p) { return t("pieceTile", { side: SIDES[p.side], value: p.value }); }
function victimName(p) {
  return p.kind === "tile" ? t("victimTile", { side: SIDES[p.side], value: p.value }) :
                             t("victimBarragoon");
}

function patternWord(key) {
  const m = sim.leds && sim.leds.meanings.find(x => x.key === key);
  return TEXT.patterns[m ? m.pattern : "pulse"] || TEXT.patterns.pulse;
}

// The hint: its text, and the square it asks to click again (sq, -1 if none; the page marks it).
function hintText(m) { return nextStep(m).text; }

function say(key, values, sq) { return { text: t(key, values), sq: sq === undefined ? -1 : sq }; }

// What the board itself is doing (m.ctl, from its firmware; not on the emulated Pico) comes
// first: its set-up, a menu or question on its screen, its own turn against the player.
const MODE_HINTS = { Menu: "hintMenu", EndGame: "hintEndGame", Ask: "hintQuestion",
                     Offer: "hintOffer", Brightness: "hintMenu", Sensors: "hintSensors",
                     LedTest: "hintLedTest", Hint: "hintHint" };

function boardStep(m) {
  const c = m.ctl;
  if (!c) return null;
  const empty = !m.board.some(p => p);
  if (c.base === "Setup") return say(empty ? "hintStart" : "hintSetUp");
  if (MODE_HINTS[c.mode]) return say(MODE_HINTS[c.mode]);
  if (c.base === "Over") return say("hintOver");
  if (c.repair) return say("hintRepair");
  const own = c.own;
  if (!own) return null;
  const side = SIDES[own.side];
  if (own.thinking) return say("hintBoardThinking", { side: side });
  if (own.move) return say("hintBoardMove", { side: side, move: own.move });
  const sq = FILES.indexOf(own.place[0]) + 7 * (parseInt(own.place.slice(1), 10) - 1);
  if (own.placed) return say("hintBoardPlaced", { side: side, sq: own.place }, sq);
  return say("hintBoardPlace", { side: side, sq: own.place, face: own.face }, sq);
}

function nextStep(m) {
  const held = [];
  for (const side of [0, 1]) for (const p of m.hands[side]) held.push({ p: p, side: side });
  const lifted = held.filter(h => h.p.from !== undefined);
  const g = m.game;
  const live = g.exists && !g.over;
  if (m.busy) return say("hintSettingUp");
  const board = boardStep(m);
  if (board) return board;
  if (m.board.some(p => p && p.choosing)) return say("hintChooseFace");
  if (live && g.placing < 0) {
    const mover = g.side;
    const own = lifted.find(h => h.p.kind === "tile" && h.p.side === mover);
    const victim = lifted.find(h => h.p.kind === "barragoon" || h.p.side !== mover);
    const v = victim && { sq: sqName(victim.p.from), victim: victimName(victim.p),
                          victimHand: handName(victim.side), side: SIDES[mover] };
    if (own && victim) {
      v.piece = tileName(own.p);
      return say(victim.p.kind === "tile" ? "hintCaptureTile" : "hintCaptureBarragoon", v,
                 victim.p.from);
    }
    if (victim && held.length === 1) return say("hintVictimFirst", v);
    if (own && held.length === 1)
      return say("hintTileLifted", { piece: tileName(own.p),
                                     capture: patternWord("capture tile") });
  }
  if (live && g.placing >= 0) {
    const side = { side: SIDES[g.placing] };
    const barragoon = held.find(h => h.p.kind === "barragoon");
    if (barragoon)
      return say(barragoon.p.from !== undefined ? "hintPlaceCaptured" : "hintPlaceNew", side);
    if (m.board.some(p => p && p.kind === "barragoon" && p.confirmed === false))
      return say("hintChooseFace");
    const lost = lifted.find(h => h.p.kind === "tile");    // the captured tile
    if (lost && held.length === 1)
      return say("hintPutAside", { side: SIDES[g.placing], victim: victimName(lost.p),
                                   victimHand: handName(lost.side) });
    if (!held.length && m.supply > 0) return say("hintTakeBarragoon", side);
  }
  if (held.length) return say("hintPutDown");
  if (!m.board.some(p => p)) return say("hintStart");
  return say("hintPickUp");
}

function updateHint() {
  const m = sim.model;
  if (!m) return;
  const h = $("hint");
  const step = nextStep(m);
  h.textContent = step.text;
  cells.forEach((c, sq) => c.classList.toggle("target", sq === step.sq));
  const empty = !m.busy && !m.board.some(p => p) && !m.hands[0].length && !m.hands[1].length;
  h.classList.toggle("start", empty);
  $("setup").classList.toggle("attention", empty);
  $("board-empty").hidden = !empty;
}

function render(m) {
  sim.model = m;
  if (sim.langAsked) {
    if (m.lang === sim.langAsked) sim.langAsked = "";
  } else if (m.lang !== sim.boardLang) {      // changed on the board (its menu) or by the host
    sim.boardLang = m.lang;
    if (m.lang && m.lang !== sim.lang) {
      setLanguage(m.lang);
      try { localStorage.setItem(LANG_KEY, m.lang); } catch (e) { /* not kept */ }
      return;                                  // setLanguage has rendered m
    }
  }
  for (let sq = 0; sq < 63; sq++) {
    setPiece(cells[sq], m.board[sq]);
    setLed(cells[sq], m.leds[sq]);
  }
  renderHands(m);
  renderStock(m);
  renderOled(m.oled);
  renderBuzzer(m.buzzer);
  renderGame(m);
  renderLegend(m);
  if ($("hint").style.color === "") updateHint();
  if (m.replay_version !== sim.replayVersion) loadReplay(m.replay_version);
  sim.ready = true;
}

// --- legend -----------------------------------------------------------------------------------
// The LED meanings in the palette the firmware uses (m.palette, from its settings), with the
// colours of its own table (/api/leds); the 16 faces drawn as on the board.
function renderLegend(m) {
  const L = sim.leds;
  if (!L || m.palette === sim.palette) return;
  const pal = L.palettes[m.palette] || L.palettes[0];
  sim.palette = m.palette;
  $("legend-palette").textContent = t("legendPalette", {
    palette: TEXT.paletteNames[pal.name] || pal.name });
  const list = $("legend-led-list");
  list.innerHTML = "";
  list.style.setProperty("--pulse-low", L.pulse_low);
  for (const p in L.period_ms) list.style.setProperty("--" + p + "-ms", L.period_ms[p] + "ms");
  const shown = {};
  const row = key => {
    const i = L.meanings.findIndex(x => x.key === key);
    if (i < 0) return null;
    shown[key] = true;
    const rgb = pal.colours[i], pattern = L.meanings[i].pattern;
    const r = document.createElement("div");
    r.className = "led-row";
    r.dataset.led = key;
    r.dataset.rgb = rgb.join(",");
    r.dataset.pattern = pattern;
    const sw = document.createElement("span");
    sw.className = "swatch " + pattern;
    sw.innerHTML = '<span class="glow"></span>';
    // at the strip's brightness, as a square shows it
    showLed(sw, rgb.map(v => v / LED_GAIN));
    const tx = document.createElement("span");
    tx.className = "led-text";
    tx.textContent = (TEXT.leds[key] || key) +
                     (TEXT.patterns[pattern] ? " \u00b7 " + TEXT.patterns[pattern] : "");
    r.appendChild(sw);
    r.appendChild(tx);
    return r;
  };
  const groups = LED_GROUPS.slice();
  const rest = L.meanings.map(x => x.key).filter(k => LED_UNLISTED.indexOf(k) < 0 &&
                                                  !LED_GROUPS.some(gr => gr[1].indexOf(k) >= 0));
  if (rest.length) groups.push(["other", rest]);     // a meaning new in the firmware
  for (const [group, keys] of groups) {
    const rows = keys.map(row).filter(r => r);
    if (!rows.length) continue;
    const h = document.createElement("div");
    h.className = "led-group";
    h.textContent = TEXT.ledGroups[group] || group;
    list.appendChild(h);
    rows.forEach(r => list.appendChild(r));
  }
}

function buildFaceLegend() {
  const list = $("legend-face-list");
  list.innerHTML = "";
  for (const code of FACE_ORDER) {
    const [name, does] = TEXT.faces[code];
    const r = document.createElement("div");
    r.className = "face-row";
    r.dataset.face = code;
    r.appendChild(pieceEl({ kind: "barragoon", face: code }, true));
    r.querySelector(".piece").title = "";
    const tx = document.createElement("div");
    tx.className = "face-text";
    tx.innerHTML = '<span class="face-name"></span> <code></code><div class="face-does"></div>';
    tx.querySelector(".face-name").textContent = name;
    tx.querySelector("code").textContent = code;
    tx.querySelector(".face-does").textContent = does;
    r.appendChild(tx);
    list.appendChild(r);
  }
}

function showLegend(name) {
  for (const n of ["lights", "faces"]) {
    $("legend-" + n).hidden = n !== name;
    $("legend-tab-" + n).classList.toggle("active", n === name);
  }
}

// --- replay -----------------------------------------------------------------------------------
async function loadReplay(version) {
  sim.replayVersion = version;
  const r = await fetch("/api/replay");
  sim.replay = await r.json();
  sim.rp.game = Math.max(0, (sim.replay.games || []).length - 1);
  fillReplayGames();
  if (rpGame()) rpSelect(sim.rp.game, 0);
}

function fillReplayGames() {
  const sel = $("replay-game");
  const games = sim.replay.games || [];
  sel.innerHTML = "";
  games.forEach((g, i) => {
    const o = document.createElement("option");
    const tags = g.tags || {};
    o.value = i;
    o.textContent = t(g.error ? "rpGameFaulty" : "rpGame", {
      n: i + 1, variant: tags.Variant || "closed", result: g.result || "?",
      actions: g.steps.length ? g.steps.length - 1 : 0 });
    sel.appendChild(o);
  });
  sel.hidden = games.length < 2;
  sel.value = sim.rp.game;
}

function rpGame() {
  const games = sim.replay && sim.replay.games;
  return games && games.length ? games[sim.rp.game] : null;
}

function rpSelect(i, step) {
  sim.rp.game = i;
  const g = rpGame();
  $("replay-error").textContent = !g || !g.error ? "" :
    g.steps.length > 1 ? t("rpStopsAfter", { n: g.steps.length - 1, error: g.error }) :
                         t("rpCannot", { error: g.error });
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
    const tok = document.createElement("span");
    tok.className = "tok";
    tok.id = "rp-tok-" + i;
    tok.textContent = s.label;
    tok.addEventListener("click", () => rpGo(i));
    half.appendChild(tok);
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
  if (!g) { head.textContent = t("rpLoad"); info.textContent = ""; return; }
  const tags = g.tags || {};
  const express = tags.Express && tags.Express !== "0 0";
  head.textContent = t(express ? "rpHeadExpress" : "rpHead", {
    name: sim.replay.name, variant: tags.Variant || "closed", express: tags.Express,
    result: g.result || "?" });
  if (!s) { info.textContent = ""; return; }
  let text = step === 0 ? t("rpStart") :
             t(s.mover === 1 ? "rpTurnBrown" : "rpTurn", { number: s.number, label: s.label,
                                                            side: SIDES[s.mover] });
  if (s.over) text = t("rpOver", { text: text, reason: s.reason, result: s.winner === 2 ?
                                   t("rpDraw") : t("rpWins", { side: SIDES[s.winner] }) });
  else if (s.placing >= 0) text = t("rpPlacing", { text: text, side: SIDES[s.placing] });
  else text = t("rpToMove", { text: text, side: SIDES[s.side] });
  info.textContent = t("rpSupply", { text: text, n: s.supply });
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
  TEXTS = await (await fetch("/text.json")).json();
  let board = "";                                  // the board's language, if it has one
  try { board = (await (await fetch("/api/state")).json()).lang || ""; } catch (e) { board = ""; }
  buildLanguageChoice();
  setLanguage(firstLanguage(board));
  sim.boardLang = board;
  if (sim.lang !== board) chooseLanguage(sim.lang);
  cells = buildBoard($("board"), true);
  rpCells = buildBoard($("replay-board"), false);
  try { sim.faces = await (await fetch("/api/faces")).json(); } catch (e) { sim.faces = null; }
  try { sim.leds = await (await fetch("/api/leds")).json(); } catch (e) { sim.leds = null; }
  buildFaceLegend();
  document.querySelectorAll(".ltab").forEach(b => b.addEventListener("click", () => showLegend(b.dataset.legend)));
  document.querySelectorAll(".tab").forEach(b => b.addEventListener("click", () => showTab(b.dataset.tab)));
  showTab(location.hash === "#replay" ? "replay" : "play");
  document.querySelectorAll(".hw[data-button]").forEach(hookButton);
  $("btn-back").addEventListener("click", () => { ensureAudio(); api("back", { button: "ok" }); });
  $("take-supply").addEventListener("click", () => api("take_supply"));
  $("setup").addEventListener("click", () => {
    // A game in progress is never thrown away unasked: the page asks, as the board's menu does.
    if (sim.model && sim.model.game.in_progress) { $("new-game-ask").hidden = false; return; }
    api("setup", { variant: $("setup-variant").value });
  });
  $("new-game-yes").addEventListener("click", () => {
    $("new-game-ask").hidden = true;
    api("setup", { variant: $("setup-variant").value, new_game: true });
  });
  $("new-game-no").addEventListener("click", () => { $("new-game-ask").hidden = true; });
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
  es.onerror = () => { $("status").className = "status stopped"; $("status").textContent = t("notReachable"); };
}

start();
