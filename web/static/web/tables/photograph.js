// Photograph: the layout (faces and backs), every hand, the reels (blurred shots hatched), the
// good shot cards and the sunset. Take = a row end, then how far; wind = a hand card, then where.
// Colours always carry their name and a symbol, never the hue alone. Only `legalMoves` is offered.
import { s, h, svgRoot, clickable, stamp, ring, fill } from "../svg.js";

export const COLOURS = {
  blue: ["#2b6cb0", "◆"], red: ["#c53030", "♥"], yellow: ["#d69e2e", "★"], green: ["#2f855a", "♣"],
  brown: ["#7b4a2a", "■"], gray: ["#718096", "▲"], purple: ["#6b46c1", "♠"],
};
const W = 1000, CW = 62, CH = 88, GAP = 8;
const picks = new Map();     // `${game}:${version}` -> {side: [row, side]} or {from: i}

const name = (ctx, seat) => ctx.game.players.find((p) => p.seat === seat)?.username ?? `seat ${seat}`;
export const describe = (c) => c.number !== undefined
  ? `${c.colour} ${c.number}` : `${c.colour} card face down, ${c.range ?? "hidden"}`;

/** A shot card: colour fill, symbol, name, number (or the back's range, hatched). */
function card(c, x, y, attrs = {}, scale = 1) {
  const [fill_, sym] = COLOURS[c.colour] || ["#999", "?"];
  const w = CW * scale, hh = CH * scale, known = c.number !== undefined;
  const label = c.blurred ? `${c.colour} blurred shot` : describe(c);
  return s("g", { class: `pcard ${known ? "face" : "back"}`, transform: `translate(${x},${y})`, "data-colour": c.colour,
                  "data-number": known ? c.number : undefined, "aria-label": label, role: "img", ...attrs },
    s("title", {}, label),
    s("rect", { width: w, height: hh, rx: 6, fill: known || c.blurred ? "#fff" : fill_, stroke: fill_, "stroke-width": 4 }),
    c.blurred ? s("rect", { x: 4, y: 4, width: w - 8, height: hh - 8, fill: "url(#blur)" }) : null,
    s("text", { x: w / 2, y: 22 * scale, "text-anchor": "middle", "font-size": 18 * scale, fill: known || c.blurred ? fill_ : "#fff" }, sym),
    s("text", { x: w / 2, y: 54 * scale, "text-anchor": "middle", "font-size": (known ? 26 : 15) * scale, "font-weight": "bold",
                fill: known || c.blurred ? "#111" : "#fff" }, known ? String(c.number) : c.blurred ? "≈" : c.range ?? ""),
    s("text", { x: w / 2, y: hh - 8 * scale, "text-anchor": "middle", "font-size": 11 * scale, fill: known || c.blurred ? "#111" : "#fff" }, c.colour),
    ring(0, 0, w, hh, 6));
}

