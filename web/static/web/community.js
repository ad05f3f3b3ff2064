// Everything else the API offers, each on a page: settings (vacation, notifications, webhooks,
// tokens), profiles and ratings, leaderboards, open seeks, join links, rules, disputes.
// Like every screen, it only calls /api/v1/ and shows the server's own `detail` on a refusal.
import { get, post, api, del, ApiError } from "./api.js";
import { h, fill } from "./svg.js";
import { RULES } from "./rules.js";
import { pushSection } from "./push.js";

const when = (iso) => (iso ? new Date(iso).toLocaleString() : "never");
const link = (href, text, attrs = {}) => h("a", { href, ...attrs }, text);
const NOTE_TYPES = {
  your_turn: "It is your turn", reminder: "Your time is running out", timed_out: "A clock ran out",
  dispute: "A dispute about your game", finished: "A game ended", chat: "A chat message",
  invitation: "An invitation", abort_vote: "A vote to abort",
};
const CHANNELS = { inbox: "Inbox", email: "Email", webhook: "Webhook", push: "Push" };

/** #/settings: vacation, notification channels, webhooks, tokens (devices). */
export async function settingsPage(main, { say, showError, me }) {
  const [vacation, prefs, hooks, tokens] = await Promise.all([get("/accounts/vacation/"), get("/accounts/preferences/"),
    get("/accounts/webhooks/"), get("/accounts/tokens/")]);
  const again = () => settingsPage(main, { say, showError, me });
  const act = (fn, done) => async (e) => {
    e?.preventDefault?.();
    try { await fn(); if (done) say(done, "info"); await again(); } catch (error) { showError(error); }
  };

  // Vacation: the clocks of every game stop.
  const days = h("input", { id: "vacation-days", type: "number", min: 1, max: Math.floor(vacation.days_left) || 1, step: 1, value: 7 });
  const vacationBox = h("section", { "aria-label": "Vacation", class: "card wide" }, h("h2", {}, "Vacation"),
    vacation.on_vacation
      ? [h("p", {}, `You are on vacation until ${when(vacation.until)}: your clocks are stopped.`),
        h("button", { type: "button", onclick: act(() => del("/accounts/vacation/"), "Welcome back: your clocks run again.") }, "End my vacation now")]
      : [h("p", {}, `Your clocks stop while you are away. ${vacation.days_left} of ${vacation.days_per_year} days left this year.`),
        h("form", { class: "inline", onsubmit: act(() => post("/accounts/vacation/", { days: Number(days.value) }), "Vacation started.") },
          h("label", { for: days.id }, "Days away"), days, h("button", { type: "submit" }, "Start a vacation"))]);

  // Notifications: for each kind of news, where it goes.
  const rows = Object.entries(prefs.channels).map(([type, on]) => h("tr", {},
    h("th", { scope: "row" }, NOTE_TYPES[type] || type.replace(/_/g, " ")),
    Object.keys(CHANNELS).map((channel) => h("td", {}, h("input", { type: "checkbox", name: `${type}:${channel}`, checked: on.includes(channel),
      "aria-label": `${NOTE_TYPES[type] || type}: ${CHANNELS[channel]}` })))));
  const digest = h("input", { id: "digest", type: "number", min: 0, max: 10080, value: prefs.email_digest_minutes });
  const prefsForm = h("form", { "aria-label": "Notification settings" },
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": "News by channel" }, h("table", { class: "data" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "News"),
      Object.values(CHANNELS).map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, rows))),
    h("div", { class: "field" }, h("label", { for: digest.id }, "Collect emails into one digest every (minutes, 0: at once)"), digest),
    h("button", { type: "submit", class: "primary" }, "Save notification settings"));
  prefsForm.addEventListener("submit", act(() => {
    const channels = {};
    for (const type of Object.keys(prefs.channels)) {
      channels[type] = Object.keys(CHANNELS).filter((c) => prefsForm.querySelector(`[name='${type}:${c}']`).checked);
    }
    return api("/accounts/preferences/", { method: "PUT", body: { channels, email_digest_minutes: Number(digest.value) } });
  }, "Notification settings saved."));
  const notifyBox = h("section", { "aria-label": "Notifications", class: "card wide", id: "notification-settings" },
    h("h2", {}, "Notifications"), prefsForm, h("div", { class: "push-slot" }));

  // Webhooks: your own server hears your news.
  const url = h("input", { id: "webhook-url", type: "url", required: true, placeholder: "https://example.org/darkroom" });
  const hookBox = h("section", { "aria-label": "Webhooks", class: "card wide" }, h("h2", {}, "Webhooks"),
    h("p", { class: "help" }, "Your news, posted as JSON to your own address (signed: the secret is shown once)."),
    hooks.length ? h("ul", { class: "plain" }, hooks.map((hook) => h("li", {}, `${hook.url} (${hook.active ? "active" : "paused"}) `,
      h("button", { type: "button", onclick: act(() => del(`/accounts/webhooks/${hook.id}/`), "Webhook removed.") }, "Remove")))) : h("p", {}, "No webhook."),
    h("form", { class: "inline", onsubmit: act(async () => {
      const made = await post("/accounts/webhooks/", { url: url.value });
      if (made?.secret) window.alert(`The webhook's signing secret (shown once): ${made.secret}`);
    }, "Webhook added.") }, h("label", { for: url.id }, "Address"), url, h("button", { type: "submit" }, "Add a webhook")));

  // Tokens: one per device; revoke the ones you do not recognise.
  const tokenBox = h("section", { "aria-label": "Devices", class: "card wide" }, h("h2", {}, "Devices and tokens"),
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": "Devices and tokens" }, h("table", { class: "data" },
      h("thead", {}, h("tr", {}, ["Device", "Last used", "Expires", "Revoke"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, tokens.map((token) => h("tr", { "data-token": token.id },
        h("td", {}, token.device || "(unnamed)", token.current ? h("strong", {}, " (this device)") : null),
        h("td", {}, when(token.last_used_at)), h("td", {}, when(token.expires_at)),
        h("td", {}, token.current ? "" : h("button", { type: "button", onclick: act(() => del(`/accounts/tokens/${token.id}/`), "Token revoked.") }, "Revoke"))))))));

  fill(main, h("h1", {}, "Settings"), h("div", { class: "settings" }, vacationBox, notifyBox, hookBox, tokenBox),
    h("p", {}, "Your profile: ", link(`#/players/${encodeURIComponent(me.username)}`, me.username), "."));
  await pushSection(notifyBox.querySelector(".push-slot"), prefs, { say, showError });
}

