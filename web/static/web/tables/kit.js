// Small DOM and SVG helpers shared by the Provence and Photoshoot tables (and the admin review).
// Kept apart from the shell's svg.js so the two can evolve independently.

import { t } from "../i18n.js";

export const SVG_NS = "http://www.w3.org/2000/svg";

// An SVG element with attributes; `title` becomes a <title> child (the text alternative).
export function s(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "title") {
      const t = document.createElementNS(SVG_NS, "title");
      t.textContent = String(value);
      node.appendChild(t);
    } else node.setAttribute(key, String(value));
  }
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

// An HTML element; `text` sets textContent, `on<event>` adds a listener.
export function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

// Make an SVG node behave as a button: focusable, labelled, activated by click, Enter or Space.
export function activate(node, label, handler) {
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  node.setAttribute("data-choice", label);  // the shell's convention: a step toward a legal move
  node.style.cursor = "pointer";
  node.addEventListener("click", (event) => { event.preventDefault(); handler(event); });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); handler(event); }
  });
  return node;
}

export function button(label, handler, attrs = {}) {
  return h("button", { type: "button", ...attrs, onclick: handler, text: label });
}

// A button that is a step toward (or the sending of) a legal move, marked as the shell expects.
export function choice(label, handler, attrs = {}, primary = false) {
  return button(label, handler, { ...attrs, "data-choice": label, class: primary ? "primary" : undefined });
}

// Submit through the shell; a refusal shows the server's `detail` in `where` (the shell may
// show it too, the table must not hide it).
export async function trySubmit(ctx, move, where) {
  try {
    if (where) where.textContent = "";
    await ctx.submit(move);
  } catch (error) {
    if (where) where.textContent = (error && (error.detail || error.message)) || String(error);
  }
}

// Same JSON, key order aside (moves from legal-moves are compared with what the user built).
export function sameMove(a, b) {
  return canonical(a) === canonical(b);
}

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// An SVG text fits its room in every language: one estimated longer than `room` (from its size,
// and bold or not) is drawn narrower, its letters closer, never in a smaller size.
export function fitText(text, room, size = 12, bold = false) {
  return String(text).length * size * (bold ? 0.62 : 0.57) > room ? { textLength: Math.round(room), lengthAdjust: "spacingAndGlyphs" } : {};
}

export const SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65"];

// A seat by its player's name, never its number (a colour always comes with the name).
export function seatName(ctx, seat) {
  const players = (ctx.game && ctx.game.players) || [];
  const entry = players.find((p) => p && p.seat === seat);
  const name = entry && (entry.username || entry.user || entry.name);
  return name ? String(name) : t("game.someone");
}

// " (you)" after the viewer's own seat; never in staff's dispute review (ctx.review), which draws
// a seat's view for someone who is not that player.
export function youMark(ctx, seat) {
  return seat === ctx.seat && !ctx.review ? ` ${t("common.you")}` : "";
}

// Per-root state that survives re-renders (selections, timers), dropped when the game changes.
export function memory(root, key) {
  const store = (root.__tableMemory ||= {});
  if (store.key !== key) { root.__tableMemory = { key }; }
  return root.__tableMemory;
}
