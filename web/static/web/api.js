// The only door to the server: /api/v1/ with the player's token. Errors carry the server's
// `detail` (and `code`) so every screen can show what the server said, never a guess.
const BASE = "/api/v1";
const TOKEN_KEY = "darkroom.token";

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

export async function api(path, { method = "GET", body, headers = {}, signal } = {}) {
  const h = { Accept: "application/json", ...headers };
  if (auth.token) h.Authorization = `Token ${auth.token}`;
  if (body !== undefined) h["Content-Type"] = "application/json";
  const response = await fetch(BASE + path, {
    method, headers: h, signal, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path, opts) => api(path, opts);
export const post = (path, body, opts = {}) => api(path, { ...opts, method: "POST", body: body ?? {} });
export const del = (path, opts = {}) => api(path, { ...opts, method: "DELETE" });

// Live updates of one game: SSE with a single-use ticket (EventSource cannot send the header),
// reconnecting with a fresh ticket from the last seen id; the long-poll when tickets are refused.
// onChat (optional) hears the stream's `event: chat` messages (chat is not in the event log).
export function follow(gameId, onChange, onChat = null) {
  let last = null, source = null, stopped = false, timer = null;
  const qs = () => (last === null ? "" : `&after=${last}`);
  async function connect() {
    if (stopped) return;
    try {
      const { ticket } = await post("/stream-tickets/");
      if (stopped) return;
      source = new EventSource(`${BASE}/games/${gameId}/stream/?ticket=${encodeURIComponent(ticket)}${qs()}`);
      source.addEventListener("ready", (e) => {
        const data = JSON.parse(e.data);
        if (last === null && data.after != null) last = data.after;
      });
      source.onmessage = (e) => { last = e.lastEventId || last; onChange(JSON.parse(e.data)); };
      if (onChat) source.addEventListener("chat", (e) => onChat(JSON.parse(e.data)));
      source.onerror = () => { source.close(); if (!stopped) timer = setTimeout(connect, 2000); };
    } catch (error) {
      if (!stopped) poll();
    }
  }
  async function poll() {
    while (!stopped) {
      try {
        const after = last ?? 0;
        const page = await get(`/games/${gameId}/events/?after=${after}&wait=25&limit=100`);
        if (page.events.length) {
          last = page.events[page.events.length - 1].seq;
          onChange({ version: page.version });
        }
      } catch (error) {
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
  }
  connect();
  return () => { stopped = true; clearTimeout(timer); if (source) source.close(); };
}
