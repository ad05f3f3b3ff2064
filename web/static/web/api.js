// The only door to the server: /api/v1/ with the player's token. Errors carry the server's
// `detail` (and `code`) so every screen can show what the server said, never a guess.
const BASE = "/api/v1";
const TOKEN_KEY = "darkroom.token";
const DEVICE_KEY = "darkroom.device";

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || "error";
    this.body = body || {};
  }
}

export const auth = {
  get token() { return localStorage.getItem(TOKEN_KEY); },
  set token(value) {
    if (value) localStorage.setItem(TOKEN_KEY, value); else localStorage.removeItem(TOKEN_KEY);
  },
};

/** This install's name, sent at log-in and registration: the server keeps one token per device
 * (a second log-in from here replaces this device's token, not another device's). */
export function deviceName() {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = crypto.randomUUID ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    localStorage.setItem(DEVICE_KEY, id);
  }
  const where = /Android|iPhone|iPad/.exec(navigator.userAgent)?.[0] || "browser";
  return `Darkroom web (${where}) ${id}`.slice(0, 100);
}

// A token the server no longer takes (revoked, expired, replaced): forget it and tell the page,
// which sends the player to log in and then back to where they were.
function unauthorized() {
  auth.token = null;
  window.dispatchEvent(new CustomEvent("darkroom:unauthorized"));
}

export async function api(path, { method = "GET", body, headers = {}, signal } = {}) {
  const h = { Accept: "application/json", ...headers };
  const sent = auth.token;
  if (sent) h.Authorization = `Token ${sent}`;
  if (body !== undefined) h["Content-Type"] = "application/json";
  const response = await fetch(BASE + path, {
    method, headers: h, signal, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (response.status === 401 && sent) unauthorized();
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path, opts) => api(path, opts);
export const post = (path, body, opts = {}) => api(path, { ...opts, method: "POST", body: body ?? {} });
export const del = (path, opts = {}) => api(path, { ...opts, method: "DELETE" });

// A stream's ticket: EventSource cannot send the header, and a token never goes in a URL.
async function ticket() { return (await post("/stream-tickets/")).ticket; }
const gone = (error) => error instanceof ApiError && [401, 403, 404].includes(error.status);

// Live updates of one game: SSE with a single-use ticket, reconnecting with a fresh ticket from
// the last seen id; the long-poll when tickets are refused. onChat (optional) hears the stream's
// `event: chat`. A game that is gone (404, 403) or a log-in that is gone (401) stops the
// following for good and calls onGone: nothing is retried for ever.
// With `from` (an event number), the stream first replays every event after it, each given to
// onEvent(event) as the viewer may see it: the page's move log needs no request of its own.
export function follow(gameId, onChange, onChat = null, onGone = () => {}, { from = null, onEvent = null } = {}) {
  let last = from, source = null, stopped = false, timer = null, failures = 0;
  const qs = () => (last === null ? "" : `&after=${last}`);
  const stop = (error) => { stopped = true; clearTimeout(timer); if (source) source.close(); onGone(error); };
  // After a failure: is the game still there for us? Then try again, waiting longer each time.
  async function retry(next) {
    try { await get(`/games/${gameId}/`); } catch (error) { if (gone(error)) { stop(error); return; } }
    failures += 1;
    if (!stopped) timer = setTimeout(next, Math.min(30000, 2000 * failures));
  }
  async function connect() {
    if (stopped) return;
    try {
      const key = await ticket();
      if (stopped) return;
      source = new EventSource(`${BASE}/games/${gameId}/stream/?ticket=${encodeURIComponent(key)}${qs()}`);
      source.addEventListener("ready", (e) => {
        failures = 0;
        const data = JSON.parse(e.data);
        if (last === null && data.after != null) last = data.after;
      });
      source.onmessage = (e) => {
        last = e.lastEventId || last;
        const message = JSON.parse(e.data);
        if (onEvent && message.event) onEvent(message.event);
        onChange(message);
      };
      if (onChat) source.addEventListener("chat", (e) => onChat(JSON.parse(e.data)));
      // The token was revoked or expired: one request finds it out and sends the player to log in.
      source.addEventListener("end", () => { source.close(); stop(new ApiError(401, { detail: "logged out" })); get("/accounts/me/").catch(() => {}); });
      source.onerror = () => { source.close(); if (!stopped) retry(connect); };
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) stop(error);
      else if (!stopped) poll();
    }
  }
  async function poll() {
    while (!stopped) {
      try {
        const after = last ?? 0;
        const page = await get(`/games/${gameId}/events/?after=${after}&wait=25&limit=100`);
        failures = 0;
        if (page.events.length) {
          last = page.events[page.events.length - 1].seq;
          if (onEvent) page.events.forEach(onEvent);
          onChange({ version: page.version });
        }
      } catch (error) {
        if (gone(error)) { stop(error); return; }
        failures += 1;
        await new Promise((r) => setTimeout(r, Math.min(30000, 3000 * failures)));
      }
    }
  }
  connect();
  return () => { stopped = true; clearTimeout(timer); if (source) source.close(); };
}

/** Your own news (`GET /stream/`): `game` messages (status or your turn changed) and
 * `notification` ones. Reconnects with a fresh ticket, waiting longer after each failure; a
 * refused log-in (401, or the stream's `end`) stops it. Returns stop(). */
export function userStream({ onGame = () => {}, onNotification = () => {}, onOpen = () => {} }) {
  let source = null, stopped = false, timer = null, failures = 0;
  const again = () => { failures += 1; if (!stopped) timer = setTimeout(connect, Math.min(60000, 2000 * failures)); };
  async function connect() {
    if (stopped || !auth.token) return;
    try {
      const key = await ticket();
      if (stopped) return;
      source = new EventSource(`${BASE}/stream/?ticket=${encodeURIComponent(key)}`);
      source.onopen = () => { failures = 0; onOpen(); };
      source.addEventListener("game", (e) => onGame(JSON.parse(e.data)));
      source.addEventListener("notification", (e) => onNotification(JSON.parse(e.data)));
      source.addEventListener("end", () => { source.close(); stopped = true; get("/accounts/me/").catch(() => {}); });
      source.onerror = () => { source.close(); again(); };
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) stopped = true; else again();
    }
  }
  connect();
  return () => { stopped = true; clearTimeout(timer); if (source) source.close(); };
}