/** #/players/<name>: a profile with its ratings. */
export async function profilePage(main, username) {
  const [player, kindList] = await Promise.all([get(`/players/${encodeURIComponent(username)}/`), get("/kinds/")]);
  const titles = Object.fromEntries((kindList.results || kindList).map((k) => [k.kind, k.title]));
  const kinds = player.kinds || [];
  fill(main, h("h1", {}, player.username, player.is_bot ? h("span", { class: "bot-mark" }, " (bot)") : null),
    player.is_bot ? h("p", { class: "help" }, `A computer player${player.bot_level ? ` (level ${player.bot_level})` : ""}, rated apart from people.`) : null,
    h("p", {}, `Playing since ${new Date(player.date_joined).toLocaleDateString()}.`),
    h("h2", {}, "Ratings"),
    kinds.length ? h("table", { class: "data ratings" }, h("thead", {}, h("tr", {}, ["Game", "Rating", "Played", "Won", "Last result"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, kinds.map((k) => {
        const last = (k.history || [])[k.history.length - 1];
        return h("tr", { "data-kind": k.kind }, h("td", {}, link(`#/leaderboard/${k.kind}`, titles[k.kind] || k.kind)),
          h("td", {}, k.rating ? k.rating.rating.toFixed(1) : "—"), h("td", {}, String(k.played ?? 0)), h("td", {}, String(k.won ?? 0)),
          h("td", {}, last ? `place ${last.place}, ${last.delta >= 0 ? "+" : ""}${last.delta.toFixed(1)}` : "—"));
      })))
      : h("p", {}, "No rated game yet."));
}

/** #/leaderboard/<kind>: the best players of a kind (rating = a conservative estimate). */
export async function leaderboardPage(main, kind) {
  const [kinds, board] = await Promise.all([get("/kinds/"), get(`/kinds/${kind}/leaderboard/?limit=100`)]);
  const list = kinds.results || kinds;
  const title = list.find((k) => k.kind === kind)?.title || kind;
  fill(main, h("h1", {}, `Leaderboard: ${title}`),
    h("nav", { "aria-label": "Leaderboards", class: "tabs" }, list.map((k) => link(`#/leaderboard/${k.kind}`, k.title, k.kind === kind ? { "aria-current": "page" } : {}))),
    board.results.length ? h("table", { class: "data leaderboard" },
      h("thead", {}, h("tr", {}, ["Rank", "Player", "Rating", "Games"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, board.results.map((row) => h("tr", { "data-player": row.username }, h("td", {}, String(row.rank)),
        h("td", {}, link(`#/players/${encodeURIComponent(row.username)}`, row.username), row.is_bot ? " (bot)" : null),
        h("td", {}, row.rating.toFixed(1)), h("td", {}, String(row.games))))))
      : h("p", {}, "Nobody has finished a rated game yet."));
}

/** #/rules/<kind>: a short rules page. */
export function rulesPage(main, kind) {
  const rules = RULES[kind];
  if (!rules) { fill(main, h("h1", {}, "Rules"), h("p", {}, "No rules page for this game yet.")); return; }
  fill(main, h("h1", {}, `How to play ${rules.title}`), h("p", {}, h("strong", {}, rules.players), ". ", rules.aim),
    h("ol", { class: "rules" }, rules.steps.map((step) => h("li", {}, step))),
    h("p", {}, "Every move the page offers is legal: the server lists them, and judges everything else."),
    h("p", {}, link("#/", "Back to the lobby")));
}

/** #/join/<code>: a join link, as a friend received it. */
export async function joinPage(main, code, { showError }) {
  fill(main, h("h1", {}, "Joining a game"), h("p", {}, "Taking your seat…"));
  try {
    const game = await post(`/join/${encodeURIComponent(code)}/`);
    location.hash = `#/games/${game.id ?? game.game}`;
  } catch (error) {
    fill(main, h("h1", {}, "This link does not open a game"),
      h("p", {}, error instanceof ApiError ? error.message : String(error)), h("p", {}, link("#/", "Back to the lobby")));
    if (!(error instanceof ApiError)) showError(error);
  }
}

/** The open seeks (public games with a free seat), for the lobby. */
export async function seeksSection(onJoin) {
  const seeks = await get("/seeks/?limit=20");
  return h("section", { "aria-label": "Open seeks" }, h("h2", {}, "Waiting for players"),
    seeks.results.length ? h("ul", { class: "games" }, seeks.results.map((g) => h("li", { class: "game-row", "data-seek": g.id },
      link(`#/games/${g.id}`, g.title || g.kind), ` ${g.players.length}/${g.seats}: ${g.players.map((p) => (p.bot ? `${p.username} (bot)` : p.username)).join(", ")} · `,
      clockWords(g.options), " ", g.your_seat === null ? h("button", { type: "button", onclick: () => onJoin(g) }, "Join") : null)))
      : h("p", {}, "Nobody is waiting: create a game below and share its link."));
}

export function clockWords(options = {}) {
  const span = (s) => (s % 86400 === 0 ? `${s / 86400} day(s)` : s % 3600 === 0 ? `${s / 3600} hour(s)` : s % 60 === 0 ? `${s / 60} minute(s)` : `${s} s`);
  if (options.time_control === "per_move") return `${span(options.move_seconds)} a move`;
  if (options.time_control === "bank") return `${span(options.bank_initial_seconds)} + ${span(options.bank_increment_seconds)} a move`;
  return options.hourglass_seconds ? `real time, ${options.hourglass_seconds} s hourglass` : "no clock";
}

/** The join link of a game, for its players to share (a private game's only way in). */
export function joinLinkBox(game) {
  if (!game.join_code || game.your_seat === null || game.status !== "open") return null;
  const url = `${location.origin}${location.pathname}#/join/${game.join_code}`;
  const input = h("input", { id: "join-link", readonly: true, value: url });
  return h("div", { class: "join-link" }, h("label", { for: input.id }, "Invite a friend with this link"), input,
    h("button", { type: "button", onclick: async () => {
      input.select();
      try { await navigator.clipboard.writeText(url); } catch (error) { document.execCommand?.("copy"); }
    } }, "Copy the link"));
}

/** Filing a dispute about one event of a game (a seat's claim that something went wrong). */
export function disputeForm(game, { say, showError }) {
  if (game.your_seat === null || game.status === "open") return null;
  const seq = h("input", { id: "dispute-seq", type: "number", min: 1, max: game.version, value: game.version });
  const reason = h("textarea", { id: "dispute-reason", required: true, maxlength: 2000, rows: 3 });
  const form = h("form", { "aria-label": "File a dispute" },
    h("p", { class: "help" }, "Something went wrong? Name the move (its number in the move log) and say what happened; staff will review it."),
    h("div", { class: "field" }, h("label", { for: seq.id }, "Move number"), seq),
    h("div", { class: "field" }, h("label", { for: reason.id }, "What went wrong"), reason),
    h("button", { type: "submit" }, "File the dispute"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await post(`/games/${game.id}/disputes/`, { seq: Number(seq.value), reason: reason.value });
      reason.value = "";
      say("Dispute filed: staff will look at it.", "info");
    } catch (error) { showError(error); }
  });
  return h("details", { class: "dispute" }, h("summary", {}, "File a dispute"), form);
}
