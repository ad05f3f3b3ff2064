// Any kind, playable: each legal move as a button (the fallback while a kind has no table of its
// own, or if its module fails to load). The view is shown as it came, for the seat.
import { h, choiceButton, stamp, fill } from "../svg.js";
import { t } from "../i18n.js";

function label(move) {
  return Object.entries(move).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
}

export function renderTable(root, ctx) {
  fill(root,
    h("section", { class: "generic-table" },
      h("h3", {}, ctx.legalMoves.length ? t("generic.moves") : t("generic.nothing")),
      h("div", { class: "moves" }, ctx.legalMoves.map((move) => choiceButton(label(move), () => ctx.submit(move)))),
      h("details", {}, h("summary", {}, t("generic.view")),
        h("pre", { class: "view" }, JSON.stringify(ctx.view, null, 2)))));
  stamp(root);
}
