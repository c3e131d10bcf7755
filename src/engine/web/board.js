// The web board's page: it draws what the server says and sends what a person does.
// The rules stay on the server: every legal move comes with the squares (or tokens) a person
// clicks to play it, so the page only matches clicks against those paths. Clocks are counted
// on the server too; the page only runs them down between two answers.
"use strict";

const $ = (id) => document.getElementById(id);
const FIGURES = {K: "\u265a", Q: "\u265b", R: "\u265c", B: "\u265d", N: "\u265e", P: "\u265f"};
const POLL_MS = 400;
const MATE_SCORE = 3000;  // annotate's: a mate is drawn as this many centi-men

let info = null;          // /api/variants: the games, cards, limits
let gameId = null;        // the game this page plays
let state = null;         // its last state from the server
let stateAt = 0;          // performance.now() when it came: the clocks run down from there
let flipped = false;
let clicks = [];          // the tokens clicked so far towards a move
let offered = [];         // moves those clicks end on, when several do: the page lists them
let shownSvg = "";
let shownLine = "";
let shownGraph = "";
let busy = 0;             // requests in flight: polls wait
let draws = 0;            // states drawn so far: a poll answer is drawn only if none came since
let dragFrom = null;
let heardPly = null;      // the line's length when a sound was last played
let resultShown = null;   // the game and line whose end the result dialog has shown
const soundLog = [];      // the sounds played ("move", "capture"), for the tests

async function api(method, path, data) {
  // Every request that changes something is JSON (the server refuses any other kind).
  const options = {method, headers: {}};
  if (method !== "GET") {
    options.body = JSON.stringify(data === undefined ? {} : data);
    options.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, options);
  const type = response.headers.get("Content-Type") || "";
  const payload = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error(payload.error || payload || response.statusText);
  return payload;
}

function say(text) { $("message").textContent = text || ""; }

async function act(work) {
  // One user action: its request, the new state drawn, its error shown.
  busy += 1;
  say("");
  try {
    return await work();
  } catch (error) {
    say(error.message);
  } finally {
    busy -= 1;
  }
}

function query() { return flipped ? "?flipped=1" : ""; }

// -- settings, kept in the browser -----------------------------------------------------------

const SETTINGS = {"board-theme": "wood", "piece-style": "classic", coordinates: true, sound: true};

function setting(name) {
  const kept = localStorage.getItem(`dimensiones.${name}`);
  if (kept === null) return SETTINGS[name];
  return typeof SETTINGS[name] === "boolean" ? kept === "true" : kept;
}

function applyLook() {
  const body = document.body;
  body.className = body.className.replace(/\b(theme|pieces)-\S+/g, "").replace("no-coordinates", "").trim();
  body.classList.add(`theme-${setting("board-theme")}`, `pieces-${setting("piece-style")}`);
  if (!setting("coordinates")) body.classList.add("no-coordinates");
}

function bindSettings() {
  for (const name of Object.keys(SETTINGS)) {
    const field = $(name);
    if (field.type === "checkbox") field.checked = setting(name);
    else field.value = setting(name);
    field.addEventListener("change", () => {
      localStorage.setItem(`dimensiones.${name}`, String(field.type === "checkbox" ? field.checked : field.value));
      applyLook();
    });
  }
  applyLook();
}

// -- sound: two short tones made here (WebAudio), nothing downloaded -------------------------

let audio = null;

function sound(kind) {
  if (!setting("sound")) return;
  soundLog.push(kind);
  if (soundLog.length > 20) soundLog.shift();
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    const tones = kind === "capture" ? [[520, 0], [390, 0.07]] : [[660, 0]];
    for (const [pitch, delay] of tones) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = pitch;
      gain.gain.setValueAtTime(0.15, now + delay);
      gain.gain.exponentialRampToValueAtTime(0.001, now + delay + 0.09);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + delay);
      osc.stop(now + delay + 0.1);
    }
  } catch (error) { /* no audio here: the game goes on */ }
}

