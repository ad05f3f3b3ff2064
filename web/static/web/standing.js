// The game page's standing: the players bar (names, each side's score so far, clocks, whose
// turn), the game's state in plain words (the page's heading and the tab's title), the Fairness
// section (the seed, disputes) and the word on a move on its way ("Sending…", "Couldn't send").
// Scores come from the server's `standing`, counted from this viewer's view alone.
import { h, fill, icon } from "./svg.js";
import { t } from "./i18n.js";

export const playerName = (game, seat) => game.players.find((p) => p.seat === seat)?.username ?? t("game.someone");

// A clock in the units it is counted in: days and hours for a correspondence game, hours and
// minutes within the day, minutes and seconds (m:ss) in the last hour.
export const clockText = (seconds) => {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60);
  if (d) return t("clock.days", { d, h: hh });
  if (hh) return t("clock.hours", { h: hh, m: String(mm).padStart(2, "0") });
  return `${mm}:${String(s % 60).padStart(2, "0")}`;
};

const deadlineOf = (clock) => (clock.since ? new Date(clock.since).getTime() + clock.left * 1000 : null);

/** Who won, as the viewer reads it: "you won", "ann won", "ann and bob won", "the team won". */
function outcome(game) {
  const result = game.result;
  if (!result) return null;
  if (result.cooperative) return result.cooperative.won ? t("status.team_won") : t("status.team_lost");
  const winners = result.winners || [];
  if (game.your_seat !== null && game.your_seat !== undefined && !result.cooperative) {
    if (winners.includes(game.your_seat)) return winners.length > 1 ? t("status.you_shared") : t("status.you_won");
    if (winners.length) return t("status.you_lost", { names: winners.map((s) => playerName(game, s)).join(t("common.and")), count: winners.length });
  }
  return winners.length ? t("status.they_won", { names: winners.map((s) => playerName(game, s)).join(t("common.and")), count: winners.length }) : t("status.no_winner");
}

/** The game's state in plain words: "Waiting for players (1 of 2)", "Your turn", "Bob to play",
 * "Finished — you won", "Aborted". */
export function statusWords(game, turnWords = null) {
  switch (game.status) {
    case "open": return t("status.open", { count: game.players.length, seats: game.seats });
    case "active": {
      if (game.your_turn) return turnWords || t("status.your_turn");
      const names = (game.active_seats || []).map((s) => playerName(game, s));
      return names.length ? t("status.to_play", { names: names.join(t("common.and")), count: names.length }) : t("status.playing");
    }
    case "finished": {
      const who = outcome(game);
      return who ? t("status.finished_who", { who }) : t("status.finished");
    }
    case "aborted": return t("status.aborted");
    case "cancelled": return t("status.cancelled");
    default: return game.status;
  }
}

/** One entry per side: its seats, its score so far (null: none kept), and whether it is to play. */
function sides(game) {
  const standing = game.status === "finished" && game.result?.scores && !(game.standing || []).some((s) => s.seats.length > 1)
    ? game.result.scores.map((score, seat) => ({ seats: [seat], score }))
    : game.standing;
  if (standing && standing.length) return standing.map((side) => ({ seats: side.seats, score: side.score }));
  return game.players.map((p) => ({ seats: [p.seat], score: null }));
}

/** The players bar: each side's names (a bot marked, you marked), its score so far, each seat's
 * clock, and who is to play. Returns { node, stop } (stop ends the clocks' ticking). */
export function playersBar(game) {
  const realTime = Boolean(game.options?.hourglass_seconds);
  const clocks = game.status === "active" && game.clocks ? game.clocks.seats || {} : {};
  const ticks = [];
  const active = new Set(game.status === "active" ? game.active_seats || [] : []);
  const list = h("ul", { class: "players players-bar", "aria-label": t("bar.label") });
  for (const side of sides(game)) {
    const mine = side.seats.includes(game.your_seat);
    const toPlay = side.seats.some((s) => active.has(s));
    const names = side.seats.map((seat) => {
      const p = game.players.find((x) => x.seat === seat);
      if (!p) return null;
      return h("span", { class: "name", "data-seat": seat }, h("span", { translate: "no" }, p.username),
        p.bot ? h("span", { class: "bot-mark" }, ` ${t("common.bot")}`) : null,
        seat === game.your_seat ? h("span", { class: "you-mark" }, ` ${t("common.you")}`) : null);
    }).filter(Boolean);
    const joined = names.flatMap((n, i) => (i ? [", ", n] : [n]));
    const seatClocks = side.seats.map((seat) => {
      const clock = clocks[seat];
      // A real-time game is played against its hourglass (drawn by the table): a move clock of
      // an hour or more there only guards against an abandoned game, and is not shown.
      if (!clock || (realTime && (clock.allowance ?? clock.left) >= 3600)) return null;
      const due = deadlineOf(clock);
      const node = h("span", { class: "clock", "data-seat": seat });
      const tick = () => {
        const left = due ? (due - Date.now()) / 1000 : clock.left;
        const text = clockText(left);
        fill(node, due ? icon("clock", 16) : null, side.seats.length > 1 ? `${playerName(game, seat)} ` : "", text);
        node.setAttribute("aria-label", due ? t("bar.clock_running", { name: playerName(game, seat), time: text }) : t("bar.clock_waiting", { name: playerName(game, seat), time: text }));
      };
      tick();
      ticks.push(tick);
      return node;
    }).filter(Boolean);
    list.append(h("li", { class: `side${toPlay ? " to-play" : ""}${mine ? " mine" : ""}`, "data-seats": side.seats.join(" ") },
      h("span", { class: "names" }, joined),
      side.score !== null && side.score !== undefined
        ? h("span", { class: "score", "data-score": side.score }, t("bar.points", { count: side.score })) : null,
      ...seatClocks,
      toPlay ? h("span", { class: "turn-mark" }, t("bar.to_play")) : null));
  }
  const timer = ticks.length ? setInterval(() => ticks.forEach((tick) => tick()), 1000) : null;
  return { node: list, stop: () => clearInterval(timer) };
}

/** The seed (its hash from the creation, the seed itself at the end) and the dispute form, under
 * one heading below the table: how a player checks the game was dealt fairly. */
export function fairnessSection(game, ...disputes) {
  return h("section", { class: "fairness", "aria-labelledby": "fairness-title" },
    h("h2", { id: "fairness-title" }, t("fair.title")),
    h("p", { class: "help" }, t("fair.explain")),
    h("p", {}, t("fair.seed_hash"), " ", h("code", { class: "seed-hash", translate: "no" }, game.seed_hash)),
    game.seed ? h("p", {}, t("fair.seed"), " ", h("code", { class: "seed", translate: "no" }, game.seed)) : null,
    ...disputes);
}

/** The word on a move on its way: "Sending…", then nothing, or "Couldn't send: <why>" with a
 * Retry button. */
export function sendStatus() {
  const node = h("div", { class: "send-status", role: "status", "aria-live": "polite" });
  return {
    node,
    sending() { node.dataset.state = "sending"; fill(node, h("p", { class: "sending" }, t("send.sending"))); },
    done() { delete node.dataset.state; fill(node); },
    failed(why, retry) {
      node.dataset.state = "failed";
      fill(node, h("p", { class: "send-failed" }, t("send.failed", { why }), " ",
        h("button", { type: "button", class: "retry", onclick: retry }, t("send.retry"))));
    },
  };
}
