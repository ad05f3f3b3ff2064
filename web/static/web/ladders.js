// A 2-player game's ladder (docs/tournaments.md, "Ladder"): #/ladders/<kind>, its ranking, your
// place, the players you may challenge, the open challenges and your answer to one. Like every
// screen it only calls /api/v1/ and shows the server's own `detail` on a refusal.
import { get, post } from "./api.js";
import { h, fill } from "./svg.js";
import { t } from "./i18n.js";

const link = (href, text, attrs = {}) => h("a", { href, ...attrs }, text);

/** Links to every 2-player game's ladder. */
export function ladderLinks(kinds, current = null) {
  const two = kinds.filter((k) => k.min_players === 2 && !k.kind.startsWith("duel"));
  return h("nav", { "aria-label": t("ladders.all"), class: "tabs" },
    two.map((k) => link(`#/ladders/${k.kind}`, t("ladders.title", { title: k.title }), k.kind === current ? { "aria-current": "page" } : {})));
}

/** #/ladders/<kind>: one ladder. */
export async function ladderPage(main, kind, { showError, say, me }) {
  const [ladder, kinds] = await Promise.all([get(`/ladders/${kind}/`), get("/kinds/")]);
  const list = kinds.results || kinds;
  const title = list.find((k) => k.kind === kind)?.title || kind;
  const again = () => ladderPage(main, kind, { showError, say, me });
  const act = (fn, done) => async () => {
    try { await fn(); say(done, "info"); await again(); } catch (error) { showError(error); }
  };
  const mine = ladder.position;
  const busy = ladder.challenges.some((c) => c.challenger === me.username || c.defender === me.username);
  const mayChallenge = (rung) => mine !== null && !busy && rung.position < mine && rung.position >= mine - ladder.reach;
  const row = (rung) => h("tr", { "data-player": rung.username },
    h("td", {}, String(rung.position)), h("td", {}, rung.username),
    h("td", {}, mayChallenge(rung)
      ? h("button", { type: "button", "aria-label": t("ladders.challenge_name", { name: rung.username }),
        onclick: act(() => post(`/ladders/${kind}/challenges/`, { defender: rung.username }), t("ladders.challenged")) },
      t("ladders.challenge")) : ""));
  const challenge = (c) => h("li", { "data-challenge": String(c.id) },
    t("ladders.versus", { challenger: c.challenger, defender: c.defender }), " ",
    c.game ? link(`#/games/${c.game}`, t("ladders.game")) : null,
    c.status === "pending" && c.defender === me.username ? [" ",
      h("button", { type: "button", onclick: act(() => post(`/ladders/challenges/${c.id}/accept/`), t("ladders.accepted")) }, t("ladders.accept")), " ",
      h("button", { type: "button", onclick: act(() => post(`/ladders/challenges/${c.id}/decline/`), t("ladders.declined")) }, t("ladders.decline"))] : null);
  fill(main, h("h1", {}, t("ladders.title", { title })), ladderLinks(list, kind),
    h("p", {}, t("ladders.how", { reach: ladder.reach })),
    h("p", { class: "actions" }, mine === null
      ? h("button", { type: "button", onclick: act(() => post(`/ladders/${kind}/join/`), t("ladders.joined")) }, t("ladders.join"))
      : [t("ladders.yours", { position: mine }), " ",
        h("button", { type: "button", onclick: act(() => post(`/ladders/${kind}/leave/`), t("ladders.left")) }, t("ladders.leave"))]),
    ladder.rungs.length ? h("table", { class: "data ladder" },
      h("thead", {}, h("tr", {}, [t("ladders.place"), t("ladders.player"), t("ladders.action")].map((text) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, ladder.rungs.map(row)))
      : h("p", {}, t("ladders.empty")),
    ladder.challenges.length ? [h("h2", {}, t("ladders.open")), h("ul", {}, ladder.challenges.map(challenge))] : null);
}
