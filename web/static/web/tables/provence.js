// Walking in Provence table: every landscape, tokens and frames, photo cards, goals, and the
// seat's own hand. Placements and walks are offered only where ctx.legalMoves has them.
import { stamp } from "../svg.js";
import { h, s, activate, button, choice, trySubmit, sameMove, seatName, memory, SEAT_COLOURS } from "./kit.js";
import { CELL, drawSquare, drawCard, cardEdges, frames, drawToken, drawPhoto, goalName, orientedSquares, cardLabel, cardName, where } from "./provence-draw.js";

const ROTATIONS = [0, 90, 180, 270];

export function renderTable(root, ctx) {
  const view = ctx.view || {};
  const mem = memory(root, `provence:${ctx.game && ctx.game.id}:${view.round}:${view.phase}`);
  root.replaceChildren();
  root.classList.add("table-provence");
  const seatLabel = (seat) => seatName(ctx, seat);
  const rerender = () => renderTable(root, ctx);
  const error = h("p", { class: "table-error", role: "alert", "data-testid": "table-error" });

  root.appendChild(summary(view, ctx, seatLabel));
  if (view.result) root.appendChild(resultTable(view.result, seatLabel));
  const moves = (ctx.legalMoves || []).filter((m) => m && (m.type === "place" || m.type === "walk"));
  const placing = moves.filter((m) => m.type === "place");
  const walking = moves.filter((m) => m.type === "walk");
  if (view.you) root.appendChild(handPanel(view, ctx, mem, placing, rerender, error));
  if (walking.length) root.appendChild(walkPanel(view, ctx, mem, walking, rerender, error));
  root.appendChild(error);

  const seats = [...Array(view.players || (view.landscapes || []).length).keys()];
  const order = ctx.seat !== null && ctx.seat !== undefined ? [ctx.seat, ...seats.filter((x) => x !== ctx.seat)] : seats;
  const lands = h("div", { class: "landscapes", style: "display:flex;flex-wrap:wrap;gap:12px" });
  for (const seat of order) {
    const land = view.landscapes && view.landscapes[seat];
    if (!land) continue;
    const mine = seat === ctx.seat;
    lands.appendChild(landscape(land, seat, seatLabel, mine ? { placing, walking, mem, ctx, rerender, error, view } : null, lastMove(ctx.lastEvent, seat)));
  }
  root.appendChild(lands);
  root.appendChild(photoPanel(view, seatLabel));
  stamp(root);
}

function summary(view, ctx, seatLabel) {
  const box = h("section", { class: "provence-summary", "aria-label": "Round and players", "data-round": view.round, "data-phase": view.phase });
  const phase = view.phase === "scene" ? "Scene phase: place a card" : view.phase === "walking" ? "Walking phase: move your photographer and drone" : "Game over";
  box.appendChild(h("p", {}, [h("strong", { text: `Round ${view.round} of ${view.rounds}` }), ` · ${phase} · scene deck: ${view.deck} cards`]));
  const goals = h("ul", { class: "goals", "aria-label": "Goals" });
  for (const g of view.goals || []) goals.appendChild(h("li", { "data-goal": g.goal, text: `Goal ${g.card}: ${goalName(g.goal)} (6 for 1st, 3 for 2nd)` }));
  box.appendChild(goals);
  const list = h("ul", { class: "provence-seats" });
  (view.markers || []).forEach((left, seat) => {
    const choosing = view.phase === "walking" ? "choosing a walk…" : "choosing a scene card…";
    const chosen = (view.submitted || [])[seat] ? "has chosen" : (view.active || []).includes(seat) ? choosing : "";
    const hand = (view.hand_sizes || [])[seat] ?? 0;
    list.appendChild(h("li", { "data-seat": seat }, [
      h("span", { style: `display:inline-block;width:.8em;height:.8em;background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]};margin-right:.3em`, "aria-hidden": "true" }),
      `${seatLabel(seat)}${seat === ctx.seat ? " (you)" : ""}: ${left} photo markers left${hand ? `, ${hand} scene card${hand === 1 ? "" : "s"} in hand` : ""}${chosen ? ` · ${chosen}` : ""}`,
    ]));
  });
  box.appendChild(list);
  return box;
}

