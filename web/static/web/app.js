// The Darkroom web client: hash routes, log in, lobby, my games, inbox, the game page (tables,
// clocks, result, seed), spectating and the replay viewer. Everything comes from /api/v1/.
import { auth, api, get, post, follow, userStream, deviceName, ApiError } from "./api.js";
import { h, choiceButton, fill, icon } from "./svg.js";
import { chatPanel, gameActions, invitationsSection } from "./social.js";
import { settingsPage, profilePage, leaderboardPage, rulesPage, joinPage, joinLinkBox, disputeForm } from "./community.js";
import { frontPage, lobbyPage, myGamesPage, guestRegisterPage } from "./front.js";
import { describeEvent, resultSection } from "./story.js";
import { disputesPanel } from "./disputes.js";
import { tournamentsPage, tournamentPage, tournamentJoinPage } from "./tournaments.js";
import { ladderPage } from "./ladders.js";
import { playersBar, statusWords, fairnessSection, sendStatus, playerName } from "./standing.js";
import { t, formatDateTime, useLanguage, preferredLanguage, chosenLanguage, rememberLanguage, currentLanguage, LANGUAGES } from "./i18n.js";

const main = document.getElementById("main");
const nav = document.getElementById("nav");
const footer = document.getElementById("footer");
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

// A moment as the player's language writes it, in a <time> that keeps the exact one.
const when = (iso) => (iso ? h("time", { datetime: iso }, formatDateTime(iso)) : "—");
const link = (href, text, attrs = {}) => h("a", { href, ...attrs }, text);
const seatName = (game, seat) => game.players.find((p) => p.seat === seat)?.username ?? t("game.seat", { seat: seat + 1 });

