// The expectviz game: play a game against a search (expectviz/render/play_game.py).
//
// Python holds the game; this draws it and sends what the person does.  anywidget's contract:
// `export default { render({ model, el }) }`.  The model holds:
//   kernel -> browser   title, view (the state, drawn by the function of its "kind" below), legal (what you may
//                       click: square numbers, button names), sides, mover, turn, status, notice, log, thinking,
//                       nodes (searched so far), algorithms, depths ([value, text] pairs), can_move, can_show,
//                       showing, opening, shown;
//   both ways           algorithm, depth (0: to the end), human (your side: a new game);
//   browser -> kernel   messages {type: "click", square} or {type: "click", button} (a move), {type: "new"},
//                       {type: "stop"}, {type: "move"} (the computer's move), {type: "show"} (open or close the
//                       search's player).
// The views:
//   {kind: "grid", rows, cols, cells ("X", "O", "#", ""), last, line, verb ("play", "block"), lit ({line: "column"
//    or "row", index}: the line the die chose), die ({face, text, by}), buttons ([name, text] pairs)}
//   {kind: "pig", target, names, scores, turn_total, player (0, 1; -1: over), die (the last face; 0: none), roll
//    (the last roll in words), buttons}
// The step player itself is a separate widget, shown by Python below this one.

const SVG_NS = "http://www.w3.org/2000/svg";
const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const TRAITS = ["title", "view", "legal", "human", "sides", "mover", "turn", "status", "notice", "log", "thinking",
  "nodes", "algorithm", "algorithms", "depth", "depths", "can_move", "can_show", "showing", "opening", "shown"];
const PIPS = { // a die's pips on a 10x10 face
  1: [[5, 5]],
  2: [[3, 3], [7, 7]],
  3: [[3, 3], [5, 5], [7, 7]],
  4: [[3, 3], [7, 3], [3, 7], [7, 7]],
  5: [[3, 3], [7, 3], [5, 5], [3, 7], [7, 7]],
  6: [[3, 2.6], [7, 2.6], [3, 5], [7, 5], [3, 7.4], [7, 7.4]],
};

/** An element with attributes and children (nodes or text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

/** An SVG element with attributes. */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

const squareName = (i, cols) => `${LETTERS[i % cols]}${Math.floor(i / cols) + 1}`;

/** The mark in a square: a blue cross, a vermillion ring, a grey block (the colours of game.picture). */
function mark(cell) {
  const svg = s("svg", { viewBox: "0 0 10 10", class: "ev-mark", "aria-hidden": "true", focusable: "false" });
  if (cell === "X") svg.append(s("path", { d: "M2.2 2.2L7.8 7.8M7.8 2.2L2.2 7.8", class: "ev-mark-x" }));
  else if (cell === "O") svg.append(s("circle", { cx: 5, cy: 5, r: 2.9, class: "ev-mark-o" }));
  else if (cell === "#") {
    svg.append(s("rect", { x: 1.6, y: 1.6, width: 6.8, height: 6.8, rx: 0.6, class: "ev-mark-block" }),
      s("path", { d: "M1.6 5L5 1.6M1.6 8.4L8.4 1.6M5 8.4L8.4 5", class: "ev-mark-hatch" }));
  }
  return svg;
}

/** A die showing `face`: pips from 1 to 6, the number beyond, a question mark before the first roll (0). */
function die(face, cls) {
  const svg = s("svg", { viewBox: "0 0 10 10", class: `ev-die ${cls}`, "aria-hidden": "true", focusable: "false" });
  svg.append(s("rect", { x: 0.6, y: 0.6, width: 8.8, height: 8.8, rx: 1.7, class: "ev-die-body" }));
  if (PIPS[face]) {
    for (const [cx, cy] of PIPS[face]) svg.append(s("circle", { cx, cy, r: 0.95, class: "ev-die-pip" }));
  } else {
    svg.append(s("text", { x: 5, y: 5, class: face ? "ev-die-number" : "ev-die-none" }, face ? String(face) : "?"));
  }
  return svg;
}

// ---------------------------------------------------------------- the views: one function for each kind

