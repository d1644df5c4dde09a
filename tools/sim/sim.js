// Barragoon board simulator page. Everything it shows comes from the host (tools/sim.py):
// GET /api/events streams the model (server-sent events), POST /api/action sends what the
// player does. window.sim.model is the latest model (tests read it). The legend's colours come
// from the firmware's colour table (GET /api/leds), in the palette the model names.
"use strict";

// --- every text of the page -------------------------------------------------------------------
// One table, so that the page can be translated in one place: index.html names its texts with
// data-t (an element's text), data-t-html (a text with the markup written here) and
// data-t-title (a tooltip); the code takes them with t(key, {values}), where {name} in a text
// is a value filled in when it is shown. Not here: what the firmware writes on its OLED, the
// host's error messages (tools/sim.py) and the rules page (firmware/barragoon/RULES.md).
const TEXT = {
  pageTitle: "Barragoon board simulator",
  brand: "Barragoon", brandSub: "board simulator",
  tabPlay: "Play", tabReplay: "Replay", tabRules: "Rules \u2197",
  tabRulesTitle: "the rules of Barragoon (opens in a new tab)",
  connecting: "connecting\u2026", statusTitle: "the firmware process",
  notReachable: "simulator not reachable",
  sides: ["White", "Brown"],
  handWhite: "White\u2019s hand", handBrown: "Brown\u2019s hand",
  emptyBoard1: "The board is empty.",
  emptyBoard2: "Click <b>Set up start position</b> to put the pieces on their squares: the game " +
               "starts when they all stand right.",
  btnUp: "UP", btnDown: "DOWN", btnOk: "hold = BACK", btnBack: "BACK",
  btnUpTitle: "UP (arrow up)", btnDownTitle: "DOWN (arrow down)",
  btnOkTitle: "OK (Enter); hold 0.7 s for BACK",
  btnBackTitle: "BACK: holds OK past the long-press time (Esc)", buzzerTitle: "buzzer",
  supplyTitle: "Supply", supplyUnit: "Barragoons", takeSupply: "Take a Barragoon",
  boxTitle: "Tiles off the board",
  setup: "Set up start position", variantTitle: "faces of the 8 start Barragoons",
  variantClosed: "closed (X)", variantOpen: "open (A)", clear: "Clear board",
  savedTitle: "Saved game", replayIt: "Replay it", replayItTitle: "step through this game",
  console: "Console", noGameSaved: "(no game saved)",
  // pieces
  tileTitle: "{side} {value}-tile", barragoonTitle: "Barragoon {face}",
  barragoonChoosing: "Barragoon {face} (being chosen: UP/DOWN, then OK)",
  barragoonUnconfirmed: "Barragoon {face} (face not confirmed yet)",
  awayTile: "put aside (off the board)", awayBarragoon: "back to the supply",
  boxPieceTitle: "{piece}: click to take it into the active hand",
  // the saved game and the firmware's state
  summaryDraw: "draw", summaryWon: "{side} won", summaryPlacing: "{side} places a Barragoon",
  summaryToMove: "{side} to move", summarySupply: "{summary} \u00b7 supply {n}",
  summaryUnreadable: "unreadable: {problem}", summaryNone: "none yet",
  summaryFinished: "none yet \u00b7 {n} finished",
  status: "firmware: {status}", statusCPython: "firmware: {status} on CPython",
  statusPico: "firmware: {status} on the emulated Pico", statusBusy: "{status} \u00b7 {busy}",
  busySettingUp: "setting up", runtimeNote: "The firmware runs on {runtime}.",
  // the line under the board: what to do next
  hintSettingUp: "Setting up the start position\u2026",
  hintChooseFace: "Choose the Barragoon\u2019s face with UP and DOWN (arrow keys), confirm with " +
                  "OK (Enter).",
  hintStart: "To begin, click \u201cSet up start position\u201d: the pieces go onto their " +
             "squares and the game starts. (Or click a tile under \u201cTiles off the board\u201d, " +
             "then a square.)",
  hintPickUp: "Click a piece to pick it up: the board lights where it can go.",
  hintPutDown: "Click an empty square to put the highlighted piece down; click a hand piece to " +
               "choose it.",
  hintTileLifted: "{piece} is in hand: click a lit square to move it there. To capture, first " +
                  "click the piece on a {capture} square to take it off, then click that square " +
                  "again.",
  hintCaptureTile: "Click {sq} again to put {piece} there: it captures the {victim} (now in " +
                   "{victimHand}), which leaves the game.",
  hintCaptureBarragoon: "Click {sq} again to put {piece} there: it captures the Barragoon (now " +
                        "in {victimHand}), which {side} then places again.",
  hintVictimFirst: "The {victim} from {sq} is in {victimHand}: now click the {side} tile that " +
                   "captures it (lit), then click {sq} again to put that tile there. If none is " +
                   "lit, click {sq} to put it back.",
  hintPlaceCaptured: "{side} places the captured Barragoon again: click an empty square, then " +
                     "choose its face with UP/DOWN and OK.",
  hintPlaceNew: "{side} places a Barragoon: click an empty square, then choose its face with " +
                "UP/DOWN and OK.",
  hintTakeBarragoon: "{side} places a Barragoon: click \u201cTake a Barragoon\u201d, then an " +
                     "empty square.",
  hintPutAside: "{side} places a Barragoon: first put the captured {victim} aside (the \u00d7 on " +
                "it in {victimHand}), then click \u201cTake a Barragoon\u201d and an empty square.",
  pieceTile: "{side}\u2019s {value}-tile", victimTile: "{side} {value}-tile",
  victimBarragoon: "Barragoon",
  handOf: "{side}\u2019s hand",
  // the legend
  legendTitle: "Legend", legendRules: "Rules \u2197", legendLights: "Lights", legendFaces: "Faces",
  legendPalette: "Colours: {palette}",
  legendPaletteHow: "To change them: hold OK for the board\u2019s menu, then \u201cLEDs\u201d.",
  paletteNames: { "normal": "normal", "red-green": "for red-green colour blindness" },
  patterns: { steady: "", pulse: "pulsing", blink: "blinking", flash: "flashing" },
  ledGroups: {
    lifted: "A tile in hand", victim: "A piece to capture in hand", touch: "Touch-move",
    place: "Placing and setting up", fix: "Something to fix", hint: "Hint (menu)",
    over: "Game over", test: "Sensor test (menu)" },
  leds: {
    "origin": "the square the lifted tile came from",
    "move": "the tile may move here",
    "capture tile": "capture: an opposing tile it can take",
    "capture barragoon": "capture: a Barragoon it can take",
    "capturer": "your tiles that can capture the lifted piece",
    "must move": "this tile must move (you touched it)",
    "must capture": "this piece must be captured (you touched it)",
    "place": "the Barragoon being placed; in set-up, the next square to fill",
    "set up": "set-up: the other squares still to fill",
    "error": "a piece where it cannot stand",
    "take off": "take the piece off this square",
    "put back": "put a piece (back) on this square",
    "hint": "the tile the board would move",
    "hint to": "\u2026 and where to",
    "winner": "the winner\u2019s tiles", "loser": "the loser\u2019s tiles",
    "draw": "every tile, after a draw",
    "sensed": "a piece stands here" },
  legendFacesIntro: "The arrows show the way a tile may travel over a Barragoon: in at the tail, " +
                    "out at the head. The letter of the code is the way out.",
  legendFacesCapture: "Any Barragoon can be captured by a full move ending on it, except " +
                      "that a 2-tile cannot capture All Turns. A turn made on a Barragoon is " +
                      "the walk\u2019s only turn.",
  faces: {
    "X": ["No Entry", "No tile may walk over it."],
    "1N": ["One Way N", "Straight over it, travelling north only."],
    "1E": ["One Way E", "Straight over it, travelling east only."],
    "1S": ["One Way S", "Straight over it, travelling south only."],
    "1W": ["One Way W", "Straight over it, travelling west only."],
    "2V": ["Two Ways V", "Straight over it, travelling north or south."],
    "2H": ["Two Ways H", "Straight over it, travelling east or west."],
    "RN": ["Right Turn N", "In travelling west, turn right, out to the north."],
    "RE": ["Right Turn E", "In travelling north, turn right, out to the east."],
    "RS": ["Right Turn S", "In travelling east, turn right, out to the south."],
    "RW": ["Right Turn W", "In travelling south, turn right, out to the west."],
    "LN": ["Left Turn N", "In travelling east, turn left, out to the north."],
    "LE": ["Left Turn E", "In travelling south, turn left, out to the east."],
    "LS": ["Left Turn S", "In travelling west, turn left, out to the south."],
    "LW": ["Left Turn W", "In travelling north, turn left, out to the west."],
    "A": ["All Turns", "From any side, turning left or right on it, never straight on."] },
  // replay
  recordTitle: "Game record", openFile: "Open file\u2026", boardGame: "This board\u2019s game",
  rpFirst: "start (Home)", rpPrev: "back (\u2190)", rpNext: "forward (\u2192)", rpLast: "end (End)",
  rpLoad: "Load a game record to replay it.",
  rpGame: "Game {n} \u00b7 {variant} \u00b7 {result} \u00b7 {actions} actions",
  rpGameFaulty: "Game {n} \u00b7 {variant} \u00b7 {result} \u00b7 {actions} actions \u00b7 faulty",
  rpStopsAfter: "The record stops being playable after action {n}: {error}",
  rpCannot: "Cannot replay: {error}",
  rpHead: "{name} \u00b7 {variant} \u00b7 result {result}",
  rpHeadExpress: "{name} \u00b7 {variant} \u00b7 express {express} \u00b7 result {result}",
  rpStart: "Start position", rpTurn: "{number}. {label}  ({side})",
  rpTurnBrown: "{number}... {label}  ({side})",
  rpOver: "{text} \u2014 {result}: {reason}", rpDraw: "draw", rpWins: "{side} wins",
  rpPlacing: "{text} \u2014 {side} places a Barragoon", rpToMove: "{text} \u2014 {side} to move",
  rpSupply: "{text} \u00b7 supply {n}",
};

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

