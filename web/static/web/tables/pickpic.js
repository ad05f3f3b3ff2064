// Pick Pic: the round's photos, your hand and gifts (give), your stack to rank (rank), the last
// round's evaluation. Choices are narrowed by `legalMoves` only: a partial selection is offered a
// next step only if some legal move still agrees with it; the move sent is that legal move.
// Layout: HTML that wraps to the screen, each card a small SVG drawn at its real pixel size (never
// a whole drawing shrunk to fit), every sentence in HTML text.
import { t } from "../i18n.js";
import { s, h, clickable, choiceButton, stamp, ring, fill } from "../svg.js";
import { youMark } from "./kit.js";
import { get } from "../api.js";

let catalogue = null;                 // id -> {title, tags, image_url}, once loaded
let loading = null;
const picks = new Map();              // `${game}:${round}:${phase}` -> the player's partial choice

async function cards() {
  loading ??= get("/kinds/pickpic/cards/").then((list) => { catalogue = new Map(list.map((c) => [c.id, c])); });
  return loading;
}

const name = (ctx, seat) => ctx.game.players.find((p) => p.seat === seat)?.username ?? t("game.someone");
const label = (id) => {
  const c = catalogue?.get(id);
  return c ? t("pp.card_named", { id, title: c.title, tags: c.tags.join(", ") }) : t("pp.card", { id });
};

// Card size from the room the table has: three cards a row on a phone, never below 96 px wide.
function sizes(root) {
  const width = root.clientWidth || 1000;
  const cw = Math.max(96, Math.min(150, Math.floor((width - 24) / 3)));
  return { cw, ch: Math.round(cw * 270 / 264) };   // the photo area of a card image
}

/** A card: its picture (with a text alternative) as an SVG of its own, a caption in HTML under it. */
function card(id, size, { caption, scale = 1, mark, action, actionLabel, choice = true, selected = false, just = false, extra = {} } = {}) {
  const w = Math.round(size.cw * scale), hh = Math.round(size.ch * scale);
  const c = catalogue?.get(id);
  const g = s("g", { class: `card${selected ? " selected" : ""}${just ? " just-moved" : ""}`, "data-card": id, ...extra },
    action ? null : s("title", {}, label(id)),
    s("rect", { width: w, height: hh, rx: 8, fill: "#eee", stroke: "#999" }),
    // The photograph only (the image's frame and printed words cropped): the title and tags are
    // page text under it, legible at any card size.
    c ? s("svg", { width: w, height: hh, viewBox: "18 18 264 270", preserveAspectRatio: "xMidYMid slice" },
      s("image", { href: c.image_url, width: 300, height: 420 }))
      : s("text", { x: w / 2, y: hh / 2, "text-anchor": "middle", "font-size": 14 }, `#${id}`),
    mark ? s("text", { x: 10, y: 28, class: "mark", "font-size": 22, "font-weight": "bold", fill: "#b00",
                       stroke: "#fff", "stroke-width": 4, "paint-order": "stroke" }, mark) : null,
    ring(0, 0, w, hh));
  if (action) clickable(g, actionLabel, action, { choice });
  const svg = s("svg", { width: w, height: hh, viewBox: `0 0 ${w} ${hh}`, class: "table-svg card-svg",
                         role: action ? "group" : "img", "aria-label": action ? null : label(id) }, g);
  return h("div", { class: "slot", style: `width:${w}px` }, svg,
    just ? h("div", { class: "pp-just" }, just) : null,
    // The cards' titles and tags are the catalogue's English in every language (as the cards'
    // own pictures print them): marked so, a screen reader says them as English.
    c ? h("div", { class: "pp-title", lang: "en" }, h("span", { class: "pp-id" }, `#${id}`), " ", c.title) : null,
    c && scale === 1 ? h("div", { class: "pp-tags", lang: "en" }, c.tags.map((tag) => `#${tag}`).join(" ")) : null,
    caption ? h("div", { class: "caption" }, caption) : null);
}

const row = (...items) => h("div", { class: "cards" }, items);