export function renderTable(root, ctx) {
  const view = ctx.view;
  if (!view) { fill(root, h("p", {}, "Nothing to show yet.")); stamp(root); return; }
  const key = `${ctx.game.id}:${ctx.game.version}`;
  const pick = picks.get(key) || {};
  picks.clear(); picks.set(key, pick);
  const redraw = () => renderTable(root, ctx);
  const takes = ctx.legalMoves.filter((m) => m.type === "take");
  const winds = ctx.legalMoves.filter((m) => m.type === "wind");
  const parts = [s("defs", {}, s("pattern", { id: "blur", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    s("rect", { width: 8, height: 8, fill: "#eee" }), s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#999", "stroke-width": 4 })))];
  let y = 8;

  const sunset = { deck: "still in the deck", revealed: "revealed!", box: "gone to the box" }[view.sunset];
  parts.push(s("text", { x: 10, y: y + 16, "font-size": 15 },
    `Phase ${view.phase} · turn of ${name(ctx, view.turn)} · deck ${view.deck_size} · sunset ${sunset}` +
    (view.to_play ? ` · ${view.to_play} to play` : "")));
  y += 30;

  // The layout, with the row ends to take from.
  const rowW = (view.layout[0]?.length || 4) * (CW + GAP);
  const lx = 90;
  view.layout.forEach((row, r) => {
    const rowY = y + r * (CH + GAP);
    const sides = [["left", lx - 70], ["right", lx + rowW + 6]];
    for (const [side, hx] of sides) {
      const options = takes.filter((m) => m.row === r && m.side === side);
      if (!options.length) continue;
      const chosen = pick.side?.[0] === r && pick.side?.[1] === side;
      const g = s("g", { class: `row-end ${chosen ? "selected" : ""}`, transform: `translate(${hx},${rowY + 20})` },
        s("rect", { width: 64, height: 48, rx: 6, fill: chosen ? "#ffe9c2" : "#f4f4f4", stroke: "#888" }),
        s("text", { x: 32, y: 30, "text-anchor": "middle", "font-size": 14 }, side === "left" ? "take →" : "← take"),
        ring(0, 0, 64, 48, 6));
      parts.push(clickable(g, `take from the ${side} of row ${r + 1}`, () => { pick.side = [r, side]; delete pick.from; redraw(); }));
    }
    // Which places a chosen end would take: the first `count` cards from that side.
    const order = row.map((_, i) => i).filter((i) => row[i]);
    if (pick.side?.[1] === "right") order.reverse();
    row.forEach((c, i) => {
      const x = lx + i * (CW + GAP);
      if (!c) { parts.push(s("rect", { x, y: rowY, width: CW, height: CH, rx: 6, fill: "none", stroke: "#ccc", "stroke-dasharray": 4 })); return; }
      const g = card(c, x, rowY, { "data-row": r, "data-place": i });
      const count = order.indexOf(i) + 1;
      const move = pick.side?.[0] === r && takes.find((m) => m.row === r && m.side === pick.side[1] && m.count === count);
      if (move) {
        g.classList.add("selected", "target");
        clickable(g, `take ${count} card(s) from the ${move.side} of row ${r + 1}, up to the ${describe(c)}`,
          () => { picks.delete(key); ctx.submit(move); });
      }
      parts.push(g);
    });
  });
  y += view.layout.length * (CH + GAP) + 14;

  // Hands: mine to wind, the others' as far as I may see them.
  view.hands.forEach((hand, seat) => {
    const mine = seat === ctx.seat;
    parts.push(s("text", { x: 10, y: y + 16, "font-size": 15, "font-weight": mine ? "bold" : "normal" },
      `${name(ctx, seat)}${mine ? " (you)" : ""}: hand${view.wound?.[seat] ? " — wound" : ""}`));
    y += 24;
    hand.forEach((c, i) => {
      const x = 10 + i * (CW + GAP);
      const g = card(c, x, y, { "data-hand": seat, "data-pos": i });
      if (mine && c.public) g.append(s("text", { x: CW - 4, y: 12, "text-anchor": "end", "font-size": 10 }, "seen"));
      if (mine && winds.length) {
        const target = pick.from !== undefined && winds.find((m) => m.from === pick.from && m.to === i);
        if (pick.from === i) g.classList.add("selected");
        if (target) {
          g.classList.add("target");
          g.append(s("text", { x: CW / 2, y: CH + 14, "text-anchor": "middle", "font-size": 12, fill: "#8a3b12" }, "↑ here"));
          clickable(g, `wind: move the ${describe(hand[pick.from])} to position ${i + 1}`, () => { picks.delete(key); ctx.submit(target); });
        } else if (winds.some((m) => m.from === i)) {
          clickable(g, `wind: move the ${describe(c)} (position ${i + 1}) to the right`, () => { pick.from = i; delete pick.side; redraw(); });
        }
      }
      parts.push(g);
    });
    y += CH + 24;
  });
  if (view.my_wind) {
    parts.push(s("text", { x: 10, y: y + 4, "font-size": 14 }, `Your wind: position ${view.my_wind.from + 1} → ${view.my_wind.to + 1}`));
    y += 20;
  }

  // Reels and good shot cards.
  view.reels.forEach((reels, seat) => {
    parts.push(s("text", { x: 10, y: y + 16, "font-size": 15 }, `${name(ctx, seat)}: reels`));
    y += 22;
    const colours = view.colours;
    colours.forEach((colour, k) => {
      const x0 = 10 + (k % 4) * 245, y0 = y + Math.floor(k / 4) * (CH * 0.55 + 26);
      const [tint, sym] = COLOURS[colour];
      const good = view.good_shots[colour];
      const tag = good?.holder === seat ? " ★ good shot" : "";
      parts.push(s("text", { x: x0, y: y0 + 12, "font-size": 12, fill: tint }, `${sym} ${colour}${tag}`));
      (reels[colour] || []).forEach((c, i) => parts.push(card(c, x0 + i * (CW * 0.5 + 3), y0 + 16, {}, 0.5)));
    });
    y += Math.ceil(colours.length / 4) * (CH * 0.55 + 26) + 8;
  });
  const goods = Object.entries(view.good_shots).map(([colour, g]) =>
    `${COLOURS[colour][1]} ${colour}: ${g.void ? "void" : g.holder === null ? "open" : name(ctx, g.holder)}`);
  parts.push(s("text", { x: 10, y: y + 14, "font-size": 13 }, `Good shot cards (${view.good_shot_threshold} shots): ${goods.join(" · ")}`));
  y += 24;
  if (view.shown?.length) {
    parts.push(s("text", { x: 10, y: y + 14, "font-size": 13 },
      `Just blurred: ${view.shown.map((c) => `${name(ctx, c.seat)}'s ${c.colour} ${c.number}`).join(", ")}`));
    y += 22;
  }
  if (view.out?.length) {
    parts.push(s("text", { x: 10, y: y + 14, "font-size": 13 }, `Out of the game: ${view.out.map(describe).join(", ")}`));
    y += 22;
  }
  const help = takes.length ? "Your turn: choose a row end, then the last card to take."
    : winds.length ? "Wind your film: choose a card of your hand, then where it goes." : "";
  fill(root, help ? h("p", { class: "help" }, help) : null, svgRoot(W, y + 10, "Photograph table", parts));
  stamp(root);
}
