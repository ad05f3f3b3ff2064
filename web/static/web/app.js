// The Darkroom web client: hash routes, log in, lobby, my games, inbox, the game page (tables,
// clocks, result, seed), spectating and the replay viewer. Everything comes from /api/v1/.
import { auth, get, post, follow, ApiError } from "./api.js";
import { h, choiceButton, fill } from "./svg.js";
import { chatPanel, gameActions, invitationsSection, privacyFields, readPrivacy } from "./social.js";
import { settingsPage } from "./push.js";

const main = document.getElementById("main");
const nav = document.getElementById("nav");
const flash = document.getElementById("flash");
let me = null;           // GET /accounts/me/
let leave = () => {};    // cleanup of the current screen (streams, timers)

export function say(message, kind = "error") {
  fill(flash, h("p", { class: `flash ${kind}` }, message));
  if (kind !== "error") setTimeout(() => fill(flash), 4000);
}
// The server's own words (`detail`) for a refused request; anything else as it is.
const showError = (error) => say(error instanceof ApiError ? error.message : String(error));

const when = (iso) => (iso ? new Date(iso).toLocaleString() : "—");
const link = (href, text, attrs = {}) => h("a", { href, ...attrs }, text);
const seatName = (game, seat) => game.players.find((p) => p.seat === seat)?.username ?? `seat ${seat}`;