function resultTable(result, seatLabel) {
  const box = h("section", { class: "provence-result", "aria-label": "Final scoring" });
  const rows = result.breakdown || [];
  const keys = [...new Set(rows.flatMap((b) => Object.keys(b || {}).filter((k) => typeof b[k] !== "object")))];
  const table = h("table", {}, [h("tr", {}, [h("th", { text: "seat" }), ...keys.map((k) => h("th", { text: k.replace(/_/g, " ") })), h("th", { text: "place" })])]);
  (result.scores || []).forEach((score, seat) => {
    const b = rows[seat] || {};
    table.appendChild(h("tr", { "data-seat": seat }, [h("td", { text: seatLabel(seat) }), ...keys.map((k) => h("td", { text: b[k] ?? "" })),
      h("td", { text: `${(result.places || [])[seat]}${(result.winners || []).includes(seat) ? " (winner)" : ""}` })]));
  });
  box.appendChild(h("h3", { text: "Final scoring" }));
  box.appendChild(table);
  return box;
}

// The seat's hand, rotation and under: what the preview on its landscape is computed from.
function handPanel(view, ctx, mem, placing, rerender, error) {
  const you = view.you;
  const box = h("section", { class: "provence-hand", "aria-label": "Your hand" });
  if (you.pending) {
    const p = you.pending;
    box.appendChild(h("p", { "data-testid": "pending", text: p.card
      ? `You chose ${cardName(p.card)} at ${where(p.x, p.y)}, turned ${p.rotation}°${p.under ? ", tucked under the landscape" : ""}; waiting for the others.`
      : "Your walk is chosen; waiting for the others." }));
  }
  if (you.passed) box.appendChild(h("p", { text: `You passed ${cardName(you.passed)} to the player on your left.` }));
  if (!you.hand || !you.hand.length) return box;
  const cards = [...new Set(placing.map((m) => m.card))];
  if (cards.length && !cards.includes(mem.card)) mem.card = cards[0];
  mem.rotation ??= 0;
  mem.under ??= false;
  const row = h("div", { class: "hand", style: "display:flex;gap:10px;flex-wrap:wrap;align-items:flex-end" });
  for (const card of you.hand) {
    const chosen = mem.card === card.id && cards.length;
    const holder = h("div", { class: "hand-card", "data-card": card.id, style: `padding:4px;border:3px solid ${chosen ? "#e65100" : "transparent"};border-radius:6px` });
    const pic = drawCard(card, chosen ? mem.rotation : 0);
    if (cards.includes(card.id)) {
      activate(pic, `Choose ${cardLabel(card)}`, () => { mem.card = card.id; mem.preview = null; rerender(); });
      pic.setAttribute("aria-pressed", chosen ? "true" : "false");
    }
    holder.append(pic, h("div", { text: `${cardName(card.id)}${chosen ? " (chosen)" : ""}` }));
    row.appendChild(holder);
  }
  box.appendChild(row);
  if (!cards.length) return box;
  const count = spots(placing, mem).length;
  box.appendChild(h("div", { class: "place-controls" }, [
    choice(`Rotate ↻ (${mem.rotation}°)`, () => { mem.rotation = (mem.rotation + 90) % 360; mem.preview = null; rerender(); }, { "data-testid": "rotate" }),
    h("label", {}, [h("input", { type: "checkbox", "data-testid": "under", checked: mem.under, onchange: (e) => { mem.under = e.target.checked; mem.preview = null; rerender(); } }), " tuck under the landscape"]),
    h("span", { "data-testid": "spot-count", text: ` ${count} place${count === 1 ? "" : "s"} for ${cardName(mem.card)}: pick one of the dots on your landscape.` }),
  ]));
  if (mem.preview) {
    const p = mem.preview;
    const move = { type: "place", card: mem.card, x: p.x, y: p.y, rotation: mem.rotation, under: mem.under };
    box.appendChild(h("div", { class: "confirm" }, [
      h("span", { text: `Place ${cardName(mem.card)} at ${where(p.x, p.y)}, turned ${mem.rotation}°${mem.under ? ", tucked under the landscape" : ""}? ` }),
      choice("Place here", () => trySubmit(ctx, move, error), { "data-testid": "confirm-place" }, true),
      button("Cancel", () => { mem.preview = null; rerender(); }),
    ]));
  }
  return box;
}