/** A grid of squares (tic-tac-toe, Dice): column letters above, row numbers at the left, a button per square. */
function gridView(send) {
  const board = h("div", { class: "ev-board", role: "group", "aria-label": "board" });
  const face = h("span", { class: "ev-die-slot" });
  const dieText = h("span", { class: "ev-die-text" });
  const dieBox = h("div", { class: "ev-die-box", role: "status" }, face, dieText);
  const root = h("div", { class: "ev-grid-area" }, board, dieBox);
  let squares = [], colLabels = [], rowLabels = [], shape = "", cols = 3, shownFace = null;

  function build(rows, columns) {
    cols = columns;
    board.style.setProperty("--ev-cols", String(columns));
    board.style.setProperty("--ev-rows", String(rows));
    board.classList.toggle("ev-board-large", columns > 3 || rows > 3);
    squares = Array.from({ length: rows * columns }, (_, i) => {
      const square = h("button", { type: "button", class: "ev-square", "data-square": String(i) });
      square.onclick = () => send({ type: "click", square: i });
      return square;
    });
    colLabels = Array.from({ length: columns }, (_, c) =>
      h("span", { class: "ev-coord ev-coord-col", "aria-hidden": "true" }, LETTERS[c]));
    rowLabels = Array.from({ length: rows }, (_, r) =>
      h("span", { class: "ev-coord ev-coord-row", "aria-hidden": "true" }, String(r + 1)));
    board.replaceChildren(h("span", { class: "ev-coord", "aria-hidden": "true" }), ...colLabels);
    for (let r = 0; r < rows; r++) board.append(rowLabels[r], ...squares.slice(r * columns, (r + 1) * columns));
  }

  function update(view, legal, mover) {
    const key = `${view.rows}x${view.cols}`;
    if (key !== shape) { shape = key; build(view.rows, view.cols); }
    const line = new Set(view.line), lit = view.lit;
    const inLit = (i) => !!lit && (lit.line === "column" ? i % cols === lit.index : Math.floor(i / cols) === lit.index);
    squares.forEach((square, i) => {
      const cell = view.cells[i] || "", open = legal.has(i), name = squareName(i, cols);
      if (square.dataset.cell !== cell) { square.dataset.cell = cell; square.replaceChildren(mark(cell)); }
      square.classList.toggle("ev-open", open);
      square.classList.toggle("ev-last", i === view.last);
      square.classList.toggle("ev-line", line.has(i));
      square.classList.toggle("ev-lit", inLit(i));
      square.setAttribute("aria-disabled", open ? "false" : "true");
      const what = cell === "X" ? "X" : cell === "O" ? "O" : cell === "#" ? "blocked" : "empty";
      square.setAttribute("aria-label", open
        ? `${mover} to move: ${view.verb} ${name}`
        : `${name}: ${what}${i === view.last ? ", the last move" : ""}${line.has(i) ? ", in the winning line" : ""}`);
      square.title = open ? `${view.verb} ${name}` : name;
    });
    colLabels.forEach((label, c) => label.classList.toggle("ev-lit", !!lit && lit.line === "column" && lit.index === c));
    rowLabels.forEach((label, r) => label.classList.toggle("ev-lit", !!lit && lit.line === "row" && lit.index === r));
    dieBox.hidden = !view.die;
    if (view.die) {
      if (shownFace !== view.die.face) { shownFace = view.die.face; face.replaceChildren(die(view.die.face, "ev-die-small")); }
      dieText.textContent = `Die for ${view.die.by}: ${view.die.face} — ${view.die.text}`;
      dieBox.setAttribute("aria-label", `the die rolled ${view.die.face}: ${view.die.text} for ${view.die.by}`);
    }
  }

  /** The arrow keys move between squares. */
  function key(event) {
    const at = squares.indexOf(event.target);
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols }[event.key];
    if (at < 0 || step === undefined) return false;
    const to = at + step;
    if (to >= 0 && to < squares.length && (Math.abs(step) === cols || Math.floor(to / cols) === Math.floor(at / cols))) {
      squares[to].focus();
    }
    return true;
  }

  return { root, update, key };
}