// -- setup --------------------------------------------------------------------------------

function variant() { return info.variants.find((v) => v.name === $("variant").value); }

function defaultSeats(chosen) {
  // The engine takes the second seat by default (both second-player teams).
  const seats = Object.keys(chosen.seats);
  return chosen.name === "superdimensiones" ? ["c", "d"] : [seats[1]];
}

function rememberedSeats(chosen) {
  const kept = localStorage.getItem(`dimensiones.seats.${chosen.name}`);
  try {
    const seats = JSON.parse(kept);
    if (Array.isArray(seats) && seats.every((s) => s in chosen.seats)) return seats;
  } catch (error) { /* nothing kept */ }
  return defaultSeats(chosen);
}

function seatBoxes(box, seats, checked, onChange) {
  box.querySelectorAll("label").forEach((label) => label.remove());
  for (const [seat, name] of Object.entries(seats)) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = seat;
    input.checked = checked.includes(seat);
    input.addEventListener("change", onChange);
    label.append(input, ` ${name}`);
    box.append(label);
  }
}

function buildSeats() {
  // The seats of the next new game: what the person chose last for this game, remembered.
  const chosen = variant();
  seatBoxes($("seats"), chosen.seats, rememberedSeats(chosen), () =>
    localStorage.setItem(`dimensiones.seats.${chosen.name}`, JSON.stringify(checkedSeats($("seats")))));
  $("cards").hidden = chosen.name !== "superdimensiones";
}

function checkedSeats(box) {
  return [...box.querySelectorAll("input:checked")].map((input) => input.value);
}

function buildCards() {
  info.cards.forEach((card, index) => {
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.id = `card-${index}`;
    for (const [letter, name] of Object.entries(card.options)) {
      select.append(new Option(`${letter} ${name}`, letter));
    }
    label.append(`${card.name} `, select);
    $("cards").append(label);
  });
}

function chosenClock() {
  if ($("time-control").value !== "clock") return null;
  return [Number($("base").value) * 60, Number($("increment").value)];
}

async function newGame(settings) {
  // settings: a rematch's (variant, fen, engine, clock); else the form's.
  let body = settings;
  if (!body) {
    const chosen = variant();
    let fen = $("fen").value.trim();
    if (!fen && chosen.name === "superdimensiones") {
      fen = info.cards.map((_, index) => $(`card-${index}`).value).join("");
    }
    body = {variant: chosen.name, fen: fen || null, engine: checkedSeats($("seats")), clock: chosenClock()};
  }
  body.movetime = Number($("movetime").value);
  await act(async () => {
    const made = await api("POST", `/api/games${query()}`, body);
    start(made.id, made.state);
  });
}

function swappedSeats(seats) {
  // The other side's seats: each seat for the one at the same place on the other side (White
  // and Black; in Super Dimensiones team a for c, b for d).
  const [one, two] = [state.sides.white.seats, state.sides.black.seats];
  return seats.map((seat) => one.includes(seat) ? two[one.indexOf(seat)]
    : two.includes(seat) ? one[two.indexOf(seat)] : seat);
}

async function rematch(swap) {
  $("result-dialog").close();
  const seats = swap ? swappedSeats(state.engine_seats) : state.engine_seats;
  await newGame({variant: state.variant, fen: state.start_fen, engine: seats,
                 clock: state.clock ? [state.clock.base, state.clock.increment] : null});
}

async function loadGame() {
  const text = $("load-text").value;
  await act(async () => {
    const made = await api("POST", `/api/load${query()}`, {text, variant: $("variant").value});
    start(made.id, made.state);
    if (made.warnings.length) say(`read with warnings: ${made.warnings.join("; ")}`);
  });
}

function closeGame(id) {
  // keepalive: the request outlives the page that is going away.
  fetch(`/api/games/${id}/close`, {method: "POST", keepalive: true, body: "{}",
                                   headers: {"Content-Type": "application/json"}}).catch(() => {});
}

