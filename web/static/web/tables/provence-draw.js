// Walking in Provence: drawing a landscape, a scene card, a photo card (no game logic).
// Square codes and orientation follow docs/provence.md; turning a card here only draws it:
// where it may go always comes from legal-moves.
import { s, SEAT_COLOURS } from "./kit.js";

export const CELL = 48;  // a square at its real size: 44 px touch targets, 12 px text and up

const TERRAIN = {
  forest: { fill: "#2e7d32", ink: "#fff", mark: "F" },
  wheat: { fill: "#f2cc60", ink: "#5a4300", mark: "W" },
  meadow: { fill: "#b5dc95", ink: "#234d12", mark: "" },
  mill: { fill: "#d7ccc8", ink: "#3e2723", mark: "M" },
  church: { fill: "#eceff1", ink: "#263238", mark: "✝" },
  lavender: { fill: "#9575cd", ink: "#fff", mark: "" },
  town: { fill: "#e8a87c", ink: "#4e2a0e", mark: "" },
  sunflower: { fill: "#ffd54f", ink: "#5d4037", mark: "" },
};
const SHOP_MARK = { coffee: "Tc", gift: "Tg", pizza: "Tp", ice_cream: "Ti" };
const FACING_NAMES = { N: "north (towards the deck)", E: "east", S: "south", W: "west" };
const CODES = {
  F: ["forest"], W: ["wheat"], G: ["meadow"], M: ["mill"], C: ["church"],
  Lh: ["lavender", "horizontal"], Lv: ["lavender", "vertical"],
  Tc: ["town", "coffee"], Tg: ["town", "gift"], Tp: ["town", "pizza"], Ti: ["town", "ice_cream"],
  Sn: ["sunflower", "N"], Se: ["sunflower", "E"], Ss: ["sunflower", "S"], Sw: ["sunflower", "W"],
  P: ["meadow", "scooter"], R: ["meadow", "tree"],
};
const FACINGS = "NESW";

// A scene card by the name a player reads on it ("scene card 4"), not its code ("s04").
export function cardName(id) {
  const number = /^s0*(\d+)$/.exec(String(id));
  return number ? `scene card ${number[1]}` : String(id);
}

// A square of a landscape in words: row (y, down from the scene deck) and column (x, to the right).
export function where(x, y) {
  return `row ${y}, column ${x}`;
}

export function squareLabel(sq) {
  const t = sq.terrain;
  if (t === "lavender") return `lavender growing ${sq.growth}`;
  if (t === "sunflower") return `sunflower facing ${FACING_NAMES[sq.facing] || sq.facing}`;
  if (t === "town") return `town with a ${String(sq.shop).replace("_", " ")} shop`;
  if (t === "meadow" && sq.feature) return `meadow with the ${sq.feature}`;
  if (t === "church") return "church (half)";
  return t;
}

// One square at pixel (px, py): colour, plus a letter or shape so colour is never the only signal.
export function drawSquare(sq, px, py, size = CELL) {
  const style = TERRAIN[sq.terrain] || { fill: "#ccc", ink: "#000", mark: "?" };
  const g = s("g", { class: `sq sq-${sq.terrain}`, "data-terrain": sq.terrain });
  g.appendChild(s("rect", { x: px, y: py, width: size, height: size, fill: style.fill,
    stroke: "#0003", "stroke-width": 0.5, title: squareLabel(sq) }));
  const cx = px + size / 2, cy = py + size / 2;
  const fs = size * 0.38;
  if (sq.terrain === "lavender") {
    for (let i = 1; i <= 3; i += 1) {
      const off = (size * i) / 4;
      const line = sq.growth === "horizontal"
        ? { x1: px + 4, y1: py + off, x2: px + size - 4, y2: py + off }
        : { x1: px + off, y1: py + 4, x2: px + off, y2: py + size - 4 };
      g.appendChild(s("line", { ...line, stroke: "#4a2c82", "stroke-width": 2.5, "stroke-linecap": "round" }));
    }
  } else if (sq.terrain === "sunflower") {
    g.appendChild(s("circle", { cx, cy, r: size * 0.2, fill: "#8d5524", stroke: "#e65100" }));
    const dir = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] }[sq.facing] || [0, -1];
    const tip = [cx + dir[0] * size * 0.45, cy + dir[1] * size * 0.45];
    const base = [cx + dir[0] * size * 0.25, cy + dir[1] * size * 0.25];
    const side = [-dir[1] * size * 0.12, dir[0] * size * 0.12];
    g.appendChild(s("polygon", { points: `${tip.join(",")} ${base[0] + side[0]},${base[1] + side[1]} ${base[0] - side[0]},${base[1] - side[1]}`, fill: "#5d4037" }));
  } else if (sq.terrain === "town") {
    g.appendChild(s("rect", { x: px + size * 0.2, y: py + size * 0.35, width: size * 0.6, height: size * 0.45, fill: "#fff8", stroke: style.ink }));
    g.appendChild(s("text", { x: cx, y: py + size * 0.3, "font-size": Math.max(12, fs * 0.7), "text-anchor": "middle", fill: style.ink, text: "town" }));
    g.appendChild(s("text", { x: cx, y: py + size * 0.72, "font-size": Math.max(12, fs * 0.8), "text-anchor": "middle", fill: style.ink, text: SHOP_MARK[sq.shop] || "T" }));
  } else if (sq.terrain === "meadow" && sq.feature) {
    // At the square's top: a token standing on the meadow sits in its lower half, below the word.
    g.appendChild(s("text", { x: cx, y: py + 14, "font-size": 12, "text-anchor": "middle", fill: style.ink,
      text: sq.feature === "tree" ? "tree" : "scooter" }));
  } else if (style.mark) {
    g.appendChild(s("text", { x: cx, y: cy + fs / 3, "font-size": Math.max(12, fs), "text-anchor": "middle", fill: style.ink, "font-weight": "bold", text: style.mark }));
  }
  return g;
}

