// Walking in Provence: drawing a landscape, a scene card, a photo card (no game logic).
// Square codes and orientation follow docs/provence.md; turning a card here only draws it:
// where it may go always comes from legal-moves.
import { s, SEAT_COLOURS, fitText } from "./kit.js";
import { t } from "../i18n.js";

// A square's size on screen: at least 48 px (44 px touch targets, 12 px text and up), more where
// the room allows it, so a landscape reads at a glance (the table sets it before drawing).
export let CELL = 48;
export function useCell(size) { CELL = Math.max(48, Math.round(size)); }

// A square's letter is the initial of its terrain's name in the player's language (`pv.mark_*`),
// a church its cross: colour is never the only signal.
const TERRAIN = {
  forest: { fill: "#2e7d32", ink: "#fff", mark: "pv.mark_forest" },
  wheat: { fill: "#f2cc60", ink: "#5a4300", mark: "pv.mark_wheat" },
  meadow: { fill: "#b5dc95", ink: "#234d12", mark: "" },
  mill: { fill: "#d7ccc8", ink: "#3e2723", mark: "pv.mark_mill" },
  church: { fill: "#eceff1", ink: "#263238", mark: "✝" },
  lavender: { fill: "#9575cd", ink: "#fff", mark: "" },
  town: { fill: "#e8a87c", ink: "#4e2a0e", mark: "" },
  sunflower: { fill: "#ffd54f", ink: "#5d4037", mark: "" },
};
const markOf = (mark) => (mark.startsWith("pv.") ? t(mark) : mark);
const SHOPS = ["coffee", "gift", "pizza", "ice_cream"];
const FACINGS_WORDS = { N: "pv.facing_n", E: "pv.facing_e", S: "pv.facing_s", W: "pv.facing_w" };
/** A terrain by its name in the player's language. */
export const terrainName = (terrain) => (TERRAIN[terrain] ? t(`pv.terrain_${terrain}`) : terrain);
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
  return number ? t("pv.scene_card", { number: number[1] }) : String(id);
}

// A square of a landscape in words: rows counted from 1 down from the scene deck, columns from 1
// to the right, on that player's own landscape (`origin`: its top-left square, see origin()).
export function where(x, y, o = { x: 0, y: 0 }) {
  return t("pv.where", { row: y - o.y + 1, column: x - o.x + 1 });
}

/** The top-left corner of a landscape for counting rows and columns: its visible squares and any
 * `more` cells (where the seat may place a card now), so no square it reads is before row 1. */
export function origin(land, more = []) {
  const cells = [...(land?.visible || []).map((q) => [q.x, q.y]), ...more];
  if (!cells.length) return { x: 0, y: 0 };
  return { x: Math.min(...cells.map((c) => c[0])), y: Math.min(...cells.map((c) => c[1])) };
}

/** A card's turn in words: "upright", "turned a quarter clockwise", "upside down", ... */
export function turnWords(rotation) {
  return t({ 0: "pv.turn_0", 90: "pv.turn_90", 180: "pv.turn_180", 270: "pv.turn_270" }[rotation] || "pv.turn_0");
}

/** A seat's marker letter: the first letter of its player's name (a number from 1 when two
 * names start alike), written in its disc so colour is never the only signal. */
export function markerLetters(names) {
  const firsts = names.map((n) => String(n || "?").charAt(0).toUpperCase());
  return firsts.map((f, i) => (firsts.filter((x) => x === f).length > 1 ? String(i + 1) : f));
}

export function squareLabel(sq) {
  const terrain = sq.terrain;
  if (terrain === "lavender") return t(sq.growth === "horizontal" ? "pv.lavender_h" : "pv.lavender_v");
  if (terrain === "sunflower") return t("pv.sunflower_facing", { facing: FACINGS_WORDS[sq.facing] ? t(FACINGS_WORDS[sq.facing]) : sq.facing });
  if (terrain === "town") return SHOPS.includes(sq.shop) ? t(`pv.town_${sq.shop}`) : t("pv.terrain_town");
  if (terrain === "meadow" && sq.feature) return t(sq.feature === "tree" ? "pv.meadow_tree" : "pv.meadow_scooter");
  if (terrain === "church") return t("pv.church_half");
  return terrainName(terrain);
}

// One square at pixel (px, py): colour, plus a letter or shape so colour is never the only signal.
export function drawSquare(sq, px, py, size = CELL) {
  const style = TERRAIN[sq.terrain] || { fill: "#ccc", ink: "#000", mark: "?" };
  const g = s("g", { class: `sq sq-${sq.terrain}`, "data-terrain": sq.terrain });
  g.appendChild(s("rect", { x: px, y: py, width: size, height: size, fill: style.fill,
    stroke: "#0003", "stroke-width": 0.5, title: squareLabel(sq) }));
  const cx = px + size / 2, cy = py + size / 2;
  const fs = Math.min(size * 0.38, 30);   // big squares keep their marks at a reading size
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
    // Each word fits its square in every language (narrowed past it), never spilling off the landscape.
    const town = t("pv.terrain_town"), shop = SHOPS.includes(sq.shop) ? t(`pv.mark_${sq.shop}`) : "?";
    g.appendChild(s("text", { x: cx, y: py + size * 0.3, "font-size": Math.max(12, fs * 0.7), "text-anchor": "middle", fill: style.ink,
      ...fitText(town, size - 4, Math.max(12, fs * 0.7)), text: town }));
    g.appendChild(s("text", { x: cx, y: py + size * 0.72, "font-size": Math.max(12, fs * 0.8), "text-anchor": "middle", fill: style.ink,
      ...fitText(shop, size * 0.6 - 2, Math.max(12, fs * 0.8)), text: shop }));
  } else if (sq.terrain === "meadow" && sq.feature) {
    // At the square's top: a token standing on the meadow sits in its lower half, below the word.
    const word = sq.feature === "tree" ? t("pv.tree") : t("pv.scooter");
    g.appendChild(s("text", { x: cx, y: py + 14, "font-size": 12, "text-anchor": "middle", fill: style.ink, ...fitText(word, size - 4), text: word }));
  } else if (style.mark) {
    g.appendChild(s("text", { x: cx, y: cy + fs / 3, "font-size": Math.max(12, fs), "text-anchor": "middle", fill: style.ink, "font-weight": "bold", text: markOf(style.mark) }));
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
  return `${cardName(card.id)}: ` + card.rows.map((codes, i) => t(i ? "pv.bottom_row" : "pv.top_row", {
    squares: codes.map((c) => squareLabel(codeSquare(c))).join(", ") })).join("; ");
}

