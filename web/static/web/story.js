// A game tells its story: each event in words (the move log, the replay, the last move) and the
// result as a ranked table with each seat's breakdown in words and numbers. The words for a
// kind's own events come from its table module (`describeEvent`, `describeBreakdown`), the
// events as `/games/{id}/events/` gives them to the viewer (so nothing hidden is ever named).
import { h } from "./svg.js";
import { t, formatList, formatDecimal } from "./i18n.js";

export const seatName = (game, seat) => game.players.find((p) => p.seat === seat)?.username ?? t("game.someone");

// A breakdown's key or an event's type the client has no words for: the server's name for it,
// made readable (a kind added later still shows something).
const words = (key) => { const id = `breakdown.${key}`; const said = t(id); return said === id ? key.replace(/_/g, " ") : said; };
const camelWords = (type) => type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/** One event in words: { text, moment } (a moment deserves to be seen: a verdict, a photo...). */
export function describeEvent(event, game, module) {
  const who = event.actor === null || event.actor === undefined ? null : seatName(game, event.actor);
  const data = event.data || {};
  switch (event.type) {
    case "GameCreated": return { text: t("story.created", { count: data.seats }) };
    case "PlayerJoined": return { text: t("story.joined", { name: data.username ?? who }) };
    case "PlayerLeft": return { text: t("story.left", { name: who ?? data.username ?? t("story.a_player") }) };
    case "GameStarted": return { text: t("story.started") };
    case "GameFinished": {
      const winners = (data.result?.winners || []).map((s) => seatName(game, s));
      return { text: winners.length ? t("story.over_won", { names: formatList(winners), count: winners.length }) : t("story.over_none"), moment: true };
    }
    case "GameAborted": return { text: t("story.aborted"), moment: true };
    case "PlayerResigned": return { text: t("story.player_resigned", { name: who ?? t("story.a_player") }), moment: true };
    case "DisputeResolved": return { text: disputeDecided(data), moment: true };
    case "GameRolledBack": return { text: rolledBack(data), moment: true };
    case "TimerExpired": {
      const name = data.seat === null || data.seat === undefined ? null : seatName(game, data.seat);
      if (!name) return { text: t("story.timer_expired_game") };
      return { text: data.policy === "forfeit" ? t("story.timer_expired_forfeit", { name }) : t("story.timer_expired", { name }), moment: data.policy === "forfeit" };
    }
    case "SeatForfeited": {
      const name = seatName(game, data.seat ?? event.actor);
      const id = { resigned: "story.resigned", vanished: "story.vanished" }[data.reason] || "story.seat_forfeited";
      return { text: t(id, { name }), moment: true };
    }
    case "DisputeOpened": return { text: t("story.dispute_opened") };
    case "GameCancelled": return { text: t("story.cancelled") };
    default: break;
  }
  const own = module?.describeEvent?.(event, { game, name: (seat) => seatName(game, seat) });
  if (own) return typeof own === "string" ? { text: own } : own;
  return { text: `${who ? `${who}: ` : ""}${camelWords(event.type)}${event.auto ? ` ${t("story.late")}` : ""}.` };
}

function disputeDecided(data) {
  const vars = { seq: data.seq, who: data.decided_by ?? t("story.dispute_staff"), message: data.resolution };
  const said = data.status === "upheld" ? t("story.dispute_upheld", vars) : t("story.dispute_dismissed", vars);
  return data.resolution ? `${said} ${t("story.dispute_message", vars)}` : said;
}

function rolledBack(data) {
  const voided = data.voided || [];
  const back = t("story.rolled_back", { seq: data.to + 1 });
  return voided.length ? `${back} ${t("story.moves_voided", { count: voided.length, moves: voided.join(", ") })}` : back;
}

const formatDecimalOrWhole = (n) => (Number.isInteger(n) ? String(n) : formatDecimal(n));

/** A breakdown in words: the kind's own, or every number named (nested ones flattened). */
export function describeBreakdown(breakdown, game, module) {
  if (!breakdown || typeof breakdown !== "object") return [];
  const own = module?.describeBreakdown?.(breakdown, { game, name: (seat) => seatName(game, seat) });
  if (own) return own;
  const lines = [];
  const walk = (value, path) => {
    if (value === null || value === undefined) return;
    if (typeof value === "object" && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, words(k)]);
    } else if (Array.isArray(value)) lines.push(`${path.join(", ")}: ${value.join(", ") || t("breakdown.none")}`);
    else if (typeof value === "boolean") { if (value) lines.push(path.join(", ")); }
    else lines.push(`${path.join(", ")}: ${value}`);
  };
  for (const [k, v] of Object.entries(breakdown)) if (k !== "total") walk(v, [words(k)]);
  return lines;
}

const ordinal = (n) => t("result.place_ordinal", { count: n });

/** The result: a headline, then seats ranked by place (ties share it), each with its score and
 * breakdown. Works from `places`, `winners` and `cooperative` alone, whatever the kind. */
export function resultSection(game, module) {
  if (game.status === "aborted") {
    return h("section", { class: "result", "aria-label": t("result.label") }, h("h2", {}, t("result.aborted_title")),
      h("p", {}, t("result.aborted")));
  }
  const result = game.result;
  if (!result) return null;
  const places = result.places || [];
  const winners = (result.winners || []).map((s) => seatName(game, s));
  let headline;
  // One team against the game: it won or it lost together (no seat is named a winner of a loss).
  if (result.cooperative) headline = t(result.cooperative.won ? "result.team_won" : "result.team_lost", { target: result.cooperative.target });
  else headline = winners.length ? t("result.won", { names: formatList(winners), count: winners.length }) : t("status.no_winner");
  const seats = game.players.map((p) => p.seat)
    .sort((a, b) => (places[a] ?? 99) - (places[b] ?? 99) || a - b);
  const rows = seats.map((seat) => {
    const lines = describeBreakdown(result.breakdown?.[seat], game, module);
    const change = (result.rating_changes || []).find((r) => r.seat === seat);
    return h("tr", { "data-seat": seat, "data-place": places[seat] ?? "", class: (result.winners || []).includes(seat) ? "winner" : "" },
      h("td", {}, places[seat] ? ordinal(places[seat]) : "—"),
      h("th", { scope: "row" }, h("span", { translate: "no" }, seatName(game, seat)), seat === game.your_seat ? ` ${t("common.you")}` : ""),
      h("td", { class: "score" }, result.scores?.[seat] === undefined ? "" : formatDecimalOrWhole(result.scores[seat])),
      h("td", { class: "breakdown" }, lines.length ? h("ul", {}, lines.map((line) => h("li", {}, line))) : "—",
        change ? h("p", { class: "rating-change" }, t("result.rating", { before: formatDecimal(change.before), after: formatDecimal(change.after), delta: formatDecimal(change.delta, true) })) : null));
  });
  return h("section", { class: "result", "aria-label": t("result.label") },
    h("h2", {}, t("result.title", { headline })),
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("result.places_label") }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.place")), h("th", { scope: "col" }, t("result.player")),
        h("th", { scope: "col" }, t("result.score")), h("th", { scope: "col" }, t("result.how")))),
      h("tbody", {}, rows))),
    // "forfeit" is the server's own tie-break (a seat out ranks below the seats still in).
    result.tie_break ? h("p", {}, result.tie_break === "forfeit" ? t("result.tie_break_forfeit") : t("result.tie_break", { rule: result.tie_break })) : null);
}
