// Everything else the API offers, each on a page: settings (vacation, notifications, webhooks,
// tokens), profiles and ratings, leaderboards, open seeks, join links, rules, disputes.
// Like every screen, it only calls /api/v1/ and shows the server's own `detail` on a refusal.
import { get, post, api, del, ApiError } from "./api.js";
import { h, fill, s as svg } from "./svg.js";
import { t, currentLanguage, formatDateTime, formatDate, formatDecimal, formatNumber, LANGUAGES } from "./i18n.js";
import { rulesFor } from "./rules.js";
import { pushSection } from "./push.js";

const when = (iso) => (iso ? formatDateTime(iso) : t("settings.never"));
// The same in a table's cell: a <time> that keeps the exact moment.
const whenCell = (iso) => (iso ? h("time", { datetime: iso }, formatDateTime(iso)) : t("settings.never"));
const link = (href, text, attrs = {}) => h("a", { href, ...attrs }, text);
const NOTE_TYPES = ["your_turn", "reminder", "timed_out", "dispute", "finished", "chat", "invitation", "abort_vote", "tournament", "ladder", "joined"];
const CHANNELS = ["inbox", "email", "webhook", "push"];
// A kind of news the client has no words for (one the server added later): its name, readable.
const noteType = (type) => (NOTE_TYPES.includes(type) ? t(`settings.note_${type}`) : type.replace(/_/g, " "));
const channelName = (channel) => t(`settings.channel_${channel}`);