function start(id, newState) {
  if (gameId) closeGame(gameId);
  gameId = id;
  letGo();
  shownSvg = "";
  shownLine = "";
  shownGraph = "";
  heardPly = newState.line.length;
  resultShown = newState.outcome ? `${id}|${newState.line.length}` : null;   // a loaded end
  $("export").value = "";
  $("analyse").checked = false;
  draw(newState);
}

async function applySettings() {
  if (!gameId) return;
  await act(async () => draw(await api("POST", `/api/games/${gameId}/settings${query()}`, {
    engine: checkedSeats($("players")), movetime: Number($("movetime").value),
    analyse: $("analyse").checked, multipv: Number($("multipv").value)})));
}

async function review() {
  if (!gameId) return;
  await act(async () => draw(await api("POST", `/api/games/${gameId}/review${query()}`, {})));
}

// -- moves by clicks ----------------------------------------------------------------------

function advance(path, skip, tokens) {
  // How far `tokens` go along `path` (the index of the next token), or -1 if they leave it.
  // With `skip`, landing squares may be left out (a capture entered by its two ends); a last
  // token that is the path's end completes it even where the path passed that square before
  // (a Frisian capture can come back over its own landing square).
  if (!path.length || path[0] !== tokens[0]) return -1;
  let next = 1;
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i];
    if (skip) {
      if (i === tokens.length - 1 && token === path[path.length - 1]) return path.length;
      const at = path.indexOf(token, next);
      if (at < 0) return -1;
      next = at + 1;
    } else {
      if (path[next] !== token) return -1;
      next += 1;
    }
  }
  return next;
}

function candidates(tokens) {
  const found = [];
  if (!tokens.length) return found;
  for (const move of state.moves) {
    for (const path of move.paths) {
      const next = advance(path, move.skip, tokens);
      if (next >= 0) found.push({move, path, next});
    }
  }
  return found;
}

function unique(moves) {
  const seen = new Map();
  moves.forEach((move) => seen.set(move.move, move));
  return [...seen.values()];
}

function click(token) {
  say("");                                              // an old error is not about this
  if (!state || !state.moves.length) return;
  if (clicks.length === 1 && clicks[0] === token) {     // the same square again: let go
    letGo();
    drawChoices();
    return;
  }
  let tokens = clicks.concat([token]);
  let found = candidates(tokens);
  if (!found.length) {                                  // start again from this square
    tokens = [token];
    found = candidates(tokens);
  }
  clicks = found.length ? tokens : [];
  const complete = unique(found.filter((c) => c.next === c.path.length).map((c) => c.move));
  const going = found.filter((c) => c.next < c.path.length);
  if (complete.length === 1 && !going.length) {
    play(complete[0].move);
    return;
  }
  offered = complete;
  drawChoices();
}

function letGo() { clicks = []; offered = []; }

async function play(text) {
  letGo();
  const after = state.line.length - state.cursor;
  if (after > 0 && !(await confirmCut(after))) {
    drawChoices();
    return;
  }
  await act(async () => draw(await api("POST", `/api/games/${gameId}/move${query()}`, {move: text})));
  drawChoices();
}

function confirmCut(after) {
  // A move played at an earlier position replaces the rest of the line: asked first.
  $("cut-text").textContent = `Playing here replaces the ${after} move${after > 1 ? "s" : ""} ` +
    "after this position. Play it?";
  const dialog = $("cut-dialog");
  return new Promise((resolve) => {
    const done = (answer) => { dialog.close(); resolve(answer); };
    $("cut-yes").onclick = () => done(true);
    $("cut-no").onclick = () => done(false);
    dialog.oncancel = () => resolve(false);
    dialog.showModal();
  });
}

function boardSquare(element) {
  return element && element.closest ? element.closest("rect.square[data-square]") : null;
}

