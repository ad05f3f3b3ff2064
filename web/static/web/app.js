// The Darkroom web client: hash routes, log in, lobby, my games, inbox, the game page (tables,
// clocks, result, seed), spectating and the replay viewer. Everything comes from /api/v1/.
import { auth, get, post, follow, userStream, deviceName, ApiError } from "./api.js";
import { h, choiceButton, fill, icon } from "./svg.js";
import { chatPanel, gameActions, invitationsSection } from "./social.js";
import { createForm } from "./create.js";
import { settingsPage, profilePage, leaderboardPage, rulesPage, joinPage, seeksSection, joinLinkBox, disputeForm } from "./community.js";
import { describeEvent, resultSection } from "./story.js";

const main = document.getElementById("main");
const nav = document.getElementById("nav");
const flash = document.getElementById("flash");
let me = null;           // GET /accounts/me/
const BOOKKEEPING = new Set(["GameCreated", "PlayerJoined", "PlayerLeft", "GameStarted", "GameFinished", "GameCancelled",
  "GameAborted", "DisputeOpened", "DisputeResolved"]);
let leave = () => {};    // cleanup of the current screen (streams, timers)
let news = null;         // the current screen's listener for the user stream's `game` messages
let stopUserStream = () => {};
const turns = new Map(); // game id -> title, for each of my games where it is my turn
const BACK_KEY = "darkroom.back";

