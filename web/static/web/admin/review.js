// Staff's dispute review: both moments drawn by the players' own tables (from any seat's eyes or
// a spectator's), then what changed in the full state, path by path, and the events between.
import { h } from "../tables/kit.js";

const data = JSON.parse(document.getElementById("review-data").textContent);
const root = document.getElementById("review");
const game = data.game;
const seats = game.players.map((p) => p.seat);
let perspective = seats.length ? String(seats[0]) : "spectator";

const tableModule = import(`../tables/${game.kind}.js`).catch(() => import("../tables/generic.js"));

function viewOf(moment) {
  if (!moment.views) return null;
  return perspective === "spectator" ? moment.views.spectator : moment.views.seats[perspective];
}

async function draw() {
  const module = await tableModule;
  const picker = h("fieldset", { class: "review-perspective" }, [h("legend", { text: "Draw as seen by" })]);
  for (const choice of [...seats.map(String), "spectator"]) {
    const player = game.players.find((p) => String(p.seat) === choice);
    const label = player ? `seat ${choice} (${player.username})` : "a spectator";
    picker.appendChild(h("label", {}, [h("input", { type: "radio", name: "perspective", value: choice, checked: choice === perspective,
      onchange: () => { perspective = choice; draw(); } }), ` ${label} `]));
  }
  const panes = h("div", { class: "review-panes" });
  for (const [which, moment] of [["before", data.since], ["after", data.at]]) {
    const pane = h("section", { class: `review-pane review-${which}`, "data-seq": moment.seq, "aria-label": `State after event ${moment.seq}` },
      [h("h2", { text: `After event ${moment.seq}${which === "after" ? " (under review)" : ""}` })]);
    const table = h("div", { class: "table" });
    const view = viewOf(moment);
    if (view) {
      // The same table drawn twice: its labelled regions say which moment they belong to, so
      // a screen reader's list of regions tells the two apart.
      Promise.resolve(module.renderTable(table, { kind: game.kind, game, view, seat: perspective === "spectator" ? null : Number(perspective),
        legalMoves: [], submit: async () => {}, staff: true, replay: true })).then(() => {
        for (const region of table.querySelectorAll("section[aria-label], [role=region][aria-label]")) {
          region.setAttribute("aria-label", `${region.getAttribute("aria-label")}, after event ${moment.seq}`);
        }
      });
    } else table.appendChild(h("p", { text: "The game had not started yet." }));
    pane.appendChild(table);
    panes.appendChild(pane);
  }
  root.replaceChildren(picker, panes, diffSection(), eventsSection());
}

// Path-by-path differences of two JSON values.
export function diff(before, after, path = "", out = []) {
  if (JSON.stringify(before) === JSON.stringify(after)) return out;
  const isObj = (v) => v && typeof v === "object";
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i += 1) {
      if (i >= before.length) out.push({ path: `${path}[${i}]`, change: "added", after: after[i] });
      else if (i >= after.length) out.push({ path: `${path}[${i}]`, change: "removed", before: before[i] });
      else diff(before[i], after[i], `${path}[${i}]`, out);
    }
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

function show(value) {
  if (value === undefined) return "";
  const text = JSON.stringify(value);
  return text.length > 240 ? `${text.slice(0, 240)}…` : text;
}

function diffSection() {
  const rows = diff(data.since.state, data.at.state);
  const box = h("section", { class: "review-diff", "aria-label": "What changed" },
    [h("h2", { text: `What changed in the full state from event ${data.since.seq} to event ${data.at.seq}: ${rows.length} change${rows.length === 1 ? "" : "s"}` })]);
  if (!rows.length) { box.appendChild(h("p", { text: "Nothing changed." })); return box; }
  const table = h("table", {}, [h("thead", {}, [h("tr", {}, [h("th", { text: "where" }), h("th", { text: "change" }), h("th", { text: "before" }), h("th", { text: "after" })])])]);
  const body = h("tbody");
  const limit = 400;
  for (const row of rows.slice(0, limit)) {
    body.appendChild(h("tr", { class: `diff-${row.change}` }, [h("td", {}, [h("code", { text: row.path })]), h("td", { text: row.change }),
      h("td", {}, [h("code", { text: show(row.before) })]), h("td", {}, [h("code", { text: show(row.after) })])]));
  }
  table.appendChild(body);
  box.appendChild(table);
  if (rows.length > limit) box.appendChild(h("p", { text: `… and ${rows.length - limit} more.` }));
  return box;
}

function eventsSection() {
  const box = h("section", { class: "review-events", "aria-label": "Events in between" }, [h("h2", { text: "Events in between" })]);
  if (!data.events.length) { box.appendChild(h("p", { text: "None." })); return box; }
  const list = h("ol", {});
  for (const e of data.events) {
    list.appendChild(h("li", { value: e.seq }, [h("strong", { text: `#${e.seq} ${e.type}` }),
      ` by ${e.actor === null ? "the system" : `seat ${e.actor}`} at ${e.created_at}: `, h("code", { text: show(e.data) })]));
  }
  box.appendChild(list);
  return box;
}

draw();
