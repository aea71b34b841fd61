// The expectviz game: a tic-tac-toe board to play against a search (expectviz/render/play.py).
//
// Python holds the game; this draws it and sends what the person does.  anywidget's contract:
// `export default { render({ model, el }) }`.  The model holds:
//   kernel -> browser   title, cells (9 of "X", "O", "#", ""), legal (the squares you may click), last (the last
//                       move's square, -1: none), line (the winning line), mover, blocking, turn, status, notice,
//                       log, thinking, nodes (searched so far), algorithms, max_depth, can_move, can_show,
//                       showing, opening, shown;
//   both ways           algorithm, depth (0: to the end), human ("X" or "O": a new game);
//   browser -> kernel   messages {type: "click", square}, {type: "noblock"}, {type: "new"}, {type: "stop"},
//                       {type: "move"} (the computer's move), {type: "show"} (open or close the search's player).
// The step player itself is a separate widget, shown by Python below this one.

const SVG_NS = "http://www.w3.org/2000/svg";
const NAMES = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
const TRAITS = ["title", "cells", "legal", "last", "line", "human", "mover", "blocking", "turn", "status", "notice",
  "log", "thinking", "nodes", "algorithm", "algorithms", "depth", "max_depth", "can_move", "can_show", "showing",
  "opening", "shown"];

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

