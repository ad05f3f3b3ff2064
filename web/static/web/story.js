// A game tells its story: each event in words (the move log, the replay, the last move) and the
// result as a ranked table with each seat's breakdown in words and numbers. The words for a
// kind's own events come from its table module (`describeEvent`, `describeBreakdown`), the
// events as `/games/{id}/events/` gives them to the viewer (so nothing hidden is ever named).
import { h } from "./svg.js";

export const seatName = (game, seat) => game.players.find((p) => p.seat === seat)?.username ?? `seat ${seat}`;

const words = (key) => key.replace(/_/g, " ");
const camelWords = (type) => type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/** One event in words: { text, moment } (a moment deserves to be seen: a verdict, a photo...). */
export function describeEvent(event, game, module) {
  const who = event.actor === null || event.actor === undefined ? null : seatName(game, event.actor);
  const data = event.data || {};
  switch (event.type) {
    case "GameCreated": return { text: `The game was created for ${data.seats} players.` };
    case "PlayerJoined": return { text: `${data.username ?? who} joined.` };
    case "PlayerLeft": return { text: `${who ?? data.username ?? "A player"} left.` };
    case "GameStarted": return { text: "The game started." };
    case "GameFinished": {
      const winners = (data.result?.winners || []).map((s) => seatName(game, s));
      return { text: `The game is over: ${winners.length ? `${winners.join(" and ")} won` : "no winner"}.`, moment: true };
    }
    case "GameAborted": return { text: "The game was aborted: it counts for nobody.", moment: true };
    case "PlayerResigned": return { text: `${who ?? "A player"} resigned.`, moment: true };
    default: break;
  }
  const own = module?.describeEvent?.(event, { game, name: (seat) => seatName(game, seat) });
  if (own) return typeof own === "string" ? { text: own } : own;
  return { text: `${who ? `${who}: ` : ""}${camelWords(event.type)}${event.auto ? " (played by the server: time ran out)" : ""}.` };
}

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
    } else if (Array.isArray(value)) lines.push(`${path.join(", ")}: ${value.join(", ") || "none"}`);
    else if (typeof value === "boolean") { if (value) lines.push(path.join(", ")); }
    else lines.push(`${path.join(", ")}: ${value}`);
  };
  for (const [k, v] of Object.entries(breakdown)) if (k !== "total") walk(v, [words(k)]);
  return lines;
}

const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

/** The result: a headline, then seats ranked by place (ties share it), each with its score and
 * breakdown. Works from `places`, `winners` and `cooperative` alone, whatever the kind. */
export function resultSection(game, module) {
  if (game.status === "aborted") {
    return h("section", { class: "result", "aria-label": "Result" }, h("h2", {}, "Result: aborted"),
      h("p", {}, "This game was aborted before its end: it counts for nobody and changes no rating."));
  }
  const result = game.result;
  if (!result) return null;
  const places = result.places || [];
  const winners = (result.winners || []).map((s) => seatName(game, s));
  let headline;
  // One team against the game: it won or it lost together (no seat is named a winner of a loss).
  if (result.cooperative) headline = result.cooperative.won ? `the team won (target ${result.cooperative.target})` : `the team lost (target ${result.cooperative.target} not reached)`;
  else headline = winners.length ? `${winners.join(" and ")} won` : "no winner";
  const seats = game.players.map((p) => p.seat)
    .sort((a, b) => (places[a] ?? 99) - (places[b] ?? 99) || a - b);
  const rows = seats.map((seat) => {
    const lines = describeBreakdown(result.breakdown?.[seat], game, module);
    const change = (result.rating_changes || []).find((r) => r.seat === seat);
    return h("tr", { "data-seat": seat, "data-place": places[seat] ?? "", class: (result.winners || []).includes(seat) ? "winner" : "" },
      h("td", {}, places[seat] ? ordinal(places[seat]) : "—"),
      h("th", { scope: "row" }, seatName(game, seat), seat === game.your_seat ? " (you)" : ""),
      h("td", { class: "score" }, String(result.scores?.[seat] ?? "")),
      h("td", { class: "breakdown" }, lines.length ? h("ul", {}, lines.map((line) => h("li", {}, line))) : "—",
        change ? h("p", { class: "rating-change" }, `Rating ${change.before.toFixed(1)} → ${change.after.toFixed(1)} (${change.delta >= 0 ? "+" : ""}${change.delta.toFixed(1)})`) : null));
  });
  return h("section", { class: "result", "aria-label": "Result" },
    h("h2", {}, `Result: ${headline}`),
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": "Places and scores" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Place"), h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "How it was scored"))),
      h("tbody", {}, rows))),
    result.tie_break ? h("p", {}, `Ties are broken by: ${result.tie_break}.`) : null);
}
