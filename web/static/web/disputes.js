// A game's disputes as its players see them: each one's move, what was claimed, and, once staff
// have decided, the outcome and their message (staff's own notes never reach the client). Drawn
// on the game page under the move log, fetched again when the game's version moves (a decision
// appends an event) or a dispute is filed.
import { h, fill } from "./svg.js";
import { get } from "./api.js";
import { t } from "./i18n.js";

export function disputesPanel(gameId) {
  const list = h("ul", { class: "disputes-list" });
  const node = h("section", { class: "disputes", "aria-label": t("disputes.title"), hidden: true },
    h("h2", {}, t("disputes.title")), list);
  let seen = null;

  async function show(game, { force = false } = {}) {
    // Only the players may read a game's disputes: a spectator's panel stays hidden.
    if (game.your_seat === null || game.your_seat === undefined) return;
    const key = `${game.version}:${game.status}`;
    if (key === seen && !force) return;
    seen = key;
    let disputes;
    try { disputes = await get(`/games/${gameId}/disputes/`); } catch (error) { return; }
    node.hidden = disputes.length === 0;
    fill(list, ...disputes.map(item));
  }

  return { node, show };
}

function item(dispute) {
  const vars = { seq: dispute.seq, id: dispute.id };
  const outcome = {
    open: t("disputes.open", vars), upheld: t("disputes.upheld", vars), dismissed: t("disputes.dismissed", vars),
  }[dispute.status] ?? dispute.status;
  return h("li", { class: `dispute-item dispute-${dispute.status}`, "data-dispute": dispute.id },
    h("p", {}, h("strong", {}, outcome)),
    h("p", { class: "dispute-reason" }, t("disputes.reason", { reason: dispute.reason })),
    dispute.resolution ? h("p", { class: "dispute-message" }, t("disputes.message", { message: dispute.resolution })) : null);
}
