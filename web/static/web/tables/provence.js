// Walking in Provence table: every landscape, tokens and frames, photo cards, goals, and the
// seat's own hand. Placements and walks are offered only where ctx.legalMoves has them.
import { stamp } from "../svg.js";
import { t } from "../i18n.js";
import { h, s, activate, button, choice, trySubmit, sameMove, seatName, memory, SEAT_COLOURS, youMark, fitText } from "./kit.js";
import { CELL, useCell, drawSquare, drawCard, cardEdges, frames, drawToken, drawPhoto, goalName, orientedSquares, cardLabel, cardName, where,
  origin, turnWords, markerLetters } from "./provence-draw.js";

const ROTATIONS = [0, 90, 180, 270];
// A column of the final scoring by its name in the player's language (the server's key, readable,
// for one the catalog does not know).
const breakdownName = (key) => { const id = `breakdown.${key}`; const said = t(id); return said === id ? key.replace(/_/g, " ") : said; };

export function renderTable(root, ctx) {
  const view = ctx.view || {};
  const mem = memory(root, `provence:${ctx.game && ctx.game.id}:${view.round}:${view.phase}`);
  root.replaceChildren();
  root.classList.add("table-provence");
  const seatLabel = (seat) => seatName(ctx, seat);
  const rerender = () => renderTable(root, ctx);
  mem.redraw = rerender;
  const error = h("p", { class: "table-error", role: "alert", "data-testid": "table-error" });

  const moves = (ctx.legalMoves || []).filter((m) => m && (m.type === "place" || m.type === "walk"));
  const placing = moves.filter((m) => m.type === "place");
  const walking = moves.filter((m) => m.type === "walk");
  // Rows and columns are counted from 1 on each landscape, from its top-left square (or from
  // where this seat may place a card, or has chosen to): no square a player reads is before 1.
  const pending = view.you?.pending?.card ? [view.you.pending] : [];
  const origins = (view.landscapes || []).map((land, seat) =>
    origin(land, seat === ctx.seat ? [...placing, ...pending].flatMap(footprint) : []));
  const at = (seat) => (x, y) => where(x, y, origins[seat]);
  const seats = [...Array(view.players || (view.landscapes || []).length).keys()];
  // The squares' size: the player's own landscape takes at least half a desktop's width (a
  // young landscape with big squares), the others' stay smaller beside it; 48 px on a phone,
  // where a wide landscape scrolls in its own frame.
  const room = root.clientWidth || 1000;
  const cellFor = (seat) => {
    const land = view.landscapes?.[seat];
    if (!land || room < 900) return 48;
    const xs = [...land.visible.map((q) => q.x), ...(seat === ctx.seat ? placing.flatMap(footprint).map((c) => c[0]) : [])];
    const columns = Math.max(4, Math.max(...xs) - Math.min(...xs) + 1);
    const mine = seat === ctx.seat || ctx.seat === null || ctx.seat === undefined;
    return mine ? Math.min(160, (room * 0.55) / columns) : Math.min(72, (room * 0.45) / columns);
  };

  root.appendChild(summary(view, ctx, seatLabel));
  if (view.result) root.appendChild(resultTable(view.result, seatLabel));
  if (view.you) root.appendChild(handPanel(view, ctx, mem, placing, rerender, error, at(ctx.seat)));
  if (walking.length) root.appendChild(walkPanel(view, ctx, mem, walking, rerender, error, at(ctx.seat)));
  root.appendChild(error);

  const order = ctx.seat !== null && ctx.seat !== undefined ? [ctx.seat, ...seats.filter((x) => x !== ctx.seat)] : seats;
  const lands = h("div", { class: "landscapes" });
  for (const seat of order) {
    const land = view.landscapes && view.landscapes[seat];
    if (!land) continue;
    const mine = seat === ctx.seat;
    useCell(cellFor(seat));
    lands.appendChild(landscape(land, seat, seatLabel, mine ? { placing, walking, mem, ctx, rerender, error, view } : null,
      lastMove(ctx.lastEvent, seat), origins[seat], mem));
  }
  root.appendChild(lands);
  root.appendChild(photoPanel(view, seatLabel, markerLetters(seats.map((seat) => seatLabel(seat)))));
  stamp(root);
}

