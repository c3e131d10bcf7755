// The web board's page: it draws what the server says and sends what a person does.
// The rules stay on the server: every legal move comes with the squares (or tokens) a person
// clicks to play it, so the page only matches clicks against those paths.
"use strict";

const $ = (id) => document.getElementById(id);
const FIGURES = {K: "\u265a", Q: "\u265b", R: "\u265c", B: "\u265d", N: "\u265e", P: "\u265f"};
const POLL_MS = 400;

let info = null;          // /api/variants: the games, cards, limits
let gameId = null;        // the game this page plays
let state = null;         // its last state from the server
let flipped = false;
let clicks = [];          // the tokens clicked so far towards a move
let offered = [];         // moves those clicks end on, when several do: the page lists them
let shownSvg = "";
let shownLine = "";
let busy = 0;             // requests in flight: polls wait
let draws = 0;            // states drawn so far: a poll answer is drawn only if none came since
let dragFrom = null;

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

// -- setup --------------------------------------------------------------------------------

function variant() { return info.variants.find((v) => v.name === $("variant").value); }

function buildSeats() {
  const box = $("seats");
  box.querySelectorAll("label").forEach((label) => label.remove());
  const seats = Object.entries(variant().seats);
  seats.forEach(([seat, name], index) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.id = `seat-${seat}`;
    input.value = seat;
    // The engine takes the second seat by default (both second-player teams).
    input.checked = variant().name === "superdimensiones" ? (seat === "c" || seat === "d") : index === 1;
    input.addEventListener("change", applySettings);
    label.append(input, ` ${name}`);
    box.append(label);
  });
  $("cards").hidden = variant().name !== "superdimensiones";
}

function engineSeats() {
  return [...$("seats").querySelectorAll("input:checked")].map((input) => input.value);
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

async function newGame() {
  const chosen = variant();
  let fen = $("fen").value.trim();
  if (!fen && chosen.name === "superdimensiones") {
    fen = info.cards.map((_, index) => $(`card-${index}`).value).join("");
  }
  await act(async () => {
    const made = await api("POST", `/api/games${query()}`, {
      variant: chosen.name, fen: fen || null, engine: engineSeats(),
      movetime: Number($("movetime").value)});
    start(made.id, made.state);
  });
}

async function loadGame() {
  const text = $("load-text").value;
  await act(async () => {
    const made = await api("POST", `/api/load${query()}`, {text, variant: $("variant").value});
    $("variant").value = made.state.variant;
    buildSeats();
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
  $("analyse").checked = false;
  draw(newState);
}

async function applySettings() {
  if (!gameId || state.variant !== $("variant").value) return;
  await act(async () => draw(await api("POST", `/api/games/${gameId}/settings${query()}`, {
    engine: engineSeats(), movetime: Number($("movetime").value),
    analyse: $("analyse").checked, multipv: Number($("multipv").value)})));
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
  await act(async () => draw(await api("POST", `/api/games/${gameId}/move${query()}`, {move: text})));
  drawChoices();
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

function draw(newState) {
  if (state && newState.fen !== state.fen) letGo();     // another position: clicks are stale
  state = newState;
  draws += 1;
  $("title").textContent = state.title;
  if (state.svg !== shownSvg) {
    $("board").innerHTML = state.svg;
    shownSvg = state.svg;
    attachBoard();
  }
  const status = $("status");
  if (state.outcome) {
    status.textContent = `Game over: ${state.outcome.result}, ${state.outcome.reason}`;
    status.className = "over";
  } else {
    const viewing = state.cursor < state.line.length
      ? ` (viewing move ${state.cursor} of ${state.line.length})` : "";
    const who = state.engine_seats.includes(state.mover) ? "engine" : "you";
    status.textContent = `${seatName(state.mover)} to move (${who})` +
      (state.thinking ? ", the engine is thinking" : "") + viewing;
    status.className = "";
  }
  drawLine();
  drawAnalysis();
  drawTables();
  if (document.activeElement !== $("movetime")) $("movetime").value = state.movetime;
  if ($("variant").value === state.variant) {          // the seats shown are this game's
    $("seats").querySelectorAll("input").forEach((box) => {
      box.checked = state.engine_seats.includes(box.value);
    });
  }
  $("analyse").checked = state.analysing;
  $("multipv").value = String(state.multipv);
  drawChoices();
}

function drawLine() {
  const key = `${state.line.join(" ")}|${state.cursor}`;
  if (key === shownLine) return;
  shownLine = key;
  const list = $("moves");
  list.innerHTML = "";
  state.line.forEach((move, index) => {
    const item = document.createElement("li");
    const span = document.createElement("span");
    span.textContent = move;
    span.dataset.ply = String(index + 1);
    if (index + 1 === state.cursor) span.className = "current";
    span.addEventListener("click", () => goto(index + 1));
    item.append(span);
    list.append(item);
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
  info = await api("GET", "/api/variants");
  for (const v of info.variants) $("variant").append(new Option(`${v.title} (${v.name})`, v.name));
  for (let n = 1; n <= info.multipv; n += 1) $("multipv").append(new Option(String(n), String(n)));
  buildCards();
  buildSeats();
  $("variant").addEventListener("change", buildSeats);
  $("new-game").addEventListener("click", newGame);
  $("load-button").addEventListener("click", loadGame);
  $("load-file").addEventListener("change", async () => {
    const file = $("load-file").files[0];
    if (file) $("load-text").value = await file.text();
  });
  $("movetime").addEventListener("change", applySettings);
  $("analyse").addEventListener("change", applySettings);
  $("multipv").addEventListener("change", applySettings);
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
  await newGame();
  poll();
}

init().catch((error) => say(error.message));
