// Photograph: the layout (faces and backs), every hand, the reels (blurred shots hatched), the
// good shot cards and the sunset. Take = a row end, then how far; wind = a hand card, then where.
// Colours always carry their name and a symbol, never the hue alone. Only `legalMoves` is offered.
import { s, h, clickable, stamp, ring, fill, icon } from "../svg.js";

export const COLOURS = {
  blue: ["#2b6cb0", "◆"], red: ["#c53030", "♥"], yellow: ["#d69e2e", "★"], green: ["#2f855a", "♣"],
  brown: ["#7b4a2a", "■"], gray: ["#718096", "▲"], purple: ["#6b46c1", "♠"],
};
const picks = new Map();     // `${game}:${version}` -> {side: [row, side]} or {from: i}

const name = (ctx, seat) => ctx.game.players.find((p) => p.seat === seat)?.username ?? `seat ${seat}`;
export const describe = (c) => c.number !== undefined
  ? `${c.colour} ${c.number}` : `${c.colour} card face down, ${c.range ?? "hidden"}`;

// The hatching of a blurred shot, defined once per page (every card SVG refers to it).
function ensureDefs() {
  if (document.getElementById("photograph-defs")) return;
  document.body.append(s("svg", { id: "photograph-defs", width: 0, height: 0, "aria-hidden": "true", style: "position:absolute" },
    s("defs", {}, s("pattern", { id: "blur", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 8, height: 8, fill: "#eee" }), s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#999", "stroke-width": 4 })))));
}

/** A shot card as an SVG of its own, at its real pixel size: colour, symbol, number (or the
 * back's range), colour name. Text never below 12 px whatever the card's size. */
function card(c, w, hh, attrs = {}, { action, actionLabel, extraText } = {}) {
  const [fill_, sym] = COLOURS[c.colour] || ["#999", "?"];
  const known = c.number !== undefined;
  const label = c.blurred ? `${c.colour} blurred shot` : describe(c);
  const ink = known || c.blurred ? "#111" : "#fff";
  const big = Math.max(14, Math.round(hh * 0.3));
  const { class: more = "", ...rest } = attrs;
  const g = s("g", { class: `pcard ${known ? "face" : "back"} ${more}`.trim(), "data-colour": c.colour,
                     "data-number": known ? c.number : undefined, ...rest },
    action ? null : s("title", {}, label),
    s("rect", { x: 2, y: 2, width: w - 4, height: hh - 4, rx: 6, fill: known || c.blurred ? "#fff" : fill_, stroke: fill_, "stroke-width": 4 }),
    c.blurred ? s("rect", { x: 5, y: 5, width: w - 10, height: hh - 10, fill: "url(#blur)" }) : null,
    s("text", { x: extraText ? w * 0.28 : w / 2, y: Math.max(16, hh * 0.24), "text-anchor": "middle", "font-size": Math.max(13, Math.round(hh * 0.2)), fill: known || c.blurred ? fill_ : "#fff" }, sym),
    s("text", { x: w / 2, y: hh * 0.62, "text-anchor": "middle", "font-size": known ? big : 13, "font-weight": "bold", fill: ink },
      known ? String(c.number) : c.blurred ? "≈" : c.range ?? ""),
    hh >= 70 ? s("text", { x: w / 2, y: hh - 9, "text-anchor": "middle", "font-size": 12, fill: ink }, c.colour) : null,
    extraText || null,
    ring(0, 0, w, hh, 6));
  if (action) clickable(g, actionLabel, action);
  return s("svg", { width: w, height: hh, viewBox: `0 0 ${w} ${hh}`, class: "table-svg card-svg",
                    role: action ? "group" : "img", "aria-label": action ? null : label }, g);
}

const box = (cls, ...children) => h("div", { class: cls }, children);

export function renderTable(root, ctx, focus = null) {
  const view = ctx.view;
  if (!view) { fill(root, h("p", {}, "Nothing to show yet.")); stamp(root); return; }
  ensureDefs();
  const key = `${ctx.game.id}:${ctx.game.version}`;
  const pick = picks.get(key) || {};
  picks.clear(); picks.set(key, pick);
  const redraw = (next) => renderTable(root, ctx, next);
  const takes = ctx.legalMoves.filter((m) => m.type === "take");
  const winds = ctx.legalMoves.filter((m) => m.type === "wind");
  // Card size from the room: a layout row (two "take" buttons and four cards) fits a phone.
  const width = root.clientWidth || 1000;
  const CW = Math.max(46, Math.min(70, Math.floor((width - 2 * 56 - 5 * 6) / 4)));
  const CH = Math.round(CW * 1.4);
  const sections = [];

  const sunset = { deck: "still in the deck", revealed: "revealed!", box: "gone to the box" }[view.sunset];
  sections.push(h("p", { class: "ph-status" },
    `${view.phase === "take" ? "Taking" : view.phase === "wind" ? "Winding" : view.phase} · ${name(ctx, view.turn)}'s turn · `
    + `${view.deck_size} cards in the deck · sunset card ${sunset}` + (view.to_play ? ` · ${view.to_play} to play` : "")));

  // The layout, with the row ends to take from.
  const layout = view.layout.map((rowCards, r) => {
    const order = rowCards.map((_, i) => i).filter((i) => rowCards[i]);
    if (pick.side?.[1] === "right") order.reverse();
    const end = (side) => {
      const options = takes.filter((m) => m.row === r && m.side === side);
      if (!options.length) return h("span", { class: "row-end-space" });
      const chosen = pick.side?.[0] === r && pick.side?.[1] === side;
      const text = `take from the ${side} of row ${r + 1}`;
      return h("button", { type: "button", class: `choice row-end${chosen ? " selected" : ""}`, "data-choice": text,
                           "aria-label": text, "aria-pressed": chosen ? "true" : "false", style: `height:${CH}px`,
                           onclick: () => { pick.side = [r, side]; delete pick.from; redraw(".ph-layout .target"); } },
        icon(side === "left" ? "arrow-right" : "arrow-left"), h("span", {}, "take"));
    };
    const places = rowCards.map((c, i) => {
      if (!c) {
        // The last move highlighted: the places just taken say so.
        const taken = ctx.lastEvent?.type === "SubjectChosen" && (ctx.lastEvent.cards || []).some((x) => x.pos?.[0] === r && x.pos?.[1] === i);
        return h("span", { class: `ph-empty${taken ? " just-taken" : ""}`, style: `width:${CW}px;height:${CH}px` }, taken ? "just taken" : null);
      }
      const count = order.indexOf(i) + 1;
      const move = pick.side?.[0] === r && takes.find((m) => m.row === r && m.side === pick.side[1] && m.count === count);
      return card(c, CW, CH, { "data-row": r, "data-place": i, class: move ? "selected target" : "" }, move ? {
        action: () => { picks.delete(key); ctx.submit(move); },
        actionLabel: `take ${count} card(s) from the ${move.side} of row ${r + 1}, up to the ${describe(c)}`,
      } : {});
    });
    return box("ph-row", end("left"), places, end("right"));
  });
  sections.push(h("section", { class: "ph-layout", "aria-label": "The layout" }, h("h2", {}, "The layout"), layout));

  // Hands: mine to wind, the others' as far as I may see them.
  view.hands.forEach((hand, seat) => {
    const mine = seat === ctx.seat;
    const cardsNodes = hand.map((c, i) => {
      const attrs = { "data-hand": seat, "data-pos": i };
      let extra = {};
      const seen = mine && c.public ? s("text", { x: CW - 6, y: 16, "text-anchor": "end", "font-size": 12, fill: "#555" }, "seen") : null;
      if (mine && winds.length) {
        const target = pick.from !== undefined && winds.find((m) => m.from === pick.from && m.to === i);
        if (target) {
          attrs.class = "target";
          extra = { action: () => { picks.delete(key); ctx.submit(target); },
                    actionLabel: `wind: move the ${describe(hand[pick.from])} to position ${i + 1}` };
        } else if (winds.some((m) => m.from === i)) {
          if (pick.from === i) attrs.class = "selected";
          extra = { action: () => { pick.from = i; delete pick.side; redraw(".ph-hand .target"); },
                    actionLabel: `wind: move the ${describe(c)} (position ${i + 1}) to the right` };
        }
      }
      return card(c, CW, CH, attrs, { ...extra, extraText: seen });
    });
    sections.push(h("section", { class: `ph-hand${mine ? " mine" : ""}`, "aria-label": `${name(ctx, seat)}'s hand` },
      h("h2", {}, `${name(ctx, seat)}${mine ? " (you)" : ""}: hand${view.wound?.[seat] ? " (wound)" : ""}`),
      box("cards", cardsNodes)));
  });
  if (view.my_wind) sections.push(h("p", {}, `Your wind: position ${view.my_wind.from + 1} → ${view.my_wind.to + 1}`));

  // Reels (each colour a column that wraps, however long the reel) and good shot cards.
  view.reels.forEach((reels, seat) => {
    const columns = view.colours.map((colour) => {
      const [tint, sym] = COLOURS[colour];
      const good = view.good_shots[colour];
      return h("div", { class: "reel", "data-reel": colour },
        h("div", { class: "reel-name" }, h("span", { class: "swatch", style: `background:${tint}`, "aria-hidden": "true" }),
          `${sym} ${colour}${good?.holder === seat ? " · good shot" : ""}`),
        box("reel-cards", (reels[colour] || []).map((c) => card(c, 36, 46))));
    });
    sections.push(h("section", { class: "ph-reels", "aria-label": `${name(ctx, seat)}'s reels` },
      h("h2", {}, `${name(ctx, seat)}${seat === ctx.seat ? " (you)" : ""}: reels`), box("reels", columns)));
  });
  const goods = Object.entries(view.good_shots).map(([colour, g]) =>
    `${COLOURS[colour][1]} ${colour}: ${g.void ? "void" : g.holder === null ? "open" : name(ctx, g.holder)}`);
  sections.push(h("p", {}, `Good shot cards (${view.good_shot_threshold} shots): ${goods.join(" · ")}`));
  if (view.shown?.length) {
    sections.push(h("p", { class: "moment" }, `Just blurred: ${view.shown.map((c) => `${name(ctx, c.seat)}'s ${c.colour} ${c.number}`).join(", ")}`));
  }
  if (view.out?.length) sections.push(h("p", {}, `Out of the game: ${view.out.map(describe).join(", ")}`));
  const help = takes.length ? (pick.side ? "Now choose the last card to take (highlighted)." : "Your turn: choose a row end to take from.")
    : winds.length ? (pick.from !== undefined ? "Now choose where the card goes (highlighted)." : "Wind your film: choose a card of your hand.") : "";
  fill(root, help ? h("p", { class: "help", role: "status" }, help) : null,
    h("div", { class: "photograph", role: "group", "aria-label": "Photograph table" }, sections));
  stamp(root);
  if (focus) root.querySelector(focus)?.focus();
}

// ---- the story: events and the breakdown in words (the shell's move log, replay and result) ---
export function describeEvent(event, { name }) {
  const who = event.actor !== null && event.actor !== undefined ? name(event.actor) : "";
  const late = event.auto ? " (played by the server: time ran out)" : "";
  if (event.type === "SubjectChosen") {
    const m = event.move || {};
    const cards = (event.cards || []).map((c) => (c.number !== undefined ? `${c.colour} ${c.number}` : `a ${c.colour} card (${c.range})`));
    return `${who} took ${cards.length} card(s) from the ${m.side} of row ${(m.row ?? 0) + 1}${cards.length ? `: ${cards.join(", ")}` : ""}${late}.`;
  }
  if (event.type === "FilmWound") {
    const shots = (event.played || []).map((p) => `${p.colour} ${p.number ?? ""}${p.blurred ? " (blurred)" : ""}`.trim());
    const goods = (event.played || []).filter((p) => p.good_shot);
    const sunset = event.check?.sunset ? " The sunset card appears!" : "";
    const text = `${who} wound the film${shots.length ? ` and shot ${shots.join(", ")}` : ""}${late}.`
      + goods.map((p) => ` ${name(p.seat)} claims the ${p.colour} good shot card!`).join("") + sunset;
    return { text, moment: goods.length > 0 || Boolean(sunset) };
  }
  return null;
}

export function describeBreakdown(b) {
  const lines = Object.entries(b.colours || {}).map(([colour, c]) =>
    `${COLOURS[colour]?.[1] ?? ""} ${colour}: ${c.shots} shot(s), ${c.blurred} blurred${c.good_shot ? ", good shot card" : ""}${c.missed ? ", missed" : ""} = ${c.points} points`);
  lines.push(`${b.reels ?? 0} cards in the reels, ${b.blurred ?? 0} blurred`);
  lines.push(`${b.good_shots ?? 0} good shot card(s), longest reel ${b.longest_reel ?? 0}`);
  if (b.missed_colour) lines.push(`missed shot: ${b.missed_colour}`);
  return lines;
}
