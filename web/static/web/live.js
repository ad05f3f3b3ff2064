// One live connection per browser. A browser allows six connections to a site over HTTP/1.1, and
// correspondence players keep many games open: so all tabs share ONE stream, the user stream
// (`GET /stream/`), which carries every game any tab shows (docs/api.md, "Live updates").
//
// The stream is held by a `Hub`: in a SharedWorker where the browser has one (live-worker.js),
// else in one tab elected with the Web Locks API, the others talking to it over a
// BroadcastChannel; with neither, each tab holds its own. Tabs tell the hub which games they show
// (follow / unfollow), and the tournaments they show without being in them (follow-tournament /
// unfollow-tournament); the hub adds and drops them on the open stream
// (`POST`/`DELETE /stream/{stream}/games/`, `/stream/{stream}/tournaments/`) and hands each frame to
// the tabs that want it.
//
// This module is also loaded by the worker: nothing at its top level touches a window.
const BASE = "/api/v1";
const NAME = "darkroom-live";

// ------------------------------------------------------------------ the hub (one per browser) ----
export class Hub {
  /** send(tab, message): to one tab, or to every tab when `tab` is null. */
  constructor(send) {
    this.send = send;
    this.token = null;
    this.tabs = new Map();    // tab -> Set of the games it follows
    this.games = new Map();   // game -> {after: the last seq heard (or null: from the present), tabs}
    this.source = null;       // the EventSource, once asked for
    this.stream = null;       // the open stream's id (its `ready`)
    this.onServer = new Set(); // the games the open stream follows
    this.watched = new Map();  // tournament -> the tabs that show it
    this.watchedOnServer = new Set(); // the tournaments the open stream follows on request
    this.notes = null;        // the last notification heard: a reconnection resumes after it
    this.failures = 0;
    this.timer = null;
    this.connecting = false;
    this.ended = false;       // the token was refused: nothing until another one comes
  }

  receive(tab, message) {
    if (!this.tabs.has(tab)) this.tabs.set(tab, new Set());
    if (message.token !== undefined && message.token !== this.token) this.retoken(message.token);
    if (message.t === "follow") this.follow(tab, message.game, message.after ?? null);
    else if (message.t === "unfollow") this.unfollow(tab, message.game);
    else if (message.t === "follow-tournament") this.watch(tab, message.tournament, true);
    else if (message.t === "unfollow-tournament") this.watch(tab, message.tournament, false);
    else if (message.t === "bye") {
      for (const game of this.tabs.get(tab)) this.unfollow(tab, game);
      for (const tournament of [...this.watched.keys()]) this.watch(tab, tournament, false);
      this.tabs.delete(tab);
    }
    if (this.stream) this.send(tab, { t: "open" });
    this.connect();
  }

  retoken(token) {
    this.token = token;
    this.ended = false;
    this.close();
    this.notes = null;
    this.failures = 0;
  }

  follow(tab, game, after) {
    this.tabs.get(tab).add(game);
    let entry = this.games.get(game);
    const fresh = !entry;
    if (fresh) this.games.set(game, entry = { after, tabs: new Set() });
    entry.tabs.add(tab);
    // Already followed: the hub is past the tab's start, which then reads what it missed itself.
    this.send(tab, { t: "following", game, fresh });
    this.sync();
  }

  unfollow(tab, game) {
    this.tabs.get(tab)?.delete(game);
    const entry = this.games.get(game);
    if (!entry) return;
    entry.tabs.delete(tab);
    if (!entry.tabs.size) this.games.delete(game);
    this.sync();
  }

  watch(tab, tournament, on) {
    const tabs = this.watched.get(tournament) ?? new Set();
    if (on) tabs.add(tab); else tabs.delete(tab);
    if (tabs.size) this.watched.set(tournament, tabs); else this.watched.delete(tournament);
    this.sync();
  }

  headers() {
    return { Authorization: `Token ${this.token}`, Accept: "application/json", "Content-Type": "application/json" };
  }