export function say(message, kind = "error") {
  // Until the next screen or message, not on a timer: a message that vanishes after a few
  // seconds may be gone before someone reading slowly, or a screen reader, gets to it.
  fill(flash, h("p", { class: `flash ${kind}` }, message));
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
  [/^#\/settings$/, () => settingsPage(main, { say, showError, me })],
  [/^#\/players\/([^/]+)$/, (name) => profilePage(main, decodeURIComponent(name))],
  [/^#\/leaderboard\/([a-z0-9_-]+)$/, (kind) => leaderboardPage(main, kind)],
  [/^#\/leaderboard$/, () => leaderboardPage(main, "photograph")],
  [/^#\/rules\/([a-z0-9_-]+)$/, (kind) => rulesPage(main, kind)],
  [/^#\/join\/([A-Za-z0-9_-]+)$/, (code) => joinPage(main, code, { showError })],
  [/^#\/games\/([0-9a-f-]+)\/replay$/, replayPage],
  [/^#\/games\/([0-9a-f-]+)$/, gamePage],
  [/^#?\/?$/, lobbyPage],
];

// To the log-in page, remembering where we were so the log-in brings us back there.
function toLogin() {
  const hash = location.hash || "#/";
  if (hash !== "#/login") sessionStorage.setItem(BACK_KEY, hash);
  me = null;
  stopUserStream(); stopUserStream = () => {};
  location.hash = "#/login";
}
let loginNote = null;    // why the log-in page was shown (a session that ended), said once there

async function route() {
  leave(); leave = () => {}; news = null;
  fill(flash);
  const hash = location.hash || "#/";
  if (!auth.token && hash !== "#/login") { toLogin(); return; }
  if (auth.token && !me) {
    try { me = await get("/accounts/me/"); } catch (error) { auth.token = null; toLogin(); return; }
    startUserStream();
  }
  drawNav();
  showTurns();
  for (const [pattern, page] of routes) {
    const match = hash.match(pattern);
    if (match) {
      fill(main, h("p", { class: "loading" }, "Loading…"));
      try { await page(...match.slice(1)); } catch (error) { showError(error); }
      showTurns();
      // A new screen: focus at its start (unless the screen already put it on a control).
      if (!main.contains(document.activeElement) || document.activeElement === main) main.focus({ preventScroll: true });
      return;
    }
  }
  fill(main, h("p", {}, "No such page. ", link("#/", "Back to the lobby")));
}

function drawNav() {
  if (!me) { fill(nav); return; }
  const unread = h("span", { id: "unread", class: "badge", "aria-label": "unread" });
  fill(nav, link("#/", "Lobby"), link("#/mine", "My games"), h("a", { href: "#/inbox" }, "Inbox", unread),
    link("#/leaderboard", "Leaderboards"), link("#/settings", "Settings"), link(`#/players/${encodeURIComponent(me.username)}`, me.username, { class: "who" }),
    h("button", { type: "button", onclick: logout }, "Log out"));
  updateUnread();
}

function updateUnread() {
  get("/notifications/unread-count/").then((r) => {
    const badge = document.getElementById("unread");
    if (badge) { badge.textContent = r.unread ? String(r.unread) : ""; badge.setAttribute("aria-label", `${r.unread} unread`); }
  }).catch(() => {});
}

// Logging out revokes this device's token on the server too, not only in this browser.
// The screen's and the user stream's requests stop first: one still in flight when the token is
// revoked would come back 401 and send the player to log in a second time.
async function logout() {
  stopUserStream(); stopUserStream = () => {};
  leave(); leave = () => {}; news = null;
  try { await post("/accounts/logout/"); } catch (error) { /* already revoked or expired */ }
  auth.token = null; me = null; sessionStorage.removeItem(BACK_KEY);
  turns.clear(); showTurns();
  location.hash = "#/login";
}

// ---------------------------------------------------------------- signals ----------------------
// The user stream: my games' status and turn, my notifications. It keeps the tab title ("(2) Your
// turn"), the unread badge and the lobby / my games lists up to date, and, when the player allowed
// it and looks elsewhere, raises a browser notification when a turn becomes theirs.
const kindTitles = {};
export const kindTitle = (kind) => kindTitles[kind] || kind;

function startUserStream() {
  stopUserStream();
  get("/kinds/").then((kinds) => (kinds.results || kinds).forEach((k) => { kindTitles[k.kind] = k.title; })).catch(() => {});
  stopUserStream = userStream({
    onGame: (game) => {
      const id = game.game ?? game.id;
      const was = turns.has(id);
      if (game.your_turn && game.status === "active") turns.set(id, kindTitle(game.kind) || "a game");
      else turns.delete(id);
      showTurns();
      if (!was && turns.has(id)) notifyTurn(id, turns.get(id));
      if (news) news(game);
    },
    onNotification: () => updateUnread(),
    onOpen: () => updateUnread(),
  });
}

function showTurns() {
  const base = document.querySelector("main h1")?.textContent || "";
  const count = turns.size;
  document.title = `${count ? `(${count}) Your turn · ` : ""}${base && base !== "Darkroom" ? `${base} · ` : ""}Darkroom`;
}

export function notifyTurn(id, title) {
  if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
  const note = new Notification("Your turn", { body: `${title}: it is your move.`, tag: `turn-${id}` });
  note.onclick = () => { window.focus(); location.hash = `#/games/${id}`; note.close(); };
}

/** A button to allow turn notifications, while the browser has not been asked yet. */
function notificationOffer() {
  if (!("Notification" in window) || Notification.permission !== "default") return null;
  const button = h("button", { type: "button", class: "notify-offer" }, icon("bell"), "Tell me when it's my turn");
  button.addEventListener("click", async () => {
    const answer = await Notification.requestPermission();
    button.replaceWith(h("span", { class: "help" }, answer === "granted" ? "Turn notifications are on." : "Turn notifications are off."));
  });
  return button;
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
      const data = { ...Object.fromEntries(new FormData(f)), device: deviceName() };
      if (!data.email) delete data.email;
      try {
        const answer = await post(path, data);
        auth.token = answer.token; me = null;
        const back = sessionStorage.getItem(BACK_KEY);
        sessionStorage.removeItem(BACK_KEY);
        location.hash = back && back !== "#/login" ? back : "#/";
      } catch (error) { showError(error); }
    });
    return f;
  };
  if (loginNote) { say(loginNote, "info"); loginNote = null; }
  fill(main, h("h1", {}, "Darkroom: photography board games"),
    h("p", { class: "help" }, "Log in, or register in a few seconds, to play Photograph, Photoshoot, Walking in Provence and Pick Pic with friends."),
    h("div", { class: "auth" },
    form("Log in", "/accounts/token/"),
    form("Register", "/accounts/register/", h("label", {}, "Email (optional) ", h("input", { name: "email", type: "email" })))));
}

// ---------------------------------------------------------------- lobby ------------------------
function gameRow(game, actions = []) {
  const names = game.players.map((p) => p.bot ? `${p.username} (bot)` : p.username).join(", ");
  return h("li", { class: `game-row ${game.your_turn ? "your-turn" : ""}`, "data-game": game.id },
    link(`#/games/${game.id}`, `${game.title || game.kind}`), " ",
    h("span", { class: "status" }, game.status), " ",
    h("span", { class: "players" }, `${game.players.length}/${game.seats}: ${names}`),
    game.your_turn ? h("strong", { class: "turn" }, " your turn") : null, " ", actions);
}

async function lobbyPage() {
  const kinds = await get("/kinds/");
  const list = (kinds.results || kinds);
  const lists = h("div", { class: "lobby-lists" });
  const invitedRoot = h("div", {});
  // The lists (not the create forms, which may be half filled) follow the user stream's news and
  // look again every 15 s for other people's new games.
  async function refreshLists() {
    const joinSeek = async (game) => {
      try { await post(`/games/${game.id}/join/`); location.hash = `#/games/${game.id}`; } catch (error) { showError(error); }
    };
    const [open, active, invited, seeks] = await Promise.all([get("/games/?status=open&limit=50"), get("/games/?status=active&limit=50"),
                                                              invitationsSection(showError, Object.fromEntries(list.map((k) => [k.kind, k.title]))), seeksSection(joinSeek)]);
    const join = (game) => game.your_seat === null && game.players.length < game.seats
      ? choiceButton("Join", async () => {
        try { await post(`/games/${game.id}/join/`); location.hash = `#/games/${game.id}`; } catch (error) { showError(error); }
      }) : null;
    const keep = document.activeElement && lists.contains(document.activeElement) ? document.activeElement.closest("[data-game]")?.dataset.game : null;
    fill(invitedRoot, invited, seeks);
    fill(lists,
      h("section", { "aria-label": "Open games" }, h("h2", {}, "Open games"),
        open.results.length ? h("ul", { class: "games" }, open.results.map((g) => gameRow(g, join(g)))) : h("p", {}, "None yet.")),
      h("section", { "aria-label": "Games being played" }, h("h2", {}, "Games being played (spectate)"),
        active.results.length ? h("ul", { class: "games" }, active.results.map((g) => gameRow(g))) : h("p", {}, "None.")));
    if (keep) lists.querySelector(`[data-game="${keep}"] a`)?.focus();
  }
  await refreshLists();
  fill(main,
    h("h1", {}, "Lobby"),
    invitedRoot,
    h("section", { "aria-label": "New game" }, h("h2", {}, "New game"), h("div", { class: "kinds" }, list.map((kind) => {
      const form = createForm(kind, showError);
      form.querySelector("h3").after(h("p", { class: "rules-link" }, link(`#/rules/${kind.kind}`, `How to play ${kind.title}`)));
      return form;
    }))),
    lists);
  news = () => refreshLists().catch(() => {});
  const timer = setInterval(() => refreshLists().catch(() => {}), 15000);
  const previous = leave;
  leave = () => { clearInterval(timer); previous(); };
}

// ---------------------------------------------------------------- my games and inbox -----------
async function myGamesPage() {
  const root = h("div", { class: "my-games" });
  async function draw() {
    const page = await get("/games/?mine=true&limit=100");
    const order = { active: 1, open: 2, finished: 3, aborted: 4, cancelled: 5 };
    const games = [...page.results].sort((a, b) => (b.your_turn - a.your_turn) || (order[a.status] - order[b.status]));
    fill(root, games.length ? h("ul", { class: "games" }, games.map((g) => gameRow(g))) : h("p", {}, "No game yet: ", link("#/", "the lobby"), "."));
  }
  await draw();
  fill(main, h("h1", {}, "My games"), root);
  news = () => draw().catch(() => {});   // the user stream: a turn, a start, an end
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
// A clock in the units it is counted in: days and hours for a correspondence game, hours and
// minutes within the day, minutes and seconds (m:ss) in the last hour.
const fmt = (seconds) => {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${hh} h`;
  if (hh) return `${hh} h ${String(mm).padStart(2, "0")} min`;
  return `${mm}:${String(s % 60).padStart(2, "0")}`;
};

function clocksBox(game) {
  if (!game.clocks || game.status !== "active") return null;
  // A real-time game is played against its hourglass (drawn by the table, in m:ss): a move clock
  // of an hour or more there only guards against an abandoned game, and is not shown.
  const realTime = Boolean(game.options?.hourglass_seconds);
  const seats = Object.entries(game.clocks.seats).filter(([, clock]) => !realTime || (clock.allowance ?? clock.left) < 3600);
  if (!seats.length) return null;
  const box = h("ul", { class: "clocks", "aria-label": "Clocks" });
  const items = seats.map(([seat, clock]) => {
    const li = h("li", { "data-seat": seat });
    const due = clockDeadline(clock);
    const tick = () => {
      const left = due ? (due - Date.now()) / 1000 : clock.left;
      fill(li, due ? icon("clock", 18) : null, `${seatName(game, Number(seat))}: ${fmt(left)}${due ? " left to move" : " (waiting)"}`);
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

function fairnessBox(game) {
  return h("section", { class: "fairness", "aria-label": "Seed" },
    h("p", {}, "Seed hash (sha256, published at creation): ", h("code", { class: "seed-hash" }, game.seed_hash)),
    game.seed ? h("p", {}, "Seed (revealed at the end): ", h("code", { class: "seed" }, game.seed)) : null);
}

// Tables lay out for the width they have: a new width (a phone turned, a window resized) draws
// the table again for it.
function onWidthChange(node, redraw) {
  let width = node.clientWidth, timer = null;
  const observer = new ResizeObserver(() => {
    if (node.clientWidth === width || !node.clientWidth) return;
    width = node.clientWidth;
    clearTimeout(timer);
    timer = setTimeout(redraw, 150);
  });
  observer.observe(node);
  return () => { observer.disconnect(); clearTimeout(timer); };
}

// ---------------------------------------------------------------- the game page ----------------
async function gamePage(id) {
  let version = -1, running = null, again = false, stopFollow = () => {};
  let drawnEvent = null;   // the seq of the last event the table was drawn with (its last move highlighted)
  const tableRoot = h("div", { class: "table", id: "table" });
  const head = h("div", { class: "game-head" });
  let chat = null;
  const chatRoot = h("div", { class: "chat-root" });
  // The story so far: the last move (a moment such as a verdict stands out) and the move log.
  const lastMove = h("div", { class: "last-move", id: "last-move", role: "status", "aria-live": "polite" });
  const logList = h("ol", { class: "move-log-list", reversed: true, tabindex: 0, "aria-label": "Moves, newest first" });
  const logRoot = h("section", { class: "move-log", "aria-label": "Moves" }, h("h2", {}, "Moves"), logList);
  const events = [];
  // The last move, for the table to highlight: the game's own bookkeeping (its end, a dispute)
  // comes after a move but is none.
  const latestMove = () => [...events].reverse().find((e) => !BOOKKEEPING.has(e.type)) || null;
  let shownSeq = null;
  const disputeRoot = h("div", { class: "dispute-root" });   // drawn once: a half-written dispute survives live updates
  fill(main, head, lastMove, h("h2", { class: "sr-only" }, "The table"), tableRoot, logRoot, disputeRoot, chatRoot);

  // One load at a time; news during a load asks for one more, so the last news is never lost.
  function refresh() {
    if (running) { again = true; return running; }
    running = (async () => {
      do { again = false; await load(); } while (again);
      running = null;
    })();
    return running;
  }

  let lost = false;
  function gone(error) {
    if (lost) return;
    lost = true;
    stopFollow(); clearInterval(lobbyTimer);
    if (error?.status === 401) return;   // the log-in page takes over
    fill(head, h("h1", {}, "No such game"),
      h("p", {}, error?.status === 403 ? "This game is private." : "This game does not exist (or is no longer visible to you)."),
      h("p", {}, link("#/", "Back to the lobby")));
    fill(tableRoot); fill(chatRoot);
  }

  async function load() {
    if (lost) return;
    try {
      const game = await get(`/games/${id}/`);
      const mine = game.your_seat !== null && game.status === "active" && game.your_turn;
      const legal = mine ? await get(`/games/${id}/legal-moves/`).catch(() => ({ moves: [], version: game.version })) : { moves: [] };
      version = game.version;
      const module = await tableFor(game.kind);
      drawHead(game, module);
      story(game, module);
      // The stream brings new chat lines; a reload per refresh covers a long-poll (which has none).
      if (!chat && game.status !== "open") { chat = chatPanel(game, showError); fill(chatRoot, chat.node); }
      else if (chat) chat.reload();
      if (!disputeRoot.firstChild && game.status !== "open") fill(disputeRoot, disputeForm(game, { say, showError }));
      if (game.status === "open" || game.status === "cancelled") { fill(tableRoot); return; }
      const ctx = {
        kind: game.kind, game, view: game.state, seat: game.your_seat, legalMoves: legal.moves,
        staff: Boolean(me?.is_staff), submit: (move) => submit(move, legal.version ?? game.version),
        lastEvent: latestMove(),
      };
      drawnEvent = ctx.lastEvent?.seq ?? null;
      tableRoot.dataset.version = String(game.version);
      tableRoot.dataset.yourTurn = String(Boolean(mine && legal.moves.length));
      // Focus stays with the table while the player uses it: a redraw (a move sent, a neighbour's
      // move arriving) puts it on the next step offered, never back on the page's body.
      const active = document.activeElement;
      const inside = tableRoot.contains(active);
      const keep = inside || active === document.body || active === main;
      const focused = keep && active?.dataset?.choice ? active.dataset.choice : null;
      await module.renderTable(tableRoot, ctx);
      if (keep && !tableRoot.contains(document.activeElement)) {
        const same = focused && [...tableRoot.querySelectorAll("[data-choice]")].find((el) => el.dataset.choice === focused);
        const next = same || tableRoot.querySelector(".primary[data-choice], .target[data-choice]") || tableRoot.querySelector("[data-choice]");
        if (next) next.focus({ preventScroll: !inside });
        else if (inside) { tableRoot.tabIndex = -1; tableRoot.focus({ preventScroll: true }); }
      }
    } catch (error) {
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) gone(error); else showError(error);
    }
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

  // The events (as this viewer may see them) arrive by the game's stream, replayed from the
  // start; told in words as the move log and the last move.
  let told = { game: null, module: null }, scheduled = false;
  function heard(event) {
    if (events.length && event.seq <= events[events.length - 1].seq) return;
    events.push(event);
    if (told.game && !scheduled) {   // a replayed history is told once, not once per event
      scheduled = true;
      setTimeout(() => { scheduled = false; story(told.game, told.module); }, 50);
    }
  }
  function story(game, module) {
    told = { game, module };
    const lines = events.map((event) => ({ event, ...describeEvent(event, game, module) }));
    fill(logList, lines.slice(-80).reverse().map(({ event, text, moment }) =>
      h("li", { "data-seq": event.seq, class: moment ? "moment" : "" }, text)));
    const latest = [...lines].reverse().find(({ event }) => !["GameCreated", "PlayerJoined"].includes(event.type));
    if (latest && latest.event.seq !== shownSeq) {
      const fresh = shownSeq !== null && Date.now() - Date.parse(latest.event.created_at || 0) < 60000;
      shownSeq = latest.event.seq;
      fill(lastMove, h("p", { class: `${latest.moment ? "moment" : "last"}${fresh && latest.moment ? " fresh" : ""}`, "data-seq": latest.event.seq },
        h("strong", {}, "Last move: "), latest.text));
    }
    logRoot.hidden = !events.length;
  }

  function drawHead(game, module) {
    const lobby = [];
    if (game.status === "open") {
      const full = game.players.length >= game.seats;
      if (game.your_seat === null && !full) lobby.push(choiceButton("Join", () => act("join")));
      if (game.your_seat !== null) lobby.push(choiceButton(game.creator === me.id ? "Cancel (leave)" : "Leave", () => act("leave")));
      if (game.creator === me.id) lobby.push(choiceButton("Start", () => act("start"), { disabled: !full && game.players.length < 2 }));
    }
    // A table may say what "your turn" means for it (Photoshoot's control team watches and challenges).
    const turn = game.status === "active"
      ? (game.your_turn ? h("p", { class: "your-turn", role: "status" }, module.yourTurnWords?.(game) || "Your turn")
        : h("p", { class: "waiting", role: "status" }, `Waiting for ${game.active_seats.map((s) => seatName(game, s)).join(", ") || "…"}`))
      : null;
    fill(head,
      h("h1", {}, game.title || game.kind, " ", h("span", { class: "status", "data-status": game.status }, game.status)),
      h("p", { class: "players" }, "Players: ", game.players.map((p) => `${p.username}${p.bot ? " (bot)" : ""} (seat ${p.seat})`).join(", "),
        ` — ${game.players.length}/${game.seats}`,
        game.your_seat === null && game.status !== "open" ? h("strong", { class: "spectating" }, " — you are spectating") : null),
      h("div", { class: "lobby-actions" }, lobby),
      joinLinkBox(game),
      // One bar, wrapping, so the table starts high on the first screen: whose turn, the clocks,
      // the links and the game's own actions.
      h("div", { class: "game-bar" },
        turn, game.status === "active" && game.your_seat !== null ? notificationOffer() : null,
        clocksBox(game),
        h("p", { class: "game-links" }, game.status !== "open" ? link(`#/games/${game.id}/replay`, "Replay this game") : null,
          game.status !== "open" ? " · " : null, link(`#/rules/${game.kind}`, "Rules")),
        gameActions(game, { onError: showError, onDone: refresh })),
      resultSection(game, module),
      game.status === "finished" ? fairnessBox(game) : null);
  }

  async function act(what) {
    try {
      await post(`/games/${id}/${what}/`);
      if (what === "leave") { location.hash = "#/"; return; }
    } catch (error) { showError(error); }
    await refresh();
  }

  let lobbyTimer = null;
  await refresh();
  if (lost) return;
  // An event the table was not drawn with redraws it too: the page's own move can come back
  // (its version already drawn) before its event does, and the last move is highlighted.
  const behind = (message) => message.event && (latestMove()?.seq ?? null) !== drawnEvent;
  stopFollow = follow(id, (message) => { if (message.version === undefined || message.version !== version || behind(message)) refresh(); },
                      (message) => chat?.heard(message), gone, { from: 0, onEvent: heard });
  // The lobby's changes (joins, start) are no events of the game: poll while it is open.
  lobbyTimer = setInterval(() => { if (head.querySelector("[data-status=open]")) refresh(); }, 2000);
  const stopResize = onWidthChange(tableRoot, refresh);
  const previous = leave;
  leave = () => { stopFollow(); clearInterval(lobbyTimer); stopResize(); previous(); };
}

// ---------------------------------------------------------------- replay -----------------------
async function replayPage(id) {
  const game = await get(`/games/${id}/`);
  const module = await tableFor(game.kind);
  const told = new Map();
  for (let after = 0; after < game.version;) {
    const page = await get(`/games/${id}/events/?after=${after}&limit=200`);
    if (!page.events.length) break;
    for (const event of page.events) told.set(event.seq, describeEvent(event, game, module).text);
    after = page.events[page.events.length - 1].seq;
  }
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
      label.textContent = `Event ${at} of ${last}: ${told.get(at) ?? ""}`;
      tableRoot.dataset.at = String(at);
      await module.renderTable(tableRoot, { kind: game.kind, game, view: past.state, seat: past.your_seat, legalMoves: [],
                                      submit: async () => {}, staff: Boolean(me?.is_staff), replay: true });
    } catch (error) { showError(error); }
  }
  slider.addEventListener("change", () => show(Number(slider.value)));
  fill(main, h("h1", {}, `Replay: ${game.title || game.kind}`), link(`#/games/${id}`, "Back to the game", { class: "list-link" }),
    h("div", { class: "replay-controls" },
      h("button", { type: "button", onclick: () => show(1), "aria-label": "First event" }, icon("first")),
      h("button", { type: "button", onclick: () => show(at - 1), "aria-label": "Previous event", id: "replay-prev" }, icon("prev")),
      slider,
      h("button", { type: "button", onclick: () => show(at + 1), "aria-label": "Next event", id: "replay-next" }, icon("next")),
      h("button", { type: "button", onclick: () => show(last), "aria-label": "Last event" }, icon("last")), label),
    tableRoot);
  await show(at);
}

window.addEventListener("hashchange", route);
window.addEventListener("darkroom:unauthorized", () => {
  if ((location.hash || "#/") === "#/login") return;
  leave(); leave = () => {};
  loginNote = "Your session has ended (logged out on the server, or expired): please log in again.";
  toLogin();
});
route();
