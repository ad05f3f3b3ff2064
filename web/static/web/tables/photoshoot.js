// Photoshoot table: the 3x3 square, the objective, the hourglass (the server's deadline), teams,
// effects, the latest action and what the seat may do now (from legal-moves; photographers may
// also compose any well-formed action, errors included, as the rules allow).
import { stamp } from "../svg.js";
import { t, formatList } from "../i18n.js";
import { h, s, activate, choice, trySubmit, seatName, memory, SEAT_COLOURS, youMark, fitText } from "./kit.js";

const GIRLFRIENDS = new Set(["Olivia", "Chloé", "Alice"]);
const ACTIONS = new Set(["swap", "push", "photo"]);
const DIRECTIONS = ["up", "down", "left", "right"];
const ARROWS = { up: "↑", down: "↓", left: "←", right: "→" };
// A character's species, and an Effect card's text, in the player's language: the catalog's
// (`ps.species_<species>`, `ps.effect_<id>`), else the server's own words. The blue cards' French
// phrases are said as the game prints them, in every language.
const speciesName = (species) => { if (!species) return ""; const id = `ps.species_${species}`; const said = t(id); return said === id ? species : said; };
const effectText = (card) => { const id = `ps.effect_${card.id}`; const said = t(id); return said === id ? card.text : said; };

export function renderTable(root, ctx) {
  const view = ctx.view || {};
  const mem = memory(root, `photoshoot:${ctx.game && ctx.game.id}:${view.round}:${view.phase}:${(view.last_action || {}).number}`);
  stopHourglass(root);
  root.replaceChildren();
  root.classList.add("table-photoshoot");
  const seatLabel = (seat) => seatName(ctx, seat);
  const rerender = () => renderTable(root, ctx);
  const error = h("p", { class: "table-error", role: "alert", "data-testid": "table-error" });
  const legal = ctx.legalMoves || [];

  root.appendChild(header(view, ctx, seatLabel));
  if (view.result) root.appendChild(resultPanel(view, seatLabel));
  // The square with, beside it, what a player looks at against the clock: the objective, the
  // hourglass and the moves. On a phone the objective and the hourglass stand beside a smaller
  // square and the moves right under it, all on the first screen: a round lasts 90 s.
  const width = root.clientWidth || 1000;
  const narrow = width < 560;
  const cell = narrow ? Math.max(70, Math.min(92, Math.floor((width - 136) / 3))) : 92;
  const board = h("div", { class: `photoshoot-board${narrow ? " narrow" : ""}` });
  board.appendChild(gridPicture(view, ctx, mem, legal, rerender, error, cell));
  board.appendChild(h("div", { class: "photoshoot-aim" }, [objectivePicture(view, narrow ? 40 : 52), hourglass(root, view)]));
  board.appendChild(actionsPanel(view, ctx, mem, legal, rerender, error, seatLabel));
  root.appendChild(board);
  root.appendChild(error);
  root.appendChild(lastActionPanel(view, seatLabel));
  root.appendChild(teamsPanel(view, ctx, seatLabel));
  if (view.last_round) root.appendChild(lastRoundPanel(view.last_round));
  stamp(root);
}

function header(view, ctx, seatLabel) {
  const box = h("section", { class: "photoshoot-summary", "aria-label": t("ps.round_label"), "data-round": view.round, "data-phase": view.phase,
    "data-turn": view.turn ?? "", "data-challengeable": view.challengeable ?? "" });
  const mode = view.mode === "coop" ? t("ps.coop_mode", { target: view.target }) : t("ps.teams_mode");
  const phase = { ready: t("ps.phase_ready"), round: t("ps.phase_round"), over: t("pv.phase_over") }[view.phase] || view.phase;
  box.appendChild(h("p", {}, [h("strong", { text: t("pp.round", { round: view.round }) }),
    ` · ${mode} · ${t(view.family ? "ps.level_family" : "ps.level", { level: view.level })} · ${phase}`]));
  if (view.phase === "ready") {
    box.appendChild(h("p", { "data-testid": "awaiting", text: `${t("ps.waiting_for", { names: (view.awaiting_ready || []).map(seatLabel).join(", ") || t("ps.nobody") })}${view.mending ? ` · ${t("ps.mend_first")}` : ""}` }));
  }
  if (view.phase === "round" && view.turn !== null && view.turn !== undefined) {
    const watching = watches(view);
    box.appendChild(h("p", { "data-testid": "turn", text: view.turn === ctx.seat ? t("ps.your_turn")
      : watching ? t("ps.watch", { name: seatLabel(view.turn) }) : t("ps.their_turn", { name: seatLabel(view.turn) }) }));
  }
  if (view.tally) {
    box.appendChild(h("p", { text: [t("ps.this_round", { validated: t("ps.validated", { count: view.tally.validated }) }),
      t("ps.tokens_won", { photographers: view.tally.photographer_tokens, control: view.tally.control_tokens }),
      t("ps.tokens_left", { count: view.tokens_left }), t("ps.pile", { count: view.objective_pile_size })].join(" · ") }));
  }
  return box;
}