const FILES = "abcdefg";
const LED_GAIN = 2.5;          // the strip runs at LED_BRIGHTNESS (40 %): scale up for the screen
const sim = window.sim = { model: null, replay: null, faces: null, leds: null, palette: -1,
                           rp: { game: 0, step: 0 }, ready: false, errors: [], text: TEXT };

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
const SIDES = TEXT.sides;

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
                   "status", { status: m.device.status });
  st.textContent = m.busy ? t("statusBusy", { status: status, busy: t("busySettingUp") }) : status;
  st.title = m.device.text || t("statusTitle");
  const note = $("runtime-note");
  const said = m.device.runtime === "micropython" ? "" :   // CPython or the emulated Pico
               t("runtimeNote", { runtime: m.device.runtime_text });
  if (note.textContent !== said) {
    note.hidden = !said;
    note.textContent = said;
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

function nextStep(m) {
  const held = [];
  for (const side of [0, 1]) for (const p of m.hands[side]) held.push({ p: p, side: side });
  const lifted = held.filter(h => h.p.from !== undefined);
  const g = m.game;
  const live = g.exists && !g.over;
  if (m.busy) return say("hintSettingUp");
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
  applyText(document);
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
  es.onerror = () => { $("status").className = "status stopped"; $("status").textContent = t("notReachable"); };
}

start();