function spots(placing, mem) {
  return placing.filter((m) => m.card === mem.card && m.rotation === mem.rotation && Boolean(m.under) === mem.under);
}

// Where each token may go comes from the walks legal-moves lists (both final positions).
function walkPanel(view, ctx, mem, walking, rerender, error) {
  const land = view.landscapes[ctx.seat];
  mem.walk ??= { photographer: [...land.photographer], drone: [...land.drone] };
  mem.token ??= "photographer";
  const box = h("section", { class: "provence-walk", "aria-label": "Walking phase" });
  const build = () => {
    const moved = mem.walk.photographer.join() !== land.photographer.join() || mem.walk.drone.join() !== land.drone.join();
    return moved ? { type: "walk", photographer: mem.walk.photographer, drone: mem.walk.drone } : { type: "walk" };
  };
  const move = build();
  const legal = walking.some((m) => sameMove(m, move));
  box.appendChild(h("p", {}, [
    "Move: ",
    ...["photographer", "drone"].map((token) => choice(`${token === mem.token ? "● " : ""}${token}`, () => { mem.token = token; rerender(); },
      { "aria-pressed": token === mem.token ? "true" : "false", "data-testid": `pick-${token}` })),
    h("span", { text: ` — then click a highlighted meadow. Photographer at ${where(...mem.walk.photographer)}, drone at ${where(...mem.walk.drone)}.` }),
  ]));
  box.appendChild(h("p", {}, [
    choice(move.photographer ? "Confirm walk" : "Stay (pass)", () => trySubmit(ctx, move, error), { "data-testid": "confirm-walk", disabled: !legal }, true),
    " ",
    button("Reset", () => { mem.walk = null; rerender(); }),
    " ",
    legal ? "" : h("span", { text: "both tokens must end on two different visible meadows" }),
  ]));
  return box;
}

function walkTargets(walking, mem) {
  const other = mem.token === "photographer" ? "drone" : "photographer";
  const cells = new Map();
  for (const m of walking) {
    if (!m[mem.token]) continue;
    const key = m[mem.token].join();
    // Prefer targets that keep the other token where the user put it.
    if (m[other].join() === mem.walk[other].join() || !cells.has(key)) cells.set(key, m[mem.token]);
  }
  return [...cells.values()];
}

// The last move highlighted: the card this seat just placed (the scene's reveal), or the squares
// its photographer and drone just walked to. Both are public once revealed.
function lastMove(event, seat) {
  if (event?.type === "ScenesPlaced" && event.placements?.[seat]) return { placed: event.placements[seat] };
  if (event?.type === "WalksRevealed" && event.walks?.[seat]) return { walked: event.walks[seat] };
  return null;
}

