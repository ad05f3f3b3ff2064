// Photoshoot table: the 3x3 square, the objective, the hourglass (the server's deadline), teams,
// effects, the latest action and what the seat may do now (from legal-moves; photographers may
// also compose any well-formed action, errors included, as the rules allow).
import { stamp } from "../svg.js";
import { h, s, activate, choice, trySubmit, seatName, memory, SEAT_COLOURS } from "./kit.js";

const GIRLFRIENDS = new Set(["Olivia", "Chloé", "Alice"]);
const ACTIONS = new Set(["swap", "push", "photo"]);
const DIRECTIONS = ["up", "down", "left", "right"];
const ARROWS = { up: "↑", down: "↓", left: "←", right: "→" };

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
  // hourglass and the moves (below it only where the screen is too narrow for both).
  const board = h("div", { class: "photoshoot-board" });
  board.appendChild(gridPicture(view, ctx, mem, legal, rerender, error));
  const side = h("div", { class: "photoshoot-side" });
  side.appendChild(h("div", { class: "photoshoot-aim" }, [objectivePicture(view), hourglass(root, view)]));
  side.appendChild(actionsPanel(view, ctx, mem, legal, rerender, error, seatLabel));
  board.appendChild(side);
  root.appendChild(board);
  root.appendChild(error);
  root.appendChild(lastActionPanel(view, seatLabel));
  root.appendChild(teamsPanel(view, ctx, seatLabel));
  if (view.last_round) root.appendChild(lastRoundPanel(view.last_round));
  stamp(root);
}

function header(view, ctx, seatLabel) {
  const box = h("section", { class: "photoshoot-summary", "aria-label": "Round", "data-round": view.round, "data-phase": view.phase,
    "data-turn": view.turn ?? "", "data-challengeable": view.challengeable ?? "" });
  const mode = view.mode === "coop" ? `Cooperative: one team against the hourglass, target ${view.target}` : "Two teams";
  const phase = { ready: "Ready step: the hourglass starts when the photographers and one control member are ready",
    round: "The hourglass is running", over: "Game over" }[view.phase] || view.phase;
  box.appendChild(h("p", {}, [h("strong", { text: `Round ${view.round}` }), ` · ${mode} · level ${view.level}${view.family ? " (family)" : ""} · ${phase}`]));
  if (view.phase === "ready") {
    box.appendChild(h("p", { "data-testid": "awaiting", text: `Waiting for: ${(view.awaiting_ready || []).map(seatLabel).join(", ") || "nobody"}${view.mending ? " · the square must be mended first (Arthur / James)" : ""}` }));
  }
  if (view.phase === "round" && view.turn !== null && view.turn !== undefined) {
    const watching = watches(view);
    box.appendChild(h("p", { "data-testid": "turn", text: view.turn === ctx.seat ? "Your turn to photograph."
      : watching ? `${seatLabel(view.turn)} is photographing: watch each action, and challenge one you think breaks a rule.`
        : `${seatLabel(view.turn)}'s turn to photograph.` }));
  }
  if (view.tally) {
    box.appendChild(h("p", { text: `This round: ${view.tally.validated} objective(s) validated · Camera tokens won: photographers ${view.tally.photographer_tokens}, control ${view.tally.control_tokens} · ${view.tokens_left} tokens left in the supply · objective pile: ${view.objective_pile_size}` }));
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
  return watches(game.state || {}) ? "Watch and challenge" : null;
}

function stopHourglass(root) {
  if (root.__hourglassTimer) clearInterval(root.__hourglassTimer);
  root.__hourglassTimer = null;
}

// Counts down to the server's deadline; the round ends when the server says so (the view
// changes), not when this reaches zero.
function hourglass(root, view) {
  const box = h("section", { class: "hourglass", "aria-label": "Hourglass" });
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
      text.textContent = view.phase === "over" ? "Hourglass: the game is over" : `Hourglass: ${view.hourglass_seconds}s, not started`;
      return;
    }
    const left = Math.max(0, deadline - Date.now());
    const frac = Math.min(1, left / total);
    top.setAttribute("y", 2 + 28 * (1 - frac));
    top.setAttribute("height", 28 * frac);
    bottom.setAttribute("y", 58 - 28 * (1 - frac));
    bottom.setAttribute("height", 28 * (1 - frac));
    const secs = Math.ceil(left / 1000);
    text.textContent = left > 0 ? `Hourglass: ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")} left` : "Hourglass: time is up (waiting for the server)";
    if (!root.isConnected || left <= 0) stopHourglass(root);
  };
  tick();
  if (deadline && view.phase === "round") root.__hourglassTimer = setInterval(tick, 250);
  return box;
}

