// The expectviz player: steps through packed searches in the browser, with no round trip to a kernel.
//
// anywidget's contract: `export default { render({ model, el }) }`.  The model holds, once:
//   views     each view's facts and first chunk of packed steps (expectviz/render/packed.py):
//             pieces (distinct SVG slot texts), frames (frame 0: every slot's piece; frame i: the
//             [slot, piece, ...] changes of step start + i), texts, rows/stacks/depths (the call
//             stack), visited;
//   steps     the last step;   cutoffs   the steps where a cutoff prunes;
//   follow    with two views, the second view's step at each step of the first;
//   interval  milliseconds per step when playing;   step   the step shown (synced both ways).
// Chunks beyond the first are asked for with model.send({type: "chunk", view, index}); the kernel
// answers with a custom message {type: "chunk", view, index, data}.
// export_html writes this file into its page and calls render() with a small stand-in model.

const KEEP_CHUNKS = 4; // chunks kept per view besides the first
const ZOOMS = [0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3, 4, 6, 8];
const FOLLOW_MARGIN = 48; // pixels: the step's node is scrolled into view when it comes closer to an edge

/** An element with attributes (aria-*, class, ...) and children (nodes or text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

/** One chunk of steps: any of its steps' SVG, reached forwards by changes and backwards by undo logs. */
class Chunk {
  constructor(data) {
    Object.assign(this, data);
    this.last = data.start + data.frames.length - 1;
    this.undo = [null]; // undo[i]: the pieces step start + i replaced, in the order of its changes
    const walk = data.frames[0].slice();
    for (let i = 1; i < data.frames.length; i++) {
      const ops = data.frames[i], old = [];
      for (let j = 0; j < ops.length; j += 2) { old.push(walk[ops[j]]); walk[ops[j]] = ops[j + 1]; }
      this.undo.push(old);
    }
    this.state = data.frames[0].slice();
    this.at = 0;
  }
  has(step) { return step >= this.start && step <= this.last; }
  svg(step) { return this.at_(step).map((i) => this.pieces[i]).join(""); }
  /** The piece of every slot at `step` (the chunk's own array: read it, do not keep it). */
  at_(step) {
    const k = step - this.start;
    while (this.at < k) {
      const ops = this.frames[++this.at];
      for (let j = 0; j < ops.length; j += 2) this.state[ops[j]] = ops[j + 1];
    }
    while (this.at > k) {
      const ops = this.frames[this.at], old = this.undo[this.at--];
      for (let j = 0; j < ops.length; j += 2) this.state[ops[j]] = old[j / 2];
    }
    return this.state;
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";
const HEAD = 5; // slots before the items' (svg.Drawer.HEAD): svg and title, caption, rect and text, caption, group
const CAPTIONS = [1, 3]; // the slots holding the caption's text

/**
 * The diagram in the page, patched slot by slot: a step replaces only the DOM nodes of the slots it changes
 * (a few), instead of parsing the whole SVG again (thousands of elements on a big tree).
 */
class Canvas {
  constructor(el) { this.el = el; this.shown = null; }

  draw(pieces, state) {
    const changed = [];
    if (this.shown && this.pieces === pieces && this.shown.length === state.length) {
      for (let s = 0; s < state.length; s++) if (state[s] !== this.shown[s]) changed.push(s);
    }
    const last = state.length - 1, structural = (s) => s < HEAD && !CAPTIONS.includes(s) || s === last;
    if (!this.shown || this.pieces !== pieces || changed.length > state.length / 4 || changed.some(structural)) {
      this.build(pieces, state);
    } else {
      for (const s of changed) this.replace(s, pieces[state[s]]);
    }
    this.shown = state.slice();
    this.pieces = pieces;
  }

  build(pieces, state) {
    const last = state.length - 1;
    this.el.innerHTML = state.slice(0, HEAD).map((i) => pieces[i]).join("") + pieces[state[last]];
    const svg = this.el.firstElementChild;
    this.texts = [svg.querySelector("title"), [...svg.children].find((e) => e.tagName === "text")];
    this.group = [...svg.children].find((e) => e.tagName === "g");
    this.nodes = [];
    for (let s = HEAD; s < last; s++) {
      const nodes = parse(pieces[state[s]]);
      this.group.append(...nodes);
      this.nodes.push(nodes);
    }
  }

  replace(slot, piece) {
    if (CAPTIONS.includes(slot)) { this.texts[CAPTIONS.indexOf(slot)].innerHTML = piece; return; }
    const k = slot - HEAD, old = this.nodes[k], fresh = parse(piece);
    let anchor = old.length ? old[0] : null;
    for (let t = k + 1; !anchor && t < this.nodes.length; t++) if (this.nodes[t].length) anchor = this.nodes[t][0];
    for (const node of fresh) this.group.insertBefore(node, anchor);
    for (const node of old) node.remove();
    this.nodes[k] = fresh;
  }
}

/** The SVG nodes a slot's text makes, parsed as the browser parses them inside an <svg>. */
function parse(text) {
  if (!text) return [];
  const holder = document.createElementNS(SVG_NS, "g");
  holder.innerHTML = text;
  return [...holder.childNodes];
}

/** One search as shown: its chunks (asked for when needed) and its part of the page. */
class View {
  constructor(data, index, model) {
    this.data = data;
    this.index = index;
    this.model = model;
    this.first = new Chunk(data);
    this.chunks = new Map(); // index -> Chunk, most recently used last
    this.asked = new Map(); // index -> when it was asked for
    this.failed = new Map(); // index -> the kernel's reason
    this.shown = -1;
    this.build();
  }

  build() {
    const d = this.data;
    this.title = h("div", { class: "ev-title" });
    this.sentence = h("div", { class: "ev-sentence", "aria-live": "polite" });
    this.canvas = h("div", { class: "ev-canvas" });
    this.drawing = new Canvas(this.canvas);
    this.diagram = h("div", { class: "ev-diagram", role: "img", "aria-label": `${d.algorithm} search tree` },
      this.canvas);
    // One block per call: its name and kind, then what is known of it as chips (window, value so far,
    // bounds) that wrap between chips but never inside a number, so a Star1 call fits the fixed-width panel.
    this.rows = h("div", { class: "ev-calls", role: "list" });
    this.visited = h("div", { class: "ev-visited" });
    const side = h("div", { class: "ev-side", "aria-label": "call stack" },
      h("div", { class: "ev-side-inner" }, h("div", { class: "ev-side-title" }, "Call stack (root first)"),
        this.rows, this.visited));
    this.body = h("div", { class: "ev-body" }, this.diagram, side);
    this.el = h("div", { class: "ev-view" }, this.title, this.sentence, this.body);
  }

  /** The chunk holding `step`, or null after asking the kernel for it. */
  chunk(step) {
    if (this.first.has(step)) return this.first;
    const index = Math.floor(step / this.data.chunk), found = this.chunks.get(index);
    if (found) { this.chunks.delete(index); this.chunks.set(index, found); return found; }
    const asked = this.asked.get(index);
    if (asked === undefined || Date.now() - asked > 15000) {
      this.asked.set(index, Date.now());
      try { this.model.send({ type: "chunk", view: this.index, index }); } catch (error) { /* no kernel */ }
    }
    return null;
  }

  /** The kernel's answer: a chunk, or why there is none. */
  receive(message) {
    this.asked.delete(message.index);
    if (message.type === "error") { this.failed.set(message.index, message.message); return; }
    this.chunks.set(message.index, new Chunk(message.data));
    while (this.chunks.size > KEEP_CHUNKS) this.chunks.delete(this.chunks.keys().next().value);
  }

  /** Show `step`; false while its chunk is still on its way. */
  show(step) {
    const d = this.data, chunk = this.chunk(step);
    if (!chunk) {
      const index = Math.floor(step / d.chunk), from = index * d.chunk, to = Math.min(d.steps, from + d.chunk - 1);
      const late = Date.now() - this.asked.get(index) > 5000;
      this.sentence.textContent = this.failed.get(index) || (late
        ? `Steps ${from} to ${to} are not loaded and the kernel does not answer: run the cell again to see them.`
        : `Loading steps ${from} to ${to} from the kernel\u2026`);
      this.shown = -1;
      return false;
    }
    if (this.shown !== step) {
      const i = step - chunk.start;
      this.drawing.draw(chunk.pieces, chunk.at_(step));
      this.sentence.textContent = chunk.texts[i];
      // In predict mode the search's totals would tell how much it prunes: they wait for the last step.
      const totals = !d.predict || step === d.steps;
      this.showStack(chunk, i, totals);
      const [visited, leaves, cutoffs] = d.stats;
      const count = (n, one, many) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
      const sofar = `${chunk.visited[i].toLocaleString()} visited so far`;
      this.title.textContent = d.title && (totals ? `${d.title}: ${count(visited, "node", "nodes")} visited, ` +
        `${count(leaves, "leaf", "leaves")} evaluated, ${count(cutoffs, "cutoff", "cutoffs")}; ${sofar}`
        : `${d.title}: ${sofar}`);
      this.shown = step;
    }
    return true;
  }

  showStack(chunk, i, totals = true) {
    const ids = chunk.stacks[i], depth = chunk.depths[i], body = [];
    if (depth > ids.length) {
      body.push(h("div", { class: "ev-more" }, `${(depth - ids.length).toLocaleString()} more calls above`));
    }
    const top = ids.length ? chunk.rows[ids[0]][0] : 0;
    for (const id of ids) {
      const [indent, node, kind, window, value, bounds] = chunk.rows[id];
      const chips = [];
      if (this.data.windowed && window) chips.push(`\u03b1\u03b2 ${window}`);
      if (value) chips.push(`${kind === "MAX" ? "\u2265" : "\u2264"} ${value} so far`);
      if (bounds) chips.push(...bounds.split("; "));
      const call = h("div", { class: "ev-call", role: "listitem" },
        h("div", { class: "ev-call-head" }, h("span", { class: "ev-call-name" }, node), " ",
          h("span", { class: "ev-call-kind" }, kind)),
        ...(chips.length ? [h("div", { class: "ev-call-known" }, ...chips.map((t) => h("span", { class: "ev-chip" }, t)))]
          : []));
      call.style.paddingLeft = `${0.8 * (indent - top)}em`;
      body.push(call);
    }
    if (!body.length) body.push(h("div", { class: "ev-more" }, "empty"));
    this.rows.replaceChildren(...body);
    this.visited.textContent = `Nodes visited so far: ${chunk.visited[i].toLocaleString()}` +
      (totals ? ` of ${this.data.stats[0].toLocaleString()}` : "");
  }
}

function render({ model, el }) {
  const views = [];
  const steps = model.get("steps"), cutoffs = model.get("cutoffs"), follow = model.get("follow");
  let step = -1, timer = null, zoom = 1;

  // ---- the controls
  const button = (label, text, title) => h("button", { type: "button", class: "ev-button", "aria-label": label,
    title }, text);
  const first = button("first step", "|\u25c0", "first step (Home)");
  const previous = button("previous step", "\u2039", "previous step (\u2190)");
  const play = button("play", "\u25b6 Play", "play / pause (Space)");
  const next = button("next step", "\u203a", "next step (\u2192)");
  const last = button("last step", "\u25b6|", "last step (End)");
  const cutoff = button("next cutoff", "next cutoff \u2702", "jump to the next step where a cutoff prunes (c)");
  const slider = h("input", { type: "range", class: "ev-slider", min: 0, max: steps, value: 0, "aria-label": "step" });
  const counter = h("span", { class: "ev-counter" });
  const speed = h("input", { type: "range", min: 50, max: 2000, step: 50, value: model.get("interval"),
    "aria-label": "milliseconds per step when playing" });
  const speedText = h("span", { class: "ev-speed-text" });
  const zoomOut = button("zoom out", "\u2212", "zoom out (Ctrl+wheel)");
  const zoomFit = button("fit to width", "fit", "fit the diagram to the panel's width");
  const zoomIn = button("zoom in", "+", "zoom in (Ctrl+wheel)");
  const tools = [first, previous, play, next, last].concat(cutoffs.length ? [cutoff] : []);
  const toolbar = h("div", { class: "ev-toolbar", role: "toolbar", "aria-label": "player controls" },
    h("span", { class: "ev-group" }, ...tools), h("span", { class: "ev-group ev-grow" }, slider, counter),
    h("label", { class: "ev-group" }, "speed ", speed, speedText),
    h("span", { class: "ev-group" }, zoomOut, zoomFit, zoomIn));
  const data = model.get("views");
  const panes = h("div", { class: data.length > 1 ? "ev-views ev-two" : "ev-views" });
  const root = h("div", { class: "ev-player", tabindex: 0, role: "group",
    "aria-label": `expectviz player, ${data.map((v) => v.algorithm).join(" and ")}, ${steps} steps` },
  toolbar, panes);
  el.replaceChildren(root);

  data.forEach((d, i) => {
    const view = new View(d, i, model);
    views.push(view);
    panes.append(view.el);
  });

  // ---- stepping
  function show(k, again = false) {
    k = Math.max(0, Math.min(steps, k));
    if (k === step && !again) return true;
    step = k;
    let ready = true;
    views.forEach((view, i) => { ready = view.show(i === 0 ? k : follow[k]) && ready; });
    views.forEach(keepInSight);
    slider.value = k;
    counter.textContent = `step ${k} of ${steps}`;
    first.disabled = previous.disabled = k === 0;
    next.disabled = last.disabled = k === steps;
    cutoff.disabled = nextCutoff() === null;
    if (root.contains(document.activeElement) && document.activeElement.disabled) {
      root.focus({ preventScroll: true }); // a button just disabled would drop the focus, and the keys with it
    }
    return ready;
  }
  function go(k) { // a step chosen in the browser: show it, then tell the kernel (if there is one)
    show(k);
    if (model.get("step") !== step) {
      model.set("step", step);
      try { model.save_changes(); } catch (error) { /* no kernel: the page steps on */ }
    }
  }
  function nextCutoff() {
    for (const c of cutoffs) if (c > step) return c;
    return null;
  }
  function stop() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    play.textContent = "\u25b6 Play";
    play.setAttribute("aria-label", "play");
  }
  function loaded(k) { // every view has step k at hand (asks the kernel for what is missing)
    return views.every((view, i) => view.chunk(i === 0 ? k : follow[k]) !== null);
  }
  function tick() {
    if (step >= steps) { stop(); return; }
    if (loaded(step + 1)) go(step + 1); // a chunk on its way holds the player at this step
    timer = setTimeout(tick, Number(speed.value));
  }
  function toggle() {
    if (timer !== null) { stop(); return; }
    if (step >= steps) go(0);
    play.textContent = "\u275a\u275a Pause";
    play.setAttribute("aria-label", "pause");
    timer = setTimeout(tick, Number(speed.value));
  }
  const user = (action) => () => { stop(); action(); };
  const actions = {
    first: user(() => go(0)), previous: user(() => go(step - 1)), next: user(() => go(step + 1)),
    last: user(() => go(steps)), cutoff: user(() => { const c = nextCutoff(); if (c !== null) go(c); }),
  };
  first.onclick = actions.first;
  previous.onclick = actions.previous;
  next.onclick = actions.next;
  last.onclick = actions.last;
  cutoff.onclick = actions.cutoff;
  play.onclick = toggle;
  slider.oninput = user(() => go(Number(slider.value)));
  function showSpeed() { speedText.textContent = ` ${speed.value} ms/step`; }
  speed.oninput = () => {
    showSpeed();
    model.set("interval", Number(speed.value));
    try { model.save_changes(); } catch (error) { /* no kernel */ }
  };
  showSpeed();

  // ---- keys, while the player (or a control in it) has the focus.  Heard on the window as the event
  // goes down (capturing), before JupyterLab's or Notebook 7's shortcuts, which listen on the document
  // (Notebook 7 while capturing, too): a key the player uses never reaches the notebook.
  const keys = { ArrowRight: actions.next, ArrowLeft: actions.previous, Home: actions.first, End: actions.last,
    c: actions.cutoff, " ": toggle };
  const onKey = (event) => {
    if (!root.contains(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    const onButton = event.target.tagName === "BUTTON";
    if (event.target === speed || (onButton && (event.key === " " || event.key === "Enter"))) {
      event.stopPropagation(); // the control's own keys; the notebook must not act on them too
      return;
    }
    const action = keys[event.key];
    if (!action || event.shiftKey) return;
    action();
    event.preventDefault(); // no scrolling, no slider moving on its own
    event.stopPropagation();
  };
  window.addEventListener("keydown", onKey, true);
  root.addEventListener("mousedown", (event) => {
    if (!event.target.closest("button, input")) root.focus({ preventScroll: true });
  });

  // ---- zoom.  At zoom 1 each diagram is as wide as its panel, and at most 75% of the window's height
  // (the CSS does that on its own until the player is on the page); two views share one scale, so that
  // their trees line up.  Zoom z makes the drawing z times that size, and the panel scrolls.
  function fitScale() { // pixels per SVG unit at zoom 1, or 0 while the player is not on the page
    let scale = Infinity;
    for (const view of views) {
      const svg = view.canvas.querySelector("svg"), box = svg && svg.viewBox.baseVal;
      if (!box || !box.width || !view.diagram.clientWidth) return 0;
      scale = Math.min(scale, view.diagram.clientWidth / box.width, (0.75 * window.innerHeight) / box.height);
    }
    return scale;
  }
  // One view beside its call-stack panel, unless the panel makes the drawing small: when beside the panel
  // it would be drawn below 3/4 of its size and under it a quarter larger or more (a wide, shallow tree: a
  // game's, or a medium Star1 tree beside JupyterLab's file browser at 1280x800), the panel goes under it.
  // The choice depends only on the player's width and the drawing's shape: it holds still from step to step.
  function arrange() {
    if (views.length !== 1) return;
    const view = views[0], svg = view.canvas.querySelector("svg"), box = svg && svg.viewBox.baseVal;
    const full = view.body.clientWidth;
    if (!box || !box.width || !full) return;
    const em = parseFloat(getComputedStyle(view.body).fontSize) || 13;
    const beside = full - 21 * em - 10; // the panel's 21em and the grid's gap (player.css)
    const fit = (width) => Math.min(width / box.width, (0.75 * window.innerHeight) / box.height);
    view.body.classList.toggle("ev-stacked", beside <= 0 || (fit(beside) < 0.75 && fit(full) > 1.25 * fit(beside)));
  }
  function size() {
    arrange();
    const scale = fitScale();
    for (const view of views) {
      const box = scale && view.canvas.querySelector("svg").viewBox.baseVal;
      view.canvas.style.width = scale ? `${Math.floor(zoom * scale * box.width)}px` : "";
      view.canvas.classList.toggle("ev-sized", scale > 0);
    }
  }
  // A zoomed-in diagram keeps the node of the step in sight (the root before the search): it is scrolled to
  // the middle when it comes near an edge, so stepping through a big tree (a game's) follows the search.
  function keepInSight(view) {
    const pane = view.diagram;
    if (pane.scrollWidth <= pane.clientWidth + 1 && pane.scrollHeight <= pane.clientHeight + 1) return;
    const svg = view.canvas.querySelector("svg");
    const ring = svg && svg.querySelector("[data-ring]");
    const target = ring || (svg && svg.querySelector('[data-node="n0"]'));
    if (!target) return;
    const box = target.getBoundingClientRect(), frame = pane.getBoundingClientRect();
    const margin = Math.min(FOLLOW_MARGIN, pane.clientWidth / 4, pane.clientHeight / 4);
    const middle = (low, high) => (low + high) / 2;
    const dx = box.left < frame.left + margin || box.right > frame.left + pane.clientWidth - margin
      ? middle(box.left, box.right) - middle(frame.left, frame.left + pane.clientWidth) : 0;
    const dy = box.top < frame.top + margin || box.bottom > frame.top + pane.clientHeight - margin
      ? middle(box.top, box.bottom) - middle(frame.top, frame.top + pane.clientHeight) : 0;
    if (dx || dy) pane.scrollBy(dx, dy);
  }
  function setZoom(z, anchor) {
    const old = zoom;
    zoom = Math.max(ZOOMS[0], Math.min(ZOOMS[ZOOMS.length - 1], z));
    const scrolls = views.map((view) => {
      const pane = view.diagram, [x, y] = anchor ? anchor(pane) : [pane.clientWidth / 2, pane.clientHeight / 2];
      return [(pane.scrollLeft + x) * (zoom / old) - x, (pane.scrollTop + y) * (zoom / old) - y];
    });
    size();
    views.forEach((view, i) => view.diagram.scrollTo(...(zoom === 1 ? [0, 0] : scrolls[i])));
    zoomFit.disabled = zoom === 1;
  }
  const stepZoom = (up, anchor) => setZoom(up ? ZOOMS.find((z) => z > zoom + 1e-9) || zoom
    : [...ZOOMS].reverse().find((z) => z < zoom - 1e-9) || zoom, anchor);
  zoomIn.onclick = () => stepZoom(true);
  zoomOut.onclick = () => stepZoom(false);
  zoomFit.onclick = () => setZoom(1);
  for (const view of views) {
    view.diagram.addEventListener("wheel", (event) => {
      if (!event.ctrlKey) return; // plain wheel scrolls the notebook (or the zoomed diagram)
      event.preventDefault();
      const box = view.diagram.getBoundingClientRect(), x = event.clientX - box.left, y = event.clientY - box.top;
      stepZoom(event.deltaY < 0, () => [x, y]);
    }, { passive: false });
  }
  setZoom(1);
  const resized = new ResizeObserver(() => size()); // shown, or the window or sidebar changed
  resized.observe(root);

  // ---- the kernel's side: a step set in Python, a new speed, a chunk of steps
  const onStep = () => { // ignores the echo of go()'s own change
    if (model.get("step") !== step) { stop(); show(model.get("step")); }
  };
  const onInterval = () => { speed.value = model.get("interval"); showSpeed(); };
  const onMessage = (message) => {
    if (!message || !["chunk", "error"].includes(message.type) || !views[message.view]) return;
    views[message.view].receive(message);
    show(step, true);
  };
  model.on("change:step", onStep);
  model.on("change:interval", onInterval);
  model.on("msg:custom", onMessage);
  show(model.get("step"));
  return () => { // the view is removed: stop playing, let go of the model
    stop();
    resized.disconnect();
    window.removeEventListener("keydown", onKey, true);
    model.off("change:step", onStep);
    model.off("change:interval", onInterval);
    model.off("msg:custom", onMessage);
  };
}

export default { render };
