// The create form, for people: a preset for the clock ("Real-time: 90 s hourglass",
// "Correspondence: 3 days a move"...), each option with a label and help in words, durations in
// human units, and only the fields the chosen clock uses. The options and their bounds come from
// the kind's JSON schema (GET /kinds/), so a new option shows up without a change here.
import { post } from "./api.js";
import { h } from "./svg.js";
import { privacyFields, readPrivacy } from "./social.js";

const CLOCK_FIELDS = {
  none: [],
  per_move: ["move_seconds", "timeout_policy", "reminder_fraction"],
  bank: ["bank_initial_seconds", "bank_increment_seconds", "bank_max_seconds", "timeout_policy", "reminder_fraction"],
};
const CLOCK = new Set(["time_control", ...Object.values(CLOCK_FIELDS).flat()]);

const LABELS = {
  time_control: "Clock", move_seconds: "Time for each move", bank_initial_seconds: "Time in the bank at the start",
  bank_increment_seconds: "Time added after each move", bank_max_seconds: "Most time the bank can hold",
  timeout_policy: "When a player's time runs out", reminder_fraction: "Remind a player when this share of their time is left",
  missed_shot: "Missed Shot variant", level: "Difficulty level", family: "Family variant", hourglass_seconds: "Hourglass",
  teams: "Teams (4 to 6 players)", target: "Points to win", comments: "Comments on the rankings",
};
const HELP = {
  time_control: "How long each player may think.",
  move_seconds: "Each move must be made within this time.",
  bank_initial_seconds: "Each player starts with this much time for the whole game.",
  bank_increment_seconds: "Added to a player's bank after each of their moves.",
  bank_max_seconds: "The bank never grows beyond this.",
  timeout_policy: "What happens to a player whose time runs out.",
  reminder_fraction: "0 % sends no reminder.",
  // The games' own options, in a player's words (the schema's descriptions are for developers).
  missed_shot: "The last card left in a hand takes away the reel and the good-shot card of its colour at scoring.",
  level: "1 is the base game; each level changes which Effect cards a team draws at 0, 5 and 15 points.",
  family: "Only blue Effect cards are drawn.",
  hourglass_seconds: "How long each round lasts (the rulebook's hourglass: 90 seconds).",
  teams: "Who plays with whom, with 4 to 6 players; with 2 or 3 everyone is one team against the hourglass.",
  target: "The game ends after the round in which someone reaches this score (rulebook: 20).",
  comments: "A ranker may add a short comment to each card, shown at the evaluation.",
};
const CHOICES = {
  time_control: { none: "No clock", per_move: "A time limit for each move", bank: "A time bank for the game (grows with each move)" },
  timeout_policy: { auto_move: "The server plays a move for them", forfeit: "They lose their seat" },
  teams: { alternate: "Alternate seats (1, 3, 5 against 2, 4, 6)", halves: "First half against second half" },
};

const DAY = 86400, HOUR = 3600, MINUTE = 60;
const UNITS = [["days", DAY], ["hours", HOUR], ["minutes", MINUTE], ["seconds", 1]];

/** The presets of a kind: the clock it is usually played with, in words. */
export function presets(kind) {
  const props = kind.options_schema?.properties || {};
  const list = [];
  if (props.hourglass_seconds) list.push({ id: "realtime", label: "Real-time: 90 s hourglass", options: { time_control: "none", hourglass_seconds: 90 } });
  list.push({ id: "correspondence", label: "Correspondence: 3 days a move", options: { time_control: "per_move", move_seconds: 3 * DAY } });
  list.push({ id: "blitz", label: "Blitz correspondence: 1 day a move", options: { time_control: "per_move", move_seconds: DAY } });
  if (!props.hourglass_seconds) list.push({ id: "live", label: "Live: 5 minutes a move", options: { time_control: "per_move", move_seconds: 5 * MINUTE } });
  list.push({ id: "custom", label: "Custom: choose every setting", options: {} });
  return list.filter((p) => Object.keys(p.options).every((name) => props[name]));
}