const CELL = 92;

function gridPicture(view, ctx, mem, legal, rerender, error) {
  const grid = view.grid || [];
  const objective = (view.objective && view.objective.cells) || [];
  const frame = new Set(view.black_frame || []);
  const species = view.characters || {};
  const mine = legal.some((m) => ACTIONS.has(m.type) || m.type === "mend");
  const svg = s("svg", { viewBox: `0 0 ${CELL * 3 + 4} ${CELL * 3 + 4}`, width: CELL * 3 + 4, role: "group",
    "aria-label": "The square of characters, cells 0 to 8 in reading order", class: "ps-grid" });
  grid.forEach((name, cell) => {
    const x = 2 + (cell % 3) * CELL, y = 2 + Math.floor(cell / 3) * CELL;
    const inPlace = objective[cell] === name;
    const picked = (mem.cells || []).includes(cell);
    // The last move highlighted: the characters the latest action moved have a dashed blue ring.
    const moved = ((view.last_action || {}).moved || []).includes(name);
    const notes = [GIRLFRIENDS.has(name) && "girlfriend", frame.has(name) && "black frame (an effect applies)", inPlace && "where the objective wants"].filter(Boolean);
    const label = `cell ${cell}: ${name} the ${species[name] || ""}${moved ? " (just moved)" : ""}${notes.length ? ` (${notes.join(", ")})` : ""}`;
    const g = s("g", { class: "ps-cell", "data-cell": cell, "data-character": name });
    g.appendChild(s("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 8,
      fill: GIRLFRIENDS.has(name) ? "#bbdefb" : "#fff3e0", stroke: picked ? "#e65100" : frame.has(name) ? "#000" : "#8d6e63",
      "stroke-width": picked ? 5 : frame.has(name) ? 5 : 1.5, title: label }));
    if (moved) g.appendChild(s("rect", { class: "just-moved", x: x + 7, y: y + 7, width: CELL - 14, height: CELL - 14, rx: 6, fill: "none", stroke: "#0a58ca", "stroke-width": 2.5, "stroke-dasharray": "5 3" }));
    g.appendChild(s("text", { x: x + CELL / 2, y: y + 40, "font-size": 17, "font-weight": "bold", "text-anchor": "middle", text: name }));
    g.appendChild(s("text", { x: x + CELL / 2, y: y + 58, "font-size": 12, "text-anchor": "middle", fill: "#555", text: species[name] || "" }));
    g.appendChild(s("text", { x: x + 9, y: y + 18, "font-size": 12, fill: "#595959", text: cell }));
    if (GIRLFRIENDS.has(name)) g.appendChild(s("text", { x: x + CELL - 10, y: y + 18, "font-size": 12, "text-anchor": "end", fill: "#1565c0", text: "♥" }));
    if (frame.has(name)) g.appendChild(s("text", { x: x + CELL / 2, y: y + 78, "font-size": 12, "text-anchor": "middle", text: "■ effect" }));
    if (inPlace) g.appendChild(s("text", { x: x + CELL - 12, y: y + CELL - 10, "font-size": 16, fill: "#1b5e20", "text-anchor": "middle", text: "✓" }));
    if (mine) activate(g, `${picked ? "Unselect" : "Select"} ${label}`, () => pickCell(cell, view, ctx, mem, legal, rerender, error));
    svg.appendChild(g);
  });
  return h("figure", { style: "margin:0" }, [h("figcaption", { text: "The square" }), svg]);
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
    error.textContent = "That swap does not mend the square; pick one of the mends listed.";
  }
  rerender();
}