/** Pig: both scores against the target, the turn total, the die just rolled. */
function pigView() {
  const players = [0, 1].map(() => {
    const name = h("span", { class: "ev-pig-name" });
    const banked = h("span", { class: "ev-pig-banked" });
    const pending = h("span", { class: "ev-pig-pending" });
    const bar = h("span", { class: "ev-pig-bar", "aria-hidden": "true" }, banked, pending);
    const score = h("span", { class: "ev-pig-score" });
    return { row: h("div", { class: "ev-pig-player" }, name, bar, score), name, banked, pending, score };
  });
  const target = h("div", { class: "ev-pig-target" });
  const face = h("div", { class: "ev-pig-die" });
  const total = h("div", { class: "ev-pig-total" });
  const roll = h("div", { class: "ev-pig-roll", "aria-live": "polite" });
  const root = h("div", { class: "ev-pig", role: "group", "aria-label": "Pig" },
    h("div", { class: "ev-pig-scores" }, ...players.map((p) => p.row), target),
    h("div", { class: "ev-pig-turn" }, face, h("div", { class: "ev-pig-words" }, total, roll)));
  let shownFace = null;

  function update(view, legal, mover, human) {
    players.forEach((p, i) => {
      const name = view.names[i], playing = view.player === i, score = view.scores[i];
      const extra = playing ? Math.min(view.turn_total, Math.max(0, view.target - score)) : 0;
      p.row.classList.toggle("ev-pig-playing", playing);
      p.name.textContent = `${name}${name === human ? " (you)" : ""}`;
      p.banked.style.width = `${Math.min(100, (100 * score) / view.target)}%`;
      p.pending.style.width = `${(100 * extra) / view.target}%`;
      p.score.textContent = playing && view.turn_total ? `${score} + ${view.turn_total}` : String(score);
      p.row.setAttribute("aria-label",
        `${name}: ${score} points${playing ? `, to play, turn total ${view.turn_total}` : ""}`);
    });
    target.textContent = `First to ${view.target} wins`;
    if (shownFace !== view.die) { shownFace = view.die; face.replaceChildren(die(view.die, "ev-die-large")); }
    face.setAttribute("aria-label", view.die ? `the die shows ${view.die}` : "no roll yet");
    face.setAttribute("role", "img");
    face.classList.toggle("ev-pig-bust", view.die === 1);
    const who = view.player >= 0 ? view.names[view.player] : "";
    total.replaceChildren(h("span", { class: "ev-pig-total-label" }, who ? `${who}'s turn total` : "Turn total"),
      h("span", { class: "ev-pig-total-value" }, String(view.turn_total)));
    roll.textContent = view.roll || "No roll yet";
  }

  return { root, update, key: () => false };
}

const VIEWS = { grid: gridView, pig: pigView };

// ---------------------------------------------------------------- the widget

