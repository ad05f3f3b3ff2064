// The screens around the tables: the front door (a visitor with no account), the lobby (play
// first: your games, then one click to a game against the computer or a friend), "My games", and
// a guest's registration. Like every screen they only call /api/v1/.
import { auth, get, post, deviceName } from "./api.js";
import { h, fill } from "./svg.js";
import { t, formatList, formatAgo } from "./i18n.js";
import { createForm, playComputer, playFriend } from "./create.js";
import { invitationsSection } from "./social.js";
import { seeksSection } from "./community.js";

const link = (href, text, attrs = {}) => h("a", { href, ...attrs }, text);
// The four games of the site, in the order a newcomer meets them; a kind the server adds later
// still shows (after these), with its title and no pitch.
const ORDER = ["photograph", "provence", "photoshoot", "pickpic"];
const boxPicture = (kind) => new URL(`./boxes/${kind}.svg`, import.meta.url).href;
const ordered = (kinds) => [...kinds].sort((a, b) => (ORDER.indexOf(a.kind) + 1 || 99) - (ORDER.indexOf(b.kind) + 1 || 99));
const kindList = async () => { const kinds = await get("/kinds/"); return kinds.results || kinds; };
const pitch = (kind) => { const id = `kind.${kind.kind}.pitch`; const words = t(id); return words === id ? "" : words; };
const playersWords = (kind) => (kind.min_players === kind.max_players ? t("kind.players_exactly", { count: kind.min_players })
  : t("kind.players_range", { min: kind.min_players, max: kind.max_players }));

// ---------------------------------------------------------------- words for a game in a list ----
const nameOf = (game, seat) => game.players.find((p) => p.seat === seat)?.username ?? "…";
const names = (list) => formatList(list);

/** Where a game stands, for the person looking: "Your turn", "Waiting for ann", "Finished — you won". */
export function standing(game) {
  const mine = game.your_seat !== null && game.your_seat !== undefined;
  if (game.status === "finished") {
    const result = game.result || {};
    if (result.cooperative) return t(result.cooperative.won ? "standing.team_won" : "standing.team_lost");
    const winners = result.winners || [];
    if (!winners.length) return t("standing.no_winner");
    if (mine && winners.includes(game.your_seat)) return t(winners.length > 1 ? "standing.you_shared" : "standing.you_won");
    const who = names(winners.map((s) => nameOf(game, s)));
    return t(mine ? "standing.you_lost" : "standing.won_by", { names: who, count: winners.length });
  }
  if (game.status === "aborted") return t("standing.aborted");
  if (game.status === "cancelled") return t("standing.cancelled");
  if (game.status === "open") {
    const free = game.seats - game.players.length;
    if (free > 0) return t("standing.waiting_players", { count: free });
    const creator = game.players.find((p) => p.user === game.creator)?.username ?? "…";
    return game.creator === game.your_user ? t("standing.full_you_start") : t("standing.full_waiting_start", { name: creator });
  }
  if (game.your_turn) return t("standing.your_turn");
  return t("standing.waiting_for", { names: names((game.active_seats || []).map((s) => nameOf(game, s))) || "…" });
}

/** A span of time in its largest unit: "2 days", "5 hours", "12 minutes", "40 seconds". */
export function span(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86400) return t("time.days", { count: Math.floor(s / 86400) });
  if (s >= 3600) return t("time.hours", { count: Math.floor(s / 3600) });
  if (s >= 60) return t("time.minutes", { count: Math.floor(s / 60) });
  return t("time.seconds", { count: s });
}

/** The time the player to move has left ("You have 2 days", "ann has 5 hours"), or null. */
export function timeLeft(game) {
  if (game.status !== "active" || !game.clocks?.seats) return null;
  const seat = game.your_turn ? game.your_seat : (game.active_seats || [])[0];
  const clock = game.clocks.seats[seat];
  if (!clock?.since) return null;
  const left = (Date.parse(clock.since) + clock.left * 1000 - Date.now()) / 1000;
  return game.your_turn ? t("left.you", { time: span(left) }) : t("left.other", { name: nameOf(game, seat), time: span(left) });
}

/** When the game last moved: the latest clock start, else its start, end or creation. */
export function lastActivity(game) {
  const times = [game.finished_at, game.started_at, game.created_at,
    ...Object.values(game.clocks?.seats || {}).map((c) => c.since)].filter(Boolean).map(Date.parse);
  return Math.max(...times);
}

export const ago = (ms) => formatAgo(ms);

/** One game of mine, in a list: its name and opponents, where it stands, time left, last move. */
export function myGameRow(game) {
  const others = game.players.filter((p) => p.seat !== game.your_seat)
    .map((p) => (p.bot ? t("game.bot_name", { name: p.username }) : p.username));
  const left = timeLeft(game);
  return h("li", { class: `game-row mine ${game.your_turn && game.status === "active" ? "your-turn" : ""}`, "data-game": game.id, "data-state": game.status },
    link(`#/games/${game.id}`, others.length ? t("lobby.game_with", { title: game.title || game.kind, names: names(others) }) : (game.title || game.kind)),
    h("strong", { class: "standing" }, standing(game)),
    left ? h("span", { class: "time-left" }, left) : null,
    h("span", { class: "last-activity" }, t("lobby.last_activity", { when: ago(lastActivity(game)) })));
}