  // The open stream follows what the tabs show: each difference is one request.
  async sync() {
    if (!this.stream) return;
    const stream = this.stream;
    for (const [game, entry] of this.games) {
      if (this.onServer.has(game)) continue;
      this.onServer.add(game);
      const r = await fetch(`${BASE}/stream/${stream}/games/`, {
        method: "POST", headers: this.headers(), body: JSON.stringify({ game, after: entry.after }),
      }).catch(() => null);
      if (stream !== this.stream) return;
      if (r && r.status === 404 && (await r.json().catch(() => ({}))).detail?.includes("stream")) {
        this.reconnect();   // the stream is gone (closed, or its process restarted)
        return;
      }
      if (r && r.status === 404) this.frame("game-end", { game, reason: "no such game" });
      else if (!r || !r.ok) this.onServer.delete(game);
    }
    for (const game of [...this.onServer]) {
      if (this.games.has(game)) continue;
      this.onServer.delete(game);
      fetch(`${BASE}/stream/${stream}/games/${game}/`, { method: "DELETE", headers: this.headers() }).catch(() => {});
    }
    for (const tournament of this.watched.keys()) {
      if (this.watchedOnServer.has(tournament)) continue;
      this.watchedOnServer.add(tournament);
      const r = await fetch(`${BASE}/stream/${stream}/tournaments/`, {
        method: "POST", headers: this.headers(), body: JSON.stringify({ tournament }),
      }).catch(() => null);
      if (stream !== this.stream) return;
      if (r && r.status === 404 && (await r.json().catch(() => ({}))).detail?.includes("stream")) {
        this.reconnect();
        return;
      }
      // Refused (not to be seen, or the stream follows its most): its page shows it as it was read.
      if (!r || (!r.ok && r.status !== 404 && r.status !== 400)) this.watchedOnServer.delete(tournament);
    }
    for (const tournament of [...this.watchedOnServer]) {
      if (this.watched.has(tournament)) continue;
      this.watchedOnServer.delete(tournament);
      fetch(`${BASE}/stream/${stream}/tournaments/${tournament}/`, { method: "DELETE", headers: this.headers() })
        .catch(() => {});
    }
  }

  frame(event, data, id = null) {
    if (event.startsWith("game-")) {
      const entry = this.games.get(data.game);
      if (!entry) return;
      if (event === "game-event") entry.after = data.event.seq;
      else if (event === "game-ready" && entry.after === null) entry.after = data.after;
      else if (event === "game-end") { this.games.delete(data.game); this.onServer.delete(data.game); }
      for (const tab of entry.tabs) this.send(tab, { t: "frame", event, data, id });
    } else {
      this.send(null, { t: "frame", event, data, id });
    }
  }

  async connect() {
    if (this.source || this.connecting || this.ended || !this.token || !this.tabs.size) return;
    this.connecting = true;
    clearTimeout(this.timer);
    try {
      const r = await fetch(`${BASE}/stream-tickets/`, { method: "POST", headers: this.headers() });
      if (r.status === 401) { this.ended = true; this.send(null, { t: "end" }); return; }
      if (r.status === 503) this.poll();   // Redis away: no tickets; the games are polled meanwhile
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const { ticket } = await r.json();
      const query = new URLSearchParams({ ticket, own: "false" });
      const games = [...this.games].map(([game, { after }]) => (after === null ? game : `${game}:${after}`));
      if (games.length) query.set("games", games.join(","));
      if (this.notes !== null) query.set("after", this.notes);
      const source = this.source = new EventSource(`${BASE}/stream/?${query}`);
      const asked = new Set(this.games.keys());
      const on = (event, handle) => source.addEventListener(event, (e) => {
        if (source === this.source) handle(JSON.parse(e.data), e.lastEventId || null);
      });
      on("ready", (data) => {
        this.failures = 0;
        this.stream = data.stream;
        if (this.notes === null) this.notes = data.after;
        this.onServer = asked;
        this.watchedOnServer = new Set();   // a new stream follows no tournament until asked
        this.send(null, { t: "open" });
        this.sync();
      });
      on("notification", (data, id) => { this.notes = Number(id); this.frame("notification", data, id); });
      for (const event of ["game", "game-ready", "game-event", "game-chat", "game-end", "tournament"]) on(event, (data, id) => this.frame(event, data, id));
      on("end", () => { this.ended = true; this.close(); this.send(null, { t: "end" }); });
      source.onerror = () => { if (source === this.source) this.reconnect(); };
    } catch (error) {
      this.reconnect();
    } finally {
      this.connecting = false;
    }
  }