function render({ model, el }) {
  const send = (message) => { try { model.send(message); } catch (error) { /* no kernel: nothing to tell */ } };
  const set = (name, value) => {
    model.set(name, value);
    try { model.save_changes(); } catch (error) { /* no kernel */ }
  };
  const button = (text, attrs = {}) => h("button", { type: "button", class: "ev-game-button", ...attrs }, text);

  // ---- the game: the view of its kind, then its buttons (Roll, Hold, No block)
  const kind = (model.get("view") || {}).kind || "grid";
  const drawing = (VIEWS[kind] || gridView)(send);
  const inputs = h("div", { class: "ev-inputs" });
  const play = h("div", { class: "ev-play" }, drawing.root, inputs);
  let inputButtons = {}, inputKey = "";

  // ---- beside it: whose turn, what happened, the search's progress, the actions, the moves so far
  const turn = h("div", { class: "ev-turn" });
  const status = h("div", { class: "ev-status", "aria-live": "polite" });
  const notice = h("div", { class: "ev-notice", role: "status" });
  const count = h("span", { class: "ev-count" });
  const progress = h("div", { class: "ev-progress" }, h("span", { class: "ev-spinner", "aria-hidden": "true" }), count);
  const show = button("Show the search", { class: "ev-game-button ev-primary" });
  const stop = button("Stop");
  const move = button("Computer move", { class: "ev-game-button ev-primary" });
  const actions = h("div", { class: "ev-actions" }, show, stop, move);
  const log = h("ol", { class: "ev-log", "aria-label": "moves so far" });
  const logBox = h("details", { class: "ev-log-box", open: "" }, h("summary", {}, "Moves"), log);
  const side = h("div", { class: "ev-game-side" }, turn, status, notice, progress, actions, logBox);

  // ---- the settings: the computer's algorithm and depth, your side, a new game
  const algorithm = h("select", { "aria-label": "the computer's algorithm" });
  const depth = h("select", { "aria-label": "the computer's depth limit" });
  const human = h("select", { "aria-label": "your side (starts a new game)" });
  const fresh = button("New game");
  const controls = h("div", { class: "ev-game-controls" },
    h("label", { class: "ev-field" }, "Computer ", algorithm),
    h("label", { class: "ev-field" }, "depth ", depth),
    h("label", { class: "ev-field" }, "You play ", human), fresh);

  const title = h("div", { class: "ev-game-title" });
  const shown = h("div", { class: "ev-shown" });
  const root = h("div", { class: `ev-game ev-game-${kind}`, role: "group" }, title,
    h("div", { class: "ev-game-body" }, play, side), controls, shown);
  el.replaceChildren(root);

  show.onclick = () => send({ type: "show" });
  stop.onclick = () => send({ type: "stop" });
  move.onclick = () => send({ type: "move" });
  fresh.onclick = () => send({ type: "new" });
  algorithm.onchange = () => set("algorithm", algorithm.value);
  depth.onchange = () => set("depth", Number(depth.value));
  human.onchange = () => set("human", human.value);

  // ---- drawing the model
  const options = (select, items) => { // [value, text] pairs; rebuilt only when they change
    const key = JSON.stringify(items);
    if (select.dataset.items === key) return;
    select.dataset.items = key;
    select.replaceChildren(...items.map(([value, text]) => h("option", { value: String(value) }, text)));
  };
  const visible = (node, on) => { node.hidden = !on; };

  /** The log shows its last lines (again once the widget is on the page: before, it has no height). */
  function scrollLog() {
    const down = () => {
      log.scrollTop = log.scrollHeight;
      log.classList.toggle("ev-scrolls", log.scrollHeight > log.clientHeight + 1);
    };
    down();
    requestAnimationFrame(down);
  }

  function drawInputs(buttons, legal, mover) {
    const key = JSON.stringify(buttons);
    if (key !== inputKey) {
      inputKey = key;
      inputButtons = {};
      inputs.replaceChildren(...buttons.map(([name, text]) => {
        const b = button(text, { class: "ev-game-button ev-input", "data-input": name });
        b.onclick = () => send({ type: "click", button: name });
        inputButtons[name] = b;
        return b;
      }));
    }
    for (const [name, text] of buttons) {
      const open = legal.has(name), b = inputButtons[name];
      b.classList.toggle("ev-open", open);
      b.setAttribute("aria-disabled", open ? "false" : "true"); // clickable: a refused click says why
      b.setAttribute("aria-label", open ? `${mover}: ${text.toLowerCase()}` : text);
    }
    visible(inputs, buttons.length > 0);
  }

  function update() {
    const get = (name) => model.get(name);
    const view = get("view") || {}, legal = new Set(get("legal")), mover = get("mover"), thinking = get("thinking");
    root.setAttribute("aria-label", get("title") || "game");
    title.textContent = get("title");
    if (view.kind) drawing.update(view, legal, mover, get("human"));
    drawInputs(view.buttons || [], legal, mover);
    play.classList.toggle("ev-waiting", thinking);
    turn.textContent = get("turn");
    status.textContent = get("status");
    notice.textContent = get("notice");
    visible(notice, !!get("notice"));
    count.textContent = thinking ? `Searching\u2026 ${get("nodes").toLocaleString()} nodes so far` : "";
    visible(progress, thinking);
    visible(stop, thinking);
    visible(move, get("can_move"));
    const open = get("showing"), opening = get("opening");
    visible(show, get("can_show") || open || opening);
    show.disabled = opening;
    show.textContent = opening ? "Opening the search\u2026" : open ? "Hide the search" : "Show the search";
    show.setAttribute("aria-expanded", open ? "true" : "false");
    log.replaceChildren(...get("log").map((text) => h("li", {
      class: text.startsWith("You: ") ? "ev-log-you" : text.startsWith("Computer: ") ? "ev-log-computer" : "ev-log-chance",
    }, text)));
    visible(logBox, get("log").length > 0);
    scrollLog();
    options(algorithm, get("algorithms").map((name) => [name, name]));
    algorithm.value = get("algorithm");
    options(depth, get("depths"));
    depth.value = String(get("depth"));
    const [first, second] = get("sides");
    options(human, [[first, `${first} (first)`], [second, `${second} (second)`]]);
    human.value = get("human");
    fresh.classList.toggle("ev-primary", !mover); // the game is over: the next thing to do
    shown.textContent = get("shown");
    visible(shown, open && !!get("shown"));
  }
  let pending = false;
  const schedule = () => { // one redraw for a batch of changes
    if (pending) return;
    pending = true;
    queueMicrotask(() => { pending = false; update(); });
  };
  for (const name of TRAITS) model.on(`change:${name}`, schedule);
  update();

  // ---- keys: the arrow keys move between squares; Enter and Space press the focused button.  Heard on the
  // window as the event goes down (capturing), before the notebook's shortcuts ("a", "b", "d d", Enter...),
  // which must not act on a key meant for the game.
  const onKey = (event) => {
    if (!root.contains(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Tab" || event.key === "Escape") return;
    if (drawing.key(event)) event.preventDefault();
    event.stopPropagation();
  };
  window.addEventListener("keydown", onKey, true);
  return () => {
    window.removeEventListener("keydown", onKey, true);
    for (const name of TRAITS) model.off(`change:${name}`, schedule);
  };
}

export default { render };