function attachBoard() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.addEventListener("pointerdown", (event) => {
    const square = boardSquare(event.target);
    if (!square) return;
    dragFrom = square.dataset.square;
    click(dragFrom);
  });
  svg.addEventListener("pointerup", (event) => {
    const square = boardSquare(document.elementFromPoint(event.clientX, event.clientY));
    if (square && dragFrom && square.dataset.square !== dragFrom) click(square.dataset.square);
    dragFrom = null;
  });
}

// -- drawing ------------------------------------------------------------------------------

function scoreText(line) {
  if (line.mate !== null) return line.mate > 0 ? `win in ${line.mate}` : `loss in ${-line.mate}`;
  const men = line.score / 100;
  return (men > 0 ? "+" : "") + men.toFixed(2);
}

function seatName(seat) { return (state.seats && state.seats[seat]) || seat; }

function sideName(side) { return state.sides[side].name; }

function sideSeats(side) { return state.sides[side].seats; }

function winning(centiMen) {
  // -1 to 1: how the score is drawn on the bar and the graph (steep near 0, flat past 5 men).
  return 2 / (1 + Math.exp(-0.004 * centiMen)) - 1;
}

function draw(newState) {
  if (state && newState.fen !== state.fen) letGo();     // another position: clicks are stale
  const before = state;
  state = newState;
  stateAt = performance.now();
  draws += 1;
  $("title").textContent = state.title;
  if (state.svg !== shownSvg) {
    $("board").innerHTML = state.svg;
    shownSvg = state.svg;
    attachBoard();
  }
  if (before && heardPly !== null && state.line.length === heardPly + 1 &&
      state.cursor === state.line.length) {
    const taken = (c) => c ? c.white.length + c.black.length : 0;
    const last = state.line[state.line.length - 1];
    sound(last.includes("x") || taken(state.captured) > taken(before.captured) ? "capture" : "move");
  }
  heardPly = state.line.length;
  const status = $("status");
  if (state.outcome && state.cursor === state.line.length) {
    status.textContent = `Game over: ${state.outcome.result}, ${state.outcome.reason}`;
    status.className = "over";
  } else {
    const viewing = state.cursor < state.line.length
      ? ` (viewing move ${state.cursor} of ${state.line.length})` : "";
    const who = state.engine_seats.includes(state.mover) ? "engine" : "you";
    status.textContent = state.outcome ? `Game over${viewing}` : `${seatName(state.mover)} to move (${who})` +
      (state.thinking ? ", the engine is thinking" : "") + viewing;
    status.className = state.outcome ? "over" : "";
  }
  drawPlayers();
  drawLegend();
  drawLine();
  drawAnalysis();
  drawTables();
  drawReview();
  drawEval();
  if (document.activeElement !== $("movetime")) $("movetime").value = state.movetime;
  const players = $("players");
  if (players.dataset.game !== gameId) {              // this game's seats, built once a game
    players.dataset.game = gameId;
    seatBoxes(players, state.seats, state.engine_seats, applySettings);
  } else {
    players.querySelectorAll("input").forEach((box) => {
      box.checked = state.engine_seats.includes(box.value);
    });
  }
  $("analyse").checked = state.analysing;
  $("multipv").value = String(state.multipv);
  $("review").disabled = !state.line.length;
  drawChoices();
  showResult();
}

function drawPlayers() {
  // The side at the bottom of the board (White unless flipped) below it, the other above.
  const bottom = flipped ? "black" : "white";
  for (const [id, side] of [["player-bottom", bottom], ["player-top", bottom === "white" ? "black" : "white"]]) {
    const bar = $(id);
    bar.dataset.side = side;
    const engine = sideSeats(side).every((seat) => state.engine_seats.includes(seat));
    bar.querySelector(".name").textContent = `${sideName(side)}${engine ? " (engine)" : ""}`;
    const other = side === "white" ? "black" : "white";
    const lost = state.captured ? state.captured[other] : [];
    bar.querySelector(".taken").textContent = lost.map((piece) =>
      piece === "man" ? (other === "white" ? "\u25cb" : "\u25cf") : FIGURES[piece] || piece).join("");
  }
  tickClocks();
}

