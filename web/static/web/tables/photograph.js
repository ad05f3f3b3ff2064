// Photograph: the layout (faces and backs), every hand, the reels (blurred shots hatched), the
// good shot cards and the sunset. Take = a row end, then how far; wind = a hand card, then where.
// Colours always carry their name and a symbol, never the hue alone. Only `legalMoves` is offered.
import { s, h, clickable, stamp, ring, fill, icon } from "../svg.js";
import { t } from "../i18n.js";

export const COLOURS = {
  blue: ["#2b6cb0", "◆"], red: ["#c53030", "♥"], yellow: ["#d69e2e", "★"], green: ["#2f855a", "♣"],
  brown: ["#7b4a2a", "■"], gray: ["#718096", "▲"], purple: ["#6b46c1", "♠"],
};
const picks = new Map();     // `${game}:${version}` -> {side: [row, side]} or {from: i}

const name = (ctx, seat) => ctx.game.players.find((p) => p.seat === seat)?.username ?? t("game.someone");
/** A colour by its name in the player's language ("blue", "bleu", "blau"). */
export const colourName = (colour) => t(`ph.colour_${colour}`);
const faceUp = (c) => t("ph.card", { colour: colourName(c.colour), number: c.number });
export const describe = (c) => c.number !== undefined
  ? faceUp(c) : t("ph.face_down", { colour: colourName(c.colour), range: c.range ?? t("ph.hidden") });