// The squares a placement (or a chosen card) would cover: 3 by 2, or 2 by 3 turned a quarter.
function footprint(p) {
  const upright = (p.rotation ?? 0) % 180 === 0;
  const out = [];
  for (let dx = 0; dx < (upright ? 3 : 2); dx += 1) for (let dy = 0; dy < (upright ? 2 : 3); dy += 1) out.push([p.x + dx, p.y + dy]);
  return out;
}

function summary(view, ctx, seatLabel) {
  const box = h("section", { class: "provence-summary", "aria-label": t("pv.summary"), "data-round": view.round, "data-phase": view.phase });
  const phase = view.phase === "scene" ? t("pv.phase_scene") : view.phase === "walking" ? t("pv.phase_walking") : t("pv.phase_over");
  box.appendChild(h("p", {}, [h("strong", { text: t("pv.round", { round: view.round, rounds: view.rounds }) }), ` · ${phase} · ${t("pv.deck", { count: view.deck })}`]));
  const goals = h("ul", { class: "goals", "aria-label": t("pv.goals") });
  for (const g of view.goals || []) goals.appendChild(h("li", { "data-goal": g.goal, text: t("pv.goal", { card: g.card, goal: goalName(g.goal) }) }));
  box.appendChild(goals);
  const list = h("ul", { class: "provence-seats" });
  (view.markers || []).forEach((left, seat) => {
    const choosing = view.phase === "walking" ? t("pv.choosing_walk") : t("pv.choosing_card");
    const chosen = (view.submitted || [])[seat] ? t("pv.has_chosen") : (view.active || []).includes(seat) ? choosing : "";
    const hand = (view.hand_sizes || [])[seat] ?? 0;
    list.appendChild(h("li", { "data-seat": seat }, [
      h("span", { style: `display:inline-block;width:.8em;height:.8em;background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]};margin-right:.3em`, "aria-hidden": "true" }),
      t("common.labelled", { label: `${seatLabel(seat)}${youMark(ctx, seat)}`,
        value: `${t("pv.markers_left", { count: left })}${hand ? `, ${t("pv.in_hand", { count: hand })}` : ""}${chosen ? ` · ${chosen}` : ""}` }),
    ]));
  });
  box.appendChild(list);
  return box;
}

function resultTable(result, seatLabel) {
  const box = h("section", { class: "provence-result", "aria-label": t("pv.final") });
  const rows = result.breakdown || [];
  const keys = [...new Set(rows.flatMap((b) => Object.keys(b || {}).filter((k) => typeof b[k] !== "object")))];
  const table = h("table", {}, [h("tr", {}, [h("th", { text: t("pv.player") }), ...keys.map((k) => h("th", { text: breakdownName(k) })), h("th", { text: t("pv.place") })])]);
  (result.scores || []).forEach((score, seat) => {
    const b = rows[seat] || {};
    table.appendChild(h("tr", { "data-seat": seat }, [h("td", { text: seatLabel(seat) }), ...keys.map((k) => h("td", { text: b[k] ?? "" })),
      h("td", { text: `${(result.places || [])[seat]}${(result.winners || []).includes(seat) ? ` ${t("pv.winner")}` : ""}` })]));
  });
  box.appendChild(h("h3", { text: t("pv.final") }));
  box.appendChild(table);
  return box;
}