export async function renderTable(root, ctx) {
  await cards();
  const view = ctx.view;
  if (!view) { fill(root, h("p", {}, t("ph.nothing"))); stamp(root); return; }
  const size = sizes(root);
  const n = view.players;
  const key = `${ctx.game.id}:${view.round}:${view.phase}`;
  const sections = [];

  // Scores, who has acted, the photos of the round (public). The last move highlighted: its
  // seat's line says so; the cards it moved are ringed where this viewer may see them (its own
  // gifts and ranking, or every stack once the round is evaluated).
  const seats = [...Array(n).keys()];
  const last = ctx.lastEvent && ["CardsGiven", "CardsRanked", "RoundEvaluated"].includes(ctx.lastEvent.type) ? ctx.lastEvent : null;
  const lastWords = last ? (last.type === "CardsGiven" ? t("pp.just_gave") : t("pp.just_ranked")) : null;
  const mover = last?.actor ?? null;
  sections.push(h("ul", { class: "pp-scores", "aria-label": t("pp.scores") }, seats.map((seat) =>
    h("li", { class: `${seat === ctx.seat ? "you" : ""}${seat === mover ? " just-moved" : ""}`, "data-seat": seat },
      t("pp.score_line", { name: name(ctx, seat), you: youMark(ctx, seat), count: view.scores[seat] }),
      view.phase === "over" ? "" : ` · ${view.done?.[seat] ? t("pp.done") : t("pp.thinking")}`,
      seat === mover ? h("strong", {}, ` · ${t("pp.last_move", { what: lastWords })}`) : null))));
  const justMine = mover !== null && mover === ctx.seat ? lastWords : false;
  if (view.table?.length) {
    sections.push(h("section", { "aria-label": t("pp.photos_label") }, h("h2", {}, t("pp.photos")),
      row(seats.filter((seat) => view.table[seat]).map((seat) => card(view.table[seat], size, { caption: t("pp.photo_of", { name: name(ctx, seat) }) })))));
  }
  // The game's end is the page's to say ("Finished — …"): the table gives the round and the deck.
  const deck = `${t("pp.round", { round: view.round })} · ${t("ph.deck", { count: view.deck_size })} · ${t("pp.discarded", { count: view.discard_size })}`;
  sections.push(h("p", { class: "pp-status" }, view.phase === "over" ? deck
    : [t("pp.round", { round: view.round }), view.phase === "give" ? t("pp.giving") : view.phase === "rank" ? t("pp.ranking") : view.phase,
      t("ph.deck", { count: view.deck_size }), t("pp.discarded", { count: view.discard_size }), t("pp.target", { count: view.target })].join(" · ")));

  const controls = [];
  const you = view.you || {};
  if (view.phase === "give" && you.hand && ctx.legalMoves.length) {
    sections.push(giving(ctx, controls, key, you.hand, root, size));
  } else if (view.phase === "rank" && you.stack && ctx.legalMoves.length) {
    sections.push(ranking(ctx, controls, key, you.stack, root, size));
  } else if (you.gifts && view.phase === "give") {
    sections.push(shown(t("pp.you_gave"), Object.entries(you.gifts).map(([to, ids]) =>
      ids.map((id) => card(id, size, { caption: t("pp.to", { name: name(ctx, Number(to)) }), just: justMine }))), size));
  } else if (you.ranking && view.phase === "rank") {
    sections.push(shown(t("pp.your_ranking"), you.ranking.order.map((id, i) => card(id, size, { caption: `${i + 1}.`, just: justMine })), size));
  } else if (you.stack && view.phase === "rank") {
    sections.push(shown(t("pp.your_stack"), you.stack.map((id) => card(id, size)), size));
  } else if (you.hand && view.phase === "give") {
    // A hand with nothing to give from it (staff's review, or waiting): drawn all the same.
    sections.push(shown(ctx.review ? t("ph.hand_of", { name: name(ctx, ctx.seat) }) : t("ph.your_hand"), you.hand.map((id) => card(id, size))));
  }
  if (view.last_round) sections.push(evaluation(ctx, view.last_round, size, last?.type === "RoundEvaluated" ? mover : null));

  fill(root, h("div", { class: "pickpic", role: "group", "aria-label": t("pp.table", { round: view.round }) }, sections),
    h("div", { class: "controls" }, controls));
  stamp(root);
}