const ORDER_MINE = { active: 1, open: 2, finished: 3, aborted: 4, cancelled: 5 };
export function sortMine(games) {
  return [...games].sort((a, b) => (Number(b.your_turn && b.status === "active") - Number(a.your_turn && a.status === "active"))
    || (ORDER_MINE[a.status] - ORDER_MINE[b.status]) || (lastActivity(b) - lastActivity(a)));
}

// ---------------------------------------------------------------- one click to a game -----------
/** Play the computer: a visitor with no account becomes a guest first (no form to fill). */
async function startAgainstComputer(kind, { showError, becameGuest }) {
  try {
    if (!auth.token) {
      const guest = await post("/accounts/guest/", { device: deviceName() });
      auth.token = guest.token;
      becameGuest();
    }
    const game = await playComputer(kind);
    location.hash = `#/games/${game.id}`;
  } catch (error) { showError(error); }
}

function kindBox(kind, actions, level = "h3") {
  return h("article", { class: "kind-box", "data-kind": kind.kind, "aria-labelledby": `kind-${kind.kind}` },
    ORDER.includes(kind.kind) ? h("img", { src: boxPicture(kind.kind), alt: "", width: 320, height: 180, class: "box-picture", decoding: "async" })
      : h("div", { class: "box-picture", "aria-hidden": "true" }),
    h("div", { class: "box-words" },
      h(level, { id: `kind-${kind.kind}`, translate: "no" }, kind.title),
      pitch(kind) ? h("p", { class: "pitch" }, pitch(kind)) : null,
      h("p", { class: "help" }, playersWords(kind), " · ", link(`#/rules/${kind.kind}`, t("kind.how_to_play", { title: kind.title }))),
      actions));
}

// ---------------------------------------------------------------- the front door ----------------
/** `#/` for a visitor with no account: what Darkroom is, the four games, one click to play. */
export async function frontPage(main, shell) {
  const kinds = ordered(await kindList());
  const first = kinds.find((k) => k.kind === ORDER[0]) || kinds[0];
  const play = (kind, words, attrs = {}) => h("button", { type: "button", class: "primary", ...attrs,
    onclick: (e) => { e.currentTarget.disabled = true; startAgainstComputer(kind, shell).finally(() => { e.target.disabled = false; }); } }, words);
  fill(main,
    h("section", { class: "hero", "aria-labelledby": "front-title" },
      h("h1", { id: "front-title" }, t("front.title")),
      h("p", { class: "lede" }, t("front.lede")),
      h("div", { class: "hero-actions" },
        play(first, t("front.play_now"), { id: "play-now", class: "primary big" }),
        link("#/login", t("front.log_in"), { class: "button-link" })),
      h("p", { class: "help" }, t("front.guest_note", { title: first.title }))),
    h("section", { class: "boxes", "aria-labelledby": "front-games" },
      h("h2", { id: "front-games" }, t("front.games")),
      h("div", { class: "kind-boxes" }, kinds.map((kind) => kindBox(kind,
        h("div", { class: "box-actions" }, play(kind, t("lobby.play_computer"), { "aria-label": t("lobby.play_computer_kind", { title: kind.title }) })))))),
    h("section", { class: "about", "aria-labelledby": "front-how" },
      h("h2", { id: "front-how" }, t("front.how_title")),
      h("ul", {}, h("li", {}, t("front.how_pace")), h("li", {}, t("front.how_legal")), h("li", {}, t("front.how_phone")))));
}