function objectivePicture(view) {
  const cells = (view.objective && view.objective.cells) || [];
  const size = 52;
  const shown = cells.filter(Boolean);
  const svg = s("svg", { viewBox: `0 0 ${size * 3 + 4} ${size * 3 + 4}`, width: size * 3 + 4, role: "img",
    "aria-label": view.objective ? `Objective ${view.objective.id}: ${cells.map((c, i) => c && `${c} in cell ${i}`).filter(Boolean).join(", ")}` : "No objective",
    class: "ps-objective" });
  for (let i = 0; i < 9; i += 1) {
    const x = 2 + (i % 3) * size, y = 2 + Math.floor(i / 3) * size;
    svg.appendChild(s("rect", { x, y, width: size - 2, height: size - 2, fill: cells[i] ? "#e8f5e9" : "#f5f5f5", stroke: "#999" }));
    if (cells[i]) svg.appendChild(s("text", { x: x + size / 2 - 1, y: y + size / 2 + 4, "font-size": 12, "text-anchor": "middle", text: cells[i] }));
  }
  return h("figure", { style: "margin:0" }, [h("figcaption", { text: view.objective ? `Objective #${view.objective.id} (${shown.length} characters)` : "Objective" }), svg]);
}

function describeMove(m, seatLabel) {
  const r = m.rituals ? ritualText(m.rituals, seatLabel) : "";
  const extra = r ? ` — ${r}` : m.rituals === undefined && ACTIONS.has(m.type) ? " — no ritual" : "";
  if (m.type === "swap") return `Swap cells ${m.cells[0]} and ${m.cells[1]}${extra}`;
  if (m.type === "push") return `Jo pushes from cell ${m.cell} ${ARROWS[m.direction]} ${m.direction}${extra}`;
  if (m.type === "photo") return `Photo!${extra}`;
  if (m.type === "mend") return m.cells ? `Mend: swap cells ${m.cells[0]} and ${m.cells[1]}${extra}` : `Mend: Jo pushes from cell ${m.cell} ${m.direction}${extra}`;
  if (m.type === "pass") return "Pass";
  if (m.type === "ready") return "I'm ready";
  if (m.type === "wave") return "Join the Mexican wave (Pam)";
  if (m.type === "answer") return "Answer Edgar (\"Oui!\")";
  if (m.type === "challenge") return `Challenge action #${m.action}`;
  return m.type;
}

function ritualText(r, seatLabel) {
  const parts = [];
  const flags = ["smile", "applaud", "contact", "stroke", "wave"];
  if (flags.every((f) => r[f]) && r.slap !== null && r.shake !== null) {
    return `every ritual done${(r.say || []).length ? `, says ${r.say.map((p) => `“${p}”`).join(", ")}` : ""}`;
  }
  for (const phrase of r.say || []) parts.push(`says “${phrase}”`);
  for (const flag of ["smile", "applaud", "contact", "stroke", "wave", "answered"]) if (r[flag]) parts.push({ smile: "smiles", applaud: "applauds", contact: "slides the tile", stroke: "strokes Max", wave: "the team waves", answered: "the team answers Edgar" }[flag]);
  if (r.slap !== null && r.slap !== undefined) parts.push(`slaps ${seatLabel(r.slap)}'s hand`);
  if (r.shake !== null && r.shake !== undefined) parts.push(`shakes ${seatLabel(r.shake)}`);
  return parts.join(", ");
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
  const box = h("section", { class: "photoshoot-actions", "aria-label": "Your moves" });
  if (ctx.seat === null || ctx.seat === undefined) return box;
  const simple = legal.filter((m) => !ACTIONS.has(m.type));
  for (const m of simple) box.appendChild(choice(describeMove(m, seatLabel), () => trySubmit(ctx, m, error), { "data-testid": `move-${m.type}`, "data-move": JSON.stringify(m) }));
  const actions = legal.filter((m) => ACTIONS.has(m.type));
  if (!actions.length) {
    if (!legal.length && view.phase !== "over") box.appendChild(h("p", { text: "Nothing for you to do right now." }));
    return box;
  }
  box.appendChild(h("h3", { text: "Your turn: suggested actions" }));
  const list = h("ul", { class: "suggested" });
  const more = h("ul", { class: "suggested" });
  actions.forEach((m, i) => (i < 4 ? list : more).appendChild(h("li", {}, [choice(describeMove(m, seatLabel), () => trySubmit(ctx, m, error),
    { "data-testid": `suggested-${i}`, "data-move": JSON.stringify(m) })])));
  box.appendChild(list);
  if (actions.length > 4) box.appendChild(h("details", {}, [h("summary", { text: `${actions.length - 4} more` }), more]));
  box.appendChild(composer(view, ctx, mem, rerender, error, seatLabel));
  return box;
}