// The seat's hand, rotation and under: what the preview on its landscape is computed from.
function handPanel(view, ctx, mem, placing, rerender, error, where) {
  const you = view.you;
  const box = h("section", { class: "provence-hand", "aria-label": t("ph.your_hand") });
  if (you.pending) {
    const p = you.pending;
    box.appendChild(h("p", { "data-testid": "pending", text: p.card
      ? t("pv.pending_card", { card: cardName(p.card), where: where(p.x, p.y), turn: turnWords(p.rotation), under: p.under ? t("pv.under_suffix") : "" })
      : t("pv.pending_walk") }));
  }
  if (you.passed) box.appendChild(h("p", { text: t("pv.passed", { card: cardName(you.passed) }) }));
  if (!you.hand || !you.hand.length) return box;
  const cards = [...new Set(placing.map((m) => m.card))];
  if (cards.length && !cards.includes(mem.card)) mem.card = cards[0];
  mem.rotation ??= 0;
  mem.under ??= false;
  const row = h("div", { class: "hand" });
  for (const card of you.hand) {
    const chosen = mem.card === card.id && cards.length;
    const holder = h("div", { class: `hand-card${chosen ? " chosen" : ""}`, "data-card": card.id });
    const pic = drawCard(card, chosen ? mem.rotation : 0);
    // The card's name under it is the control (its words are its name); the picture answers a
    // click too, for the mouse.
    if (cards.includes(card.id)) {
      const pickIt = () => { mem.card = card.id; mem.preview = null; rerender(); };
      pic.addEventListener("click", pickIt);
      pic.style.cursor = "pointer";
      holder.append(pic, choice(cardName(card.id), pickIt, { class: "hand-name", "aria-pressed": chosen ? "true" : "false",
        "aria-describedby": `card-words-${card.id}` }),
      h("span", { id: `card-words-${card.id}`, class: "sr-only", text: cardLabel(card) }));
    } else holder.append(pic, h("div", { class: "hand-name", text: cardName(card.id) }));
    row.appendChild(holder);
  }
  box.appendChild(row);
  if (!cards.length) return box;
  const count = spots(placing, mem).length;
  box.appendChild(h("div", { class: "place-controls" }, [
    choice(t("pv.rotate"), () => { mem.rotation = (mem.rotation + 90) % 360; mem.preview = null; rerender(); }, { "data-testid": "rotate" }),
    h("label", {}, [h("input", { type: "checkbox", "data-testid": "under", checked: mem.under, onchange: (e) => { mem.under = e.target.checked; mem.preview = null; rerender(); } }), ` ${t("pv.tuck")}`]),
    h("span", { "data-testid": "spot-count", text: ` ${t("pv.spots", { count, card: cardName(mem.card), turn: turnWords(mem.rotation) })}` }),
  ]));
  if (mem.preview) {
    const p = mem.preview;
    const move = { type: "place", card: mem.card, x: p.x, y: p.y, rotation: mem.rotation, under: mem.under };
    box.appendChild(h("div", { class: "confirm" }, [
      h("span", { text: `${t("pv.confirm", { card: cardName(mem.card), where: where(p.x, p.y), turn: turnWords(mem.rotation), under: mem.under ? t("pv.under_suffix") : "" })} ` }),
      choice(t("pv.place_here"), () => trySubmit(ctx, move, error), { "data-testid": "confirm-place" }, true),
      button(t("pv.cancel"), () => { mem.preview = null; rerender(); }),
    ]));
  }
  return box;
}

function spots(placing, mem) {
  return placing.filter((m) => m.card === mem.card && m.rotation === mem.rotation && Boolean(m.under) === mem.under);
}

