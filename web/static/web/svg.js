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