/** #/settings: vacation, notification channels, webhooks, tokens (devices). */
export async function settingsPage(main, { say, showError, me, chooseLanguage }) {
  const [vacation, prefs, hooks, tokens, browsers, devices] = await Promise.all([get("/accounts/vacation/"), get("/accounts/preferences/"),
    get("/accounts/webhooks/"), get("/accounts/tokens/"), get("/push/subscriptions/").catch(() => []), get("/push/devices/").catch(() => [])]);
  // Only the channels that can carry news to this player: an email needs an address, a webhook
  // an address of theirs, push a browser or device signed up for it. Hidden ones keep their setting.
  const count = (list) => (Array.isArray(list) ? list.length : list?.results?.length || list?.count || 0);
  const ready = { inbox: true, email: Boolean(me.email), webhook: hooks.some((hook) => hook.active), push: count(browsers) + count(devices) > 0 };
  const shown = CHANNELS.filter((channel) => ready[channel]);
  const again = () => settingsPage(main, { say, showError, me, chooseLanguage });
  const act = (fn, done) => async (e) => {
    e?.preventDefault?.();
    try { await fn(); if (done) say(done, "info"); await again(); } catch (error) { showError(error); }
  };

  // Vacation: the clocks of every game stop.
  const days = h("input", { id: "vacation-days", type: "number", min: 1, max: Math.floor(vacation.days_left) || 1, step: 1, value: 7 });
  const vacationBox = h("section", { "aria-label": t("vacation.title"), class: "card wide" }, h("h2", {}, t("vacation.title")),
    vacation.on_vacation
      ? [h("p", {}, t("vacation.on", { until: when(vacation.until) })),
        h("button", { type: "button", onclick: act(() => del("/accounts/vacation/"), t("vacation.ended")) }, t("vacation.end"))]
      : [h("p", {}, t("vacation.off", { left: vacation.days_left, count: vacation.days_per_year })),
        h("form", { class: "inline", onsubmit: act(() => post("/accounts/vacation/", { days: Number(days.value) }), t("vacation.started")) },
          h("label", { for: days.id }, t("vacation.days")), days, h("button", { type: "submit" }, t("vacation.start")))]);

  // Notifications: for each kind of news, where it goes.
  const rows = Object.entries(prefs.channels).map(([type, on]) => h("tr", {},
    h("th", { scope: "row" }, noteType(type)),
    shown.map((channel) => h("td", {}, h("input", { type: "checkbox", name: `${type}:${channel}`, checked: on.includes(channel),
      "aria-label": `${noteType(type)}: ${channelName(channel)}` })))));
  const digest = h("input", { id: "digest", type: "number", min: 0, max: 10080, value: prefs.email_digest_minutes });
  const prefsForm = h("form", { "aria-label": t("settings.notify_form") },
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("settings.by_channel") }, h("table", { class: "data" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("settings.news")),
      shown.map((c) => h("th", { scope: "col" }, channelName(c))))), h("tbody", {}, rows))),
    shown.length < CHANNELS.length ? h("p", { class: "help channels-missing" }, t("settings.channels_missing")) : null,
    ready.email ? h("div", { class: "field" }, h("label", { for: digest.id }, t("settings.digest")), digest) : null,
    h("button", { type: "submit", class: "primary" }, t("settings.save_notify")));
  prefsForm.addEventListener("submit", act(() => {
    const channels = {};
    for (const type of Object.keys(prefs.channels)) {
      const box = (c) => prefsForm.querySelector(`[name='${type}:${c}']`);
      channels[type] = CHANNELS.filter((c) => (box(c) ? box(c).checked : prefs.channels[type].includes(c)));
    }
    return api("/accounts/preferences/", { method: "PUT", body: { channels, email_digest_minutes: ready.email ? Number(digest.value) : prefs.email_digest_minutes } });
  }, t("settings.notify_saved")));
  const notifyBox = h("section", { "aria-label": t("settings.notifications"), class: "card wide", id: "notification-settings" },
    h("h2", {}, t("settings.notifications")), prefsForm, h("div", { class: "push-slot" }));

  // Webhooks: your own server hears your news.
  const url = h("input", { id: "webhook-url", type: "url", required: true, placeholder: "https://example.org/darkroom" });
  const hookBox = h("section", { "aria-label": t("hooks.title"), class: "card wide" }, h("h2", {}, t("hooks.title")),
    h("p", { class: "help" }, t("hooks.help")),
    hooks.length ? h("ul", { class: "plain" }, hooks.map((hook) => h("li", {}, h("span", { translate: "no" }, hook.url), ` (${hook.active ? t("hooks.active") : t("hooks.paused")}) `,
      h("button", { type: "button", onclick: act(() => del(`/accounts/webhooks/${hook.id}/`), t("hooks.removed")) }, t("hooks.remove"))))) : h("p", {}, t("hooks.none")),
    h("form", { class: "inline", onsubmit: act(async () => {
      const made = await post("/accounts/webhooks/", { url: url.value });
      if (made?.secret) window.alert(t("hooks.secret", { secret: made.secret }));
    }, t("hooks.added")) }, h("label", { for: url.id }, t("hooks.address")), url, h("button", { type: "submit" }, t("hooks.add"))));

  // Tokens: one per device; revoke the ones you do not recognise.
  const tokenBox = h("section", { "aria-label": t("devices.label"), class: "card wide" }, h("h2", {}, t("devices.title")),
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("devices.title") }, h("table", { class: "data" },
      h("thead", {}, h("tr", {}, ["devices.device", "devices.last_used", "devices.expires", "devices.revoke"].map((id) => h("th", { scope: "col" }, t(id))))),
      h("tbody", {}, tokens.map((token) => h("tr", { "data-token": token.id },
        h("td", {}, token.device ? h("span", { translate: "no" }, token.device) : t("devices.unnamed"), token.current ? h("strong", {}, ` ${t("devices.this")}`) : null),
        h("td", {}, whenCell(token.last_used_at)), h("td", {}, whenCell(token.expires_at)),
        h("td", {}, token.current ? "" : h("button", { type: "button", onclick: act(() => del(`/accounts/tokens/${token.id}/`), t("devices.revoked")) }, t("devices.revoke")))))))));

  // The language: this device's choice (the page's foot has the same menu); the server keeps it
  // too once it has a place for it, so emails and pushes are in it.
  const languages = h("select", { id: "settings-language", name: "language" }, Object.entries(LANGUAGES).map(([code, name]) =>
    h("option", { value: code, lang: code, translate: "no", selected: code === currentLanguage() }, name)));
  languages.addEventListener("change", () => chooseLanguage(languages.value));
  const languageBox = h("section", { "aria-labelledby": "language-title", class: "card wide" }, h("h2", { id: "language-title" }, t("lang.label")),
    h("div", { class: "field" }, h("label", { for: languages.id }, t("lang.choose")), languages));

  fill(main, h("h1", {}, t("nav.settings")), h("div", { class: "settings" }, languageBox, vacationBox, notifyBox, hookBox, tokenBox),
    h("p", {}, t("settings.your_profile"), " ", link(`#/players/${encodeURIComponent(me.username)}`, h("span", { translate: "no" }, me.username))));
  await pushSection(notifyBox.querySelector(".push-slot"), prefs, { say, showError });
}

