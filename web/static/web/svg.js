// Tiny helpers to build SVG and HTML without a framework.
const NS = "http://www.w3.org/2000/svg";

function apply(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** s("rect", {x: 1}, ...children): an SVG element. */
export const s = (tag, attrs, ...children) => append(apply(document.createElementNS(NS, tag), attrs), children);
/** h("button", {class: "x"}, ...children): an HTML element. */
export const h = (tag, attrs, ...children) => append(apply(document.createElement(tag), attrs), children);

/** A root <svg> with a viewBox that scales to its container (phones and desktops alike). */
export const svgRoot = (width, height, label, ...children) =>
  s("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": label, class: "table-svg",
             preserveAspectRatio: "xMidYMin meet" }, ...children);

/** Make an SVG group act as a button: focusable, Enter/Space and click run `action`. It is marked
 * `data-choice` (a step toward a legal move) unless `choice: false` (undo, reset, pure display). */
export function clickable(node, label, action, { choice = true, ...extra } = {}) {
  apply(node, { tabindex: 0, role: "button", "aria-label": label, class: `${node.getAttribute("class") || ""} choice`.trim(),
                "data-choice": choice ? label : undefined, ...extra });
  node.prepend(s("title", {}, label));
  node.addEventListener("click", (e) => { e.stopPropagation(); action(); });
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); action(); }
  });
  return node;
}

/** An HTML button that offers a choice (same data-choice contract as clickable SVG). */
export const choiceButton = (label, action, attrs = {}) =>
  h("button", { type: "button", class: "choice", "data-choice": label, onclick: action, ...attrs }, label);

/** Count the renders of a table (`data-render`), so a test knows the page redrew. */
export function stamp(root) { root.dataset.render = String(Number(root.dataset.render || 0) + 1); }

/** A card-shaped focus ring, drawn last in a group so hover/focus/selection can colour it. */
export const ring = (x, y, w, hgt, rx = 8) =>
  s("rect", { x, y, width: w, height: hgt, rx, fill: "none", stroke: "transparent", class: "focus-ring" });

/** node.replaceChildren without the nulls and falses (which it would print as text). */
export const fill = (node, ...children) => { node.replaceChildren(); return append(node, children); };

// Drawn icons (no emoji font needed): 24x24 paths, stroked in the text colour.
const ICONS = {
  "arrow-left": "M19 12H5M11 6l-6 6 6 6",
  "arrow-right": "M5 12h14M13 6l6 6-6 6",
  "arrow-down": "M12 5v14M6 13l6 6 6-6",
  first: "M6 5v14M18 6l-8 6 8 6z",
  last: "M18 5v14M6 6l8 6-8 6z",
  prev: "M16 6l-8 6 8 6z",
  next: "M8 6l8 6-8 6z",
  clock: "M12 3a9 9 0 1 0 0.01 0M12 7v5l3 3",
  bell: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0",
  check: "M5 12l5 5 9-10",
};
/** An icon as inline SVG, hidden from assistive technology (the control carries the words). */
export const icon = (name, size = 20) =>
  s("svg", { class: `icon icon-${name}`, width: size, height: size, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: ICONS[name], fill: name === "first" || name === "last" || name === "prev" || name === "next" ? "currentColor" : "none",
                stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round" }));