// ---------------------------------------------------------------- routing ----------------------
const routes = [
  [/^#\/login$/, loginPage],
  [/^#\/mine$/, myGamesPage],
  [/^#\/inbox$/, inboxPage],
  [/^#\/settings$/, () => settingsPage(main, say)],
  [/^#\/games\/([0-9a-f-]+)\/replay$/, replayPage],
  [/^#\/games\/([0-9a-f-]+)$/, gamePage],
  [/^#?\/?$/, lobbyPage],
];

async function route() {
  leave(); leave = () => {};
  fill(flash);
  const hash = location.hash || "#/";
  if (!auth.token && hash !== "#/login") { location.hash = "#/login"; return; }
  if (auth.token && !me) {
    try { me = await get("/accounts/me/"); } catch (error) { auth.token = null; location.hash = "#/login"; return; }
  }
  drawNav();
  for (const [pattern, page] of routes) {
    const match = hash.match(pattern);
    if (match) {
      fill(main, h("p", { class: "loading" }, "Loading…"));
      try { await page(...match.slice(1)); } catch (error) { showError(error); }
      main.focus({ preventScroll: true });
      return;
    }
  }
  fill(main, h("p", {}, "No such page. ", link("#/", "Back to the lobby")));
}

function drawNav() {
  if (!me) { fill(nav); return; }
  const unread = h("span", { id: "unread", class: "badge" });
  fill(nav, link("#/", "Lobby"), link("#/mine", "My games"), link("#/inbox", "Inbox ", unread),
    link("#/settings", "Settings"),
    h("span", { class: "who" }, me.username),
    h("button", { type: "button", onclick: logout }, "Log out"));
  get("/notifications/unread-count/").then((r) => { unread.textContent = r.unread ? String(r.unread) : ""; })
    .catch(() => {});
}

// Logging out revokes this device's token on the server too, not only in this browser.
async function logout() {
  try { await post("/accounts/logout/"); } catch (error) { /* already revoked or expired */ }
  auth.token = null; me = null; location.hash = "#/login";
}

// ---------------------------------------------------------------- log in / register ------------
async function loginPage() {
  const form = (title, path, extra) => {
    const f = h("form", { class: "card", "aria-label": title },
      h("h2", {}, title),
      h("label", {}, "User name ", h("input", { name: "username", required: true, autocomplete: "username" })),
      h("label", {}, "Password ", h("input", { name: "password", type: "password", required: true,
                                                 autocomplete: path === "/accounts/register/" ? "new-password" : "current-password" })),
      extra, h("button", { type: "submit" }, title));
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      const data = Object.fromEntries(new FormData(f));
      if (!data.email) delete data.email;
      try {
        const answer = await post(path, data);
        auth.token = answer.token; me = null;
        location.hash = "#/";
      } catch (error) { showError(error); }
    });
    return f;
  };
  fill(main, h("div", { class: "auth" },
    form("Log in", "/accounts/token/"),
    form("Register", "/accounts/register/", h("label", {}, "Email (optional) ", h("input", { name: "email", type: "email" })))));
}

// ---------------------------------------------------------------- lobby ------------------------
function optionInput(name, schema) {
  const attrs = { name: `option:${name}`, "data-type": schema.type };
  let input;
  if (schema.type === "boolean") input = h("input", { ...attrs, type: "checkbox", checked: schema.default === true });
  else if (schema.enum) input = h("select", attrs, schema.enum.map((v) => h("option", { value: v, selected: v === schema.default }, v)));
  else if (schema.type === "integer" || schema.type === "number") {
    input = h("input", { ...attrs, type: "number", min: schema.minimum, max: schema.maximum, value: schema.default,
                         step: schema.type === "integer" ? 1 : "any" });
  } else input = h("input", { ...attrs, value: schema.default ?? "" });
  return h("label", { title: schema.description || "" }, `${name} `, input);
}

function readOptions(form) {
  const options = {};
  for (const input of form.querySelectorAll("[name^='option:']")) {
    const name = input.name.slice(7), type = input.dataset.type;
    if (type === "boolean") options[name] = input.checked;
    else if (input.value === "") continue;
    else if (type === "integer" || type === "number") options[name] = Number(input.value);
    else options[name] = input.value;
  }
  return options;
}

function createForm(kind) {
  const props = kind.options_schema?.properties || {};
  const seats = h("input", { name: "seats", type: "number", min: kind.min_players, max: kind.max_players,
                             value: kind.min_players });
  const form = h("form", { class: "card create", "data-kind": kind.kind, "aria-label": `New ${kind.title}` },
    h("h3", {}, kind.title),
    h("label", {}, `Players (${kind.min_players}–${kind.max_players}) `, seats),
    h("details", {}, h("summary", {}, "Options"), Object.entries(props).map(([n, sch]) => optionInput(n, sch))),
    privacyFields(),
    h("button", { type: "submit" }, `Create a ${kind.title} game`));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const game = await post("/games/", { kind: kind.kind, seats: Number(seats.value), options: readOptions(form),
                                           ...readPrivacy(form) });
      location.hash = `#/games/${game.id}`;
    } catch (error) { showError(error); }
  });
  return form;
}

function gameRow(game, actions = []) {
  const names = game.players.map((p) => p.username).join(", ");
  return h("li", { class: `game-row ${game.your_turn ? "your-turn" : ""}`, "data-game": game.id },
    link(`#/games/${game.id}`, `${game.title || game.kind}`), " ",
    h("span", { class: "status" }, game.status), " ",
    h("span", { class: "players" }, `${game.players.length}/${game.seats}: ${names}`),
    game.your_turn ? h("strong", { class: "turn" }, " your turn") : null, " ", actions);
}

async function lobbyPage() {
  const [kinds, open, active] = await Promise.all([get("/kinds/"), get("/games/?status=open&limit=50"),
                                                   get("/games/?status=active&limit=50")]);
  const list = (kinds.results || kinds);
  const join = (game) => game.your_seat === null && game.players.length < game.seats
    ? choiceButton("Join", async () => {
      try { await post(`/games/${game.id}/join/`); location.hash = `#/games/${game.id}`; } catch (error) { showError(error); }
    }) : null;
  const invited = await invitationsSection(showError);
  fill(main,
    h("h1", {}, "Lobby"),
    invited,
    h("section", { "aria-label": "New game" }, h("h2", {}, "New game"), h("div", { class: "kinds" }, list.map(createForm))),
    h("section", { "aria-label": "Open games" }, h("h2", {}, "Open games"),
      open.results.length ? h("ul", { class: "games" }, open.results.map((g) => gameRow(g, join(g)))) : h("p", {}, "None yet.")),
    h("section", { "aria-label": "Games being played" }, h("h2", {}, "Games being played (spectate)"),
      active.results.length ? h("ul", { class: "games" }, active.results.map((g) => gameRow(g))) : h("p", {}, "None.")));
}

// ---------------------------------------------------------------- my games and inbox -----------
async function myGamesPage() {
  const page = await get("/games/?mine=true&limit=100");
  const order = { active: 1, open: 2, finished: 3, aborted: 4, cancelled: 5 };
  const games = [...page.results].sort((a, b) => (b.your_turn - a.your_turn) || (order[a.status] - order[b.status]));
  fill(main, h("h1", {}, "My games"),
    games.length ? h("ul", { class: "games" }, games.map((g) => gameRow(g))) : h("p", {}, "No game yet: ", link("#/", "the lobby"), "."));
}

async function inboxPage() {
  const page = await get("/notifications/?limit=100");
  const mark = (note) => note.read ? null : choiceButton("Mark read", async () => {
    await post(`/notifications/${note.id}/read/`); route();
  });
  fill(main, h("h1", {}, `Inbox (${page.unread} unread)`),
    page.unread ? h("button", { type: "button", onclick: async () => { await post("/notifications/read-all/"); route(); } }, "Mark all read") : null,
    page.results.length ? h("ul", { class: "inbox" }, page.results.map((note) =>
      h("li", { class: note.read ? "read" : "unread", "data-type": note.type },
        h("span", { class: "when" }, when(note.updated_at)), " ",
        note.game ? link(`#/games/${note.game}`, note.title) : note.title,
        note.collapsed > 1 ? ` (×${note.collapsed})` : "", " ", mark(note))))
      : h("p", {}, "Nothing here."));
}

// ---------------------------------------------------------------- tables -----------------------
const tables = {};
export async function tableFor(kind) {
  if (!tables[kind]) {
    tables[kind] = import(`./tables/${kind}.js`).catch(() => import("./tables/generic.js"));
  }
  return tables[kind];
}

// ---------------------------------------------------------------- clocks and result ------------
function clockDeadline(clock) {
  return clock.since ? new Date(clock.since).getTime() + clock.left * 1000 : null;
}
const fmt = (seconds) => {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60);
  return `${d ? `${d}d ` : ""}${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};

function clocksBox(game) {
  if (!game.clocks || game.status !== "active") return null;
  const box = h("ul", { class: "clocks", "aria-label": "Clocks" });
  const items = Object.entries(game.clocks.seats).map(([seat, clock]) => {
    const li = h("li", { "data-seat": seat });
    const due = clockDeadline(clock);
    const tick = () => {
      const left = due ? (due - Date.now()) / 1000 : clock.left;
      li.textContent = `${seatName(game, Number(seat))}: ${fmt(left)}${due ? " ⏱" : " (stopped)"}`;
    };
    tick();
    return [li, tick];
  });
  box.append(...items.map(([li]) => li));
  const timer = setInterval(() => items.forEach(([, tick]) => tick()), 1000);
  const previous = leave;
  leave = () => { clearInterval(timer); previous(); };
  return box;
}

function resultBox(game) {
  const result = game.result;
  if (!result) return null;
  const rows = game.players.map((p) => {
    const b = result.breakdown?.[p.seat];
    const detail = b ? Object.entries(b).filter(([k]) => k !== "total")
      .map(([k, v]) => `${k}: ${typeof v === "object" && v !== null ? JSON.stringify(v) : v}`).join("; ") : "";
    return h("tr", { "data-seat": p.seat },
      h("td", {}, String(result.places?.[p.seat] ?? "")), h("th", { scope: "row" }, p.username),
      h("td", {}, String(result.scores?.[p.seat] ?? "")), h("td", { class: "breakdown" }, detail));
  });
  const winners = (result.winners || []).map((s) => seatName(game, s)).join(", ");
  const together = result.cooperative;  // one team: it won or it lost (an older result named a lost one's seats)
  return h("section", { class: "result", "aria-label": "Result" },
    h("h2", {}, `Result: ${together ? `the team ${together.won ? "won" : "lost"}` : winners ? `${winners} won` : "no winner"}`),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Place"), h("th", {}, "Player"), h("th", {}, "Score"), h("th", {}, "Breakdown"))),
      h("tbody", {}, rows)),
    result.tie_break ? h("p", {}, `Tie-break: ${result.tie_break}`) : null);
}

function fairnessBox(game) {
  return h("section", { class: "fairness", "aria-label": "Seed" },
    h("p", {}, "Seed hash (sha256, published at creation): ", h("code", { class: "seed-hash" }, game.seed_hash)),
    game.seed ? h("p", {}, "Seed (revealed at the end): ", h("code", { class: "seed" }, game.seed)) : null);
}

// ---------------------------------------------------------------- the game page ----------------
async function gamePage(id) {
  let version = -1, running = null, again = false, stopFollow = () => {};
  const tableRoot = h("div", { class: "table", id: "table" });
  const head = h("div", { class: "game-head" });
  let chat = null;
  const chatRoot = h("div", { class: "chat-root" });
  fill(main, head, tableRoot, chatRoot);

  // One load at a time; news during a load asks for one more, so the last news is never lost.
  function refresh() {
    if (running) { again = true; return running; }
    running = (async () => {
      do { again = false; await load(); } while (again);
      running = null;
    })();
    return running;
  }

  async function load() {
    try {
      const game = await get(`/games/${id}/`);
      const mine = game.your_seat !== null && game.status === "active" && game.your_turn;
      const legal = mine ? await get(`/games/${id}/legal-moves/`).catch(() => ({ moves: [], version: game.version })) : { moves: [] };
      version = game.version;
      drawHead(game);
      // The stream brings new chat lines; a reload per refresh covers a long-poll (which has none).
      if (!chat && game.status !== "open") { chat = chatPanel(game, showError); fill(chatRoot, chat.node); }
      else if (chat) chat.reload();
      if (game.status === "open" || game.status === "cancelled") { fill(tableRoot); return; }
      const module = await tableFor(game.kind);
      const ctx = {
        kind: game.kind, game, view: game.state, seat: game.your_seat, legalMoves: legal.moves,
        staff: Boolean(me?.is_staff), submit: (move) => submit(move, legal.version ?? game.version),
      };
      tableRoot.dataset.version = String(game.version);
      tableRoot.dataset.yourTurn = String(Boolean(mine && legal.moves.length));
      await module.renderTable(tableRoot, ctx);
    } catch (error) { showError(error); }
  }

  async function submit(move, expected) {
    tableRoot.dataset.busy = "true";
    try {
      await post(`/games/${id}/moves/`, { move, expected_version: expected });
    } catch (error) {
      // A neighbour moved first (simultaneous phases): our view did not change, so the move is
      // posted again on the new version if it is still legal. Anything else: the server's word.
      if (error.code === "version_conflict") await repost(move);
      else showError(error);
    }
    await refresh();
    delete tableRoot.dataset.busy;
  }

  async function repost(move) {
    try {
      const legal = await get(`/games/${id}/legal-moves/`);
      const same = JSON.stringify(move);
      if (legal.moves.some((m) => JSON.stringify(m) === same)) {
        await post(`/games/${id}/moves/`, { move, expected_version: legal.version });
      }
    } catch (error) { if (error.code !== "version_conflict") showError(error); }
  }

  function drawHead(game) {
    const lobby = [];
    if (game.status === "open") {
      const full = game.players.length >= game.seats;
      if (game.your_seat === null && !full) lobby.push(choiceButton("Join", () => act("join")));
      if (game.your_seat !== null) lobby.push(choiceButton(game.creator === me.id ? "Cancel (leave)" : "Leave", () => act("leave")));
      if (game.creator === me.id) lobby.push(choiceButton("Start", () => act("start"), { disabled: !full && game.players.length < 2 }));
    }
    const turn = game.status === "active"
      ? (game.your_turn ? h("p", { class: "your-turn", role: "status" }, "Your turn")
        : h("p", { class: "waiting", role: "status" }, `Waiting for ${game.active_seats.map((s) => seatName(game, s)).join(", ") || "…"}`))
      : null;
    fill(head,
      h("h1", {}, game.title || game.kind, " ", h("span", { class: "status", "data-status": game.status }, game.status)),
      h("p", { class: "players" }, "Players: ", game.players.map((p) => `${p.username} (seat ${p.seat})`).join(", "),
        ` — ${game.players.length}/${game.seats}`,
        game.your_seat === null && game.status !== "open" ? h("strong", { class: "spectating" }, " — you are spectating") : null),
      h("div", { class: "lobby-actions" }, lobby),
      gameActions(game, { onError: showError, onDone: refresh }),
      turn, clocksBox(game), resultBox(game),
      game.status === "finished" ? fairnessBox(game) : null,
      game.status !== "open" ? h("p", {}, link(`#/games/${game.id}/replay`, "Replay this game")) : null);
  }

  async function act(what) {
    try {
      await post(`/games/${id}/${what}/`);
      if (what === "leave") { location.hash = "#/"; return; }
    } catch (error) { showError(error); }
    await refresh();
  }

  await refresh();
  stopFollow = follow(id, (news) => { if (news.version === undefined || news.version !== version) refresh(); },
                      (message) => chat?.heard(message));
  // The lobby's changes (joins, start) are no events of the game: poll while it is open.
  const lobbyTimer = setInterval(() => { if (head.querySelector("[data-status=open]")) refresh(); }, 2000);
  const previous = leave;
  leave = () => { stopFollow(); clearInterval(lobbyTimer); previous(); };
}