/** #/players/<name>: a profile: ratings with a chart each, and the player's games. */
export async function profilePage(main, username) {
  let player, kindList, games;
  try {
    [player, kindList, games] = await Promise.all([get(`/players/${encodeURIComponent(username)}/`), get("/kinds/"),
      get(`/games/?player=${encodeURIComponent(username)}&limit=30`)]);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    fill(main, h("h1", {}, t("profile.unknown_title")), h("p", {}, t("profile.unknown", { name: username })),
      h("p", {}, link("#/leaderboard", t("profile.to_leaderboards")), " · ", link("#/", t("common.back_home"))));
    return;
  }
  const titles = Object.fromEntries((kindList.results || kindList).map((k) => [k.kind, k.title]));
  const kinds = player.kinds || [];
  fill(main, h("h1", {}, h("span", { translate: "no" }, player.username), player.is_bot ? h("span", { class: "bot-mark" }, ` ${t("common.bot")}`) : null),
    player.is_bot ? h("p", { class: "help" }, player.bot_level ? t("profile.bot_level", { level: player.bot_level }) : t("profile.bot")) : null,
    h("p", {}, t("profile.since", { date: formatDate(player.date_joined) })),
    h("h2", {}, t("profile.ratings")),
    kinds.length ? h("table", { class: "data ratings" }, h("thead", {}, h("tr", {}, ["profile.game", "profile.rating", "profile.played", "profile.won_count", "profile.last_result"].map((x) => h("th", { scope: "col" }, t(x))))),
      h("tbody", {}, kinds.map((k) => {
        const last = (k.history || [])[k.history.length - 1];
        return h("tr", { "data-kind": k.kind }, h("td", {}, link(`#/leaderboard/${k.kind}`, h("span", { translate: "no" }, titles[k.kind] || k.kind))),
          h("td", {}, k.rating ? formatDecimal(k.rating.rating) : t("profile.unrated")), h("td", {}, formatNumber(k.played ?? 0)), h("td", {}, formatNumber(k.won ?? 0)),
          h("td", {}, last ? t("profile.last", { place: last.place, delta: formatDecimal(last.delta, true) }) : "—"));
      })))
      : h("p", {}, t("profile.no_rated")),
    // Drawn for the width it has (its text at its real size, as the tables are).
    kinds.filter((k) => (k.history || []).length).map((k) => ratingChart(k, titles[k.kind] || k.kind, Math.min(560, main.clientWidth - 32))),
    h("h2", {}, t("profile.games")),
    games.results.length ? h("ul", { class: "games profile-games" }, games.results.map((g) => profileGameRow(g, player.username)))
      : h("p", {}, t("profile.no_games")));
}

/** One of the player's games, told from the player's side ("won", "lost", "playing"). */
function profileGameRow(game, username) {
  const seat = game.players.find((p) => p.username.toLowerCase() === username.toLowerCase())?.seat;
  const others = game.players.filter((p) => p.seat !== seat).map((p) => p.username);
  let words;
  if (game.status === "finished") {
    const winners = game.result?.winners || [];
    words = game.result?.cooperative ? t(game.result.cooperative.won ? "standing.team_won" : "standing.team_lost")
      : winners.includes(seat) ? t(winners.length > 1 ? "profile.shared" : "profile.won") : t("profile.lost");
  } else words = t(`profile.status_${game.status}`);
  const when = game.finished_at || game.started_at || game.created_at;
  return h("li", { class: "game-row", "data-game": game.id },
    link(`#/games/${game.id}`, others.length ? t("lobby.game_with", { title: game.title || game.kind, names: others.join(", ") }) : game.title || game.kind),
    h("strong", { class: "standing" }, words), h("span", { class: "help" }, h("time", { datetime: when }, formatDate(when))));
}