function shown(title, cardsNodes) {
  return h("section", { "aria-label": title }, h("h2", {}, title), row(cardsNodes));
}

// ---- give: pick a card, then the seat it goes to; send when every card has a seat -------------
function giving(ctx, controls, key, hand, root, size) {
  const chosen = picks.get(key) || { assign: {}, card: null };     // card -> seat
  const fits = (assign) => ctx.legalMoves.filter((m) =>
    Object.entries(assign).every(([c, seat]) => (m.gifts[String(seat)] || []).includes(Number(c))));
  // Drop what no longer fits (the hand changed under us): start again.
  if (!fits(chosen.assign).length) { chosen.assign = {}; chosen.card = null; }
  picks.set(key, chosen);
  const redraw = async (focus) => { await renderTable(root, ctx); refocus(root, focus); };

  const nodes = hand.map((id) => {
    const to = chosen.assign[id];
    if (to !== undefined) {
      return card(id, size, { caption: t("pp.to", { name: name(ctx, to) }), action: () => { delete chosen.assign[id]; redraw(`[data-card="${id}"]`); },
                              actionLabel: t("pp.take_back", { card: label(id), name: name(ctx, to) }), choice: false });
    }
    return card(id, size, { mark: chosen.card === id ? "✔" : null, selected: chosen.card === id,
                            caption: chosen.card === id ? t("pp.who_gets") : "",
                            action: () => { chosen.card = id; redraw(".pp-targets button"); },
                            actionLabel: t("pp.choose_give", { card: label(id) }) });
  });
  const targets = [];
  if (chosen.card !== null) {
    const others = [...new Set(ctx.legalMoves.flatMap((m) => Object.keys(m.gifts)))].map(Number);
    for (const seat of others) {
      if (!fits({ ...chosen.assign, [chosen.card]: seat }).length) continue;
      targets.push(choiceButton(t("pp.give_to", { card: label(chosen.card), name: name(ctx, seat) }),
        () => { chosen.assign[chosen.card] = seat; chosen.card = null; redraw("[data-card][data-choice], .controls .primary"); },
        { class: "choice target", "data-seat": seat }));
      targets[targets.length - 1].textContent = t("pp.give_it", { name: name(ctx, seat) });
    }
  }
  const complete = Object.keys(chosen.assign).length === hand.length ? fits(chosen.assign) : [];
  if (complete.length) {
    controls.push(choiceButton(t("pp.give_these"), () => { picks.delete(key); ctx.submit(complete[0]); }, { class: "choice primary" }));
  }
  if (Object.keys(chosen.assign).length) {
    controls.push(h("button", { type: "button", onclick: () => { picks.delete(key); redraw("[data-card][data-choice]"); } }, t("pp.start_again")));
  }
  return h("section", { "aria-label": t("ph.your_hand") },
    h("h2", {}, t("pp.give", { count: ctx.view.cards_per_gift })),
    h("p", { class: "help" }, t("pp.give_help")),
    row(nodes), targets.length ? h("div", { class: "pp-targets moves" }, targets) : null);
}