// ---------------------------------------------------------------- routing ----------------------
// The screens around the tables get what they need from here (front.js).
const shell = {
  showError: (error) => showError(error), say: (message, kind) => say(message, kind), me: () => me,
  onLeave: (fn) => { const previous = leave; leave = () => { fn(); previous(); }; },
  onNews: (fn) => { news = fn; },
  becameGuest: () => { me = null; },
  registered: (who) => { me = { ...me, ...who }; drawNav(); },
  sayNext: (message) => { nextNote = message; },   // said on the next screen (a new screen clears the last message)
};
let nextNote = null;
const routes = [
  [/^#\/login$/, (root) => loginPage(root)],
  [/^#\/register$/, (root) => (me?.is_guest ? guestRegisterPage(root, shell) : loginPage(root))],
  [/^#\/mine$/, (root) => myGamesPage(root, shell)],
  [/^#\/inbox$/, (root) => inboxPage(root)],
  [/^#\/settings$/, (root) => settingsPage(root, { say, showError, me, chooseLanguage })],
  [/^#\/players\/([^/]+)$/, (root, name) => profilePage(root, decodeURIComponent(name))],
  [/^#\/leaderboard\/([a-z0-9_-]+)$/, (root, kind) => leaderboardPage(root, kind)],
  [/^#\/leaderboard$/, (root) => leaderboardPage(root, "photograph")],
  [/^#\/rules\/([a-z0-9_-]+)$/, (root, kind) => rulesPage(root, kind)],
  [/^#\/join\/([A-Za-z0-9_-]+)$/, (root, code) => joinPage(root, code, { showError })],
  [/^#\/tournaments$/, (root) => tournamentsPage(root, { showError })],
  [/^#\/tournaments\/([0-9a-f-]+)$/, (root, id) => tournamentPage(root, id, { showError, say, onLeave: shell.onLeave })],
  [/^#\/tournaments\/([0-9a-f-]+)\/join\/([A-Za-z0-9_-]+)$/, (root, id, code) => tournamentJoinPage(root, id, code, { showError, say })],
  [/^#\/ladders\/([a-z0-9_-]+)$/, (root, kind) => ladderPage(root, kind, { showError, say, me })],
  [/^#\/games\/([0-9a-f-]+)\/replay$/, (root, id) => replayPage(root, id)],
  [/^#\/games\/([0-9a-f-]+)$/, (root, id) => gamePage(root, id)],
  [/^#?\/?$/, (root) => (me ? lobbyPage(root, shell) : frontPage(root, shell))],
];
// What a visitor with no account may see: the front door, the rules, the log-in page.
const PUBLIC = [/^#?\/?$/, /^#\/rules\/[a-z0-9_-]+$/, /^#\/login$/, /^#\/register$/];

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
  if (nextNote) { say(nextNote, "info"); nextNote = null; }
  const hash = location.hash || "#/";
  if (!auth.token && !PUBLIC.some((pattern) => pattern.test(hash))) { toLogin(); return; }
  if (auth.token && !me) {
    try { me = await get("/accounts/me/"); } catch (error) { auth.token = null; toLogin(); return; }
    // No choice made on this device yet: the player's own, saved from another device, wins.
    if (!chosenLanguage() && me.language && me.language !== currentLanguage() && LANGUAGES[me.language]) await useLanguage(me.language);
    startUserStream();
  }
  drawNav();
  showTurns();
  for (const [pattern, page] of routes) {
    const match = hash.match(pattern);
    if (match) {
      // aria-busy: assistive technology (and the browser tests' audit) waits for the screen.
      main.setAttribute("aria-busy", "true");
      // Each screen draws into an element of its own: a page still loading when the player has
      // moved on (a slow answer) draws into a detached one, never over the screen that replaced it.
      const root = h("div", { class: "screen" }, h("p", { class: "loading" }, t("common.loading")));
      fill(main, root);
      try { await page(root, ...match.slice(1)); } catch (error) { if (root.isConnected) showError(error); } finally {
        if (root.isConnected) main.removeAttribute("aria-busy");
      }
      if (!root.isConnected) return;
      // The footer comes once the screen is drawn, below it: drawn under "Loading…", it would be
      // pushed down the page as the screen arrived (a layout shift on every first load).
      drawFooter();
      showTurns();
      // A new screen: focus at its start (unless the screen already put it on a control).
      if (!main.contains(document.activeElement) || document.activeElement === main) main.focus({ preventScroll: true });
      return;
    }
  }
  fill(main, h("h1", {}, t("common.no_such_page")), h("p", {}, link("#/", t("common.back_home"))));
  drawFooter();
}

function drawNav() {
  nav.setAttribute("aria-label", t("nav.label"));
  if (!me) { fill(nav, link("#/", t("nav.games")), link("#/login", t("nav.log_in"))); return; }
  const unread = h("span", { id: "unread", class: "badge", "aria-label": t("nav.unread", { count: 0 }) });
  fill(nav, link("#/", t("nav.lobby")), link("#/mine", t("nav.mine")), h("a", { href: "#/inbox" }, t("nav.inbox"), unread),
    link("#/leaderboard", t("nav.leaderboards")), link("#/tournaments", t("nav.tournaments")), link("#/settings", t("nav.settings")),
    me.is_guest ? link("#/register", t("nav.keep_games"), { class: "keep" })
      : link(`#/players/${encodeURIComponent(me.username)}`, h("span", { translate: "no" }, me.username), { class: "who" }),
    h("button", { type: "button", onclick: logout }, t("nav.log_out")));
  updateUnread();
}

function updateUnread() {
  get("/notifications/unread-count/").then((r) => {
    const badge = document.getElementById("unread");
    if (badge) { badge.textContent = r.unread ? String(r.unread) : ""; badge.setAttribute("aria-label", t("nav.unread", { count: r.unread })); }
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
      if (game.your_turn && game.status === "active") turns.set(id, kindTitle(game.kind) || t("turn.a_game"));
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
  const heading = document.querySelector("main h1");
  const base = heading?.dataset.title || heading?.textContent || "";
  const count = turns.size;
  document.title = `${count ? `${t("turn.tab_title", { count })} · ` : ""}${base && base !== "Darkroom" ? `${base} · ` : ""}Darkroom`;
}

export function notifyTurn(id, title) {
  if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
  const note = new Notification(t("turn.notice_title"), { body: t("turn.notice_body", { title }), tag: `turn-${id}` });
  note.onclick = () => { window.focus(); location.hash = `#/games/${id}`; note.close(); };
}

/** A button to allow turn notifications, while the browser has not been asked yet. */
function notificationOffer() {
  if (!("Notification" in window) || Notification.permission !== "default") return null;
  const button = h("button", { type: "button", class: "notify-offer" }, icon("bell"), t("turn.offer"));
  button.addEventListener("click", async () => {
    const answer = await Notification.requestPermission();
    button.replaceWith(h("span", { class: "help" }, answer === "granted" ? t("turn.offer_on") : t("turn.offer_off")));
  });
  return button;
}

// ---------------------------------------------------------------- log in / register ------------
async function loginPage(root) {
  const form = (title, path, extra) => {
    const f = h("form", { class: "card", "aria-label": title },
      h("h2", {}, title),
      h("label", {}, t("auth.username"), " ", h("input", { name: "username", required: true, autocomplete: "username" })),
      h("label", {}, t("auth.password"), " ", h("input", { name: "password", type: "password", required: true,
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
  fill(root, h("h1", {}, t("login.title")),
    h("p", { class: "help" }, t("login.help")),
    h("div", { class: "auth" },
    form(t("nav.log_in"), "/accounts/token/"),
    form(t("guest.register_title"), "/accounts/register/", h("label", {}, t("auth.email_optional"), " ", h("input", { name: "email", type: "email" })))),
    auth.token ? null : h("p", {}, link("#/", t("login.or_guest"))));
}

// ---------------------------------------------------------------- inbox ------------------------
async function inboxPage(root) {
  const page = await get("/notifications/?limit=100");
  // A notice is the server's sentence, written for this account in its saved language (else the
  // site's, English): marked as such, for screen readers and for a reader in another language.
  const written = (title) => h("span", { lang: me?.language || "en" }, title);
  const mark = (note) => note.read ? null : choiceButton(t("inbox.mark_read"), async () => {
    await post(`/notifications/${note.id}/read/`); route();
  });
  fill(root, h("h1", {}, t("inbox.title", { count: page.unread })),
    page.unread ? h("button", { type: "button", onclick: async () => { await post("/notifications/read-all/"); route(); } }, t("inbox.mark_all_read")) : null,
    page.results.length ? h("ul", { class: "inbox" }, page.results.map((note) =>
      h("li", { class: note.read ? "read" : "unread", "data-type": note.type },
        h("span", { class: "when" }, when(note.updated_at)), " ",
        note.game ? link(`#/games/${note.game}`, written(note.title)) : written(note.title),
        note.collapsed > 1 ? ` (×${note.collapsed})` : "", " ", mark(note))))
      : h("p", {}, t("inbox.empty")));
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
async function gamePage(root, id) {
  let version = -1, running = null, again = false, stopFollow = () => {};
  let drawnEvent = null;   // the seq of the last event the table was drawn with (its last move highlighted)
  const tableRoot = h("div", { class: "table", id: "table" });
  const head = h("div", { class: "game-head" });
  let chat = null;
  const chatRoot = h("div", { class: "chat-root" });
  // The story so far: the last move (a moment such as a verdict stands out) and the move log.
  const lastMove = h("div", { class: "last-move", id: "last-move", role: "status", "aria-live": "polite" });
  const logList = h("ol", { class: "move-log-list", reversed: true, tabindex: 0, "aria-label": t("game.moves_label") });
  const logRoot = h("section", { class: "move-log", "aria-label": t("game.moves") }, h("h2", {}, t("game.moves")), logList);
  const events = [];
  // The last move, for the table to highlight: the game's own bookkeeping (its end, a dispute)
  // comes after a move but is none.
  const latestMove = () => [...events].reverse().find((e) => !BOOKKEEPING.has(e.type)) || null;
  let shownSeq = null;
  const disputeRoot = h("div", { class: "dispute-root" });   // drawn once: a half-written dispute survives live updates
  const disputes = disputesPanel(id);
  const fairRoot = h("div", { class: "fairness-root" });
  const sending = sendStatus();
  let stopBar = () => {};
  const foot = h("div", { class: "game-foot" });
  fill(root, head, sending.node, lastMove, h("h2", { class: "sr-only" }, t("game.the_table")), tableRoot, foot, logRoot, chatRoot, fairRoot);

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
    fill(head, h("h1", {}, t("game.none_title")),
      h("p", {}, error?.status === 403 ? t("game.private") : t("game.none")),
      h("p", {}, link("#/", t("common.back_lobby"))));
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
      lastMove.hidden = game.status === "open";   // no moves to tell before the start, no place kept for one
      // The stream brings new chat lines; a reload per refresh covers a long-poll (which has none).
      // Chat opens with the table: the players seated at an open game talk while they wait.
      if (!chat && (game.status !== "open" || game.your_seat !== null)) { chat = chatPanel(game, showError); fill(chatRoot, chat.node); }
      else if (chat) chat.reload();
      if (!disputeRoot.firstChild && game.status !== "open") fill(disputeRoot, disputeForm(game, { say, showError, filed: () => disputes.show(game, { force: true }) }));
      disputes.show(game);
      // The seed and disputes under one heading, below the table and the story: the seed's hash
      // is no business of a player looking at the board.
      if (!fairRoot.firstChild || (game.seed && !fairRoot.querySelector("code.seed"))) fill(fairRoot, fairnessSection(game, disputes.node, disputeRoot));
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

  // A move on its way says so ("Sending…"); a move that did not arrive says so too, with a
  // Retry, never a silent spinner.
  async function submit(move, expected) {
    tableRoot.dataset.busy = "true";
    sending.sending();
    let failed = null;
    try {
      await post(`/games/${id}/moves/`, { move, expected_version: expected });
    } catch (error) {
      // A neighbour moved first (simultaneous phases): our view did not change, so the move is
      // posted again on the new version if it is still legal. Anything else: the server's word.
      if (error.code === "version_conflict") await repost(move);
      else failed = error;
    }
    if (failed) {
      const why = failed instanceof ApiError ? failed.message : t("send.offline");
      sending.failed(why, () => submit(move, version));
    } else sending.done();
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
        h("strong", {}, `${t("game.last_move")} `), latest.text));
    }
    logRoot.hidden = !events.length;
  }

  function drawHead(game, module) {
    const lobby = [];
    if (game.status === "open") {
      const full = game.players.length >= game.seats;
      if (game.your_seat === null && !full) lobby.push(choiceButton(t("open.join"), () => act("join")));
      if (game.your_seat !== null) lobby.push(choiceButton(game.creator === me.id ? t("open.cancel") : t("open.leave"), () => act("leave")));
      if (game.creator === me.id) lobby.push(choiceButton(t("open.start"), () => act("start"), { disabled: !full && game.players.length < 2 }));
      lobby.unshift(h("p", { class: "waiting-for", role: "status" }, openWords(game, full)));
    }
    // The game's state in words (a table may say what "your turn" means for it: Photoshoot's
    // control team watches and challenges); the heading, and so the tab's title, follow it.
    const words = statusWords(game, game.your_turn ? module.yourTurnWords?.(game) : null);
    const turn = game.status === "active" && game.your_turn ? h("p", { class: "your-turn sr-only", role: "status" }, words) : null;
    stopBar();
    const bar = game.status === "open" ? null : playersBar(game);
    stopBar = bar ? bar.stop : () => {};
    fill(head,
      h("h1", { "data-title": `${game.title || game.kind} · ${words}` }, h("span", { class: "game-title", translate: "no" }, game.title || game.kind), " ",
        h("span", { class: "status", "data-status": game.status, "data-your-turn": String(Boolean(game.your_turn)) }, words)),
      game.status === "open"
        ? h("p", { class: "players" }, t("game.players_open", { names: game.players.map((p) => `${p.username}${p.bot ? ` ${t("common.bot")}` : ""}`).join(", "),
          count: game.players.length, seats: game.seats }))
        : null,
      bar ? bar.node : null,
      game.your_seat === null && game.status !== "open" ? h("p", { class: "spectating" }, t("game.spectating")) : null,
      h("div", { class: "lobby-actions" }, lobby),
      joinLinkBox(game),
      turn,
      resultSection(game, module));
    // The links and the game's own actions (resign, abort, rematch) wait under the table: above
    // it they pushed the board off a phone's first screen. An open game has no table: they stay.
    fill(foot, h("div", { class: "game-bar" },
      game.status === "active" && game.your_seat !== null ? notificationOffer() : null,
      h("p", { class: "game-links" }, game.status !== "open" ? link(`#/games/${game.id}/replay`, t("game.replay")) : null,
        game.status !== "open" ? " · " : null, link(`#/rules/${game.kind}`, t("game.rules"))),
      gameActions(game, { onError: showError, onDone: refresh })));
    showTurns();
  }

  // Whom an open game waits for, and what happens then, said to everyone who looks at it.
  function openWords(game, full) {
    const creator = game.players.find((p) => p.user === game.creator)?.username ?? "…";
    const free = game.seats - game.players.length;
    if (full) return game.creator === me.id ? t("open.full_you_start") : t("open.full_creator_starts", { name: creator });
    const then = game.auto_start ? t("open.then_starts") : game.creator === me.id ? t("open.then_you_start") : t("open.then_creator_starts", { name: creator });
    return `${t("open.waiting_players", { count: free })} ${then}`;
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
  leave = () => { stopFollow(); clearInterval(lobbyTimer); stopResize(); stopBar(); previous(); };
}

// ---------------------------------------------------------------- replay -----------------------
async function replayPage(root, id) {
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
  const slider = h("input", { type: "range", min: 1, max: last, value: at, "aria-label": t("replay.event_number") });
  async function show(n) {
    at = Math.max(1, Math.min(last, n));
    slider.value = at;
    try {
      const past = await get(`/games/${id}/state/?at=${at}`);
      label.textContent = t("replay.event", { at, last, text: told.get(at) ?? "" });
      tableRoot.dataset.at = String(at);
      await module.renderTable(tableRoot, { kind: game.kind, game, view: past.state, seat: past.your_seat, legalMoves: [],
                                      submit: async () => {}, staff: Boolean(me?.is_staff), replay: true });
    } catch (error) { showError(error); }
  }
  slider.addEventListener("change", () => show(Number(slider.value)));
  fill(root, h("h1", {}, t("replay.title", { title: game.title || game.kind })), link(`#/games/${id}`, t("replay.back"), { class: "list-link" }),
    h("div", { class: "replay-controls" },
      h("button", { type: "button", onclick: () => show(1), "aria-label": t("replay.first") }, icon("first")),
      h("button", { type: "button", onclick: () => show(at - 1), "aria-label": t("replay.previous"), id: "replay-prev" }, icon("prev")),
      slider,
      h("button", { type: "button", onclick: () => show(at + 1), "aria-label": t("replay.next"), id: "replay-next" }, icon("next")),
      h("button", { type: "button", onclick: () => show(last), "aria-label": t("replay.last") }, icon("last")), label),
    tableRoot);
  await show(at);
}

window.addEventListener("hashchange", route);
// The offline shell (sw.js): the installed app opens without a network and says so.
if ("serviceWorker" in navigator) window.addEventListener("load", () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {}));
window.addEventListener("offline", () => say(t("common.offline"), "info"));
window.addEventListener("online", () => { fill(flash); route(); });
window.addEventListener("darkroom:unauthorized", () => {
  if ((location.hash || "#/") === "#/login") return;
  leave(); leave = () => {};
  loginNote = t("login.session_ended");
  toLogin();
});

// ---------------------------------------------------------------- language ---------------------
// The language menu, at the foot of every screen (a visitor's too). The choice is kept on this
// device; a player's is also saved on the server once it keeps one (a `language` among the
// preferences), so emails and pushes follow it.
function drawFooter() {
  const select = h("select", { id: "language", name: "language" }, Object.entries(LANGUAGES).map(([code, name]) =>
    h("option", { value: code, lang: code, translate: "no", selected: code === currentLanguage() }, name)));
  select.addEventListener("change", () => chooseLanguage(select.value));
  fill(footer, h("label", { class: "language" }, t("lang.label"), select));
}

async function serverPreferences() {
  try { return await get("/accounts/preferences/"); } catch (error) { return {}; }
}

export async function chooseLanguage(code) {
  rememberLanguage(code);
  await useLanguage(code);
  if (me && auth.token && "language" in await serverPreferences()) {
    const saved = await api("/accounts/preferences/", { method: "PUT", body: { language: code } }).catch(() => null);
    if (saved && me) me.language = saved.language;
  }
  route();
}

async function start() {
  await useLanguage(preferredLanguage());
  route();
}
start();