/** A rating's history drawn as a line: each rated game a point, the rating after it. */
export function ratingChart(entry, title, width = 560) {
  const points = [entry.history[0].before, ...entry.history.map((p) => p.after)];
  const W = Math.max(260, width), H = 180, left = 48, right = 12, top = 14, bottom = 10;
  let low = Math.min(...points), high = Math.max(...points);
  if (high - low < 2) { low -= 1; high += 1; }
  const x = (i) => left + (i * (W - left - right)) / Math.max(1, points.length - 1);
  const y = (v) => top + ((high - v) * (H - top - bottom)) / (high - low);
  const line = points.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const fmt = (v) => formatDecimal(v);
  const label = t("profile.chart_label", { title, from: fmt(points[0]), to: fmt(points[points.length - 1]), count: entry.history.length });
  return h("figure", { class: "rating-chart", "data-kind": entry.kind, style: `max-width:${W}px` },
    svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "chart" },
      svg("line", { x1: left, y1: top, x2: left, y2: H - bottom, stroke: "#767676" }),
      svg("line", { x1: left, y1: H - bottom, x2: W - right, y2: H - bottom, stroke: "#767676" }),
      [high, low].map((v) => svg("text", { x: left - 6, y: y(v) + 5, "text-anchor": "end", "font-size": 14, fill: "#404040" }, fmt(v))),
      svg("path", { d: line, fill: "none", stroke: "#8a3b12", "stroke-width": 3, "stroke-linejoin": "round" }),
      points.map((v, i) => svg("circle", { cx: x(i), cy: y(v), r: 4, fill: "#8a3b12" }))),
    // The axis's words under the picture, not in it: a longer language wraps them, never cuts them.
    h("p", { class: "chart-axis", "aria-hidden": "true" }, t("profile.chart_axis")),
    h("figcaption", {}, label));
}

/** #/leaderboard/<kind>: the best players of a kind (rating = a conservative estimate). */
export async function leaderboardPage(main, kind) {
  const [kinds, board] = await Promise.all([get("/kinds/"), get(`/kinds/${kind}/leaderboard/?limit=100`)]);
  const list = kinds.results || kinds;
  const title = list.find((k) => k.kind === kind)?.title || kind;
  fill(main, h("h1", {}, t("board.title", { title })),
    h("nav", { "aria-label": t("nav.leaderboards"), class: "tabs" }, list.map((k) => link(`#/leaderboard/${k.kind}`, h("span", { translate: "no" }, k.title), k.kind === kind ? { "aria-current": "page" } : {}))),
    board.results.length ? h("table", { class: "data leaderboard" },
      h("thead", {}, h("tr", {}, ["board.rank", "result.player", "profile.rating", "profile.games"].map((id) => h("th", { scope: "col" }, t(id))))),
      h("tbody", {}, board.results.map((row) => h("tr", { "data-player": row.username }, h("td", {}, formatNumber(row.rank)),
        h("td", {}, link(`#/players/${encodeURIComponent(row.username)}`, h("span", { translate: "no" }, row.username)), row.is_bot ? ` ${t("common.bot")}` : null),
        h("td", {}, formatDecimal(row.rating)), h("td", {}, formatNumber(row.games))))))
      : h("p", {}, t("board.empty")));
}

/** #/rules/<kind>: a short rules page. */
export async function rulesPage(main, kind) {
  const rules = await rulesFor(kind, currentLanguage());
  if (!rules) { fill(main, h("h1", {}, t("game.rules")), h("p", {}, t("rules.none"))); return; }
  fill(main, h("h1", {}, t("kind.how_to_play", { title: rules.title })), h("p", {}, h("strong", {}, rules.players), ". ", rules.aim),
    h("ol", { class: "rules" }, rules.steps.map((step) => h("li", {}, step))),
    h("p", {}, t("rules.legal")),
    h("p", {}, link("#/", t("common.back_home"))));
}