// A scene card's squares after turning it clockwise (drawing only).
export function orientedSquares(rows, rotation) {
  const out = [];
  rows.forEach((codes, row) => codes.forEach((code, col) => {
    const [terrain, attr] = CODES[code] || ["meadow"];
    const [dx, dy] = turn(col, row, rotation);
    const sq = { terrain, dx, dy };
    if (terrain === "lavender") {
      sq.growth = rotation % 180 === 90 ? (attr === "horizontal" ? "vertical" : "horizontal") : attr;
    } else if (terrain === "sunflower") {
      sq.facing = FACINGS[(FACINGS.indexOf(attr) + rotation / 90) % 4];
    } else if (terrain === "town") sq.shop = attr;
    else if (attr) sq.feature = attr;
    out.push(sq);
  }));
  return out;
}

function turn(col, row, rotation) {
  const w = 3, hgt = 2;
  if (rotation === 90) return [hgt - 1 - row, col];
  if (rotation === 180) return [w - 1 - col, hgt - 1 - row];
  if (rotation === 270) return [row, w - 1 - col];
  return [col, row];
}

export function cardLabel(card) {
  return `Scene card ${card.id}: ` + card.rows.map((codes, i) => `${i ? "bottom" : "top"} row `
    + codes.map((c) => squareLabel(codeSquare(c))).join(", ")).join("; ");
}

function codeSquare(code) {
  return orientedSquares([[code]], 0)[0];
}

// A hand card, as a small standalone picture.
export function drawCard(card, rotation, size = 26) {
  const squares = orientedSquares(card.rows, rotation);
  const w = rotation % 180 === 0 ? 3 : 2, hgt = rotation % 180 === 0 ? 2 : 3;
  const svg = s("svg", { viewBox: `-2 -2 ${w * size + 4} ${hgt * size + 4}`, width: w * size + 4, height: hgt * size + 4,
    role: "img", "aria-label": `${cardLabel(card)}; turned ${rotation} degrees` });
  for (const sq of squares) svg.appendChild(drawSquare(sq, sq.dx * size, sq.dy * size, size));
  svg.appendChild(s("rect", { x: 0, y: 0, width: w * size, height: hgt * size, fill: "none", stroke: "#333", "stroke-width": 1.5 }));
  return svg;
}

// The edges between squares of different cards (or the landscape's border).
export function cardEdges(visible, ox, oy) {
  const at = new Map(visible.map((sq) => [`${sq.x},${sq.y}`, sq]));
  const g = s("g", { class: "card-edges", "aria-hidden": "true" });
  for (const sq of visible) {
    const px = (sq.x - ox) * CELL, py = (sq.y - oy) * CELL;
    const sides = [[0, -1, px, py, px + CELL, py], [0, 1, px, py + CELL, px + CELL, py + CELL],
      [-1, 0, px, py, px, py + CELL], [1, 0, px + CELL, py, px + CELL, py + CELL]];
    for (const [dx, dy, x1, y1, x2, y2] of sides) {
      const n = at.get(`${sq.x + dx},${sq.y + dy}`);
      if (!n || n.card !== sq.card) g.appendChild(s("line", { x1, y1, x2, y2, stroke: "#222", "stroke-width": 2 }));
    }
  }
  return g;
}

