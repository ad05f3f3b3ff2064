// The create form, for people: a preset for the clock ("Real-time: 90 s hourglass",
// "Correspondence: 3 days a move"...), each option with a label and help in words, durations in
// human units, and only the fields the chosen clock uses. The options and their bounds come from
// the kind's JSON schema (GET /kinds/), so a new option shows up without a change here.
import { post } from "./api.js";
import { h, fill } from "./svg.js";
import { privacyFields, readPrivacy } from "./social.js";
import { t, formatNumber } from "./i18n.js";

const CLOCK_FIELDS = {
  none: [],
  per_move: ["move_seconds", "timeout_policy", "reminder_fraction"],
  bank: ["bank_initial_seconds", "bank_increment_seconds", "bank_max_seconds", "timeout_policy", "reminder_fraction"],
};
const CLOCK = new Set(["time_control", ...Object.values(CLOCK_FIELDS).flat()]);

// An option's label, help and choices are the catalog's `option.<name>`, `option.<name>.help` and
// `option.<name>.<value>`, in a player's words (the schema's descriptions are for developers); an
// option the catalog does not know yet shows the schema's own.
const said = (id) => { const words = t(id); return words === id ? null : words; };

const DAY = 86400, HOUR = 3600, MINUTE = 60;
const UNITS = [["days", DAY], ["hours", HOUR], ["minutes", MINUTE], ["seconds", 1]];

/** The presets of a kind: the clock it is usually played with, in words. */
export function presets(kind) {
  const props = kind.options_schema?.properties || {};
  const list = [];
  if (props.hourglass_seconds) list.push({ id: "realtime", label: t("preset.realtime"), options: { time_control: "none", hourglass_seconds: 90 } });
  list.push({ id: "correspondence", label: t("preset.correspondence"), options: { time_control: "per_move", move_seconds: 3 * DAY } });
  list.push({ id: "blitz", label: t("preset.blitz"), options: { time_control: "per_move", move_seconds: DAY } });
  if (!props.hourglass_seconds) list.push({ id: "live", label: t("preset.live"), options: { time_control: "per_move", move_seconds: 5 * MINUTE } });
  list.push({ id: "custom", label: t("preset.custom"), options: {} });
  return list.filter((p) => Object.keys(p.options).every((name) => props[name]));
}

const words = (name) => said(`option.${name}`) || name.replace(/_seconds$/, "").replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

function bestUnit(seconds) {
  return UNITS.find(([, size]) => seconds % size === 0 && seconds >= size) || ["seconds", 1];
}

