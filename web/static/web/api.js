// The only door to the server: /api/v1/ with the player's token. Errors carry the server's
// `detail` (and `code`) so every screen can show what the server said, never a guess.
import { followGame, followTournament, followUser } from "./live.js";
import { chosenLanguage } from "./i18n.js";

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
  // A language chosen from the menu is the server's too (its refusals, before a log-in): a
  // player's saved preference still wins on the server's side.
  const language = chosenLanguage();
  if (language) h["Accept-Language"] = language;
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

// Live updates ride the browser's one shared stream (live.js): every tab, every game it shows.

// Live updates of one game. onChat (optional) hears its chat lines. A game that is gone (404,
// 403) or a log-in that is gone (401) stops the following for good and calls onGone(error).
// With `from` (an event number), every event after it is first given to onEvent(event), as the
// viewer may see it: the page's move log needs no request of its own.
export function follow(gameId, onChange, onChat = null, onGone = () => {}, { from = null, onEvent = null } = {}) {
  return followGame(gameId, {
    from, onEvent, onChange, onChat,
    onGone: (status) => {
      if (status === 401) get("/accounts/me/").catch(() => {});   // finds it out: the log-in page
      onGone(new ApiError(status, { detail: status === 401 ? "logged out" : "no such game" }));
    },
  });
}

/** Your own news: `game` messages (status or your turn changed), `notification` ones and
 * `tournament` ones (one you play in or organise changed). A refused log-in (the stream's `end`)
 * sends the player to log in. Returns stop(). */
export function userStream({ onGame = () => {}, onNotification = () => {}, onTournament = () => {}, onOpen = () => {} }) {
  if (!auth.token) return () => {};
  return followUser({ onGame, onNotification, onTournament, onOpen, onEnd: () => get("/accounts/me/").catch(() => {}) });
}

/** News of a tournament you are not in, on your own stream (userStream's onTournament), while the
 * page that shows it is open. Returns stop(). */
export function watchTournament(id) {
  if (!auth.token) return () => {};
  return followTournament(id);
}