// ---------------------------------------------------------------- replay -----------------------
async function replayPage(id) {
  const game = await get(`/games/${id}/`);
  const module = await tableFor(game.kind);
  const last = game.version;
  let at = last;
  const tableRoot = h("div", { class: "table", id: "table" });
  const label = h("span", { id: "replay-at", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 1, max: last, value: at, "aria-label": "Event number" });
  async function show(n) {
    at = Math.max(1, Math.min(last, n));
    slider.value = at;
    try {
      const past = await get(`/games/${id}/state/?at=${at}`);
      label.textContent = `after event ${at} of ${last}`;
      tableRoot.dataset.at = String(at);
      await module.renderTable(tableRoot, { kind: game.kind, game, view: past.state, seat: past.your_seat, legalMoves: [],
                                      submit: async () => {}, staff: Boolean(me?.is_staff), replay: true });
    } catch (error) { showError(error); }
  }
  slider.addEventListener("change", () => show(Number(slider.value)));
  fill(main, h("h1", {}, `Replay: ${game.title || game.kind}`), link(`#/games/${id}`, "Back to the game"),
    h("div", { class: "replay-controls" },
      h("button", { type: "button", onclick: () => show(1), "aria-label": "First event" }, "⏮"),
      h("button", { type: "button", onclick: () => show(at - 1), "aria-label": "Previous event", id: "replay-prev" }, "◀"),
      slider,
      h("button", { type: "button", onclick: () => show(at + 1), "aria-label": "Next event", id: "replay-next" }, "▶"),
      h("button", { type: "button", onclick: () => show(last), "aria-label": "Last event" }, "⏭"), label),
    tableRoot);
  await show(at);
}

window.addEventListener("hashchange", route);
route();