// ---- rank: click the stack's cards best first; send when all are ranked ----------------------
function ranking(ctx, controls, key, stack, root, size) {
  const order = picks.get(key) || [];
  const fits = (prefix) => ctx.legalMoves.filter((m) => prefix.every((c, i) => m.order[i] === c));
  if (!fits(order).length) order.length = 0;
  picks.set(key, order);
  const redraw = async (focus) => { await renderTable(root, ctx); refocus(root, focus); };

  const nodes = stack.map((id) => {
    const place = order.indexOf(id);
    if (place >= 0) {
      return card(id, size, { mark: `#${place + 1}`, caption: t("pp.ranked", { place: place + 1 }),
                              action: () => { order.length = place; redraw("[data-card][data-choice]"); },
                              actionLabel: t("pp.unrank", { card: label(id) }), choice: false });
    }
    if (fits([...order, id]).length) {
      return card(id, size, { action: () => { order.push(id); redraw("[data-card][data-choice], .controls .primary"); },
                              actionLabel: t("pp.rank_as", { card: label(id), place: order.length + 1 }) });
    }
    return card(id, size);
  });
  const complete = order.length === stack.length ? fits(order) : [];
  if (complete.length) {
    controls.push(choiceButton(t("pp.send_ranking"), () => { picks.delete(key); ctx.submit(complete[0]); }, { class: "choice primary" }));
  }
  if (order.length) controls.push(h("button", { type: "button", onclick: () => { picks.delete(key); redraw("[data-card][data-choice]"); } }, t("pp.start_again")));
  return h("section", { "aria-label": t("pp.your_stack") },
    h("h2", {}, t("pp.rank_title")),
    h("p", { class: "help" }, t("pp.rank_help")),
    row(nodes));
}

// After a redraw, focus goes to the next sensible control (the first match), never to the body.
function refocus(root, selector) {
  const target = root.querySelector(selector);
  if (target) target.focus();
}

// ---- the last round, as the table revealed it -------------------------------------------------
function evaluation(ctx, round, size, mover = null) {
  const scale = 0.6;
  return h("section", { class: "pp-evaluation", "aria-label": t("pp.evaluation", { round: round.round }) },
    h("h2", {}, t("pp.evaluation", { round: round.round })),
    round.stacks.map((stack) => h("div", { class: "pp-stack" },
      h("p", {}, t("pp.photo_got", { name: name(ctx, stack.seat), count: round.points[stack.seat] })
        + (stack.random_last_bonus ? ` ${t("pp.random_bonus")}` : "")),
      row(card(round.table[stack.seat], size, { scale, caption: t("pp.the_photo") }),
        stack.order.map((entry, i) => {
          if (entry.face_down) {
            const w = Math.round(size.cw * scale), hh = Math.round(size.ch * scale);
            return h("div", { class: "slot", style: `width:${w}px` },
              s("svg", { width: w, height: hh, class: "card-svg", role: "img", "aria-label": t("pp.face_down_label") },
                s("rect", { width: w, height: hh, rx: 6, fill: "#555" })), h("div", { class: "caption" }, t("pp.face_down")));
          }
          const who = entry.random ? t("pp.random") : entry.claimed ? [h("span", { translate: "no" }, name(ctx, entry.giver)), ` +${entry.giver_points}`] : t("pp.unclaimed");
          return card(entry.card, size, { scale, caption: [`${i + 1}. `, who, entry.comment ? ` “${entry.comment}”` : ""],
                                          mark: entry.random ? t("pp.random_mark") : null, just: stack.seat === mover ? t("pp.just_ranked") : false });
        })))));
}

// ---- the story: events and the breakdown in words (the shell's move log, replay and result) ---
export function describeEvent(event, { name }) {
  const who = event.actor !== null && event.actor !== undefined ? name(event.actor) : "";
  const late = event.auto ? ` ${t("story.late")}` : "";
  if (event.type === "CardsGiven") {
    const gifts = event.gifts ? Object.entries(event.gifts).map(([to, ids]) => t("pp.ev_gift", { count: ids.length, name: name(Number(to)) })).join(", ") : "";
    return gifts ? t("pp.ev_gave", { who, gifts, late }) : t("pp.ev_gave_hidden", { who, late });
  }
  if (event.type === "CardsRanked") return t("pp.ev_ranked", { who, late });
  if (event.type === "RoundEvaluated") {
    const ev = event.evaluation || {};
    const points = (ev.points || []).map((p, seat) => `${name(seat)} +${p}`).join(", ");
    return { text: t("pp.ev_evaluated", { round: ev.round ?? event.round, points }), moment: true };
  }
  return null;
}

export function describeBreakdown(b) {
  return [t("pp.b_giver", { count: b.as_giver ?? 0 }), t("pp.b_ranker", { count: b.as_ranker ?? 0 }),
    t("pp.b_top", { count: b.top_card ?? 0 }), t("pp.b_random", { count: b.random_last ?? 0 })];
}