const words = (name) => LABELS[name] || name.replace(/_seconds$/, "").replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

function bestUnit(seconds) {
  return UNITS.find(([, size]) => seconds % size === 0 && seconds >= size) || ["seconds", 1];
}

function field(kindName, name, schema, value) {
  const id = `opt-${kindName}-${name}`;
  const help = HELP[name] || schema.description;
  const helpId = help ? `${id}-help` : undefined;
  const attrs = { id, name: `option:${name}`, "data-type": schema.type, "aria-describedby": helpId };
  let control;
  if (schema.type === "boolean") {
    control = h("input", { ...attrs, type: "checkbox", checked: value === true });
    return h("div", { class: "field", "data-option": name },
      h("label", { for: id, class: "check" }, control, words(name)), help ? h("p", { class: "help", id: helpId }, help) : null);
  }
  if (schema.enum) {
    control = h("select", attrs, schema.enum.map((v) => h("option", { value: v, selected: v === value }, CHOICES[name]?.[v] || v)));
  } else if (name.endsWith("_seconds")) {
    // A duration: the number in the unit that reads best, the unit beside it; sent in seconds.
    const [unit, size] = bestUnit(Number(value ?? schema.default ?? 0));
    const amount = h("input", { ...attrs, type: "number", min: 0, step: "any", value: Number(value ?? schema.default ?? 0) / size,
                                "data-unit": size, inputmode: "decimal" });
    const units = h("select", { "aria-label": `${words(name)}: unit`, "data-unit-for": name },
      UNITS.map(([label, s]) => h("option", { value: s, selected: label === unit }, label)));
    units.addEventListener("change", () => { amount.dataset.unit = units.value; });
    control = h("span", { class: "duration" }, amount, units);
    return h("div", { class: "field", "data-option": name },
      h("label", { for: id }, words(name)), control, help ? h("p", { class: "help", id: helpId }, help) : null);
  } else if (name === "reminder_fraction") {
    control = h("input", { ...attrs, type: "number", min: 0, max: Math.round((schema.maximum ?? 1) * 100), step: 1,
                           value: Math.round(Number(value ?? schema.default ?? 0) * 100), "data-percent": "true" });
    return h("div", { class: "field", "data-option": name },
      h("label", { for: id }, words(name)), h("span", { class: "duration" }, control, " %"), help ? h("p", { class: "help", id: helpId }, help) : null);
  } else if (schema.type === "integer" || schema.type === "number") {
    control = h("input", { ...attrs, type: "number", min: schema.minimum, max: schema.maximum, value: value ?? schema.default, step: "any" });
  } else control = h("input", { ...attrs, value: value ?? schema.default ?? "" });
  return h("div", { class: "field", "data-option": name },
    h("label", { for: id }, words(name)), control, help ? h("p", { class: "help", id: helpId }, help) : null);
}

function readOptions(form) {
  const options = {};
  for (const input of form.querySelectorAll("[name^='option:']")) {
    if (input.closest(".field")?.hidden) continue;    // a field the chosen clock does not use
    const name = input.name.slice(7), type = input.dataset.type;
    if (type === "boolean") options[name] = input.checked;
    else if (input.value === "") continue;
    else if (input.dataset.unit) options[name] = Math.round(Number(input.value) * Number(input.dataset.unit));
    else if (input.dataset.percent) options[name] = Number(input.value) / 100;
    else if (type === "integer" || type === "number") options[name] = Number(input.value);
    else options[name] = input.value;
  }
  return options;
}

