// Tournaments (docs/tournaments.md): #/tournaments, the public list, and #/tournaments/<id>, a
// tournament's page (its standings, rounds and games, your next game, register, withdraw and the
// organiser's start). Like every screen it only calls /api/v1/ and shows the server's own
// `detail` on a refusal.
import { get, post, userStream, watchTournament } from "./api.js";
import { h, fill } from "./svg.js";
import { t } from "./i18n.js";
import { ladderLinks } from "./ladders.js";

const link = (href, text, attrs = {}) => h("a", { href, ...attrs }, text);
const when = (iso) => (iso ? new Date(iso).toLocaleString() : "—");
const number = (value) => (value === null || value === undefined ? "—" : String(Math.round(value * 100) / 100));

const FORMATS = () => ({ swiss: t("tournaments.format_swiss"), round_robin: t("tournaments.format_round_robin"),
  knockout: t("tournaments.format_knockout") });
const STATUSES = () => ({ registering: t("tournaments.status_registering"), running: t("tournaments.status_running"),
  finished: t("tournaments.status_finished"), cancelled: t("tournaments.status_cancelled") });

const DAY = 86400;
// The create form's presets: a format and a clock, the rest the form's own fields.
const PRESETS = () => [
  { id: "swiss", label: t("tournaments.preset_swiss"), format: "swiss", rounds: 5, move_seconds: DAY },
  { id: "round_robin", label: t("tournaments.preset_round_robin"), format: "round_robin", move_seconds: 3 * DAY },
  { id: "knockout", label: t("tournaments.preset_knockout"), format: "knockout", move_seconds: DAY },
];

let fieldId = 0;
function field(label, control) {
  control.id = control.id || `tournament-field-${++fieldId}`;
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control);
}

const optional = (input) => (input.value === "" ? null : Number(input.value));

/** The create form: a preset (a format and a clock), a name, a game and its table size, then the
 * settings the server takes (each left empty takes the server's default). */
function createForm(kinds, { showError }) {
  const usable = kinds.filter((k) => !k.kind.startsWith("duel"));
  const presets = PRESETS();
  const preset = h("select", {}, presets.map((p) => h("option", { value: p.id }, p.label)));
  const name = h("input", { type: "text", maxlength: 100, required: true });
  const game = h("select", {}, usable.map((k) => h("option", { value: k.kind }, k.title)));
  const size = h("input", { type: "number", min: 2, max: 6, step: 1, value: 2 });
  const bots = h("input", { type: "checkbox" });
  const rounds = h("input", { type: "number", min: 1, max: 30, step: 1, value: 5 });
  const startsAt = h("input", { type: "datetime-local" });
  const capacity = h("input", { type: "number", min: 2, max: 1024, step: 1 });
  const minRating = h("input", { type: "number", step: 1 });
  const byePoints = h("input", { type: "number", min: 0, max: 8, step: 0.5 });
  const roundHours = h("input", { type: "number", min: 1, max: 1440, step: 1 });
  const isPrivate = h("input", { type: "checkbox" });
  const botLevel = h("select", {}, [1, 2, 3].map((v) => h("option", { value: v, selected: v === 2 }, t(`create.bot_level_${v}`))));
  const rated = h("input", { type: "checkbox", checked: true });
  const roundsField = field(t("tournaments.rounds_field"), rounds);
  // Only a Swiss has its rounds set: a round robin's and a knockout's follow from the players.
  const fitPreset = () => {
    const chosen = presets.find((p) => p.id === preset.value);
    roundsField.hidden = !chosen.rounds;
    if (chosen.rounds) rounds.value = String(chosen.rounds);
  };
  preset.addEventListener("change", fitPreset);
  fitPreset();
  const fitSize = () => {
    const kind = usable.find((k) => k.kind === game.value);
    if (!kind) return;
    size.min = kind.min_players; size.max = kind.max_players;
    size.value = String(Math.min(Math.max(Number(size.value) || kind.min_players, kind.min_players), kind.max_players));
  };
  game.addEventListener("change", fitSize);
  fitSize();
  const submit = async (event) => {
    event.preventDefault();
    const chosen = presets.find((p) => p.id === preset.value);
    const body = { name: name.value, kind: game.value, format: chosen.format, table_size: Number(size.value),
      options: { time_control: "per_move", move_seconds: chosen.move_seconds }, bots_fill: bots.checked,
      private: isPrivate.checked, bot_level: Number(botLevel.value), rated: rated.checked, capacity: optional(capacity), min_rating: optional(minRating),
      bye_points: optional(byePoints), round_hours: optional(roundHours), starts_at: startsAt.value ? new Date(startsAt.value).toISOString() : null };
    if (chosen.rounds) body.rounds = Number(rounds.value);
    try {
      const made = await post("/tournaments/", body);
      location.hash = `#/tournaments/${made.id}`;
    } catch (error) { showError(error); }
  };
  return h("form", { class: "card create", "aria-label": t("tournaments.create"), onsubmit: submit },
    h("h2", {}, t("tournaments.create")),
    field(t("tournaments.preset"), preset), field(t("tournaments.name"), name), field(t("tournaments.game"), game),
    field(t("tournaments.table_size"), size), roundsField,
    field(t("tournaments.starts_at"), startsAt), field(t("tournaments.capacity"), capacity),
    field(t("tournaments.min_rating"), minRating), field(t("tournaments.bye_points"), byePoints),
    field(t("tournaments.round_hours"), roundHours),
    h("label", { class: "check" }, isPrivate, t("tournaments.private")),
    h("label", { class: "check" }, bots, t("tournaments.bots_fill")), field(t("create.bot_level"), botLevel),
    h("label", { class: "check" }, rated, t("tournaments.rated")),
    h("button", { type: "submit" }, t("tournaments.create_button")));
}

