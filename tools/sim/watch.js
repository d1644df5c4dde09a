// The simulator's page as a mirror of a real board (tools/watch.py): its model carries
// "mirror", and then the page is read-only (the pieces are where the board's sensors see them,
// the lights and the screen are the board's), with a panel for the clock and, for a friend who
// plays one side remotely, clicks that make that side's moves and the buttons of its requests.
// Loaded after sim.js: it takes over render, onSquare and updateHint when the model is a
// mirror, and leaves the simulator alone otherwise. Its texts are text.json's "watch" table.
"use strict";

(function () {
  const W = window.watch = { seq: Date.now(), sel: -1, placeSq: -1, errors: [] };
  const simRender = render, simOnSquare = onSquare, simUpdateHint = updateHint;
  const tw = (key, values) => {
    let s = (TEXT.watch || {})[key];
    if (s === undefined) return key;
    if (values) s = s.replace(/\{(\w+)\}/g, (all, k) => (k in values ? String(values[k]) : all));
    return s;
  };

  render = function (m) {
    simRender(m);
    if (m.mirror) renderMirror(m);
  };
  onSquare = function (sq) {
    const m = sim.model;
    if (m && m.mirror) return mirrorSquare(m, sq);
    return simOnSquare(sq);
  };
  updateHint = function () {
    const m = sim.model;
    if (m && m.mirror) return mirrorHint(m);
    return simUpdateHint();
  };

  async function send(op, extra) {
    const m = sim.model;
    W.seq = Math.max(W.seq + 1, Date.now());
    const body = Object.assign({ op: op, k: m.mirror.k, seq: W.seq }, extra || {});
    let j;
    try {
      const r = await fetch("/api/action", { method: "POST", body: JSON.stringify(body),
                                             headers: { "Content-Type": "application/json" } });
      j = await r.json();
    } catch (e) {
      j = { ok: false, error: t("notReachable") };
    }
    if (!j.ok) { W.errors.push(j.error); flashHint(j.error); }
    return j;
  }
  W.send = send;

  // --- the remote player's clicks ----------------------------------------------------------------
  function mirrorSquare(m, sq) {
    const x = m.mirror;
    if (x.role !== "remote") return;
    const name = sqName(sq);
    if (x.squares.length) {                     // a placement: the square, then its face
      W.placeSq = x.squares.indexOf(name) >= 0 ? sq : -1;
      W.sel = -1;
    } else if (W.sel >= 0) {
      const tok = x.moves.find(mv => mv.slice(0, 2) === sqName(W.sel) && mv.slice(3) === name);
      if (tok) {
        W.sel = -1;
        send("play", { token: tok });
      } else {
        W.sel = x.moves.some(mv => mv.slice(0, 2) === name) ? sq : -1;
      }
    } else if (x.moves.some(mv => mv.slice(0, 2) === name)) {
      W.sel = sq;
    }
    renderMirror(m);
  }

  function targets(m) {
    const x = m.mirror, out = new Set();
    if (W.sel >= 0) {
      out.add(W.sel);
      for (const mv of x.moves) if (mv.slice(0, 2) === sqName(W.sel)) out.add(mv.slice(3));
    }
    if (W.placeSq >= 0) out.add(W.placeSq);
    return out;
  }

  // --- the panel ---------------------------------------------------------------------------------
  function panel() {
    let p = $("watch-panel");
    if (p) return p;
    p = document.createElement("div");
    p.id = "watch-panel";
    p.className = "panel watch";
    p.innerHTML = '<div class="panel-title" id="watch-title"></div>' +
      '<div id="watch-clock" class="watch-clock"></div>' +
      '<div id="watch-ask" class="watch-ask"></div>' +
      '<div id="watch-faces" class="watch-faces"></div>' +
      '<div class="row" id="watch-buttons">' +
      '<button id="watch-takeback"></button><button id="watch-draw"></button>' +
      '<button id="watch-resign"></button></div>' +
      '<div class="muted" id="watch-file"></div>';
    const side = document.querySelector("#view-play .side");
    side.insertBefore(p, side.firstChild);
    $("watch-takeback").addEventListener("click", () => send("takeback"));
    $("watch-draw").addEventListener("click", () => send("draw"));
    $("watch-resign").addEventListener("click", () => {
      if (confirm(tw("resignSure"))) send("resign");
    });
    return p;
  }

  function clockText(ms) {
    const s = Math.ceil(ms / 1000);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  // The running side's time counts down here between the board's lines (it sends the times
  // when they switch, pause or stop).
  function showClock() {
    const c = W.clock, el = $("watch-clock");
    if (!el) return;
    if (!c) { el.textContent = ""; return; }
    const ms = c.ms.slice();
    if (c.state === "run") ms[c.side] = Math.max(0, ms[c.side] - (Date.now() - W.clockAt));
    el.textContent = tw("clock", {
      white: clockText(ms[0]), brown: clockText(ms[1]),
      runs: c.state === "run" ? SIDES[c.side] : c.state === "pause" ? tw("paused") : "-" });
  }
  setInterval(showClock, 200);

  function renderMirror(m) {
    const x = m.mirror;
    document.body.classList.add("mirror");
    document.body.classList.toggle("remote", x.role === "remote");
    panel();
    const st = $("status");
    st.className = "status " + (x.connected ? "running" : "stopped");
    st.textContent = x.connected ? tw("on", { port: x.port }) : tw("off", { port: x.port });
    st.title = x.error || "";
    const you = x.role === "remote" ? tw("youPlay", { side: SIDES[x.remote] }) :
                x.role === "owner" ? tw("owner") : tw("spectator");
    $("watch-title").textContent = you + (x.version ? " \u00b7 " + tw("firmware", {
      version: x.version }) : "");
    W.clock = x.clock;
    W.clockAt = Date.now();
    showClock();
    const g = m.game;
    const mine = x.role === "remote" && x.remote_on === x.remote && g.exists && !g.over;
    $("watch-buttons").hidden = !mine;
    $("watch-takeback").textContent = tw("takeBack");
    $("watch-draw").textContent = tw("offerDraw");
    $("watch-resign").textContent = tw("resign");
    $("watch-resign").disabled = x.turn !== x.remote;
    renderAsk(m, mine);
    renderFaces(m, mine);
    $("watch-file").textContent = x.record_file ? tw("recordFile", { file: x.record_file }) : "";
    const marks = mine ? targets(m) : new Set();
    cells.forEach((cell, sq) => {
      cell.classList.toggle("target", marks.has(sq) || marks.has(sqName(sq)));
      cell.classList.toggle("chosen", sq === W.sel || sq === W.placeSq);
    });
    if ($("hint").style.color === "") mirrorHint(m);
  }

  function renderAsk(m, mine) {
    const x = m.mirror, box = $("watch-ask");
    const key = JSON.stringify(x.ask) + mine;
    if (box._key === key) return;
    box._key = key;
    box.innerHTML = "";
    if (!x.ask) return;
    const [kind, side] = x.ask;
    const p = document.createElement("span");
    p.textContent = tw("ask_" + kind, { side: SIDES[side] });
    box.appendChild(p);
    if (mine && side !== x.remote && (kind === "offer" || kind === "repetition")) {
      for (const [word, label] of [["yes", "accept"], ["no", "decline"]]) {
        const b = document.createElement("button");
        b.id = "watch-answer-" + word;
        b.textContent = tw(label);
        b.addEventListener("click", () => send("answer", { answer: word }));
        box.appendChild(b);
      }
    }
  }

  function renderFaces(m, mine) {
    const x = m.mirror, box = $("watch-faces");
    const show = mine && W.placeSq >= 0 && x.squares.indexOf(sqName(W.placeSq)) >= 0;
    const key = show ? sqName(W.placeSq) : "";
    if (box._key === key) return;
    box._key = key;
    box.innerHTML = "";
    if (!show) return;
    const label = document.createElement("div");
    label.textContent = tw("chooseFace", { square: key });
    box.appendChild(label);
    for (const face of FACE_ORDER) {
      const b = document.createElement("button");
      b.className = "face-choice";
      b.id = "watch-face-" + face;
      b.title = face;
      b.appendChild(pieceEl({ kind: "barragoon", face: face }, true));
      b.addEventListener("click", () => {
        const tok = key + "=" + face;
        W.placeSq = -1;
        send("play", { token: tok });
        renderMirror(sim.model);
      });
      box.appendChild(b);
    }
  }

  function mirrorHint(m) {
    const x = m.mirror, g = m.game, h = $("hint");
    let text;
    if (!x.connected) text = tw("noBoard", { port: x.port });
    else if (!g.exists) text = tw("noGame");
    else if (g.over) text = g.winner === 2 ? t("summaryDraw") : t("summaryWon", { side: SIDES[g.winner] });
    else if (x.role === "remote" && x.remote_on !== x.remote) text = tw("notYet", { side: SIDES[x.remote] });
    else if (x.role === "remote" && x.plan) text = tw("carry", { token: x.plan });
    else if (x.role === "remote" && x.squares.length) text = tw("yourPlace");
    else if (x.role === "remote" && x.moves.length) text = tw("yourMove");
    else if (x.role === "remote") text = tw("waiting", { side: SIDES[x.turn] });
    else if (g.placing >= 0) text = t("summaryPlacing", { side: SIDES[g.placing] });
    else text = t("summaryToMove", { side: SIDES[g.side] });
    h.textContent = text;
    $("board-empty").hidden = true;
  }
})();
