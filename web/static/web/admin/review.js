// Staff's dispute review: both moments drawn by the players' own tables (from any seat's eyes or
// a spectator's), then what changed in the full state, path by path, and the events between.
import { h } from "../tables/kit.js";
import { t, useLanguage } from "../i18n.js";

// In the admin's language (Django's, on the page's <html lang>), not the player's menu choice.
await useLanguage((document.documentElement.lang || "en").split("-")[0]);

const data = JSON.parse(document.getElementById("review-data").textContent);
const root = document.getElementById("review");
const game = data.game;
const seats = game.players.map((p) => p.seat);
// Opened from the eyes of the seat whose event is under review (the disputed move's player).
let perspective = data.seat !== null && seats.includes(data.seat) ? String(data.seat) : seats.length ? String(seats[0]) : "spectator";

const tableModule = import(`../tables/${game.kind}.js`).catch(() => import("../tables/generic.js"));

function viewOf(moment) {
  if (!moment.views) return null;
  return perspective === "spectator" ? moment.views.spectator : moment.views.seats[perspective];
}

async function draw() {
  const module = await tableModule;
  const picker = h("fieldset", { class: "review-perspective" }, [h("legend", { text: t("review.seen_by") })]);
  for (const choice of [...seats.map(String), "spectator"]) {
    const player = game.players.find((p) => String(p.seat) === choice);
    const label = player ? t("review.seat", { seat: choice, name: player.username }) : t("review.spectator");
    picker.appendChild(h("label", {}, [h("input", { type: "radio", name: "perspective", value: choice, checked: choice === perspective,
      onchange: () => { perspective = choice; draw(); } }), ` ${label} `]));
  }
  const panes = h("div", { class: "review-panes" });
  for (const [which, moment] of [["before", data.since], ["after", data.at]]) {
    const pane = h("section", { class: `review-pane review-${which}`, "data-seq": moment.seq, "aria-label": t("review.state_after", { seq: moment.seq }) },
      [h("h2", { text: t(which === "after" ? "review.after_reviewed" : "review.after", { seq: moment.seq }) })]);
    const table = h("div", { class: "table" });
    const view = viewOf(moment);
    if (view) {
      // The same table drawn twice: its labelled regions say which moment they belong to, so
      // a screen reader's list of regions tells the two apart.
      Promise.resolve(module.renderTable(table, { kind: game.kind, game, view, seat: perspective === "spectator" ? null : Number(perspective),
        legalMoves: [], submit: async () => {}, staff: true, replay: true, review: true })).then(() => {
        for (const region of table.querySelectorAll("section[aria-label], [role=region][aria-label]")) {
          region.setAttribute("aria-label", t("review.region_after", { region: region.getAttribute("aria-label"), seq: moment.seq }));
        }
      });
    } else table.appendChild(h("p", { text: t("review.not_started") }));
    pane.appendChild(table);
    panes.appendChild(pane);
  }
  root.replaceChildren(picker, panes, diffSection(), eventsSection());
}

// Path-by-path differences of two JSON values. Lists are compared as lists, not slot by slot:
// their items are matched by a longest common subsequence, so one card played from a hand is one
// "removed" row, not every later slot "changed". Unmatched items facing each other in the same
// gap are one item changed (objects: compared inside).
export function diff(before, after, path = "", out = []) {
  if (JSON.stringify(before) === JSON.stringify(after)) return out;
  const isObj = (v) => v && typeof v === "object";
  if (Array.isArray(before) && Array.isArray(after)) {
    listDiff(before, after, path, out);
  } else if (isObj(before) && isObj(after) && !Array.isArray(before) && !Array.isArray(after)) {
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
      const p = path ? `${path}.${key}` : key;
      if (!(key in before)) out.push({ path: p, change: "added", after: after[key] });
      else if (!(key in after)) out.push({ path: p, change: "removed", before: before[key] });
      else diff(before[key], after[key], p, out);
    }
  } else out.push({ path: path || "(whole state)", change: "changed", before, after });
  return out;
}

function matched(a, b) {
  // The pairs (i, j) of a longest common subsequence of two lists of JSON values.
  const ka = a.map((v) => JSON.stringify(v)), kb = b.map((v) => JSON.stringify(v));
  if (a.length * b.length > 250000) return null;  // too long to match: slot by slot instead
  const table = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      table[i][j] = ka[i] === kb[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const pairs = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (ka[i] === kb[j]) { pairs.push([i, j]); i += 1; j += 1; } else if (table[i + 1][j] >= table[i][j + 1]) i += 1; else j += 1;
  }
  return pairs;
}

function listDiff(before, after, path, out) {
  const pairs = matched(before, after) ?? before.slice(0, Math.min(before.length, after.length)).map((_, i) => [i, i]);
  let i = 0, j = 0;
  for (const [mi, mj] of [...pairs, [before.length, after.length]]) {
    const gone = before.slice(i, mi), come = after.slice(j, mj);
    const facing = Math.min(gone.length, come.length);
    for (let k = 0; k < facing; k += 1) diff(gone[k], come[k], `${path}[${j + k}]`, out);
    for (let k = facing; k < gone.length; k += 1) out.push({ path: `${path}[${i + k}]`, change: "removed", before: gone[k] });
    for (let k = facing; k < come.length; k += 1) out.push({ path: `${path}[${j + k}]`, change: "added", after: come[k] });
    i = mi + 1; j = mj + 1;
  }
}

function show(value) {
  if (value === undefined) return "";
  const text = JSON.stringify(value);
  return text.length > 240 ? `${text.slice(0, 240)}…` : text;
}

function diffSection() {
  const rows = diff(data.since.state, data.at.state);
  const box = h("section", { class: "review-diff", "aria-label": t("review.changed") },
    [h("h2", { text: t("review.changed_title", { from: data.since.seq, to: data.at.seq, count: rows.length }) })]);
  if (!rows.length) { box.appendChild(h("p", { text: t("review.nothing") })); return box; }
  const table = h("table", {}, [h("thead", {}, [h("tr", {}, ["review.where", "review.change", "review.before", "review.after_col"].map((id) => h("th", { text: t(id) })))])]);
  const body = h("tbody");
  const limit = 400;
  for (const row of rows.slice(0, limit)) {
    body.appendChild(h("tr", { class: `diff-${row.change}` }, [h("td", {}, [h("code", { text: row.path })]), h("td", { text: t(`review.change_${row.change}`) }),
      h("td", {}, [h("code", { text: show(row.before) })]), h("td", {}, [h("code", { text: show(row.after) })])]));
  }
  table.appendChild(body);
  box.appendChild(table);
  if (rows.length > limit) box.appendChild(h("p", { text: t("review.more", { count: rows.length - limit }) }));
  return box;
}

function eventsSection() {
  const box = h("section", { class: "review-events", "aria-label": t("review.events") }, [h("h2", { text: t("review.events") })]);
  if (!data.events.length) { box.appendChild(h("p", { text: t("review.none") })); return box; }
  const list = h("ol", {});
  for (const e of data.events) {
    list.appendChild(h("li", { value: e.seq }, [h("strong", { text: `#${e.seq} ${e.type}` }),
      ` ${t("review.by_at", { by: e.by, at: e.created_at.replace("T", " ").replace("+00:00", " UTC") })} `, h("code", { text: show(e.data) })]));
  }
  box.appendChild(list);
  return box;
}

draw();