function field(kindName, name, schema, value) {
  const id = `opt-${kindName}-${name}`;
  const help = said(`option.${name}.help`) || schema.description;
  const helpId = help ? `${id}-help` : undefined;
  const attrs = { id, name: `option:${name}`, "data-type": schema.type, "aria-describedby": helpId };
  let control;
  if (schema.type === "boolean") {
    control = h("input", { ...attrs, type: "checkbox", checked: value === true });
    return h("div", { class: "field", "data-option": name },
      h("label", { for: id, class: "check" }, control, words(name)), help ? h("p", { class: "help", id: helpId }, help) : null);
  }
  if (schema.enum) {
    control = h("select", attrs, schema.enum.map((v) => h("option", { value: v, selected: v === value }, said(`option.${name}.${v}`) || v)));
  } else if (name.endsWith("_seconds")) {
    // A duration: the number in the unit that reads best, the unit beside it; sent in seconds.
    const [unit, size] = bestUnit(Number(value ?? schema.default ?? 0));
    const amount = h("input", { ...attrs, type: "number", min: 0, step: "any", value: Number(value ?? schema.default ?? 0) / size,
                                "data-unit": size, inputmode: "decimal" });
    // The schema's bounds, in the unit shown: checked (and said beside the field) before sending.
    const bound = (unitSize) => {
      amount.min = schema.minimum !== undefined ? schema.minimum / unitSize : 0;
      if (schema.maximum !== undefined) amount.max = schema.maximum / unitSize;
    };
    bound(size);
    const units = h("select", { "aria-label": t("create.unit_of", { name: words(name) }), "data-unit-for": name },
      UNITS.map(([label, s]) => h("option", { value: s, selected: label === unit }, t(`create.units_${label}`))));
    units.addEventListener("change", () => { amount.dataset.unit = units.value; bound(Number(units.value)); });
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

// ------------------------------------------------------------------ validation beside the field
const UNIT_WORDS = { [DAY]: "day", [HOUR]: "hour", [MINUTE]: "minute", 1: "second" };

/** What is wrong with one input, in words, or "" (the browser's own checks, worded by us). */
function problem(input) {
  const v = input.validity;
  if (v.valid) return "";
  if (v.valueMissing || v.badInput) return t("create.need_number");
  const unit = Number(input.dataset.unit || 1);
  const amount = (bound) => {
    const n = Number(bound);
    return input.dataset.unit ? t(`create.unit_${UNIT_WORDS[unit] || "second"}`, { count: n }) : input.dataset.percent ? formatNumber(n / 100, { style: "percent" }) : formatNumber(n);
  };
  if (v.rangeUnderflow) return t("create.at_least", { amount: amount(input.min) });
  if (v.rangeOverflow) return t("create.at_most", { amount: amount(input.max) });
  if (v.stepMismatch) return t("create.whole_number");
  return t("create.check_field");
}

function showProblem(form, input, words) {
  const box = input.closest(".field") || input.parentElement;
  const key = input.id || input.name;
  let note = [...box.querySelectorAll(".field-error")].find((n) => n.dataset.for === key);
  if (!words) {
    if (note) {
      const rest = (input.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== note.id);
      if (rest.length) input.setAttribute("aria-describedby", rest.join(" ")); else input.removeAttribute("aria-describedby");
      note.remove();
    }
    input.removeAttribute("aria-invalid");
    return;
  }
  if (!note) {
    note = h("p", { class: "field-error", id: `${key}-error`, "data-for": key });
    box.append(note);
  }
  fill(note, words);
  input.setAttribute("aria-invalid", "true");
  const described = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
  if (!described.includes(note.id)) input.setAttribute("aria-describedby", [...described, note.id].join(" "));
}

/** Checks every shown field: each problem is said beside its field; the first gets focus. */
function checked(form) {
  let first = null;
  for (const input of form.querySelectorAll("input[name], select[name]")) {   // a unit's select has none
    if (input.closest("[hidden]")) continue;
    const words = problem(input);
    showProblem(form, input, words);
    if (words && !first) first = input;
  }
  if (first) first.focus();
  return !first;
}

/** A refusal that names an option ("options.move_seconds: ..."): said beside that field, in the
 * form's words; anything else goes to onError. */
function placeError(form, kind, error, onError) {
  const name = /^options\.(\w+)/.exec(error?.message || "")?.[1] || (error?.body?.fields && Object.keys(error.body.fields)[0]);
  const input = name && form.querySelector(`[name='option:${name}'], [name='${name}']`);
  if (!input || input.closest("[hidden]")) { onError(error); return; }
  const schema = kind.options_schema?.properties?.[name] || {};
  if (schema.minimum !== undefined) input.min = input.dataset.unit ? schema.minimum / Number(input.dataset.unit) : schema.minimum;
  if (schema.maximum !== undefined) input.max = input.dataset.unit ? schema.maximum / Number(input.dataset.unit) : schema.maximum;
  showProblem(form, input, problem(input) || t("create.check_field"));
  input.focus();
}

// ------------------------------------------------------------------ one-click games
/** A game against the computer with the kind's usual clock: the fewest seats it is played with,
 * the others bots of `level` (2: greedy, a fair first opponent). It starts at once. */
export async function playComputer(kind, level = 2) {
  const seats = Math.max(2, kind.min_players);
  return post("/games/", { kind: kind.kind, seats, options: presets(kind)[0]?.options || {}, bots: Array(seats - 1).fill(level) });
}

/** A private game for friends with the kind's usual clock: it starts itself when the friends
 * have taken their seats (by the link its page shows). */
export async function playFriend(kind) {
  const seats = Math.max(2, kind.min_players);
  return post("/games/", { kind: kind.kind, seats, options: presets(kind)[0]?.options || {}, private: true, auto_start: true });
}

const SERVER_SET = new Set(["bots", "tournament", "ladder"]);

/** A kind's create form. onError(error) shows a refusal; a created game opens its page. */
export function createForm(kind, onError) {
  const props = kind.options_schema?.properties || {};
  const choices = presets(kind);
  const seats = h("input", { id: `seats-${kind.kind}`, name: "seats", type: "number", min: kind.min_players, max: kind.max_players,
                             value: kind.min_players });
  // `bots`, `tournament` and `ladder` are the server's to fill ("Play the computer" seats bots, a
  // tournament or a ladder's challenge makes its own games): no field for a person.
  const gameFields = Object.entries(props).filter(([name, schema]) => !CLOCK.has(name) && !SERVER_SET.has(name) && !schema.readOnly).map(([name, schema]) => field(kind.kind, name, schema, schema.default));
  const clockFields = Object.entries(props).filter(([name]) => CLOCK.has(name)).map(([name, schema]) => field(kind.kind, name, schema, schema.default));
  const clockBox = h("div", { class: "clock-fields" }, clockFields);
  const presetName = `preset-${kind.kind}`;
  const radios = choices.map((p, i) => h("label", { class: "preset" },
    h("input", { type: "radio", name: presetName, value: p.id, checked: i === 0 }), p.label));
  const form = h("form", { class: "card create", "data-kind": kind.kind, "aria-label": t("create.new", { title: kind.title }) },
    h("h3", { translate: "no" }, kind.title),
    h("div", { class: "field" }, h("label", { for: seats.id }, t("create.players", { min: kind.min_players, max: kind.max_players })), seats),
    h("fieldset", { class: "presets" }, h("legend", {}, t("create.how_fast")), radios),
    gameFields.length ? h("fieldset", { class: "game-options" }, h("legend", {}, t("create.game_options")), gameFields) : null,
    h("fieldset", { class: "clock-options" }, h("legend", {}, t("option.time_control")), clockBox),
    privacyFields(),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "auto_start", checked: true }), t("create.auto_start")),
    h("button", { type: "submit", class: "primary" }, t("create.submit", { title: kind.title })),
    computerField(kind, () => form, seats, () => readOptions(form), onError));
  form.noValidate = true;   // the form says what is wrong beside each field, in its own words
  form.addEventListener("input", (e) => { if (e.target.getAttribute("aria-invalid")) showProblem(form, e.target, problem(e.target)); });
  const set = (name, value) => {
    const input = form.querySelector(`[name='option:${name}']`);
    if (!input) return;
    if (input.dataset.unit) {
      const [, size] = bestUnit(Number(value));
      input.dataset.unit = size; input.value = Number(value) / size;
      const units = form.querySelector(`[data-unit-for='${name}']`);
      units.value = String(size);
      units.dispatchEvent(new Event("change"));   // the bounds follow the unit
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
    if (!checked(form)) return;
    try {
      const game = await post("/games/", { kind: kind.kind, seats: Number(seats.value), options: readOptions(form), ...readPrivacy(form),
                                           auto_start: form.querySelector("[name=auto_start]").checked });
      location.hash = `#/games/${game.id}`;
    } catch (error) { placeError(form, kind, error, onError); }
  });
  return form;
}

// "Play the computer" with these options: the other seats filled with bots of the chosen level,
// with the options and clock chosen above; the game starts at once (docs/bots.md).
function computerField(kind, formOf, seats, options, onError) {
  const id = `bot-level-${kind.kind}`;
  const level = h("select", { id, name: "bot-level" },
    [1, 2, 3].map((v) => h("option", { value: v, selected: v === 2 }, t(`create.bot_level_${v}`))));
  const play = async () => {
    const form = formOf();   // the form this field is built into
    if (!checked(form)) return;
    try {
      const n = Number(seats.value);
      const game = await post("/games/", { kind: kind.kind, seats: n, options: options(),
                                           bots: Array(n - 1).fill(Number(level.value)) });
      location.hash = `#/games/${game.id}`;
    } catch (error) { placeError(form, kind, error, onError); }
  };
  return h("div", { class: "field play-computer" }, h("label", { for: id }, t("create.bot_level")), level,
    h("button", { type: "button", class: "play-computer", onclick: play }, t("create.computer_with_options")));
}