/** #/tournaments: the public tournaments, newest first, and the create form. */
export async function tournamentsPage(main, { showError } = {}) {
  const [page, kinds] = await Promise.all([get("/tournaments/?limit=100"), get("/kinds/")]);
  const titles = Object.fromEntries((kinds.results || kinds).map((k) => [k.kind, k.title]));
  fill(main, h("h1", {}, t("tournaments.title")),
    page.results.length ? h("table", { class: "data tournaments" },
      h("thead", {}, h("tr", {}, [t("tournaments.name"), t("tournaments.game"), t("tournaments.format"),
        t("tournaments.players"), t("tournaments.status"), t("tournaments.starts")].map((text) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, page.results.map((one) => h("tr", { "data-tournament": one.id },
        h("td", {}, link(`#/tournaments/${one.id}`, one.name)),
        h("td", {}, titles[one.kind] || one.kind),
        h("td", {}, FORMATS()[one.format] || one.format),
        h("td", {}, t("tournaments.of_capacity", { count: one.registered, capacity: one.capacity })),
        h("td", {}, STATUSES()[one.status] || one.status),
        h("td", {}, one.starts_at ? when(one.starts_at) : t("tournaments.by_organiser"))))))
      : h("p", {}, t("tournaments.none")),
    createForm(kinds.results || kinds, { showError }),
    h("h2", {}, t("ladders.all")), ladderLinks(kinds.results || kinds));
}

// Your own stream says when a tournament changed (`tournament`), and the page reads it again then:
// one you play in or organise is always on it; one you are not in, the page follows on it while
// it is shown (docs/tournaments.md, "Following a tournament live"). Nothing is asked between.

/** #/tournaments/<id>: one tournament, kept up to date while it has not ended. */
export async function tournamentPage(main, id, { showError, say, onLeave = () => {} }) {
  let shown = await get(`/tournaments/${id}/`);
  let unwatch = null;
  // Not in it (or no longer): followed on request, until the player leaves the page.
  const watch = () => {
    if (!unwatch && !shown.you.registered && !shown.you.organiser && main.isConnected) unwatch = watchTournament(id);
  };
  const again = async () => { shown = await get(`/tournaments/${id}/`); draw(main, id, shown, again, { showError, say }); watch(); };
  draw(main, id, shown, again, { showError, say });
  const open = () => main.isConnected && ["registering", "running"].includes(shown.status);
  let reading = null;
  const refresh = () => {
    // One read at a time; news heard meanwhile is read right after it.
    if (reading) { reading.then(() => refresh()); return; }
    reading = get(`/tournaments/${id}/`).then((now) => {
      if (JSON.stringify(now) !== JSON.stringify(shown) && main.isConnected) {
        shown = now;
        draw(main, id, shown, again, { showError, say });
        watch();
      }
    }).catch(() => { /* missed: the next news (or poll) reads it */ }).finally(() => { reading = null; });
  };
  const stop = userStream({
    onTournament: (news) => { if (news.tournament === id && main.isConnected) refresh(); },
    onOpen: () => { if (open()) refresh(); },   // news may have passed while it was closed
  });
  watch();
  onLeave(() => { stop(); if (unwatch) unwatch(); });
}

function draw(main, id, one, again, { showError, say }) {
  const act = (path, done) => async () => {
    try { await post(`/tournaments/${id}/${path}/`); say(done, "info"); await again(); } catch (error) { showError(error); }
  };
  const actions = [];
  if (one.status === "registering" || one.late_registration) {
    if (!one.you.registered && !one.you.withdrawn) {
      actions.push(h("button", { type: "button", onclick: act("register", t("tournaments.registered")) }, t("tournaments.register")));
    }
  }
  if (one.you.registered && (one.status === "registering" || one.status === "running")) {
    actions.push(h("button", { type: "button", onclick: act("withdraw", t("tournaments.withdrawn")) }, t("tournaments.withdraw")));
  }
  if (one.you.organiser && one.status === "registering") {
    actions.push(h("button", { type: "button", onclick: act("start", t("tournaments.started")) }, t("tournaments.start")));
  }
  const round = (r) => h("section", { class: "card wide", "aria-label": t("tournaments.round", { number: r.number }) },
    h("h3", {}, t("tournaments.round", { number: r.number })),
    h("ul", {}, r.tables.map((table) => h("li", {},
      link(`#/games/${table.game}`, t("tournaments.table", { number: table.number })), ": ",
      table.players.map((name, seat) => (table.places ? `${name} (${table.places[seat]})` : name)).join(", ")))),
    r.byes.length ? h("p", {}, t("tournaments.byes", { names: r.byes.join(", ") })) : null);
  fill(main, h("h1", {}, one.name),
    h("p", {}, [FORMATS()[one.format] || one.format, " · ", STATUSES()[one.status] || one.status,
      one.current_round ? ` · ${t("tournaments.round_of", { number: one.current_round, rounds: one.rounds ?? "?" })}` : ""]),
    one.you.game ? h("p", { class: "your-game" }, link(`#/games/${one.you.game}`, t("tournaments.your_game"))) : null,
    actions.length ? h("p", { class: "actions" }, actions) : null,
    one.you.organiser && one.join_code ? h("p", { class: "join-link" }, t("tournaments.join_link"), " ",
      h("code", {}, `${location.origin}${location.pathname}#/tournaments/${one.id}/join/${one.join_code}`)) : null,
    h("h2", {}, t("tournaments.standings")),
    one.standings.length ? h("table", { class: "data standings" },
      h("thead", {}, h("tr", {}, [t("tournaments.rank"), t("tournaments.player"),
        one.format === "knockout" ? t("tournaments.round_reached") : t("tournaments.points"),
        t("tournaments.tiebreaks")].map((text) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, one.standings.map((row) => h("tr", { "data-player": row.username },
        h("td", {}, String(row.rank)),
        h("td", {}, row.username, row.withdrawn ? ` ${t("tournaments.left")}` : ""),
        h("td", {}, one.format === "knockout" ? String(row.round_reached ?? "—") : number(row.points)),
        h("td", {}, Object.values(row.tiebreaks).map(number).join(" · "))))))
      : h("p", {}, t("tournaments.players_so_far", { names: one.players.map((p) => p.username).join(", ") || "—" })),
    one.played_rounds.length ? [h("h2", {}, t("tournaments.rounds")), ...one.played_rounds.slice().reverse().map(round)] : null,
    h("p", { class: "fair" }, t("tournaments.seed_hash", { hash: one.seed_hash }),
      one.seed ? [" ", t("tournaments.seed", { seed: one.seed })] : null),
    h("p", {}, link("#/tournaments", t("tournaments.back"))));
}

/** #/tournaments/<id>/join/<code>: a private tournament's join link. Its page is hidden until the
 * player is in, so the link offers to register first. */
export async function tournamentJoinPage(main, id, code, { showError, say }) {
  const register = async () => {
    try {
      await post(`/tournaments/${id}/register/`, { code });
      say(t("tournaments.registered"), "info");
      location.hash = `#/tournaments/${id}`;
    } catch (error) { showError(error); }
  };
  fill(main, h("h1", {}, t("tournaments.join_title")), h("p", {}, t("tournaments.join_text")),
    h("p", { class: "actions" }, h("button", { type: "button", onclick: register }, t("tournaments.register"))),
    h("p", {}, link("#/tournaments", t("tournaments.back"))));
}