// Any well-formed action, with what the player says and does (the blue rituals).
function composer(view, ctx, mem, rerender, error, seatLabel) {
  mem.rituals ??= { say: [], smile: false, applaud: false, contact: false, stroke: false, wave: false, slap: null, shake: null };
  const r = mem.rituals;
  const box = h("fieldset", { class: "composer" }, [h("legend", { text: `Or make your own move (${view.mode === "coop" ? "the referee" : "the control team"} judges it)` })]);
  const seats = [...Array(view.players || 0).keys()];
  const checks = h("div", {});
  for (const [flag, label] of [["smile", "smile"], ["applaud", "applaud"], ["contact", "slide the tile (contact)"], ["stroke", "stroke Max"], ["wave", "the team does the Mexican wave"], ["answered", "the team answers Edgar"]]) {
    checks.appendChild(h("label", { style: "margin-right:.8em" }, [h("input", { type: "checkbox", checked: r[flag], onchange: (e) => { r[flag] = e.target.checked; } }), ` ${label}`]));
  }
  box.appendChild(checks);
  const phrases = h("div", {});
  for (const phrase of phrasesOf(view)) {
    phrases.appendChild(h("label", { style: "margin-right:.8em" }, [h("input", { type: "checkbox", checked: r.say.includes(phrase),
      onchange: (e) => { r.say = e.target.checked ? [...r.say, phrase] : r.say.filter((p) => p !== phrase); } }), ` say “${phrase}”`]));
  }
  phrases.appendChild(h("label", {}, [" say: ", h("input", { type: "text", maxlength: 80, "aria-label": "something else to say",
    onchange: (e) => { r.free = e.target.value.trim(); } })]));
  box.appendChild(phrases);
  const seatSelect = (key, label) => h("label", { style: "margin-right:.8em" }, [`${label} `, h("select", { onchange: (e) => { r[key] = e.target.value === "" ? null : Number(e.target.value); } },
    [h("option", { value: "", text: "nobody" }), ...seats.filter((x) => x !== ctx.seat).map((x) => h("option", { value: x, selected: r[key] === x, text: seatLabel(x) }))])]);
  box.append(seatSelect("slap", "slap the hand of"), seatSelect("shake", "shake"));
  const rituals = () => {
    const { free, answered, ...rest } = r;
    // `answered` exists from rules version 2 on: sent only when ticked, so older games accept the rest.
    return { ...rest, ...(answered ? { answered } : {}), say: free ? [...rest.say, free] : [...rest.say] };
  };
  const cells = mem.cells || [];
  const row = h("div", {});
  row.appendChild(h("span", { text: cells.length ? `Selected cell(s): ${cells.join(", ")} ` : "Select cells on the square. " }));
  if (cells.length === 2) row.appendChild(choice(`Swap ${cells[0]} ↔ ${cells[1]}`, () => { mem.cells = []; trySubmit(ctx, { type: "swap", cells, rituals: rituals() }, error); }, { "data-testid": "compose-swap" }));
  if (cells.length === 1) {
    for (const d of DIRECTIONS) row.appendChild(choice(`Push ${ARROWS[d]}`, () => { mem.cells = []; trySubmit(ctx, { type: "push", cell: cells[0], direction: d, rituals: rituals() }, error); }, { "aria-label": `Jo pushes from cell ${cells[0]} ${d}` }));
  }
  row.appendChild(choice("Photo!", () => trySubmit(ctx, { type: "photo", rituals: rituals() }, error), { "data-testid": "compose-photo" }));
  box.appendChild(row);
  return box;
}