function landscape(land, seat, seatLabel, mine, last = null) {
  const cells = land.visible.map((sq) => [sq.x, sq.y]);
  cells.push(land.photographer, land.drone);
  let anchors = [], preview = null, targets = [];
  if (mine && mine.placing.length && !mine.view.you.pending) {
    anchors = spots(mine.placing, mine.mem);
    const card = (mine.view.you.hand || []).find((c) => c.id === mine.mem.card);
    if (mine.mem.preview && card) {
      preview = orientedSquares(card.rows, mine.mem.rotation).map((sq) => ({ ...sq, x: mine.mem.preview.x + sq.dx, y: mine.mem.preview.y + sq.dy }));
    }
    for (const a of anchors) cells.push([a.x, a.y], [a.x + 2, a.y + 2]);
  }
  if (mine && mine.walking.length) targets = walkTargets(mine.walking, mine.mem);
  const shownFrames = frames(mine && mine.walking.length && mine.mem.walk ? { photographer: mine.mem.walk.photographer, drone: mine.mem.walk.drone } : land);
  for (const f of shownFrames) cells.push([f.x, f.y], [f.x + f.w - 1, f.y + f.h - 1]);
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const ox = Math.min(...xs), oy = Math.min(...ys);
  const w = (Math.max(...xs) - ox + 1) * CELL, hgt = (Math.max(...ys) - oy + 1) * CELL;
  const title = `${seatLabel(seat)}${mine ? " (you)" : ""}: landscape`;
  const fig = h("figure", { class: "landscape", "data-seat": seat, style: "margin:0" });
  fig.appendChild(h("figcaption", { text: title }));
  // Drawn at its real size (a square is 48 px): a landscape wider than the screen scrolls in its
  // own frame, the page never does, and nothing is shrunk below legibility.
  const svg = s("svg", { viewBox: `-4 -20 ${w + 8} ${hgt + 24}`, width: w + 8, height: hgt + 24, role: "group",
    "aria-label": `${title}, ${land.visible.length} visible squares; the scene deck lies above (north)`, style: "background:#fafafa;display:block" });
  svg.appendChild(s("text", { x: w / 2, y: -6, "font-size": 12, "text-anchor": "middle", fill: "#555", text: "▲ scene deck (north)" }));
  for (const sq of land.visible) {
    const g = drawSquare(sq, (sq.x - ox) * CELL, (sq.y - oy) * CELL);
    g.setAttribute("data-x", sq.x);
    g.setAttribute("data-y", sq.y);
    svg.appendChild(g);
  }
  svg.appendChild(cardEdges(land.visible, ox, oy));
  if (last?.placed) {
    // A scene card is 3 squares by 2, turned a quarter: 2 by 3.
    const p = last.placed, upright = p.rotation % 180 === 0;
    const x = (p.x - ox) * CELL, y = (p.y - oy) * CELL, cw = (upright ? 3 : 2) * CELL, ch = (upright ? 2 : 3) * CELL;
    svg.appendChild(s("rect", { class: "just-placed", "data-x": p.x, "data-y": p.y, x: x + 1, y: y + 1, width: cw - 2, height: ch - 2, rx: 4,
      fill: "none", stroke: "#c2410c", "stroke-width": 4,
      title: `just placed: ${cardName(p.card)}${p.under ? " (tucked under the landscape)" : ""}` }));
  }
  for (const f of shownFrames) {
    svg.appendChild(s("rect", { class: `frame frame-${f.who}`, x: (f.x - ox) * CELL + 2, y: (f.y - oy) * CELL + 2, width: f.w * CELL - 4, height: f.h * CELL - 4,
      fill: "none", stroke: f.who === "drone" ? "#0d47a1" : "#212121", "stroke-width": 1.5, "stroke-dasharray": f.who === "drone" ? "8 4" : "3 3", opacity: 0.55,
      title: `${f.who}'s frame (${f.side})` }));
  }
  const tokens = mine && mine.walking.length && mine.mem.walk ? mine.mem.walk : land;
  svg.appendChild(drawToken("photographer", tokens.photographer, ox, oy, `photographer at ${where(...tokens.photographer)}`));
  svg.appendChild(drawToken("drone", tokens.drone, ox, oy, `drone at ${where(...tokens.drone)}`));
  for (const [who, cell] of Object.entries(last?.walked || {})) {
    svg.appendChild(s("rect", { class: "just-walked", "data-x": cell[0], "data-y": cell[1], x: (cell[0] - ox) * CELL + 1, y: (cell[1] - oy) * CELL + 1,
      width: CELL - 2, height: CELL - 2, rx: 6, fill: "none", stroke: "#c2410c", "stroke-width": 4, title: `the ${who} just walked here` }));
  }
  if (preview) {
    const g = s("g", { class: "preview", opacity: 0.75, "data-testid": "preview" });
    for (const sq of preview) g.appendChild(drawSquare(sq, (sq.x - ox) * CELL, (sq.y - oy) * CELL));
    const px = Math.min(...preview.map((q) => q.x)), py = Math.min(...preview.map((q) => q.y));
    const pw = Math.max(...preview.map((q) => q.x)) - px + 1, ph = Math.max(...preview.map((q) => q.y)) - py + 1;
    g.appendChild(s("rect", { x: (px - ox) * CELL, y: (py - oy) * CELL, width: pw * CELL, height: ph * CELL, fill: "none", stroke: "#e65100", "stroke-width": 3, "stroke-dasharray": "6 3" }));
    svg.appendChild(g);
  }
  for (const a of anchors) {
    // A spot is the whole top-left square (a 44 px ring), easy to hit with a finger.
    const cx = (a.x - ox) * CELL + CELL / 2, cy = (a.y - oy) * CELL + CELL / 2;
    const chosen = mine.mem.preview && mine.mem.preview.x === a.x && mine.mem.preview.y === a.y;
    const dot = s("circle", { class: "spot", cx, cy, r: 22.5, fill: chosen ? "#e6510099" : "#ffffff55", stroke: "#e65100", "stroke-width": 3,
      "data-x": a.x, "data-y": a.y });
    activate(dot, `Preview ${cardName(a.card)} with its top-left square at ${where(a.x, a.y)}, turned ${a.rotation}°${a.under ? ", tucked under the landscape" : ""}`,
      () => { mine.mem.preview = { x: a.x, y: a.y }; mine.rerender(); });
    svg.appendChild(dot);
  }
  for (const cell of targets) {
    const x = (cell[0] - ox) * CELL, y = (cell[1] - oy) * CELL;
    const ring = s("rect", { class: "walk-target", x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 6, fill: "#ffffff55", stroke: "#e65100", "stroke-width": 2.5,
      "data-x": cell[0], "data-y": cell[1] });
    activate(ring, `Move the ${mine.mem.token} to ${where(...cell)}`, () => {
      const other = mine.mem.token === "photographer" ? "drone" : "photographer";
      mine.mem.walk[mine.mem.token] = [...cell];
      if (mine.mem.walk[other].join() === cell.join()) mine.mem.walk[other] = [...land[mine.mem.token]];
      mine.rerender();
    });
    svg.appendChild(ring);
  }
  // A frame that scrolls is reached by keyboard too (WCAG 2.1.1): focusable, and named.
  fig.appendChild(h("div", { class: "landscape-frame", tabindex: 0, role: "region", "aria-label": `${title} (scrolls)` }, [svg]));
  return fig;
}