// ---------------------------------------------------------------- the lobby ---------------------
export async function lobbyPage(main, shell) {
  const kinds = ordered(await kindList());
  const mineRoot = h("div", { class: "my-list" });
  const othersRoot = h("div", { class: "others" });
  const watchRoot = h("div", {});
  const titles = Object.fromEntries(kinds.map((k) => [k.kind, k.title]));
  const go = (start) => async (e) => {
    const button = e.currentTarget;
    button.disabled = true;
    try { const game = await start(); location.hash = `#/games/${game.id}`; } catch (error) { shell.showError(error); button.disabled = false; }
  };
  // The lists (not the create forms, which may be half filled) follow the user stream's news and
  // look again every 15 s for other people's new games.
  async function refreshLists() {
    const joinSeek = async (game) => {
      try { await post(`/games/${game.id}/join/`); location.hash = `#/games/${game.id}`; } catch (error) { shell.showError(error); }
    };
    const [mine, invited, seeks, active] = await Promise.all([get("/games/?mine=true&limit=100"),
      invitationsSection(shell.showError, titles), seeksSection(joinSeek), get("/games/?status=active&limit=20")]);
    const me = shell.me();
    const all = mine.results.map((g) => ({ ...g, your_user: me?.id }));
    const playing = sortMine(all.filter((g) => g.status === "active" || g.status === "open"));
    const over = sortMine(all.filter((g) => !["active", "open"].includes(g.status))).slice(0, 5);
    const keep = document.activeElement && main.contains(document.activeElement) ? document.activeElement.closest("[data-game]")?.dataset.game : null;
    fill(mineRoot,
      playing.length ? h("ul", { class: "games" }, playing.map(myGameRow)) : h("p", { class: "help" }, t("lobby.no_games")),
      over.length ? [h("h3", {}, t("lobby.recently_over")), h("ul", { class: "games" }, over.map(myGameRow))] : null,
      all.length > playing.length + over.length ? h("p", {}, link("#/mine", t("lobby.all_my_games"))) : null);
    // A seek of mine is in my own list already: each open game is listed once.
    seeks.querySelectorAll("[data-seek]").forEach((li) => { if (all.some((g) => g.id === li.dataset.seek)) li.remove(); });
    fill(othersRoot, invited, seeks);
    const watch = active.results.filter((g) => g.your_seat === null);
    fill(watchRoot, h("section", { "aria-labelledby": "lobby-watch" }, h("h2", { id: "lobby-watch" }, t("lobby.watch")),
      watch.length ? h("ul", { class: "games" }, watch.map((g) => h("li", { class: "game-row", "data-game": g.id },
        link(`#/games/${g.id}`, t("lobby.game_with", { title: g.title || g.kind, names: names(g.players.map((p) => (p.bot ? t("game.bot_name", { name: p.username }) : p.username))) })),
        h("span", { class: "last-activity" }, t("lobby.last_activity", { when: ago(lastActivity(g)) })))))
        : h("p", { class: "help" }, t("lobby.nobody_playing"))));
    if (keep) main.querySelector(`[data-game="${keep}"] a`)?.focus();
  }
  await refreshLists();
  // The four create forms are built one task each: on a slow phone one task building all four
  // held the page (and a first tap) for a tenth of a second.
  const forms = [];
  for (const kind of kinds) {
    forms.push(createForm(kind, shell.showError));
    await new Promise((resolve) => setTimeout(resolve));
  }
  fill(main,
    h("h1", {}, t("lobby.title")),
    h("section", { "aria-labelledby": "lobby-mine", class: "lobby-mine" }, h("h2", { id: "lobby-mine" }, t("lobby.your_games")), mineRoot),
    h("section", { "aria-labelledby": "lobby-new" }, h("h2", { id: "lobby-new" }, t("lobby.new_game")),
      h("div", { class: "kind-boxes" }, kinds.map((kind, i) => kindBox(kind, [
        h("div", { class: "box-actions" },
          h("button", { type: "button", class: "primary play-computer-now", onclick: go(() => playComputer(kind)),
                        "aria-label": t("lobby.play_computer_kind", { title: kind.title }) }, t("lobby.play_computer")),
          h("button", { type: "button", class: "play-friend", onclick: go(() => playFriend(kind)),
                        "aria-label": t("lobby.play_friend_kind", { title: kind.title }) }, t("lobby.play_friend"))),
        h("details", { class: "more-options" }, h("summary", {}, t("lobby.more_options"), h("span", { class: "sr-only" }, ` (${kind.title})`)),
          forms[i])])))),
    othersRoot,
    watchRoot);
  shell.onNews(() => refreshLists().catch(() => {}));
  const timer = setInterval(() => refreshLists().catch(() => {}), 15000);
  shell.onLeave(() => clearInterval(timer));
}

// ---------------------------------------------------------------- my games ----------------------
export async function myGamesPage(main, shell) {
  const root = h("div", { class: "my-games" });
  async function draw() {
    const page = await get("/games/?mine=true&limit=100");
    const me = shell.me();
    const games = sortMine(page.results.map((g) => ({ ...g, your_user: me?.id })));
    fill(root, games.length ? h("ul", { class: "games" }, games.map(myGameRow))
      : h("p", {}, t("mine.none"), " ", link("#/", t("mine.to_lobby"))));
  }
  await draw();
  fill(main, h("h1", {}, t("mine.title")), root);
  shell.onNews(() => draw().catch(() => {}));   // the user stream: a turn, a start, an end
}

// ---------------------------------------------------------------- a guest registers -------------
/** `#/register` for a guest: a name and a password, the games kept. */
export function guestRegisterPage(main, shell) {
  const form = h("form", { class: "card", "aria-labelledby": "keep-title" },
    h("h2", { id: "keep-title" }, t("guest.register_title")),
    h("label", {}, t("auth.username"), " ", h("input", { name: "username", required: true, autocomplete: "username" })),
    h("label", {}, t("auth.password"), " ", h("input", { name: "password", type: "password", required: true, autocomplete: "new-password" })),
    h("label", {}, t("auth.email_optional"), " ", h("input", { name: "email", type: "email", autocomplete: "email" })),
    h("button", { type: "submit", class: "primary" }, t("guest.register_button")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(form));
    if (!data.email) delete data.email;
    try {
      const me = await post("/accounts/guest/register/", data);
      shell.registered(me);
      shell.sayNext(t("guest.welcome", { name: me.username }));
      location.hash = "#/";
    } catch (error) { shell.showError(error); }
  });
  fill(main, h("h1", {}, t("guest.page_title")), h("p", { class: "help" }, t("guest.why")), form);
}