function lastActionPanel(view, seatLabel) {
  const box = h("section", { class: "photoshoot-last", "aria-label": "Latest action" });
  const a = view.last_action;
  if (!a) return box;
  const what = a.kind === "swap" ? `swapped cells ${a.cells.join(" and ")}` : a.kind === "push" ? `pushed from cell ${a.cell} ${a.direction}` : "called “Photo!”";
  const rituals = a.rituals ? ritualText(a.rituals, seatLabel) : "";
  const status = { open: "may be challenged", closed: "closed", challenged: "challenged" }[a.status] || a.status;
  box.appendChild(h("p", { "data-testid": "last-action", text: `Action #${a.number}: ${seatLabel(a.seat)} ${what}${(a.moved || []).length ? ` (moved ${a.moved.join(", ")})` : ""}${rituals ? `; ${rituals}` : ""} — ${status}.` }));
  const owed = a.owed || {};
  const owing = [...(owed.wave || []).map((x) => `${seatLabel(x)} owes the wave`), ...(owed.answer || []).map((x) => `${seatLabel(x)} owes an answer`)];
  if (owing.length) box.appendChild(h("p", { text: owing.join("; ") }));
  return box;
}

function teamsPanel(view, ctx, seatLabel) {
  const box = h("section", { class: "photoshoot-teams", "aria-label": "Teams", style: "display:flex;flex-wrap:wrap;gap:16px" });
  (view.teams || []).forEach((seats, t) => {
    const role = view.mode === "coop" ? "the team" : view.photographers === t ? "photographers" : view.control === t ? "control team" : "";
    const card = h("div", { class: "team", "data-team": t, style: `border:2px solid ${SEAT_COLOURS[t]};border-radius:8px;padding:6px 10px;min-width:14em` });
    card.appendChild(h("h3", { style: "margin:.2em 0", text: `Team ${t + 1}${role ? ` — ${role}` : ""}: ${(view.scores || [])[t] ?? 0} points` }));
    card.appendChild(h("p", { text: seats.map((x) => `${seatLabel(x)}${x === ctx.seat ? " (you)" : ""}`).join(", ") }));
    const effects = (view.effects || [])[t] || [];
    const list = h("ul", { "aria-label": `Team ${t + 1}'s effect cards` });
    for (const e of effects) list.appendChild(h("li", { "data-effect": e.id }, [h("strong", { text: `${e.colour === "orange" ? "■ orange" : "● blue"} · ${e.character}: ` }), e.text]));
    if (!effects.length) list.appendChild(h("li", { text: "no effect card yet" }));
    card.appendChild(list);
    box.appendChild(card);
  });
  return box;
}