function photoPanel(view, seatLabel) {
  const box = h("section", { class: "provence-photos", "aria-label": "Photo cards" });
  box.appendChild(h("h3", { text: "Photo cards" }));
  const row = h("div", { style: "display:flex;flex-wrap:wrap;gap:8px" });
  for (const p of view.photos || []) row.appendChild(drawPhoto(p, seatLabel));
  box.appendChild(row);
  return box;
}

// ---- the story: events and the breakdown in words (the shell's move log, replay and result) ---
export function describeEvent(event, { name }) {
  const who = event.actor !== null && event.actor !== undefined ? name(event.actor) : "";
  const late = event.auto ? " (played by the server: time ran out)" : "";
  if (event.type === "CardChosen") return `${who} has chosen a scene card${late}.`;
  if (event.type === "WalkChosen") return `${who} has chosen a walk${late}.`;
  if (event.type === "ScenesPlaced") {
    const placed = (event.placements || []).map((p, seat) => `${name(seat)} placed ${cardName(p.card)} at ${where(p.x, p.y)}${p.under ? ", tucked under the landscape" : ""}`);
    return `Round ${event.round}: ${placed.join("; ")}.`;
  }
  if (event.type === "WalksRevealed") {
    const walks = (event.walks || []).map((w, seat) => `${name(seat)}: photographer to ${where(...w.photographer)}, drone to ${where(...w.drone)}`);
    const photos = (event.photos || []).map((p) => `Photo ${p.card} completed by ${(p.seats || []).map(name).join(" and ")}: ${p.points} points each!`);
    return { text: `Walks revealed. ${walks.join("; ")}.${photos.length ? ` ${photos.join(" ")}` : ""}`, moment: photos.length > 0 };
  }
  return null;
}

export function describeBreakdown(b) {
  const goals = Object.entries(b.goal_detail || {}).map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`).join(", ");
  return [`lavender ${b.lavender ?? 0} (penalty ${b.lavender_penalty ?? 0})`, `wheat ${b.wheat ?? 0}`,
    `sunflowers ${b.sunflowers ?? 0} (penalty ${b.sunflower_penalty ?? 0})`, `towns ${b.towns ?? 0}`,
    `photos ${b.photos ?? 0}`, `goals ${b.goals ?? 0}${goals ? ` (${goals})` : ""}`, `${b.markers_placed ?? 0} marker(s) placed`];
}