// Where each token may go comes from the walks legal-moves lists (both final positions).
function walkPanel(view, ctx, mem, walking, rerender, error, where) {
  const land = view.landscapes[ctx.seat];
  mem.walk ??= { photographer: [...land.photographer], drone: [...land.drone] };
  mem.token ??= "photographer";
  const box = h("section", { class: "provence-walk", "aria-label": t("pv.walking") });
  const build = () => {
    const moved = mem.walk.photographer.join() !== land.photographer.join() || mem.walk.drone.join() !== land.drone.join();
    return moved ? { type: "walk", photographer: mem.walk.photographer, drone: mem.walk.drone } : { type: "walk" };
  };
  const move = build();
  const legal = walking.some((m) => sameMove(m, move));
  box.appendChild(h("p", {}, [
    `${t("pv.move")} `,
    ...["photographer", "drone"].map((token) => choice(t(`pv.${token}`), () => { mem.token = token; rerender(); },
      { "aria-pressed": token === mem.token ? "true" : "false", "data-testid": `pick-${token}` })),
    h("span", { text: ` ${t("pv.walk_help", { photographer: where(...mem.walk.photographer), drone: where(...mem.walk.drone) })}` }),
  ]));
  box.appendChild(h("p", {}, [
    choice(move.photographer ? t("pv.confirm_walk") : t("pv.stay"), () => trySubmit(ctx, move, error), { "data-testid": "confirm-walk", disabled: !legal }, true),
    " ",
    button(t("pv.reset"), () => { mem.walk = null; rerender(); }),
    " ",
    legal ? "" : h("span", { text: t("pv.walk_rule") }),
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

function landscape(land, seat, seatLabel, mine, last, o, mem) {
  const where_ = (x, y) => where(x, y, o);
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
  // The photo frames are drawn on demand (around the tokens where the player has put them while
  // walking): always drawn, they covered the squares a player reads.
  const walkingNow = mine && mine.walking.length && mine.mem.walk;
  const showFrames = mem.frames?.[seat];
  const shownFrames = showFrames ? frames(walkingNow ? { photographer: mine.mem.walk.photographer, drone: mine.mem.walk.drone } : land) : [];
  for (const f of shownFrames) cells.push([f.x, f.y], [f.x + f.w - 1, f.y + f.h - 1]);
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const ox = Math.min(...xs), oy = Math.min(...ys);
  const w = (Math.max(...xs) - ox + 1) * CELL, hgt = (Math.max(...ys) - oy + 1) * CELL;
  const title = t("pv.landscape_of", { name: seatLabel(seat), you: mine ? youMark(mine.ctx, seat) : "" });
  const fig = h("figure", { class: `landscape${mine ? " mine" : ""}`, "data-seat": seat });
  const frameToggle = h("label", { class: "frames-toggle" }, [h("input", { type: "checkbox", checked: Boolean(showFrames),
    onchange: (e) => { mem.frames = { ...(mem.frames || {}), [seat]: e.target.checked }; (mine?.rerender || mem.redraw)?.(); } }), ` ${t("pv.show_frames")}`]);
  fig.appendChild(h("figcaption", {}, [h("span", { class: "landscape-title", text: title }), frameToggle]));
  // Row and column numbers along the edges (counted from 1, as every label and the move log
  // count them); the scene deck lies above.
  const M = 22;   // the margin the numbers stand in
  const svg = s("svg", { viewBox: `${-M} -${M + 18} ${w + M + 4} ${hgt + M + 22}`, width: w + M + 4, height: hgt + M + 22, role: "group",
    "aria-label": t("pv.landscape_label", { title, count: land.visible.length }), class: "landscape-svg" });
  // Centred over the squares, it fits between the picture's edges whatever the language.
  const north = t("pv.deck_north");
  svg.appendChild(s("text", { x: w / 2, y: -M - 4, "font-size": 12, "text-anchor": "middle", fill: "#555", ...fitText(north, w + 4), text: north }));
  for (let x = ox; x < ox + w / CELL; x += 1) {
    const n = x - o.x + 1;
    if (n >= 1) svg.appendChild(s("text", { class: "axis", x: (x - ox) * CELL + CELL / 2, y: -6, "font-size": 12, "text-anchor": "middle", fill: "#555", text: n, "aria-hidden": "true" }));
  }
  for (let y = oy; y < oy + hgt / CELL; y += 1) {
    const n = y - o.y + 1;
    if (n >= 1) svg.appendChild(s("text", { class: "axis", x: -6, y: (y - oy) * CELL + CELL / 2 + 4, "font-size": 12, "text-anchor": "end", fill: "#555", text: n, "aria-hidden": "true" }));
  }
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
      title: t("pv.just_placed", { card: cardName(p.card), under: p.under ? t("pv.under_suffix") : "" }) }));
  }
  // A frame is its outline only, outside the squares' marks: thin, and in the token's colour.
  for (const f of shownFrames) {
    svg.appendChild(s("rect", { class: `frame frame-${f.who}`, x: (f.x - ox) * CELL + 1, y: (f.y - oy) * CELL + 1, width: f.w * CELL - 2, height: f.h * CELL - 2,
      fill: "none", stroke: f.who === "drone" ? "#0d47a1" : "#212121", "stroke-width": 2, "stroke-dasharray": f.who === "drone" ? "10 5" : "4 4",
      title: t(f.who === "drone" ? "pv.frame_drone" : "pv.frame_photographer", { side: t(`pv.side_${f.side}`) }) }));
  }
  const tokens = walkingNow ? mine.mem.walk : land;
  svg.appendChild(drawToken("photographer", tokens.photographer, ox, oy, t("pv.photographer_at", { where: where_(...tokens.photographer) })));
  svg.appendChild(drawToken("drone", tokens.drone, ox, oy, t("pv.drone_at", { where: where_(...tokens.drone) })));
  for (const [who, cell] of Object.entries(last?.walked || {})) {
    svg.appendChild(s("rect", { class: "just-walked", "data-x": cell[0], "data-y": cell[1], x: (cell[0] - ox) * CELL + 1, y: (cell[1] - oy) * CELL + 1,
      width: CELL - 2, height: CELL - 2, rx: 6, fill: "none", stroke: "#c2410c", "stroke-width": 4, title: t(who === "drone" ? "pv.drone_walked" : "pv.photographer_walked") }));
  }
  if (preview) {
    const g = s("g", { class: "preview", opacity: 0.8, "data-testid": "preview" });
    for (const sq of preview) g.appendChild(drawSquare(sq, (sq.x - ox) * CELL, (sq.y - oy) * CELL));
    const px = Math.min(...preview.map((q) => q.x)), py = Math.min(...preview.map((q) => q.y));
    const pw = Math.max(...preview.map((q) => q.x)) - px + 1, ph = Math.max(...preview.map((q) => q.y)) - py + 1;
    g.appendChild(s("rect", { x: (px - ox) * CELL, y: (py - oy) * CELL, width: pw * CELL, height: ph * CELL, fill: "none", stroke: "#e65100", "stroke-width": 4, "stroke-dasharray": "6 3" }));
    svg.appendChild(g);
  }
  for (const a of anchors) {
    // Where the card may go: a small dot on the top-left square of each listed placement, the
    // whole square its target (easy to hit with a finger), the squares under it still readable.
    const cx = (a.x - ox) * CELL + CELL / 2, cy = (a.y - oy) * CELL + CELL / 2;
    const chosen = mine.mem.preview && mine.mem.preview.x === a.x && mine.mem.preview.y === a.y;
    svg.appendChild(s("circle", { class: "spot-dot", cx, cy, r: chosen ? 11 : 8, fill: "#e65100", stroke: "#fff", "stroke-width": 2.5, "pointer-events": "none", "aria-hidden": "true" }));
    const dot = s("circle", { class: "spot", cx, cy, r: 22, fill: "transparent", stroke: "transparent", "stroke-width": 3,
      "data-x": a.x, "data-y": a.y });
    activate(dot, t("pv.preview_at", { card: cardName(a.card), where: where_(a.x, a.y), turn: turnWords(a.rotation), under: a.under ? t("pv.under_suffix") : "" }),
      () => { mine.mem.preview = { x: a.x, y: a.y }; mine.rerender(); });
    svg.appendChild(dot);
  }
  for (const cell of targets) {
    const x = (cell[0] - ox) * CELL, y = (cell[1] - oy) * CELL;
    const ring = s("rect", { class: "walk-target", x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6, fill: "#ffffff55", stroke: "#e65100", "stroke-width": 3,
      "data-x": cell[0], "data-y": cell[1] });
    activate(ring, t("pv.walk_to", { token: t(`pv.${mine.mem.token}`), where: where_(...cell) }), () => {
      const other = mine.mem.token === "photographer" ? "drone" : "photographer";
      mine.mem.walk[mine.mem.token] = [...cell];
      if (mine.mem.walk[other].join() === cell.join()) mine.mem.walk[other] = [...land[mine.mem.token]];
      mine.rerender();
    });
    svg.appendChild(ring);
  }
  // A frame that scrolls is reached by keyboard too (WCAG 2.1.1): focusable, and named.
  fig.appendChild(h("div", { class: "landscape-frame", tabindex: 0, role: "region", "aria-label": t("pv.scrolls", { title }) }, [svg]));
  return fig;
}