// The previous round in words, never a raw array.
function lastRoundPanel(last) {
  const teams = (list) => (list || []).map((v, i) => ((list || []).length > 1 ? `team ${i + 1}: ${v}` : String(v))).join(", ");
  const parts = [`Round ${last.round}${last.photographers !== undefined ? `, team ${last.photographers + 1} photographing` : ""}`];
  if (last.validated !== undefined) parts.push(`${last.validated} objective(s) validated`);
  if (last.photographer_tokens !== undefined) parts.push(`camera tokens: photographers ${last.photographer_tokens}, control ${last.control_tokens ?? 0}`);
  if (last.points) parts.push(`points this round: ${teams(last.points)}`);
  if (last.scores) parts.push(`scores: ${teams(last.scores)}`);
  const drawn = (last.drawn || []).flat().map((d) => (typeof d === "object" && d ? d.character || d.id : d)).filter(Boolean);
  parts.push(drawn.length ? `effect cards drawn: ${drawn.join(", ")}` : "no effect card drawn");
  if (last.caught) parts.push("the referee caught an error");
  return h("section", { class: "photoshoot-last-round", "aria-label": "Previous round" }, [h("h3", { text: "Previous round" }), h("p", { text: parts.join(" · ") })]);
}

// A lost cooperative game is lost, whatever an older result's `winners` say; teams are placed as
// teams (a team's place is its first seat's: every seat of a team has it from rules version 2).
function resultPanel(view, seatLabel) {
  const res = view.result;
  const lost = Boolean(res.cooperative && !res.cooperative.won);
  const winners = lost ? [] : res.winners || [];
  const box = h("section", { class: "photoshoot-result", "aria-label": "The shoot, scored" }, [h("h3", { text: "Result" })]);
  if (res.cooperative) box.appendChild(h("p", { "data-testid": "coop-result", text: `Cooperative: ${res.cooperative.won ? "won" : "lost"} (target ${res.cooperative.target})` }));
  if (res.team_scores) {
    const standing = (team) => (lost ? "lost" : team.some((x) => winners.includes(x)) ? "won" : "lost");
    box.appendChild(h("p", { "data-testid": "team-result", text: res.team_scores.map((x, t) => `Team ${t + 1}: ${x} — ${standing((res.teams || [])[t] || [])}`).join(" · ") }));
  }
  box.appendChild(h("p", { text: (res.scores || []).map((x, seat) => `${seatLabel(seat)}: ${x}${winners.includes(seat) ? " (winner)" : ""}`).join(" · ") }));
  return box;
}

// ---- the story: events and the breakdown in words (the shell's move log, replay and result) ---
export function describeEvent(event, { name }) {
  const who = event.actor !== null && event.actor !== undefined ? name(event.actor) : "";
  const r = event.record || {};
  const late = event.auto ? " (played by the server: time ran out)" : "";
  switch (event.type) {
    case "PlayerReady": return `${who} is ready${r.hourglass ? ": the hourglass starts" : ""}${late}.`;
    case "CharactersSwapped": return `${who} swapped cells ${(r.cells || []).join(" and ")}${(r.moved || []).length ? ` (${r.moved.join(" and ")})` : ""}${late}.`;
    case "RowPushed": return `${who}: Jo pushes from cell ${r.cell} ${r.direction}${(r.moved || []).length ? ` (moved ${r.moved.join(", ")})` : ""}${late}.`;
    case "PhotoCalled": return { text: `${who} called “Photo!”${r.validated ? `: objective #${r.validated} validated` : ""}${late}.`, moment: true };
    case "ErrorCaught": return { text: `${who}'s action #${r.action} was an error: ${(r.faults || []).join("; ") || "a fault"}.`, moment: true };
    case "ActionChallenged": return { text: `${name(r.challenger ?? event.actor)} challenged action #${r.action}: `
      + (r.error ? `upheld, it was an error (${(r.faults || []).join("; ")})` : "rejected, there was no error")
      + `. The camera token goes to the ${r.token === "photographer" ? "photographers" : r.token === "control" ? "control team" : r.token}.`, moment: true };
    case "SquareMended": return `${who} mended the square${late}.`;
    case "WaveJoined": return `${who} joined the Mexican wave${late}.`;
    case "EdgarAnswered": return `${who} answered Edgar${late}.`;
    case "HourglassRanOut": return { text: "The hourglass ran out: the round is over.", moment: true };
    default: return null;
  }
}

export function describeBreakdown(b) {
  return [`team ${Number(b.team) + 1}: ${b.team_score} point(s)`];
}