// This viewer sits in the control team of a two-team round: it watches the photographers and
// challenges their mistakes, it never photographs.
function watches(view) {
  return view.phase === "round" && view.mode !== "coop" && Boolean(view.you) && view.you.team === view.control;
}

/** The shell's "Your turn", in this game's words: the control team's turn is to watch. */
export function yourTurnWords(game) {
  return watches(game.state || {}) ? t("ps.watch_words") : null;
}

function stopHourglass(root) {
  if (root.__hourglassTimer) clearInterval(root.__hourglassTimer);
  root.__hourglassTimer = null;
}

// Counts down to the server's deadline; the round ends when the server says so (the view
// changes), not when this reaches zero.
function hourglass(root, view) {
  const box = h("section", { class: "hourglass", "aria-label": t("option.hourglass_seconds") });
  const total = (view.hourglass_seconds || 90) * 1000;
  const svg = s("svg", { viewBox: "0 0 40 60", width: 40, height: 60, "aria-hidden": "true" });
  svg.appendChild(s("path", { d: "M4 2 H36 L22 30 L36 58 H4 L18 30 Z", fill: "#fff8e1", stroke: "#6d4c41", "stroke-width": 2 }));
  const top = s("rect", { x: 4, y: 2, width: 32, height: 28, fill: "#ffb300", "clip-path": "url(#hg-top)" });
  const bottom = s("rect", { x: 4, y: 58, width: 32, height: 0, fill: "#ffb300", "clip-path": "url(#hg-bottom)" });
  svg.appendChild(s("defs", {}, [
    s("clipPath", { id: "hg-top" }, [s("path", { d: "M4 2 H36 L22 30 H18 Z" })]),
    s("clipPath", { id: "hg-bottom" }, [s("path", { d: "M18 30 H22 L36 58 H4 Z" })]),
  ]));
  svg.append(top, bottom);
  const text = h("span", { "data-testid": "hourglass", role: "timer", "aria-live": "off" });
  box.append(svg, text);
  const deadline = view.deadline ? Date.parse(view.deadline) : null;
  const tick = () => {
    if (!deadline) {
      text.textContent = view.phase === "over" ? t("ps.hourglass_over") : t("ps.hourglass_waiting", { count: view.hourglass_seconds });
      return;
    }
    const left = Math.max(0, deadline - Date.now());
    const frac = Math.min(1, left / total);
    top.setAttribute("y", 2 + 28 * (1 - frac));
    top.setAttribute("height", 28 * frac);
    bottom.setAttribute("y", 58 - 28 * (1 - frac));
    bottom.setAttribute("height", 28 * (1 - frac));
    const secs = Math.ceil(left / 1000);
    text.textContent = left > 0 ? t("ps.hourglass_left", { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` }) : t("ps.hourglass_up");
    if (!root.isConnected || left <= 0) stopHourglass(root);
  };
  tick();
  if (deadline && view.phase === "round") root.__hourglassTimer = setInterval(tick, 250);
  return box;
}

function gridPicture(view, ctx, mem, legal, rerender, error, CELL) {
  const grid = view.grid || [];
  const objective = (view.objective && view.objective.cells) || [];
  const frame = new Set(view.black_frame || []);
  const species = view.characters || {};
  const mine = legal.some((m) => ACTIONS.has(m.type) || m.type === "mend");
  const svg = s("svg", { viewBox: `0 0 ${CELL * 3 + 4} ${CELL * 3 + 4}`, width: CELL * 3 + 4, role: "group",
    "aria-label": t("ps.square_label"), class: "ps-grid" });
  grid.forEach((name, cell) => {
    const x = 2 + (cell % 3) * CELL, y = 2 + Math.floor(cell / 3) * CELL;
    const inPlace = objective[cell] === name;
    const picked = (mem.cells || []).includes(cell);
    // The last move highlighted: the characters the latest action moved have a dashed blue ring.
    const moved = ((view.last_action || {}).moved || []).includes(name);
    const notes = [GIRLFRIENDS.has(name) && t("ps.girlfriend"), frame.has(name) && t("ps.black_frame"), inPlace && t("ps.in_place")].filter(Boolean);
    const label = `${t("ps.cell", { cell, name, species: speciesName(species[name]) })}${moved ? ` ${t("ps.just_moved")}` : ""}${notes.length ? ` (${notes.join(", ")})` : ""}`;
    // What the cell shows, in the order it shows it: a control's name starts with these words.
    const shows = [name, speciesName(species[name]), String(cell), GIRLFRIENDS.has(name) ? "♥" : "", frame.has(name) ? `■ ${t("ps.effect")}` : "", inPlace ? "✓" : ""].filter(Boolean).join(" ");
    const g = s("g", { class: "ps-cell", "data-cell": cell, "data-character": name });
    g.appendChild(s("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 8,
      fill: GIRLFRIENDS.has(name) ? "#bbdefb" : "#fff3e0", stroke: picked ? "#e65100" : frame.has(name) ? "#000" : "#8d6e63",
      "stroke-width": picked ? 5 : frame.has(name) ? 5 : 1.5, title: label }));
    if (moved) g.appendChild(s("rect", { class: "just-moved", x: x + 7, y: y + 7, width: CELL - 14, height: CELL - 14, rx: 6, fill: "none", stroke: "#0a58ca", "stroke-width": 2.5, "stroke-dasharray": "5 3" }));
    // Words apart (a space between them), so what the cell shows reads as words.
    const word = (attrs) => { g.appendChild(document.createTextNode(" ")); g.appendChild(s("text", attrs)); };
    word({ x: x + CELL / 2, y: y + Math.round(CELL * 0.43), "font-size": 17, "font-weight": "bold", "text-anchor": "middle", translate: "no", text: name });
    word({ x: x + CELL / 2, y: y + Math.round(CELL * 0.63), "font-size": 12, "text-anchor": "middle", fill: "#555", ...fitText(speciesName(species[name]), CELL - 10), text: speciesName(species[name]) });
    word({ x: x + 9, y: y + 18, "font-size": 12, fill: "#595959", text: cell });
    if (GIRLFRIENDS.has(name)) word({ x: x + CELL - 10, y: y + 18, "font-size": 12, "text-anchor": "end", fill: "#1565c0", text: "♥" });
    if (frame.has(name)) word({ x: x + CELL / 2, y: y + Math.round(CELL * 0.84), "font-size": 12, "text-anchor": "middle", text: `■ ${t("ps.effect")}` });
    if (inPlace) word({ x: x + CELL - 12, y: y + CELL - 10, "font-size": 16, fill: "#1b5e20", "text-anchor": "middle", text: "✓" });
    if (mine) activate(g, `${shows}: ${picked ? t("ps.unselect") : t("ps.select")} ${label}`, () => pickCell(cell, view, ctx, mem, legal, rerender, error));
    svg.appendChild(g);
  });
  return h("figure", { style: "margin:0" }, [h("figcaption", { text: t("ps.square") }), svg]);
}

// Two picked cells make a swap (or, before the hourglass, a mend among those legal-moves offers).
function pickCell(cell, view, ctx, mem, legal, rerender, error) {
  const cells = mem.cells || [];
  mem.cells = cells.includes(cell) ? cells.filter((c) => c !== cell) : [...cells, cell].slice(-2);
  if (mem.cells.length === 2 && legal.some((m) => m.type === "mend")) {
    const [a, b] = mem.cells;
    const mend = legal.find((m) => m.type === "mend" && m.cells && ((m.cells[0] === a && m.cells[1] === b) || (m.cells[0] === b && m.cells[1] === a)));
    mem.cells = [];
    if (mend) { trySubmit(ctx, mend, error); return; }
    error.textContent = t("ps.not_a_mend");
  }
  rerender();
}

function objectivePicture(view, size = 52) {
  const cells = (view.objective && view.objective.cells) || [];
  const shown = cells.filter(Boolean);
  const svg = s("svg", { viewBox: `0 0 ${size * 3 + 4} ${size * 3 + 4}`, width: size * 3 + 4, role: "img",
    "aria-label": view.objective ? t("ps.objective_label", { id: view.objective.id, cells: cells.map((c, i) => c && t("ps.in_cell", { name: c, cell: i })).filter(Boolean).join(", ") }) : t("ps.no_objective"),
    class: "ps-objective" });
  for (let i = 0; i < 9; i += 1) {
    const x = 2 + (i % 3) * size, y = 2 + Math.floor(i / 3) * size;
    svg.appendChild(s("rect", { x, y, width: size - 2, height: size - 2, fill: cells[i] ? "#e8f5e9" : "#f5f5f5", stroke: "#999" }));
    if (cells[i]) svg.appendChild(s("text", { x: x + size / 2 - 1, y: y + size / 2 + 4, "font-size": 12, "text-anchor": "middle", translate: "no", text: cells[i] }));
  }
  return h("figure", { style: "margin:0" }, [h("figcaption", { text: view.objective ? t("ps.objective_caption", { id: view.objective.id, count: shown.length }) : t("ps.objective") }), svg]);
}

function describeMove(m, seatLabel, asked = true) {
  // With no card of the team asking for a ritual, there is nothing to say about rituals.
  const r = m.rituals && asked ? ritualText(m.rituals, seatLabel) : "";
  const extra = r ? ` — ${r}` : asked && m.rituals === undefined && ACTIONS.has(m.type) ? ` — ${t("ps.no_ritual")}` : "";
  const way = (d) => t(`ps.dir_${d}`);
  if (m.type === "swap") return `${t("ps.swap", { a: m.cells[0], b: m.cells[1] })}${extra}`;
  if (m.type === "push") return `${t("ps.push", { cell: m.cell, arrow: ARROWS[m.direction], direction: way(m.direction) })}${extra}`;
  if (m.type === "photo") return `${t("ps.photo")}${extra}`;
  if (m.type === "mend") return `${m.cells ? t("ps.mend_swap", { a: m.cells[0], b: m.cells[1] }) : t("ps.mend_push", { cell: m.cell, direction: way(m.direction) })}${extra}`;
  if (m.type === "pass") return t("ps.pass");
  if (m.type === "ready") return t("ps.ready");
  if (m.type === "wave") return t("ps.wave");
  if (m.type === "answer") return t("ps.answer");
  if (m.type === "challenge") return t("ps.challenge", { action: m.action });
  return m.type;
}

function ritualText(r, seatLabel) {
  const parts = [];
  const flags = ["smile", "applaud", "contact", "stroke", "wave"];
  if (flags.every((f) => r[f]) && r.slap !== null && r.shake !== null) {
    const said = (r.say || []).length ? `, ${t("ps.says", { phrase: r.say.map((p) => `“${p}”`).join(", ") })}` : "";
    return `${t("ps.every_ritual")}${said}`;
  }
  for (const phrase of r.say || []) parts.push(t("ps.says", { phrase: `“${phrase}”` }));
  for (const flag of ["smile", "applaud", "contact", "stroke", "wave", "answered"]) if (r[flag]) parts.push(t(`ps.did_${flag}`));
  if (r.slap !== null && r.slap !== undefined) parts.push(t("ps.slaps", { name: seatLabel(r.slap) }));
  if (r.shake !== null && r.shake !== undefined) parts.push(t("ps.shakes", { name: seatLabel(r.shake) }));
  return parts.join(", ");
}

// A ritual is asked for by the blue Effect cards of the team photographing.
function ritualsAsked(view) {
  const team = view.you && view.you.team !== undefined ? view.you.team : view.photographers;
  return ((view.effects || [])[team] || []).some((card) => card.colour === "blue");
}

// The phrases a blue card asks for are quoted in its text right after "say"/"ask".
function phrasesOf(view) {
  const found = new Set();
  const team = view.you ? view.you.team : view.photographers;
  for (const card of (view.effects || [])[team] || []) {
    for (const match of String(card.text).matchAll(/(?:say|saying|ask) "([^"]+)"/g)) found.add(match[1]);
  }
  return [...found];
}

function actionsPanel(view, ctx, mem, legal, rerender, error, seatLabel) {
  const box = h("section", { class: "photoshoot-actions", "aria-label": t("generic.moves") });
  if (ctx.seat === null || ctx.seat === undefined) return box;
  const simple = legal.filter((m) => !ACTIONS.has(m.type));
  for (const m of simple) box.appendChild(choice(describeMove(m, seatLabel), () => trySubmit(ctx, m, error), { "data-testid": `move-${m.type}`, "data-move": JSON.stringify(m) }));
  // The same movement with and without rituals is one action to a player when no card of the
  // team asks for a ritual: it is offered once (as the server lists it first).
  const asked = ritualsAsked(view);
  const same = (m) => JSON.stringify({ ...m, rituals: undefined });
  const actions = legal.filter((m) => ACTIONS.has(m.type))
    .filter((m, i, all) => asked || all.findIndex((o) => same(o) === same(m)) === i);
  if (!actions.length) {
    if (!legal.length && view.phase !== "over") box.appendChild(h("p", { text: t("ps.nothing_to_do") }));
    return box;
  }
  box.appendChild(h("h3", { text: t("ps.suggested") }));
  const list = h("ul", { class: "suggested" });
  const more = h("ul", { class: "suggested" });
  actions.forEach((m, i) => (i < 4 ? list : more).appendChild(h("li", {}, [choice(describeMove(m, seatLabel, asked), () => trySubmit(ctx, m, error),
    { "data-testid": `suggested-${i}`, "data-move": JSON.stringify(m) })])));
  box.appendChild(list);
  if (actions.length > 4) box.appendChild(h("details", {}, [h("summary", { text: t("ps.more", { count: actions.length - 4 }) }), more]));
  box.appendChild(composer(view, ctx, mem, rerender, error, seatLabel));
  return box;
}

// Any well-formed action, with what the player says and does (the blue rituals).
function composer(view, ctx, mem, rerender, error, seatLabel) {
  mem.rituals ??= { say: [], smile: false, applaud: false, contact: false, stroke: false, wave: false, slap: null, shake: null };
  const r = mem.rituals;
  const box = h("fieldset", { class: "composer" }, [h("legend", { text: t(view.mode === "coop" ? "ps.own_move_referee" : "ps.own_move_control") })]);
  const seats = [...Array(view.players || 0).keys()];
  const checks = h("div", {});
  for (const flag of ["smile", "applaud", "contact", "stroke", "wave", "answered"]) {
    checks.appendChild(h("label", { style: "margin-right:.8em" }, [h("input", { type: "checkbox", checked: r[flag], onchange: (e) => { r[flag] = e.target.checked; } }), ` ${t(`ps.do_${flag}`)}`]));
  }
  box.appendChild(checks);
  const phrases = h("div", {});
  for (const phrase of phrasesOf(view)) {
    phrases.appendChild(h("label", { style: "margin-right:.8em" }, [h("input", { type: "checkbox", checked: r.say.includes(phrase),
      onchange: (e) => { r.say = e.target.checked ? [...r.say, phrase] : r.say.filter((p) => p !== phrase); } }), ` ${t("ps.say_phrase", { phrase: `“${phrase}”` })}`]));
  }
  phrases.appendChild(h("label", {}, [` ${t("ps.say")} `, h("input", { type: "text", maxlength: 80, "aria-label": t("ps.say_else"),
    onchange: (e) => { r.free = e.target.value.trim(); } })]));
  box.appendChild(phrases);
  const seatSelect = (key, label) => h("label", { style: "margin-right:.8em" }, [`${label} `, h("select", { onchange: (e) => { r[key] = e.target.value === "" ? null : Number(e.target.value); } },
    [h("option", { value: "", text: t("ps.nobody") }), ...seats.filter((x) => x !== ctx.seat).map((x) => h("option", { value: x, selected: r[key] === x, text: seatLabel(x) }))])]);
  box.append(seatSelect("slap", t("ps.slap_of")), seatSelect("shake", t("ps.shake")));
  const rituals = () => {
    const { free, answered, ...rest } = r;
    // `answered` exists from rules version 2 on: sent only when ticked, so older games accept the rest.
    return { ...rest, ...(answered ? { answered } : {}), say: free ? [...rest.say, free] : [...rest.say] };
  };
  const cells = mem.cells || [];
  const row = h("div", {});
  row.appendChild(h("span", { text: `${cells.length ? t("ps.selected", { count: cells.length, cells: cells.join(", ") }) : t("ps.select_cells")} ` }));
  if (cells.length === 2) row.appendChild(choice(t("ps.swap_short", { a: cells[0], b: cells[1] }), () => { mem.cells = []; trySubmit(ctx, { type: "swap", cells, rituals: rituals() }, error); }, { "data-testid": "compose-swap" }));
  if (cells.length === 1) {
    for (const d of DIRECTIONS) row.appendChild(choice(t("ps.push_short", { arrow: ARROWS[d] }), () => { mem.cells = []; trySubmit(ctx, { type: "push", cell: cells[0], direction: d, rituals: rituals() }, error); }, { "aria-label": `${t("ps.push_short", { arrow: ARROWS[d] })}: ${t("ps.push", { cell: cells[0], arrow: ARROWS[d], direction: t(`ps.dir_${d}`) })}` }));
  }
  row.appendChild(choice(t("ps.photo"), () => trySubmit(ctx, { type: "photo", rituals: rituals() }, error), { "data-testid": "compose-photo" }));
  box.appendChild(row);
  return box;
}

function lastActionPanel(view, seatLabel) {
  const box = h("section", { class: "photoshoot-last", "aria-label": t("ps.latest") });
  const a = view.last_action;
  if (!a) return box;
  const who = seatLabel(a.seat);
  const what = a.kind === "swap" ? t("ps.did_swap", { name: who, a: a.cells[0], b: a.cells[1] })
    : a.kind === "push" ? t("ps.did_push", { name: who, cell: a.cell, direction: t(`ps.dir_${a.direction}`) }) : t("ps.did_photo", { name: who });
  const rituals = a.rituals ? ritualText(a.rituals, seatLabel) : "";
  const status = { open: "ps.status_open", closed: "ps.status_closed", challenged: "ps.status_challenged" }[a.status];
  box.appendChild(h("p", { "data-testid": "last-action", text: t("ps.action", { number: a.number, what,
    moved: (a.moved || []).length ? ` ${t("ps.moved", { names: a.moved.join(", ") })}` : "", rituals: rituals ? `; ${rituals}` : "",
    status: status ? t(status) : a.status }) }));
  const owed = a.owed || {};
  const owing = [...(owed.wave || []).map((x) => t("ps.owes_wave", { name: seatLabel(x) })), ...(owed.answer || []).map((x) => t("ps.owes_answer", { name: seatLabel(x) }))];
  if (owing.length) box.appendChild(h("p", { text: owing.join("; ") }));
  return box;
}

function teamsPanel(view, ctx, seatLabel) {
  const box = h("section", { class: "photoshoot-teams", "aria-label": t("ps.teams"), style: "display:flex;flex-wrap:wrap;gap:16px" });
  (view.teams || []).forEach((seats, team) => {
    const role = view.mode === "coop" ? t("ps.role_team") : view.photographers === team ? t("ps.role_photographers") : view.control === team ? t("ps.role_control") : "";
    const card = h("div", { class: "team", "data-team": team, style: `border:2px solid ${SEAT_COLOURS[team]};border-radius:8px;padding:6px 10px;min-width:14em` });
    card.appendChild(h("h3", { style: "margin:.2em 0", text: t(role ? "ps.team_role_score" : "ps.team_score", { team: team + 1, role, count: (view.scores || [])[team] ?? 0 }) }));
    card.appendChild(h("p", { text: seats.map((x) => `${seatLabel(x)}${youMark(ctx, x)}`).join(", ") }));
    const effects = (view.effects || [])[team] || [];
    const list = h("ul", { "aria-label": t("ps.team_effects", { team: team + 1 }) });
    for (const e of effects) list.appendChild(h("li", { "data-effect": e.id }, [h("strong", { text: `${e.colour === "orange" ? `■ ${t("ps.orange")}` : `● ${t("ps.blue")}`} · ${e.character}: ` }), effectText(e)]));
    if (!effects.length) list.appendChild(h("li", { text: t("ps.no_effect") }));
    card.appendChild(list);
    box.appendChild(card);
  });
  return box;
}

// The previous round in words, never a raw array.
function lastRoundPanel(last) {
  const teams = (list) => (list || []).map((v, i) => ((list || []).length > 1 ? t("ps.team_value", { team: i + 1, value: v }) : String(v))).join(", ");
  const parts = [last.photographers !== undefined ? t("ps.last_round_team", { round: last.round, team: last.photographers + 1 }) : t("pp.round", { round: last.round })];
  if (last.validated !== undefined) parts.push(t("ps.validated", { count: last.validated }));
  if (last.photographer_tokens !== undefined) parts.push(t("ps.camera_tokens", { photographers: last.photographer_tokens, control: last.control_tokens ?? 0 }));
  if (last.points) parts.push(t("ps.round_points", { list: teams(last.points) }));
  if (last.scores) parts.push(t("ps.round_scores", { list: teams(last.scores) }));
  const drawn = (last.drawn || []).flat().map((d) => (typeof d === "object" && d ? d.character || d.id : d)).filter(Boolean);
  parts.push(drawn.length ? t("ps.drawn", { list: drawn.join(", ") }) : t("ps.none_drawn"));
  if (last.caught) parts.push(t("ps.caught"));
  return h("section", { class: "photoshoot-last-round", "aria-label": t("ps.previous") }, [h("h3", { text: t("ps.previous") }), h("p", { text: parts.join(" · ") })]);
}

// A lost cooperative game is lost, whatever an older result's `winners` say; teams are placed as
// teams (a team's place is its first seat's: every seat of a team has it from rules version 2).
function resultPanel(view, seatLabel) {
  const res = view.result;
  const lost = Boolean(res.cooperative && !res.cooperative.won);
  const winners = lost ? [] : res.winners || [];
  const box = h("section", { class: "photoshoot-result", "aria-label": t("ps.scored") }, [h("h3", { text: t("result.label") })]);
  if (res.cooperative) box.appendChild(h("p", { "data-testid": "coop-result", text: t(res.cooperative.won ? "ps.coop_won" : "ps.coop_lost", { target: res.cooperative.target }) }));
  if (res.team_scores) {
    const standing = (team) => (lost ? t("ps.lost") : team.some((x) => winners.includes(x)) ? t("ps.won") : t("ps.lost"));
    box.appendChild(h("p", { "data-testid": "team-result", text: res.team_scores.map((x, team) => t("ps.team_result", { team: team + 1, score: x, standing: standing((res.teams || [])[team] || []) })).join(" · ") }));
  }
  box.appendChild(h("p", { text: (res.scores || []).map((x, seat) => `${seatLabel(seat)}: ${x}${winners.includes(seat) ? ` ${t("pv.winner")}` : ""}`).join(" · ") }));
  return box;
}

// ---- the story: events and the breakdown in words (the shell's move log, replay and result) ---
export function describeEvent(event, { name }) {
  const who = event.actor !== null && event.actor !== undefined ? name(event.actor) : "";
  const r = event.record || {};
  const late = event.auto ? ` ${t("story.late")}` : "";
  const moved = (r.moved || []).length ? ` ${t("ps.moved", { names: r.moved.join(", ") })}` : "";
  switch (event.type) {
    case "PlayerReady": return t(r.hourglass ? "ps.ev_ready_start" : "ps.ev_ready", { who, late });
    case "CharactersSwapped": return t("ps.ev_swapped", { who, a: (r.cells || [])[0], b: (r.cells || [])[1], moved, late });
    case "RowPushed": return t("ps.ev_pushed", { who, cell: r.cell, direction: t(`ps.dir_${r.direction}`), moved, late });
    case "PhotoCalled": return { text: r.validated ? t("ps.ev_photo_validated", { who, id: r.validated, late }) : t("ps.ev_photo", { who, late }), moment: true };
    // The faults are the server's sentences, already in the reader's language; listed as it lists.
    case "ErrorCaught": return { text: t("ps.ev_error", { who, action: r.action, faults: r.faults?.length ? formatList(r.faults) : t("ps.a_fault") }), moment: true };
    case "ActionChallenged": {
      const verdict = r.error ? t("ps.ev_upheld", { faults: formatList(r.faults || []) }) : t("ps.ev_rejected");
      const to = r.token === "photographer" ? t("ps.token_photographers") : r.token === "control" ? t("ps.token_control") : t("ps.token_to", { to: r.token });
      return { text: t("ps.ev_challenged", { name: name(r.challenger ?? event.actor), action: r.action, verdict, to }), moment: true };
    }
    case "SquareMended": return t("ps.ev_mended", { who, late });
    case "WaveJoined": return t("ps.ev_wave", { who, late });
    case "EdgarAnswered": return t("ps.ev_answered", { who, late });
    case "HourglassRanOut": return { text: t("ps.ev_ran_out"), moment: true };
    default: return null;
  }
}

export function describeBreakdown(b) {
  return [t("ps.team_value", { team: Number(b.team) + 1, value: t("bar.points", { count: b.team_score }) })];
}