/** #/join/<code>: a join link, as a friend received it. */
export async function joinPage(main, code, { showError }) {
  fill(main, h("h1", {}, t("join.title")), h("p", {}, t("join.taking")));
  try {
    const game = await post(`/join/${encodeURIComponent(code)}/`);
    location.hash = `#/games/${game.id ?? game.game}`;
  } catch (error) {
    fill(main, h("h1", {}, t("join.dead")),
      h("p", {}, error instanceof ApiError ? error.message : String(error)), h("p", {}, link("#/", t("common.back_lobby"))));
    if (!(error instanceof ApiError)) showError(error);
  }
}

/** The open seeks (public games with a free seat), for the lobby. */
export async function seeksSection(onJoin) {
  const seeks = await get("/seeks/?limit=20");
  return h("section", { "aria-label": t("seeks.label") }, h("h2", {}, t("seeks.title")),
    seeks.results.length ? h("ul", { class: "games" }, seeks.results.map((g) => h("li", { class: "game-row", "data-seek": g.id },
      link(`#/games/${g.id}`, h("span", { translate: "no" }, g.title || g.kind)),
      ` ${t("seeks.players", { count: g.players.length, seats: g.seats, names: g.players.map((p) => (p.bot ? t("game.bot_name", { name: p.username }) : p.username)).join(", ") })} · `,
      clockWords(g.options), " ", g.your_seat === null ? h("button", { type: "button", onclick: () => onJoin(g) }, t("open.join")) : null)))
      : h("p", { class: "help" }, t("lobby.nobody_waiting")));
}

export function clockWords(options = {}) {
  const span = (s) => (s % 86400 === 0 ? t("time.days", { count: s / 86400 }) : s % 3600 === 0 ? t("time.hours", { count: s / 3600 })
    : s % 60 === 0 ? t("time.minutes", { count: s / 60 }) : t("time.seconds", { count: s }));
  if (options.time_control === "per_move") return t("clock.per_move", { time: span(options.move_seconds) });
  if (options.time_control === "bank") return t("clock.bank", { time: span(options.bank_initial_seconds), more: span(options.bank_increment_seconds) });
  return options.hourglass_seconds ? t("clock.hourglass", { count: options.hourglass_seconds }) : t("clock.none");
}

/** The join link of a game, for its players to share (a private game's only way in). */
export function joinLinkBox(game) {
  if (!game.join_code || game.your_seat === null || game.status !== "open") return null;
  const url = `${location.origin}${location.pathname}#/join/${game.join_code}`;
  const input = h("input", { id: "join-link", readonly: true, value: url });
  return h("div", { class: "join-link" }, h("label", { for: input.id }, t("join.invite")), input,
    h("button", { type: "button", onclick: async () => {
      input.select();
      try { await navigator.clipboard.writeText(url); } catch (error) { document.execCommand?.("copy"); }
    } }, t("join.copy")));
}

/** Filing a dispute about one event of a game (a seat's claim that something went wrong). */
export function disputeForm(game, { say, showError, filed = () => {} }) {
  if (game.your_seat === null || game.status === "open") return null;
  const seq = h("input", { id: "dispute-seq", type: "number", min: 1, max: game.version, value: game.version });
  const reason = h("textarea", { id: "dispute-reason", required: true, maxlength: 2000, rows: 3 });
  const form = h("form", { "aria-label": t("dispute.file") },
    h("p", { class: "help" }, t("dispute.help")),
    h("div", { class: "field" }, h("label", { for: seq.id }, t("dispute.move")), seq),
    h("div", { class: "field" }, h("label", { for: reason.id }, t("dispute.what")), reason),
    h("button", { type: "submit" }, t("dispute.send")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await post(`/games/${game.id}/disputes/`, { seq: Number(seq.value), reason: reason.value });
      reason.value = "";
      say(t("dispute.filed"), "info");
      filed();
    } catch (error) { showError(error); }
  });
  return h("details", { class: "dispute" }, h("summary", {}, t("dispute.file")), form);
}