function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return s.toFixed(1);
  const minutes = Math.floor(s / 60);
  const rest = Math.floor(s % 60);
  return minutes >= 60 ? `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}:${String(rest).padStart(2, "0")}`
    : `${minutes}:${String(rest).padStart(2, "0")}`;
}

function tickClocks() {
  // The server's times, run down since they came for the side whose clock runs.
  for (const id of ["player-top", "player-bottom"]) {
    const face = $(id).querySelector(".clock");
    const clock = state && state.clock;
    face.hidden = !clock;
    if (!clock) continue;
    const side = $(id).dataset.side;
    let left = clock.left[side];
    if (clock.running === side) left -= (performance.now() - stateAt) / 1000;
    face.textContent = clockText(left);
    face.dataset.seconds = String(Math.max(0, left));
    face.classList.toggle("running", clock.running === side);
    face.classList.toggle("low", left < 10);
    face.classList.toggle("out", left <= 0);
  }
}

function drawLegend() {
  const legend = $("legend");
  legend.hidden = !state.teams;
  if (!state.teams) return;
  rebuild("legend", state.teams.map((t) => [t.team, t.name, t.colour]), ([team, name, colour]) => {
    const item = document.createElement("span");
    item.className = "team";
    item.dataset.team = team;
    const disc = document.createElement("span");
    disc.className = "disc";
    disc.style.background = colour;
    item.append(disc, ` team ${team}: ${name}`);
    return item;
  });
  legend.querySelectorAll(".team").forEach((item) =>
    item.classList.toggle("to-move", item.dataset.team === state.mover && !state.outcome));
}

function marks() {
  // The review's marks by ply, where a review has run over this line.
  const out = {};
  const r = state.review;
  if (r && r.line.join(" ") === state.line.slice(0, r.line.length).join(" ")) {
    for (const m of r.moves) if (m.mark) out[m.ply] = m;
  }
  return out;
}