// The hatching of a blurred shot, defined once per page (every card SVG refers to it).
function ensureDefs() {
  if (document.getElementById("photograph-defs")) return;
  document.body.append(s("svg", { id: "photograph-defs", width: 0, height: 0, "aria-hidden": "true", style: "position:absolute" },
    s("defs", {}, s("pattern", { id: "blur", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 8, height: 8, fill: "#eee" }), s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#999", "stroke-width": 4 })))));
}

/** A shot card as an SVG of its own, at its real pixel size: colour, symbol, number (or the
 * back's range), colour name. Text never below 12 px whatever the card's size. */
function card(c, w, hh, attrs = {}, { action, actionLabel, extraText, badge, step = true } = {}) {
  const [fill_, sym] = COLOURS[c.colour] || ["#999", "?"];
  const known = c.number !== undefined;
  const label = c.blurred ? t("ph.blurred_shot", { colour: colourName(c.colour) }) : describe(c);
  const ink = known || c.blurred ? "#111" : "#fff";
  const big = Math.max(14, Math.round(hh * 0.3));
  const { class: more = "", ...rest } = attrs;
  // The card's own marks are a picture: its words are its label (and, for a control, the start
  // of the control's name, so what it shows is what it is called).
  const g = s("g", { class: `pcard ${known ? "face" : "back"} ${more}`.trim(), "data-colour": c.colour,
                     "data-number": known ? c.number : undefined, ...rest },
    action ? null : s("title", {}, label),
    s("rect", { x: 2, y: 2, width: w - 4, height: hh - 4, rx: 6, fill: known || c.blurred ? "#fff" : fill_, stroke: fill_, "stroke-width": 4 }),
    c.blurred ? s("rect", { x: 5, y: 5, width: w - 10, height: hh - 10, fill: "url(#blur)" }) : null,
    // A space between the card's words: they read as words ("♥ 12 red"), not run together.
    " ", s("text", { x: extraText ? w * 0.28 : w / 2, y: Math.max(16, hh * 0.24), "text-anchor": "middle", "font-size": Math.max(13, Math.round(hh * 0.2)), fill: known || c.blurred ? fill_ : "#fff" }, sym),
    " ", s("text", { x: w / 2, y: hh * 0.62, "text-anchor": "middle", "font-size": known ? big : 13, "font-weight": "bold", fill: ink },
      known ? String(c.number) : c.blurred ? "≈" : c.range ?? ""),
    // (the banner of a card offered stands where its colour's name was: the symbol names it)
    " ", hh >= 70 && !badge ? s("text", { x: w / 2, y: hh - 9, "text-anchor": "middle", "font-size": 12, fill: ink, ...fit(colourName(c.colour), w - 8) }, colourName(c.colour)) : null,
    " ", extraText || null,
    " ",
    // A card offered (to take, or to wind) wears a banner saying so: more than a border's colour.
    badge ? s("g", { class: "badge" },
      s("rect", { x: 0, y: hh - 22, width: w, height: 22, rx: 0, fill: "#1d1d1f" }),
      s("text", { x: w / 2, y: hh - 6, "text-anchor": "middle", "font-size": 12, "font-weight": "bold", fill: "#fff", ...fit(badge, w - 6, true) }, badge)) : null,
    ring(0, 0, w, hh, 6));
  if (action) clickable(g, actionLabel, action, { choice: step });
  return s("svg", { width: w, height: hh, viewBox: `0 0 ${w} ${hh}`, class: "table-svg card-svg",
                    role: action ? "group" : "img", "aria-label": action ? null : label }, g);
}

/** The words a card shows, in the order it shows them (its symbol, number or range, colour,
 * banner): a control's name starts with them. */
const shown = (c, hh, { seen = false, badge = null } = {}) => [COLOURS[c.colour]?.[1], c.number !== undefined ? String(c.number) : c.blurred ? "≈" : c.range,
  hh >= 70 && !badge ? colourName(c.colour) : null, seen ? t("ph.seen") : null, badge].filter(Boolean).join(" ");

const box = (cls, ...children) => h("div", { class: cls }, children);

// A word on a card fits the card in every language: one longer than the room is drawn narrower
// (its letters closer), never in a smaller size. The width is estimated from 12 px text.
function fit(text, room, bold = false) {
  return String(text).length * (bold ? 7.4 : 6.8) > room ? { textLength: Math.round(room), lengthAdjust: "spacingAndGlyphs" } : {};
}

export function renderTable(root, ctx, focus = null) {
  const view = ctx.view;
  if (!view) { fill(root, h("p", {}, t("ph.nothing"))); stamp(root); return; }
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

  // The layout, with the row ends to take from.
  const layout = view.layout.map((rowCards, r) => {
    const order = rowCards.map((_, i) => i).filter((i) => rowCards[i]);
    if (pick.side?.[1] === "right") order.reverse();
    const end = (side) => {
      const options = takes.filter((m) => m.row === r && m.side === side);
      if (!options.length) return h("span", { class: "row-end-space" });
      const chosen = pick.side?.[0] === r && pick.side?.[1] === side;
      const text = t(side === "left" ? "ph.take_left" : "ph.take_right", { row: r + 1 });
      return h("button", { type: "button", class: `choice row-end${chosen ? " selected" : ""}`, "data-choice": text,
                           "aria-label": text, "aria-pressed": chosen ? "true" : "false", style: `height:${CH}px`,
                           onclick: () => { pick.side = [r, side]; delete pick.from; redraw(".ph-layout .target"); } },
        icon(side === "left" ? "arrow-right" : "arrow-left"), h("span", {}, t("ph.take")));
    };
    const places = rowCards.map((c, i) => {
      if (!c) {
        // The last move highlighted: the places just taken say so.
        const taken = ctx.lastEvent?.type === "SubjectChosen" && (ctx.lastEvent.cards || []).some((x) => x.pos?.[0] === r && x.pos?.[1] === i);
        return h("span", { class: `ph-empty${taken ? " just-taken" : ""}`, style: `width:${CW}px;height:${CH}px` }, taken ? t("ph.just_taken") : null);
      }
      const count = order.indexOf(i) + 1;
      const move = pick.side?.[0] === r && takes.find((m) => m.row === r && m.side === pick.side[1] && m.count === count);
      if (!move) return card(c, CW, CH, { "data-row": r, "data-place": i });
      // Offered: a banner "take N" on each card that can end the subject, the cards it takes with it
      // lifted as a group (hover or focus), so what a click takes is plain before it is made.
      const badge = t("ph.take_n", { count });
      return card(c, CW, CH, { "data-row": r, "data-place": i, "data-count": count, class: "offered target" }, {
        badge,
        action: () => { picks.delete(key); ctx.submit(move); },
        actionLabel: t("ph.take_label", { shown: shown(c, CH, { badge }), count, side: t(`ph.side_${move.side}`), row: r + 1 }),
      });
    });
    return box("ph-row", end("left"), places, end("right"));
  });
  const help = takes.length ? (pick.side ? t("ph.help_take_card") : t("ph.help_take_end"))
    : winds.length ? (pick.from !== undefined ? t("ph.help_wind_to") : t("ph.help_wind_from")) : "";
  sections.push(h("section", { class: "ph-layout", "aria-label": t("ph.layout") }, h("h2", {}, t("ph.layout")),
    help ? h("p", { class: "help ph-help", role: "status" }, help) : null, layout));

  // Hands: mine first (right under the layout, where the next move is made), then the others'
  // as far as I may see them.
  const seats = view.hands.map((_, seat) => seat);
  const handOrder = ctx.seat !== null && ctx.seat !== undefined ? [ctx.seat, ...seats.filter((x) => x !== ctx.seat)] : seats;
  const wound = ctx.lastEvent?.type === "FilmWound" && ctx.lastEvent.move?.to !== undefined ? ctx.lastEvent : null;
  for (const seat of handOrder) {
    const hand = view.hands[seat];
    const mine = seat === ctx.seat;
    const cardsNodes = [];
    hand.forEach((c, i) => {
      const attrs = { "data-hand": seat, "data-pos": i };
      let extra = {};
      const seenMark = mine && c.public;
      const seen = seenMark ? s("text", { x: CW - 6, y: 16, "text-anchor": "end", "font-size": 12, fill: "#555", ...fit(t("ph.seen"), CW * 0.5) }, t("ph.seen")) : null;
      const moving = mine && pick.from === i;
      if (mine && winds.length && pick.from === undefined && winds.some((m) => m.from === i)) {
        const badge = t("ph.wind_badge");
        attrs.class = "offered";
        extra = { badge, action: () => { pick.from = i; delete pick.side; redraw(".ph-hand .drop-slot"); },
                  actionLabel: t("ph.wind_from_label", { shown: shown(c, CH, { seen: seenMark, badge }), position: i + 1 }) };
      } else if (moving) {
        const badge = t("ph.moving");
        attrs.class = "selected moving";
        extra = { badge, step: false, action: () => { delete pick.from; redraw(".ph-hand .offered"); },
                  actionLabel: t("ph.wind_cancel_label", { shown: shown(c, CH, { seen: seenMark, badge }) }) };
      }
      // The card the last wind moved, where it went: "just wound" under it.
      const justWound = wound && wound.actor === seat && wound.move.to === i;
      if (justWound) attrs.class = `${attrs.class || ""} just-wound`.trim();
      cardsNodes.push(h("div", { class: "hand-slot" }, card(c, CW, CH, attrs, { ...extra, extraText: seen }),
        justWound ? h("span", { class: "just-wound-note" }, t("ph.just_wound")) : null));
      // While a card is picked up, each place it may go is a drop target of its own, between
      // the cards: "here" after the card it would follow.
      if (mine && pick.from !== undefined) {
        const target = winds.find((m) => m.from === pick.from && m.to === i);
        if (target) {
          const label = t("ph.drop_label", { card: describe(hand[pick.from]), after: describe(c), position: i + 1 });
          cardsNodes.push(h("button", { type: "button", class: "choice drop-slot target", "data-choice": label, "aria-label": label,
            style: `height:${CH}px`, onclick: () => { picks.delete(key); ctx.submit(target); } },
          icon("arrow-down"), h("span", {}, t("ph.here"))));
        }
      }
    });
    sections.push(h("section", { class: `ph-hand${mine ? " mine" : ""}`, "aria-label": t("ph.hand_of", { name: name(ctx, seat) }) },
      h("h2", {}, `${mine && !ctx.review ? t("ph.your_hand") : t("ph.hand_of", { name: name(ctx, seat) })}${view.wound?.[seat] ? ` ${t("ph.wound")}` : ""}`),
      box("cards", cardsNodes)));
  }
  if (view.my_wind) sections.push(h("p", {}, t("ph.your_wind", { from: view.my_wind.from + 1, to: view.my_wind.to + 1 })));

  // Reels (each colour a column that wraps, however long the reel) and good shot cards.
  for (const seat of handOrder) {
    const reels = view.reels[seat];
    const columns = view.colours.map((colour) => {
      const [tint, sym] = COLOURS[colour];
      const good = view.good_shots[colour];
      return h("div", { class: "reel", "data-reel": colour },
        h("div", { class: "reel-name" }, h("span", { class: "swatch", style: `background:${tint}`, "aria-hidden": "true" }),
          `${sym} ${colourName(colour)}${good?.holder === seat ? ` · ${t("ph.good_shot")}` : ""}`),
        box("reel-cards", (reels[colour] || []).map((c) => card(c, 36, 46))));
    });
    sections.push(h("section", { class: "ph-reels", "aria-label": t("ph.reels_of", { name: name(ctx, seat) }) },
      h("h2", {}, seat === ctx.seat && !ctx.review ? t("ph.your_reels") : t("ph.reels_of", { name: name(ctx, seat) })), box("reels", columns)));
  }
  const goods = Object.entries(view.good_shots).map(([colour, g]) =>
    t("common.labelled", { label: `${COLOURS[colour][1]} ${colourName(colour)}`, value: g.void ? t("ph.void") : g.holder === null ? t("ph.open") : name(ctx, g.holder) }));
  sections.push(h("p", {}, t("ph.good_shots", { count: view.good_shot_threshold, list: goods.join(" · ") })));
  if (view.shown?.length) {
    sections.push(h("p", { class: "moment" }, t("ph.just_blurred", { list: view.shown.map((c) => t("common.labelled", { label: name(ctx, c.seat), value: faceUp(c) })).join(", ") })));
  }
  if (view.out?.length) sections.push(h("p", {}, t("ph.out", { list: view.out.map(describe).join(", ") })));
  const sunset = t({ deck: "ph.sunset_deck", revealed: "ph.sunset_revealed", box: "ph.sunset_box" }[view.sunset] || "ph.sunset_deck");
  sections.push(h("p", { class: "ph-status" }, [t("ph.deck", { count: view.deck_size }), sunset,
    view.to_play ? t("ph.to_play", { count: view.to_play }) : null].filter(Boolean).join(" · ")));
  fill(root, h("div", { class: "photograph", role: "group", "aria-label": t("ph.table") }, sections));
  stamp(root);
  if (focus) root.querySelector(focus)?.focus();
}

// ---- the story: events and the breakdown in words (the shell's move log, replay and result) ---
export function describeEvent(event, { name }) {
  const who = event.actor !== null && event.actor !== undefined ? name(event.actor) : "";
  const late = event.auto ? ` ${t("ph.late")}` : "";
  if (event.type === "SubjectChosen") {
    const m = event.move || {};
    const cards = (event.cards || []).map((c) => (c.number !== undefined ? faceUp(c) : t("ph.card_back", { colour: colourName(c.colour), range: c.range })));
    return t("ph.ev_took", { who, count: cards.length, side: t(`ph.side_${m.side}`), row: (m.row ?? 0) + 1, cards: cards.length ? t("common.list_after", { list: cards.join(", ") }) : "", late });
  }
  if (event.type === "FilmWound") {
    const shots = (event.played || []).map((p) => `${p.number !== undefined ? faceUp(p) : colourName(p.colour)}${p.blurred ? ` ${t("ph.blurred")}` : ""}`);
    const goods = (event.played || []).filter((p) => p.good_shot);
    const sunset = event.check?.sunset ? ` ${t("ph.ev_sunset")}` : "";
    const text = `${t(shots.length ? "ph.ev_wound_shot" : "ph.ev_wound", { who, shots: shots.join(", "), late })}`
      + goods.map((p) => ` ${t("ph.ev_good_shot", { name: name(p.seat), colour: colourName(p.colour) })}`).join("") + sunset;
    return { text, moment: goods.length > 0 || Boolean(sunset) };
  }
  return null;
}

export function describeBreakdown(b) {
  const lines = Object.entries(b.colours || {}).map(([colour, c]) => t("ph.b_colour", {
    sym: COLOURS[colour]?.[1] ?? "", colour: colourName(colour), shots: t("ph.b_shots", { count: c.shots }), blurred: c.blurred,
    good: c.good_shot ? t("ph.b_good") : "", missed: c.missed ? t("ph.b_missed") : "", points: t("bar.points", { count: c.points }) }));
  lines.push(t("ph.b_reels", { count: b.reels ?? 0, blurred: b.blurred ?? 0 }));
  lines.push(t("ph.b_goods", { count: b.good_shots ?? 0, longest: b.longest_reel ?? 0 }));
  if (b.missed_colour) lines.push(t("ph.b_missed_colour", { colour: colourName(b.missed_colour) }));
  return lines;
}