// Frames (docs/provence.md): four 3x5 frames around the photographer, a 5x5 one on the drone.
export function frames(land) {
  const [px, py] = land.photographer, [dx, dy] = land.drone;
  return [
    { who: "photographer", side: "above", x: px - 2, y: py - 3, w: 5, h: 3 },
    { who: "photographer", side: "below", x: px - 2, y: py + 1, w: 5, h: 3 },
    { who: "photographer", side: "left", x: px - 3, y: py - 2, w: 3, h: 5 },
    { who: "photographer", side: "right", x: px + 1, y: py - 2, w: 3, h: 5 },
    { who: "drone", side: "centre", x: dx - 2, y: dy - 2, w: 5, h: 5 },
  ];
}

// A token in the lower part of its square, under the word a meadow may carry ("tree", "scooter").
export function drawToken(kind, cell, ox, oy, label) {
  const cx = (cell[0] - ox) * CELL + CELL / 2, cy = (cell[1] - oy) * CELL + CELL * 0.66;
  const g = s("g", { class: `token token-${kind}`, "data-token": kind });
  if (kind === "photographer") {
    g.appendChild(s("circle", { cx, cy, r: CELL * 0.26, fill: "#212121", stroke: "#fff", "stroke-width": 2, title: label }));
    g.appendChild(s("text", { x: cx, y: cy + 5, "font-size": 14, "text-anchor": "middle", fill: "#fff", "font-weight": "bold", text: "P" }));
  } else {
    g.appendChild(s("rect", { x: cx - CELL * 0.25, y: cy - CELL * 0.25, width: CELL * 0.5, height: CELL * 0.5, rx: 4,
      fill: "#0d47a1", stroke: "#fff", "stroke-width": 2, title: label }));
    g.appendChild(s("text", { x: cx, y: cy + 5, "font-size": 14, "text-anchor": "middle", fill: "#fff", "font-weight": "bold", text: "D" }));
  }
  return g;
}

const GOALS = {
  churches: "Most church squares", mills: "Most mill squares",
  sunflowers_facing_deck: "Most sunflowers facing the deck",
  wheat_field: "Largest wheat field", forest_field: "Largest forest field",
  lavender_field: "Largest lavender field (one direction)",
};
export function goalName(goal) { return GOALS[goal] || goal; }

// A photo card: back, who takes it, requirements, spots with the markers on them.
export function drawPhoto(photo, seatLabel) {
  const spots = photo.spots.length;
  const width = Math.max(200, 48 * spots + 16), height = 30 + photo.requires.length * 18 + 56;
  const reqText = photo.requires.map((r) => `${r.count} ${r.terrain}`).join(" + ");
  const label = `Photo card ${photo.card} (back ${photo.back}, taken by the ${photo.taken_by}): needs ${reqText}; spots `
    + photo.spots.map((v, i) => `${v}${i === spots - 1 ? " (infinity)" : ""}: ${photo.markers[i].length ? photo.markers[i].map(seatLabel).join(" and ") : "empty"}`).join(", ");
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": label,
    class: "photo-card", "data-photo": photo.card });
  svg.appendChild(s("rect", { x: 1, y: 1, width: width - 2, height: height - 2, rx: 8, fill: photo.back === "C" ? "#e3f2fd" : "#fff8e1", stroke: "#555" }));
  svg.appendChild(s("text", { x: 8, y: 20, "font-size": 14, "font-weight": "bold", text: `${photo.card} · ${photo.taken_by === "drone" ? "D drone" : "P photographer"}` }));
  photo.requires.forEach((r, i) => {
    const y = 28 + i * 18;
    svg.appendChild(s("rect", { x: 8, y, width: 14, height: 14, fill: (TERRAIN[r.terrain] || {}).fill || "#ccc", stroke: "#333" }));
    svg.appendChild(s("text", { x: 28, y: y + 12, "font-size": 13, text: `${r.count} × ${r.terrain}` }));
  });
  photo.spots.forEach((value, i) => {
    const x = 8 + i * 48, y = height - 50;
    svg.appendChild(s("rect", { x, y, width: 44, height: 44, rx: 4, fill: "#fff", stroke: "#333", "stroke-dasharray": i === spots - 1 ? "3 2" : null }));
    svg.appendChild(s("text", { x: x + 22, y: y + 14, "font-size": 12, "text-anchor": "middle", text: i === spots - 1 ? `${value}∞` : value }));
    photo.markers[i].forEach((seat, j) => {
      // The seat number is written in its marker: colour is not the only signal.
      const mx = x + 9 + (j % 2) * 26, my = y + 26 + Math.floor(j / 2) * 14;
      svg.appendChild(s("circle", { cx: mx, cy: my, r: 8, fill: SEAT_COLOURS[seat % SEAT_COLOURS.length], stroke: "#000", title: seatLabel(seat) }));
      svg.appendChild(s("text", { x: mx, y: my + 4, "font-size": 12, "font-weight": "bold", "text-anchor": "middle", fill: "#fff", text: seat }));
    });
  });
  return svg;
}