function drawLine() {
  const marked = marks();
  const key = `${state.line.join(" ")}|${state.cursor}|${JSON.stringify(marked)}`;
  if (key === shownLine) return;
  shownLine = key;
  const list = $("moves");
  list.innerHTML = "";
  let row = null;
  state.numbered.forEach((entry, index) => {
    if (entry.number || !row) {
      row = document.createElement("div");
      row.className = "turn";
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = entry.number ? entry.number.replace("...", ".") : "";
      row.append(number);
      if (entry.number && entry.number.endsWith("...")) {
        const gap = document.createElement("span");
        gap.className = "move gap";
        gap.textContent = "\u2026";
        row.append(gap);
      }
      list.append(row);
    }
    const ply = index + 1;
    const span = document.createElement("span");
    span.className = "move";
    span.dataset.ply = String(ply);
    span.textContent = entry.text + (marked[ply] ? marked[ply].mark : "");
    if (marked[ply]) {
      span.classList.add(marked[ply].label);
      span.title = `${marked[ply].label}: the engine preferred ${marked[ply].best}`;
    }
    if (ply === state.cursor) span.classList.add("current");
    span.addEventListener("click", () => goto(ply));
    row.append(span);
  });
  // Keep the current move in sight, scrolling the list alone (never the page).
  const current = list.querySelector(".current");
  if (current) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

function drawAnalysis() {
  const box = $("analysis");
  const report = state.analysis;
  // While analysing, the box keeps its height (it scrolls): lines that grow and wrap at every
  // poll must not move the buttons below it under a person's pointer.
  box.classList.toggle("on", Boolean(state.analysing || report));
  if (state.analysing && state.outcome && state.cursor === state.line.length) {
    box.textContent = `nothing to analyse: the game is over (${state.outcome.result}, ${state.outcome.reason})`;
    return;
  }
  if (!report) { box.textContent = state.analysing ? "analysing..." : ""; return; }
  if (report.error) { box.textContent = report.error; return; }
  const head = `depth ${report.depth}/${report.seldepth}  nodes ${report.nodes}  ` +
    `${Math.round(report.nps / 1000)} kN/s  ${report.time} s` + (report.tbhits ? `  tables ${report.tbhits}` : "");
  box.innerHTML = "";
  const top = document.createElement("div");
  top.textContent = head;
  box.append(top);
  report.lines.forEach((line, index) => {
    const row = document.createElement("div");
    row.className = "line";
    row.textContent = `${index + 1}. ${scoreText(line)}  ${line.pv.join(" ")}`;
    box.append(row);
  });
}

function drawTables() {
  const box = $("tables");
  const tables = state.tables;
  if (!tables) { box.textContent = ""; return; }
  const value = (r, plies) => r === "draw" ? "draw" : `${r} in ${plies} plies`;
  box.textContent = `endgame tables: ${value(tables.result, tables.plies)}\n` +
    tables.moves.map((m) => `  ${m.move}: ${value(m.result, m.plies)}`).join("\n");
}

function whiteScore() {
  // White's score of the position shown: the analysis's, else the review's after this move.
  const lines = state.analysis && state.analysis.lines;
  if (state.analysing && lines && lines.length) {
    const line = lines[0];
    const mover = line.mate !== null ? Math.sign(line.mate) * MATE_SCORE : line.score;
    return state.turn === "white" ? mover : -mover;
  }
  const r = state.review;
  if (r && state.cursor > 0 && r.line[state.cursor - 1] === state.line[state.cursor - 1]) {
    const m = r.moves.find((entry) => entry.ply === state.cursor);
    if (m) return m.white;
  }
  return null;
}

function drawEval() {
  const score = whiteScore();
  $("eval-bar").hidden = score === null;
  if (score !== null) {
    $("eval-fill").style.height = `${50 + 50 * winning(score)}%`;
    $("eval-bar").title = `${(score / 100).toFixed(2)} for White`;
    $("eval-bar").dataset.white = String(score);
  }
}

function drawReview() {
  const r = state.review;
  const progress = $("review-progress");
  progress.hidden = !r || r.finished || r.error;
  if (r) {
    progress.max = r.total;
    progress.value = r.done;
  }
  const key = r ? `${r.done}|${r.line.length}|${state.cursor}` : "";
  if (key === shownGraph) return;
  shownGraph = key;
  const box = $("graph");
  if (!r || !r.moves.length) { box.innerHTML = r && r.error ? r.error : ""; return; }
  // The score by move from White's side (above the middle: White better), as lidraughts draws it.
  const width = 300, height = 90, mid = height / 2;
  const x = (ply) => (ply / Math.max(r.total, 1)) * width;
  const y = (white) => mid - (mid - 4) * winning(white);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const axis = document.createElementNS(ns, "line");
  for (const [k, v] of Object.entries({x1: 0, y1: mid, x2: width, y2: mid, stroke: "#bbb"})) axis.setAttribute(k, v);
  svg.append(axis);
  const points = [[0, mid]].concat(r.moves.map((m) => [x(m.ply), y(m.white)]));
  const area = document.createElementNS(ns, "polyline");
  area.setAttribute("points", points.map((p) => p.join(",")).join(" "));
  area.setAttribute("fill", "none");
  area.setAttribute("stroke", "#3d2b1f");
  area.setAttribute("stroke-width", "1.5");
  svg.append(area);
  if (state.cursor > 0) {
    const here = document.createElementNS(ns, "line");
    for (const [k, v] of Object.entries({x1: x(state.cursor), y1: 0, x2: x(state.cursor), y2: height,
                                          stroke: "#d97706", class: "cursor"})) here.setAttribute(k, v);
    svg.append(here);
  }
  for (const m of r.moves) {
    const dot = document.createElementNS(ns, "circle");
    const colour = {blunder: "#b91c1c", mistake: "#c2410c", inaccuracy: "#ca8a04"}[m.label] || "#3d2b1f";
    for (const [k, v] of Object.entries({cx: x(m.ply), cy: y(m.white), r: m.mark ? 3.5 : 2,
                                          fill: colour, "data-ply": m.ply, "data-white": m.white})) {
      dot.setAttribute(k, v);
    }
    const title = document.createElementNS(ns, "title");
    title.textContent = `${m.ply}. ${m.move}: ${(m.white / 100).toFixed(2)}${m.label ? ` (${m.label})` : ""}`;
    dot.append(title);
    dot.addEventListener("click", () => goto(m.ply));
    svg.append(dot);
  }
  box.innerHTML = "";
  box.append(svg);
}

function showResult() {
  // Once a game, when its last position is reached: who won and why, with a rematch.
  if (!state.outcome || state.cursor !== state.line.length) return;
  const key = `${gameId}|${state.line.length}`;
  if (resultShown === key) return;
  resultShown = key;
  const o = state.outcome;
  const names = {white: sideName("white"), black: sideName("black")};
  const head = o.winner ? `${names[o.winner]} wins` : "A draw";
  $("result-text").textContent = `${head} (${o.result}): ${o.reason}.`;
  const dialog = $("result-dialog");
  if (!dialog.open) dialog.showModal();
}

function drawChoices() {
  // Highlights of the squares clicked and of where they can go; buttons for what clicks
  // cannot say alone (several moves end alike, a pass, a huff choice, a reserve piece).
  if (!state) return;
  const svg = $("board").querySelector("svg");
  const found = candidates(clicks);
  if (svg) {
    svg.querySelectorAll("rect.square").forEach((rect) => rect.classList.remove("selected", "target", "passed"));
    const mark = (name, cls) => {
      const rect = svg.querySelector(`rect.square[data-square="${name}"]`);
      if (rect) rect.classList.add(cls);
    };
    clicks.forEach((token, index) => mark(token, index === 0 ? "selected" : "passed"));
    for (const c of found) {
      const ahead = c.move.skip ? c.path.slice(c.next) : c.path.slice(c.next, c.next + 1);
      ahead.forEach((name) => mark(name, "target"));
    }
  }
  const offAhead = found.some((c) => c.path[c.next] === "off");
  $("off").hidden = !offAhead;
  $("off").classList.toggle("chosen", clicks.includes("off"));

  const pieces = [...new Set(state.moves.map((m) => m.paths[0][0])
    .filter((token) => token && token.startsWith("@")))];
  rebuild("reserve", pieces.map((token) => [token, state.reserve ? state.reserve[token.slice(1)] : ""]),
    ([token, count]) => {
      const letter = token.slice(1);
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.token = token;
      button.title = `place a piece from the reserve (${letter})`;
      button.textContent = `${FIGURES[letter] || letter}${count ? ` \u00d7${count}` : ""}`;
      button.addEventListener("click", () => click(token));
      return button;
    });
  $("reserve").querySelectorAll("button").forEach((button) =>
    button.classList.toggle("chosen", clicks[0] === button.dataset.token));

  const specials = state.moves.filter((m) => m.paths.every((p) => p.length <= 1));
  rebuild("choices", unique(offered.concat(specials)).map((m) => [m.move, m.label]), ([move, label]) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = move;
    button.textContent = label;
    button.addEventListener("click", () => play(move));
    return button;
  });
}