  close() {
    if (this.source) this.source.close();
    this.source = null;
    this.stream = null;
    this.onServer = new Set();
    this.watchedOnServer = new Set();
  }

  // A single-use ticket cannot reconnect: a fresh one, after a wait longer with each failure,
  // resuming every game from its last event and the notifications from the last one.
  // While no stream can be had (Redis away: tickets answer 503), each followed game is read now
  // and then with /events/, one after the other, its events handed on as the stream would.
  async poll() {
    if (this.polling) return;
    this.polling = true;
    try {
      while (!this.source && !this.ended && this.games.size) {
        for (const [game, entry] of [...this.games]) {
          if (entry.after === null || this.source) continue;
          const r = await fetch(`${BASE}/games/${game}/events/?after=${entry.after}&limit=100`,
            { headers: this.headers() }).catch(() => null);
          if (!r || !r.ok) continue;
          const page = await r.json();
          for (const event of page.events) {
            this.frame("game-event", { game, version: page.version, your_seat: page.your_seat, event });
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 5000));
      }
    } finally {
      this.polling = false;
    }
  }

  reconnect() {
    this.close();
    this.failures += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), Math.min(30000, 1000 * 2 ** Math.min(this.failures, 5)));
  }
}

// ------------------------------------------------------------------ a tab's side ----------------
let link = null;
const watchers = new Map();   // game -> Set of watchers ({last, deliver, ...})
const listeners = new Set();  // user stream handlers
const watching = new Map();   // tournament -> how many of this tab's screens follow it
let opened = false;

function token() { return localStorage.getItem("darkroom.token"); }

function dispatch(message) {
  if (message.t === "open") {
    if (!opened) { opened = true; listeners.forEach((l) => l.onOpen()); }
  } else if (message.t === "end") {
    opened = false;
    listeners.forEach((l) => l.onEnd());
    watchers.forEach((set) => set.forEach((w) => w.gone(401)));
  } else if (message.t === "following") {
    watchers.get(message.game)?.forEach((w) => w.following(message.fresh));
  } else if (message.t === "frame") {
    const { event, data } = message;
    if (event.startsWith("game-")) watchers.get(data.game)?.forEach((w) => w.frame(event, data));
    else if (event === "game") listeners.forEach((l) => l.onGame(data));
    else if (event === "notification") listeners.forEach((l) => l.onNotification(data));
    else if (event === "tournament") listeners.forEach((l) => l.onTournament(data));
  }
}

function post(message) { connectLink().post({ ...message, token: token() }); }

// Tell a hub that was just elected (or restarted) what this tab shows.
function announce() {
  post({ t: "hello" });
  watchers.forEach((set, game) => set.forEach((w) => post({ t: "follow", game, after: w.last })));
  watching.forEach((count, tournament) => post({ t: "follow-tournament", tournament }));
}

function connectLink() {
  if (link) return link;
  const tab = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  if (typeof SharedWorker === "function") {
    const worker = new SharedWorker(new URL("./live-worker.js", import.meta.url), { type: "module", name: NAME });
    worker.port.onmessage = (e) => dispatch(e.data);
    worker.port.start();
    link = { post: (m) => worker.port.postMessage(m) };
  } else if (typeof BroadcastChannel === "function" && navigator.locks) {
    const channel = new BroadcastChannel(NAME);
    let hub = null;
    const send = (to, m) => {
      if (to === null || to === tab) dispatch(m);
      if (to !== tab) channel.postMessage({ to: to ?? "*", m });
    };
    channel.onmessage = (e) => {
      const { to, from, m } = e.data;
      if (to === "hub") { if (hub) hub.receive(from, m); }
      else if (to === "hub-up") announce();
      else if (to === "*" || to === tab) dispatch(m);
    };
    link = { post: (m) => (hub ? hub.receive(tab, m) : channel.postMessage({ to: "hub", from: tab, m })) };
    // The lock is held while this tab lives: the next tab in line takes over when it closes.
    navigator.locks.request(NAME, () => {
      hub = new Hub(send);
      announce();
      channel.postMessage({ to: "hub-up" });
      return new Promise(() => {});
    });
  } else {
    const hub = new Hub((to, m) => dispatch(m));
    link = { post: (m) => hub.receive(tab, m) };
  }
  window.addEventListener("pagehide", () => link.post({ t: "bye", token: token() }));
  window.addEventListener("pageshow", (e) => { if (e.persisted) announce(); });  // back from the page cache
  return link;
}