/** A kind's create form. onError(error) shows a refusal; a created game opens its page. */
export function createForm(kind, onError) {
  const props = kind.options_schema?.properties || {};
  const choices = presets(kind);
  const seats = h("input", { id: `seats-${kind.kind}`, name: "seats", type: "number", min: kind.min_players, max: kind.max_players,
                             value: kind.min_players });
  // `bots` is the server's to fill ("Play the computer" seats them): no field for a person.
  const gameFields = Object.entries(props).filter(([name, schema]) => !CLOCK.has(name) && name !== "bots" && !schema.readOnly).map(([name, schema]) => field(kind.kind, name, schema, schema.default));
  const clockFields = Object.entries(props).filter(([name]) => CLOCK.has(name)).map(([name, schema]) => field(kind.kind, name, schema, schema.default));
  const clockBox = h("div", { class: "clock-fields" }, clockFields);
  const presetName = `preset-${kind.kind}`;
  const radios = choices.map((p, i) => h("label", { class: "preset" },
    h("input", { type: "radio", name: presetName, value: p.id, checked: i === 0 }), p.label));
  const form = h("form", { class: "card create", "data-kind": kind.kind, "aria-label": `New ${kind.title}` },
    h("h3", {}, kind.title),
    h("div", { class: "field" }, h("label", { for: seats.id }, `Players (${kind.min_players} to ${kind.max_players})`), seats),
    h("fieldset", { class: "presets" }, h("legend", {}, "How fast?"), radios),
    gameFields.length ? h("fieldset", { class: "game-options" }, h("legend", {}, "Game options"), gameFields) : null,
    h("fieldset", { class: "clock-options" }, h("legend", {}, "Clock"), clockBox),
    privacyFields(),
    h("button", { type: "submit", class: "primary" }, `Create a ${kind.title} game`),
    playComputer(kind, seats, () => readOptions(form), onError));
  const set = (name, value) => {
    const input = form.querySelector(`[name='option:${name}']`);
    if (!input) return;
    if (input.dataset.unit) {
      const [, size] = bestUnit(Number(value));
      input.dataset.unit = size; input.value = Number(value) / size;
      form.querySelector(`[data-unit-for='${name}']`).value = String(size);
    } else input.value = value;
  };
  // Only what the chosen clock uses; a preset fills its values and shows only the clock choice.
  const show = () => {
    const preset = choices.find((p) => p.id === form.querySelector(`[name=${presetName}]:checked`)?.value) || choices[0];
    for (const [name, value] of Object.entries(preset.options)) set(name, value);
    const control = form.querySelector("[name='option:time_control']")?.value || "none";
    for (const box of clockBox.children) {
      const name = box.dataset.option;
      box.hidden = name !== "time_control" && !(CLOCK_FIELDS[control] || []).includes(name);
    }
    form.querySelector(".clock-options").hidden = preset.id !== "custom";
  };
  form.addEventListener("change", (e) => {
    if (e.target.name === presetName) show();
    else if (e.target.name === "option:time_control") {
      form.querySelector(`[name=${presetName}][value=custom]`).checked = true;
      show();
    }
  });
  show();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const game = await post("/games/", { kind: kind.kind, seats: Number(seats.value), options: readOptions(form), ...readPrivacy(form) });
      location.hash = `#/games/${game.id}`;
    } catch (error) { onError(error); }
  });
  return form;
}

// "Play the computer": the other seats filled with bots of the chosen level, with the options and
// clock chosen above; the game starts at once (docs/bots.md).
function playComputer(kind, seats, options, onError) {
  const id = `bot-level-${kind.kind}`;
  const level = h("select", { id, name: "bot-level" },
    [[1, "1 (random)"], [2, "2 (greedy)"], [3, "3 (searching)"]].map(([v, t]) => h("option", { value: v, selected: v === 2 }, t)));
  const play = async () => {
    try {
      const n = Number(seats.value);
      const game = await post("/games/", { kind: kind.kind, seats: n, options: options(),
                                           bots: Array(n - 1).fill(Number(level.value)) });
      location.hash = `#/games/${game.id}`;
    } catch (error) { onError(error); }
  };
  return h("div", { class: "field play-computer" }, h("label", { for: id }, "Computer level"), level,
    h("button", { type: "button", class: "play-computer", onclick: play }, "Play the computer"));
}