const shownItems = {};

function rebuild(id, items, make) {
  // Replace the buttons of box `id` only when they change: a button rebuilt under a person's
  // click (the page redraws a few times a second) would lose it.
  const key = JSON.stringify(items);
  if (shownItems[id] === key) return;
  shownItems[id] = key;
  const box = $(id);
  box.innerHTML = "";
  items.forEach((item) => box.append(make(item)));
}

// -- the game's line ----------------------------------------------------------------------

async function goto(ply) {
  if (!gameId) return;
  letGo();
  await act(async () => draw(await api("POST", `/api/games/${gameId}/goto${query()}`, {ply})));
}

async function undo() {
  if (!gameId) return;
  letGo();
  await act(async () => draw(await api("POST", `/api/games/${gameId}/undo${query()}`)));
}

async function refresh() {
  if (!gameId) return;
  const asked = gameId;
  const drawnBefore = draws;
  const fresh = await api("GET", `/api/games/${asked}${query()}`);
  // A poll that was under way while the page drew another answer (a move, a flip, a new game)
  // is older news: drawn, it would undo that action on the page until the next poll.
  if (asked === gameId && !busy && draws === drawnBefore) draw(fresh);
}

async function poll() {
  if (gameId && !busy) {
    try {
      await refresh();
    } catch (error) {
      say(error.message);
    }
  }
  setTimeout(poll, POLL_MS);
}