async function backlog(gameId, after, deliver) {
  // What the shared stream had passed before this tab came: read as /events/ gives it.
  let last = after;
  for (;;) {
    const r = await fetch(`${BASE}/games/${gameId}/events/?after=${last}&limit=100`,
      { headers: { Authorization: `Token ${token()}`, Accept: "application/json" } });
    if (!r.ok) return r.status;
    const page = await r.json();
    page.events.forEach((event) => deliver(event, page));
    if (page.events.length < 100) return 200;
    last = page.events[page.events.length - 1].seq;
  }
}

/** Follow one game on the shared stream. `from` (an event number): every event after it first.
 * onEvent(event) hears each event once, in order; onChange(message) each message as the game's
 * stream sends it; onChat each chat line; onGone(status) once the game may not be followed (404)
 * or the log-in is gone (401). Returns stop(). */
export function followGame(gameId, { from = null, onEvent = null, onChange = () => {}, onChat = null, onGone = () => {} }) {
  const watcher = {
    last: from,
    stopped: false,
    held: null,   // frames heard while a backlog is read
    deliver(message) {
      const seq = message.event?.seq;
      if (seq !== undefined) {
        if (watcher.last !== null && seq <= watcher.last) return;
        watcher.last = seq;
        if (onEvent) onEvent(message.event);
      }
      onChange(message);
    },
    frame(event, data) {
      if (watcher.stopped) return;
      if (event === "game-end") { stop(); onGone(404); return; }
      if (event === "game-chat") { if (onChat) onChat(data); return; }
      if (event === "game-ready") { if (watcher.last === null) watcher.last = data.after; return; }
      if (watcher.held) watcher.held.push(data); else watcher.deliver(data);
    },
    async following(fresh) {
      if (fresh || watcher.last === null || watcher.held) return;
      watcher.held = [];
      const status = await backlog(gameId, watcher.last, (event, page) => watcher.deliver({
        version: page.version, your_seat: page.your_seat, event }));
      const held = watcher.held;
      watcher.held = null;
      if ([401, 403, 404].includes(status)) { stop(); onGone(status); return; }
      held.forEach((data) => watcher.deliver(data));
    },
    gone(status) { if (!watcher.stopped) { stop(); onGone(status); } },
  };
  function stop() {
    if (watcher.stopped) return;
    watcher.stopped = true;
    const set = watchers.get(gameId);
    set?.delete(watcher);
    if (set && !set.size) { watchers.delete(gameId); post({ t: "unfollow", game: gameId }); }
  }
  if (!watchers.has(gameId)) watchers.set(gameId, new Set());
  watchers.get(gameId).add(watcher);
  post({ t: "follow", game: gameId, after: from });
  return stop;
}

/** The user's own news on the shared stream: `game` messages (status or your turn changed),
 * `notification` ones, `tournament` ones (one of yours changed); onOpen when the stream is open;
 * onEnd when the log-in is refused. Returns stop(). */
export function followUser({ onGame = () => {}, onNotification = () => {}, onTournament = () => {}, onOpen = () => {},
  onEnd = () => {} }) {
  const listener = { onGame, onNotification, onTournament, onOpen, onEnd };
  listeners.add(listener);
  post({ t: "hello" });
  if (opened) onOpen();
  return () => listeners.delete(listener);
}

/** Follow a tournament the user is not in on the shared stream: its `tournament` messages reach
 * followUser's onTournament as a player's do. Returns stop(). */
export function followTournament(tournament) {
  watching.set(tournament, (watching.get(tournament) ?? 0) + 1);
  if (watching.get(tournament) === 1) post({ t: "follow-tournament", tournament });
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    const left = watching.get(tournament) - 1;
    if (left) { watching.set(tournament, left); return; }
    watching.delete(tournament);
    post({ t: "unfollow-tournament", tournament });
  };
}