function render({ model, el }) {
  const send = (message) => { try { model.send(message); } catch (error) { /* no kernel: nothing to tell */ } };
  const set = (name, value) => {
    model.set(name, value);
    try { model.save_changes(); } catch (error) { /* no kernel */ }
  };
  const button = (text, attrs = {}) => h("button", { type: "button", class: "ev-game-button", ...attrs }, text);

  // ---- the board: column letters above, row numbers at the left, a button for each square
  const squares = NAMES.map((name, i) => {
    const square = h("button", { type: "button", class: "ev-square", "data-square": String(i) });
    square.onclick = () => send({ type: "click", square: i });
    return square;
  });
  const board = h("div", { class: "ev-board", role: "group", "aria-label": "board" },
    h("span", { class: "ev-coord", "aria-hidden": "true" }),
    ...["a", "b", "c"].map((c) => h("span", { class: "ev-coord ev-coord-col", "aria-hidden": "true" }, c)));
  for (let row = 0; row < 3; row++) {
    board.append(h("span", { class: "ev-coord ev-coord-row", "aria-hidden": "true" }, String(row + 1)),
      ...squares.slice(3 * row, 3 * row + 3));
  }

  // ---- beside it: whose turn, what happened, the search's progress, the actions, the moves so far
  const turn = h("div", { class: "ev-turn" });
  const status = h("div", { class: "ev-status", "aria-live": "polite" });
  const notice = h("div", { class: "ev-notice", role: "status" });
  const count = h("span", { class: "ev-count" });
  const progress = h("div", { class: "ev-progress" }, h("span", { class: "ev-spinner", "aria-hidden": "true" }), count);
  const show = button("Show the search", { class: "ev-game-button ev-primary" });
  const stop = button("Stop");
  const move = button("Computer move", { class: "ev-game-button ev-primary" });
  const noBlock = button("No block");
  const actions = h("div", { class: "ev-actions" }, show, stop, move, noBlock);
  const log = h("ol", { class: "ev-log", "aria-label": "moves so far" });
  const logBox = h("details", { class: "ev-log-box", open: "" }, h("summary", {}, "Moves"), log);
  const side = h("div", { class: "ev-game-side" }, turn, status, notice, progress, actions, logBox);

  // ---- the settings: the computer's algorithm and depth, your side, a new game
  const algorithm = h("select", { "aria-label": "the computer's algorithm" });
  const depth = h("select", { "aria-label": "the computer's depth limit" });
  const human = h("select", { "aria-label": "your side (starts a new game)" },
    h("option", { value: "X" }, "X (first)"), h("option", { value: "O" }, "O (second)"));
  const fresh = button("New game");
  const controls = h("div", { class: "ev-game-controls" },
    h("label", { class: "ev-field" }, "Computer ", algorithm),
    h("label", { class: "ev-field" }, "depth ", depth),
    h("label", { class: "ev-field" }, "You play ", human), fresh);

  const title = h("div", { class: "ev-game-title" });
  const shown = h("div", { class: "ev-shown" });
  const root = h("div", { class: "ev-game", role: "group" }, title,
    h("div", { class: "ev-game-body" }, board, side), controls, shown);
  el.replaceChildren(root);

  show.onclick = () => send({ type: "show" });
  stop.onclick = () => send({ type: "stop" });
  move.onclick = () => send({ type: "move" });
  noBlock.onclick = () => send({ type: "noblock" });
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

  function update() {
    const get = (name) => model.get(name);
    const cells = get("cells"), legal = new Set(get("legal")), line = new Set(get("line")), last = get("last");
    const mover = get("mover"), blocking = get("blocking"), thinking = get("thinking");
    root.setAttribute("aria-label", get("title") || "tic-tac-toe");
    title.textContent = get("title");
    squares.forEach((square, i) => {
      const cell = cells[i] || "", open = legal.has(i);
      if (square.dataset.cell !== cell) { square.dataset.cell = cell; square.replaceChildren(mark(cell)); }
      square.classList.toggle("ev-open", open);
      square.classList.toggle("ev-last", i === last);
      square.classList.toggle("ev-line", line.has(i));
      square.setAttribute("aria-disabled", open ? "false" : "true");
      const what = cell === "X" ? "X" : cell === "O" ? "O" : cell === "#" ? "blocked" : "empty";
      square.setAttribute("aria-label", open
        ? `${mover} to move: ${blocking ? "block" : "play"} ${NAMES[i]}`
        : `${NAMES[i]}: ${what}${i === last ? ", the last move" : ""}${line.has(i) ? ", in the winning line" : ""}`);
      square.title = open ? `${blocking ? "block" : "play"} ${NAMES[i]}` : NAMES[i];
    });
    board.classList.toggle("ev-waiting", thinking);
    turn.textContent = get("turn");
    status.textContent = get("status");
    notice.textContent = get("notice");
    visible(notice, !!get("notice"));
    count.textContent = thinking ? `Searching\u2026 ${get("nodes").toLocaleString()} nodes so far` : "";
    visible(progress, thinking);
    visible(stop, thinking);
    visible(move, get("can_move"));
    visible(noBlock, blocking && !thinking);
    const open = get("showing"), opening = get("opening");
    visible(show, get("can_show") || open || opening);
    show.disabled = opening;
    show.textContent = opening ? "Opening the search\u2026" : open ? "Hide the search" : "Show the search";
    show.setAttribute("aria-expanded", open ? "true" : "false");
    log.replaceChildren(...get("log").map((text) => h("li", {
      class: text.startsWith("Coin") ? "ev-log-coin" : text.startsWith("You") ? "ev-log-you" : "ev-log-computer",
    }, text)));
    visible(logBox, get("log").length > 0);
    log.scrollTop = log.scrollHeight;
    options(algorithm, get("algorithms").map((name) => [name, name]));
    algorithm.value = get("algorithm");
    const depths = [[0, "to the end"]];
    for (let d = 1; d < get("max_depth"); d++) depths.push([d, String(d)]);
    options(depth, depths);
    depth.value = String(get("depth"));
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
    const at = squares.indexOf(event.target);
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -3, ArrowDown: 3 }[event.key];
    if (at >= 0 && step !== undefined) {
      const to = at + step;
      if (to >= 0 && to < 9 && (Math.abs(step) === 3 || Math.floor(to / 3) === Math.floor(at / 3))) {
        squares[to].focus();
      }
      event.preventDefault();
    }
    event.stopPropagation();
  };
  window.addEventListener("keydown", onKey, true);
  return () => {
    window.removeEventListener("keydown", onKey, true);
    for (const name of TRAITS) model.off(`change:${name}`, schedule);
  };
}

export default { render };
