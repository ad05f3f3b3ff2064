// Pick Pic: the round's photos, your hand and gifts (give), your stack to rank (rank), the last
// round's evaluation. Choices are narrowed by `legalMoves` only: a partial selection is offered a
// next step only if some legal move still agrees with it; the move sent is that legal move.
import { s, h, svgRoot, clickable, choiceButton, stamp, ring, fill } from "../svg.js";
import { get } from "../api.js";

const W = 1000, CW = 120, CH = 168, GAP = 14;
let catalogue = null;                 // id -> {title, tags, image_url}, once loaded
let loading = null;
const picks = new Map();              // `${game}:${round}:${phase}` -> the player's partial choice

async function cards() {
  loading ??= get("/kinds/pickpic/cards/").then((list) => { catalogue = new Map(list.map((c) => [c.id, c])); });
  return loading;
}

const name = (ctx, seat) => ctx.game.players.find((p) => p.seat === seat)?.username ?? `seat ${seat}`;
const label = (id) => {
  const c = catalogue?.get(id);
  return c ? `card ${id}: ${c.title} (${c.tags.join(", ")})` : `card ${id}`;
};

/** A card at (x, y): its image with a text alternative, optionally a caption under it. */
function card(id, x, y, { caption, scale = 1, mark } = {}) {
  const w = CW * scale, hh = CH * scale;
  const c = catalogue?.get(id);
  return s("g", { class: "card", "data-card": id, transform: `translate(${x},${y})` },
    s("title", {}, label(id)),
    s("rect", { width: w, height: hh, rx: 8, fill: "#eee", stroke: "#999" }),
    c ? s("image", { href: c.image_url, width: w, height: hh, "aria-label": label(id) })
      : s("text", { x: w / 2, y: hh / 2, "text-anchor": "middle" }, `#${id}`),
    mark ? s("text", { x: 8, y: 22, class: "mark", "font-size": 18, "font-weight": "bold", fill: "#b00",
                       stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" }, mark) : null,
    caption ? s("text", { x: w / 2, y: hh + 16, "text-anchor": "middle", "font-size": scale < 1 ? 11 : 13 }, caption) : null,
    ring(0, 0, w, hh));
}

export async function renderTable(root, ctx) {
  await cards();
  const view = ctx.view;
  if (!view) { fill(root, h("p", {}, "Nothing to show yet.")); stamp(root); return; }
  const n = view.players;
  const key = `${ctx.game.id}:${view.round}:${view.phase}`;
  const parts = [];
  let y = 10;

  // Scores, who has acted, the photos of the round (public).
  const colW = W / n;
  for (let seat = 0; seat < n; seat++) {
    const x = seat * colW + (colW - CW) / 2;
    const status = view.phase === "over" ? "" : view.done?.[seat] ? " ✓ done" : " … thinking";
    parts.push(s("text", { x: seat * colW + colW / 2, y: y + 16, "text-anchor": "middle", "font-size": 16,
                           "font-weight": seat === ctx.seat ? "bold" : "normal" },
      `${name(ctx, seat)}${seat === ctx.seat ? " (you)" : ""}: ${view.scores[seat]} pts${status}`));
    if (view.table?.[seat]) parts.push(card(view.table[seat], x, y + 28, { caption: `photo of ${name(ctx, seat)}` }));
  }
  y += view.table?.length ? 28 + CH + 30 : 40;
  parts.push(s("text", { x: 10, y, "font-size": 14 },
    `Round ${view.round} · phase ${view.phase} · deck ${view.deck_size} · discards ${view.discard_size} · target ${view.target}`));
  y += 20;

  const controls = [];
  const you = view.you || {};
  if (view.phase === "give" && you.hand && ctx.legalMoves.length) {
    y = giving(ctx, parts, controls, y, key, you.hand, root);
  } else if (view.phase === "rank" && you.stack && ctx.legalMoves.length) {
    y = ranking(ctx, parts, controls, y, key, you.stack, root);
  } else if (you.gifts && view.phase === "give") {
    y = shown(parts, y, "You gave: " + Object.entries(you.gifts).map(([to, ids]) => `${name(ctx, Number(to))} ← ${ids.join(", ")}`).join("; "),
      Object.values(you.gifts).flat());
  } else if (you.ranking && view.phase === "rank") {
    y = shown(parts, y, "Your ranking, best first:", you.ranking.order);
  } else if (you.stack && view.phase === "rank") {
    y = shown(parts, y, "Your stack:", you.stack);
  }
  if (view.last_round) y = evaluation(ctx, parts, y, view.last_round);

  fill(root, svgRoot(W, y + 10, `Pick Pic table, round ${view.round}`, parts),
    h("div", { class: "controls" }, controls));
  stamp(root);
}

function shown(parts, y, text, ids) {
  parts.push(s("text", { x: 10, y: y + 18, "font-size": 15 }, text));
  ids.forEach((id, i) => parts.push(card(id, 10 + i * (CW + GAP), y + 28)));
  return y + 28 + CH + 30;
}

// ---- give: pick a card, then the seat it goes to; send when every card has a seat -------------
function giving(ctx, parts, controls, y, key, hand, root) {
  const chosen = picks.get(key) || { assign: {}, card: null };     // card -> seat
  const fits = (assign) => ctx.legalMoves.filter((m) =>
    Object.entries(assign).every(([c, seat]) => (m.gifts[String(seat)] || []).includes(Number(c))));
  // Drop what no longer fits (the hand changed under us): start again.
  if (!fits(chosen.assign).length) { chosen.assign = {}; chosen.card = null; }
  picks.set(key, chosen);
  const redraw = () => renderTable(root, ctx);

  parts.push(s("text", { x: 10, y: y + 18, "font-size": 16, "font-weight": "bold" },
    `Give ${ctx.view.cards_per_gift} card(s) to each other player: choose a card, then who gets it.`));
  y += 28;
  hand.forEach((id, i) => {
    const to = chosen.assign[id];
    const g = card(id, 10 + i * (CW + GAP), y, { caption: to !== undefined ? `→ ${name(ctx, to)}` : "",
                                                 mark: chosen.card === id ? "✔" : null });
    if (chosen.card === id) g.classList.add("selected");
    if (to !== undefined) {
      clickable(g, `take back ${label(id)} from ${name(ctx, to)}`, () => { delete chosen.assign[id]; redraw(); }, { choice: false });
    } else {
      clickable(g, `choose ${label(id)} to give`, () => { chosen.card = id; redraw(); });
    }
    parts.push(g);
  });
  y += CH + 30;

  if (chosen.card !== null) {
    const others = [...new Set(ctx.legalMoves.flatMap((m) => Object.keys(m.gifts)))].map(Number);
    let x = 10;
    for (const seat of others) {
      if (!fits({ ...chosen.assign, [chosen.card]: seat }).length) continue;
      const text = `give ${label(chosen.card)} to ${name(ctx, seat)}`;
      const g = s("g", { class: "target", transform: `translate(${x},${y})`, "data-seat": seat },
        s("rect", { width: 180, height: 40, rx: 6, fill: "#fff4e0", stroke: "#8a3b12" }),
        s("text", { x: 90, y: 26, "text-anchor": "middle", "font-size": 15 }, `→ ${name(ctx, seat)}`), ring(0, 0, 180, 40, 6));
      parts.push(clickable(g, text, () => { chosen.assign[chosen.card] = seat; chosen.card = null; redraw(); }));
      x += 200;
    }
    y += 60;
  }
  const complete = Object.keys(chosen.assign).length === hand.length ? fits(chosen.assign) : [];
  if (complete.length) {
    controls.push(choiceButton("Give these cards", () => { picks.delete(key); ctx.submit(complete[0]); }, { class: "choice primary" }));
  }
  if (Object.keys(chosen.assign).length) {
    controls.push(h("button", { type: "button", onclick: () => { picks.delete(key); redraw(); } }, "Start again"));
  }
  return y;
}

// ---- rank: click the stack's cards best first; send when all are ranked ----------------------
function ranking(ctx, parts, controls, y, key, stack, root) {
  const order = picks.get(key) || [];
  const fits = (prefix) => ctx.legalMoves.filter((m) => prefix.every((c, i) => m.order[i] === c));
  if (!fits(order).length) order.length = 0;
  picks.set(key, order);
  const redraw = () => renderTable(root, ctx);

  parts.push(s("text", { x: 10, y: y + 18, "font-size": 16, "font-weight": "bold" },
    "Rank your stack for your photo: click the best fit first, then the next…"));
  y += 28;
  stack.forEach((id, i) => {
    const place = order.indexOf(id);
    const g = card(id, 10 + i * (CW + GAP), y, { mark: place >= 0 ? `#${place + 1}` : null,
                                                 caption: place >= 0 ? `ranked ${place + 1}` : "" });
    if (place >= 0) {
      clickable(g, `unrank ${label(id)}`, () => { order.length = place; redraw(); }, { choice: false });
    } else if (fits([...order, id]).length) {
      clickable(g, `rank ${label(id)} number ${order.length + 1}`, () => { order.push(id); redraw(); });
    }
    parts.push(g);
  });
  y += CH + 30;
  const complete = order.length === stack.length ? fits(order) : [];
  if (complete.length) {
    controls.push(choiceButton("Send this ranking", () => { picks.delete(key); ctx.submit(complete[0]); }, { class: "choice primary" }));
  }
  if (order.length) controls.push(h("button", { type: "button", onclick: () => { picks.delete(key); redraw(); } }, "Start again"));
  return y;
}

// ---- the last round, as the table revealed it -------------------------------------------------
function evaluation(ctx, parts, y, round) {
  parts.push(s("text", { x: 10, y: y + 18, "font-size": 16, "font-weight": "bold" }, `Round ${round.round}: the evaluation`));
  y += 30;
  const scale = 0.6, cw = CW * scale;
  for (const stack of round.stacks) {
    parts.push(s("text", { x: 10, y: y + 16, "font-size": 14 },
      `${name(ctx, stack.seat)} (photo ${round.table[stack.seat]}) got ${round.points[stack.seat]} pts` +
      (stack.random_last_bonus ? " (random card last: +1)" : "")));
    parts.push(card(round.table[stack.seat], 10, y + 24, { scale }));
    stack.order.forEach((entry, i) => {
      const x = 10 + (i + 1.3) * (cw + GAP);
      if (entry.face_down) {
        parts.push(s("g", { transform: `translate(${x},${y + 24})` }, s("title", {}, "a card left face down"),
          s("rect", { width: cw, height: CH * scale, rx: 6, fill: "#555" })));
        return;
      }
      const who = entry.random ? "random" : entry.claimed ? `${name(ctx, entry.giver)} +${entry.giver_points}` : "unclaimed";
      parts.push(card(entry.card, x, y + 24, { scale, caption: `${i + 1}. ${who}`, mark: entry.random ? "R" : null }));
      if (entry.comment) parts.push(s("text", { x, y: y + 24 + CH * scale + 32, "font-size": 12 }, `“${entry.comment}”`));
    });
    y += 24 + CH * scale + 44;
  }
  return y;
}