function photoPanel(view, seatLabel, letters) {
  const box = h("section", { class: "provence-photos", "aria-label": t("pv.photos") });
  box.appendChild(h("h3", { text: t("pv.photos") }));
  box.appendChild(h("p", { class: "help", text: t("pv.marker_key", { key: letters.map((l, seat) => `${l} ${seatLabel(seat)}`).join(", ") }) }));
  const row = h("div", { style: "display:flex;flex-wrap:wrap;gap:8px" });
  for (const p of view.photos || []) row.appendChild(drawPhoto(p, seatLabel, letters));
  box.appendChild(row);
  return box;
}

// ---- the story: events and the breakdown in words (the shell's move log, replay and result) ---
export function describeEvent(event, { game, name }) {
  const who = event.actor !== null && event.actor !== undefined ? name(event.actor) : "";
  const late = event.auto ? ` ${t("pv.late")}` : "";
  // Squares counted on each player's landscape as it stands now (landscapes only grow, so every
  // square a past move names is on it).
  const at = (seat) => (x, y) => where(x, y, origin(game?.state?.landscapes?.[seat]));
  if (event.type === "CardChosen") return t("pv.ev_card_chosen", { who, late });
  if (event.type === "WalkChosen") return t("pv.ev_walk_chosen", { who, late });
  if (event.type === "ScenesPlaced") {
    const placed = (event.placements || []).map((p, seat) => t("pv.ev_placed", { who: name(seat), card: cardName(p.card), where: at(seat)(p.x, p.y),
      under: p.under ? t("pv.under_suffix") : "" }));
    return t("pv.ev_scenes", { round: event.round, placed: placed.join("; ") });
  }
  if (event.type === "WalksRevealed") {
    const walks = (event.walks || []).map((w, seat) => t("pv.ev_walk", { who: name(seat), photographer: at(seat)(...w.photographer), drone: at(seat)(...w.drone) }));
    const photos = (event.photos || []).map((p) => t("pv.ev_photo", { card: p.card, names: (p.seats || []).map(name).join(t("common.and")), count: p.points }));
    return { text: `${t("pv.ev_walks", { walks: walks.join("; ") })}${photos.length ? ` ${photos.join(" ")}` : ""}`, moment: photos.length > 0 };
  }
  return null;
}

export function describeBreakdown(b) {
  const goals = Object.entries(b.goal_detail || {}).map(([k, v]) => `${goalName(k).toLowerCase()} ${v}`).join(", ");
  return [t("pv.b_lavender", { points: b.lavender ?? 0, penalty: b.lavender_penalty ?? 0 }), t("pv.b_wheat", { points: b.wheat ?? 0 }),
    t("pv.b_sunflowers", { points: b.sunflowers ?? 0, penalty: b.sunflower_penalty ?? 0 }), t("pv.b_towns", { points: b.towns ?? 0 }),
    t("pv.b_photos", { points: b.photos ?? 0 }), `${t("pv.b_goals", { points: b.goals ?? 0 })}${goals ? ` (${goals})` : ""}`,
    t("pv.b_markers", { count: b.markers_placed ?? 0 })];
}