function codeSquare(code) {
  return orientedSquares([[code]], 0)[0];
}

// A hand card, as a small standalone picture.
export function drawCard(card, rotation, size = 48) {
  const squares = orientedSquares(card.rows, rotation);
  const w = rotation % 180 === 0 ? 3 : 2, hgt = rotation % 180 === 0 ? 2 : 3;
  const svg = s("svg", { viewBox: `-2 -2 ${w * size + 4} ${hgt * size + 4}`, width: w * size + 4, height: hgt * size + 4,
    role: "img", "aria-label": `${cardLabel(card)}; ${turnWords(rotation)}` });
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
    g.appendChild(s("text", { x: cx, y: cy + 5, "font-size": 14, "text-anchor": "middle", fill: "#fff", "font-weight": "bold", text: t("pv.mark_photographer") }));
  } else {
    g.appendChild(s("rect", { x: cx - CELL * 0.25, y: cy - CELL * 0.25, width: CELL * 0.5, height: CELL * 0.5, rx: 4,
      fill: "#0d47a1", stroke: "#fff", "stroke-width": 2, title: label }));
    g.appendChild(s("text", { x: cx, y: cy + 5, "font-size": 14, "text-anchor": "middle", fill: "#fff", "font-weight": "bold", text: t("pv.mark_drone") }));
  }
  return g;
}

const GOALS = ["churches", "mills", "sunflowers_facing_deck", "wheat_field", "forest_field", "lavender_field"];
export function goalName(goal) { return GOALS.includes(goal) ? t(`pv.goal_${goal}`) : goal; }

// A photo card: back, who takes it, requirements, spots with the markers on them.
export function drawPhoto(photo, seatLabel, letters = []) {
  const spots = photo.spots.length;
  const width = Math.max(200, 48 * spots + 16), height = 30 + photo.requires.length * 18 + 56;
  const reqText = photo.requires.map((r) => `${r.count} ${terrainName(r.terrain)}`).join(" + ");
  const label = t(photo.taken_by === "drone" ? "pv.photo_label_drone" : "pv.photo_label_photographer", { card: photo.card, back: photo.back, needs: reqText,
    spots: photo.spots.map((v, i) => `${v}${i === spots - 1 ? ` ${t("pv.infinity")}` : ""}: ${photo.markers[i].length ? photo.markers[i].map(seatLabel).join(t("common.and")) : t("pv.empty")}`).join(", ") });
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": label,
    class: "photo-card", "data-photo": photo.card });
  svg.appendChild(s("rect", { x: 1, y: 1, width: width - 2, height: height - 2, rx: 8, fill: photo.back === "C" ? "#e3f2fd" : "#fff8e1", stroke: "#555" }));
  const heading = `${photo.card} · ${photo.taken_by === "drone" ? `${t("pv.mark_drone")} ${t("pv.drone")}` : `${t("pv.mark_photographer")} ${t("pv.photographer")}`}`;
  svg.appendChild(s("text", { x: 8, y: 20, "font-size": 14, "font-weight": "bold", ...fitText(heading, width - 16, 14, true), text: heading }));
  photo.requires.forEach((r, i) => {
    const y = 28 + i * 18;
    svg.appendChild(s("rect", { x: 8, y, width: 14, height: 14, fill: (TERRAIN[r.terrain] || {}).fill || "#ccc", stroke: "#333" }));
    svg.appendChild(s("text", { x: 28, y: y + 12, "font-size": 13, ...fitText(`${r.count} × ${terrainName(r.terrain)}`, width - 36, 13), text: `${r.count} × ${terrainName(r.terrain)}` }));
  });
  photo.spots.forEach((value, i) => {
    const x = 8 + i * 48, y = height - 50;
    svg.appendChild(s("rect", { x, y, width: 44, height: 44, rx: 4, fill: "#fff", stroke: "#333", "stroke-dasharray": i === spots - 1 ? "3 2" : null }));
    svg.appendChild(s("text", { x: x + 22, y: y + 14, "font-size": 12, "text-anchor": "middle", text: i === spots - 1 ? `${value}∞` : value }));
    photo.markers[i].forEach((seat, j) => {
      // The seat number is written in its marker: colour is not the only signal.
      const mx = x + 9 + (j % 2) * 26, my = y + 26 + Math.floor(j / 2) * 14;
      svg.appendChild(s("circle", { cx: mx, cy: my, r: 8, fill: SEAT_COLOURS[seat % SEAT_COLOURS.length], stroke: "#000", title: seatLabel(seat) }));
      svg.appendChild(s("text", { class: "marker", x: mx, y: my + 4, "font-size": 12, "font-weight": "bold", "text-anchor": "middle", fill: "#fff", text: letters[seat] ?? seat + 1 }));
    });
  });
  return svg;
}