async function copy(text) {
  $("export").value = text;
  $("export").select();
  try { await navigator.clipboard.writeText(text); } catch (error) { /* shown for copying */ }
}

async function init() {
  bindSettings();
  info = await api("GET", "/api/variants");
  for (const v of info.variants) $("variant").append(new Option(`${v.title} (${v.name})`, v.name));
  for (let n = 1; n <= info.multipv; n += 1) $("multipv").append(new Option(String(n), String(n)));
  buildCards();
  buildSeats();
  $("variant").addEventListener("change", buildSeats);
  $("time-control").addEventListener("change", () => {
    $("clock-fields").hidden = $("time-control").value !== "clock";
  });
  $("new-game").addEventListener("click", () => newGame());
  $("load-button").addEventListener("click", loadGame);
  $("load-file").addEventListener("change", async () => {
    const file = $("load-file").files[0];
    if (file) $("load-text").value = await file.text();
  });
  $("movetime").addEventListener("change", applySettings);
  $("analyse").addEventListener("change", applySettings);
  $("multipv").addEventListener("change", applySettings);
  $("review").addEventListener("click", review);
  $("off").addEventListener("click", () => click("off"));
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-input").value.trim();
    if (text) play(text).then(() => { $("move-input").value = ""; });
  });
  $("first").addEventListener("click", () => goto(0));
  $("prev").addEventListener("click", () => goto(Math.max(0, state.cursor - 1)));
  $("next").addEventListener("click", () => goto(Math.min(state.line.length, state.cursor + 1)));
  $("last").addEventListener("click", () => goto(state.line.length));
  $("undo").addEventListener("click", undo);
  $("flip").addEventListener("click", async () => {
    flipped = !flipped;
    await act(async () => draw(await api("GET", `/api/games/${gameId}${query()}`)));
  });
  $("rematch").addEventListener("click", () => rematch(false));
  $("swap").addEventListener("click", () => rematch(true));
  $("result-close").addEventListener("click", () => $("result-dialog").close());
  $("copy-fen").addEventListener("click", () => state && copy(state.fen));
  $("copy-record").addEventListener("click", async () => {
    if (gameId) await act(async () => copy(await api("GET", `/api/games/${gameId}/record`)));
  });
  document.addEventListener("keydown", (event) => {
    if (!state || event.target.matches("input, textarea, select")) return;
    if (event.key === "ArrowLeft") $("prev").click();
    if (event.key === "ArrowRight") $("next").click();
  });
  window.addEventListener("pagehide", () => { if (gameId) closeGame(gameId); });
  setInterval(() => { if (state) tickClocks(); }, 100);
  await newGame();
  poll();
}

init().catch((error) => say(error.message));
