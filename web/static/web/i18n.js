// Every string a player reads comes from a catalog: `t("lobby.play_computer")`, or with values,
// `t("game.points", { count: 3 })`. A catalog (./i18n/<language>.js) maps a message id to either
// a text with {name} placeholders or, where a number changes the wording, an object of the
// language's plural categories ({ one, other } in English and German; French adds `many`;
// Intl.PluralRules picks the category from `count`, `other` standing in for a category the
// catalog leaves out). An id ending in `_ordinal` is chosen by the ordinal rules instead (1st,
// 2nd, 3rd: { one, two, few, other } in English). A message missing from a language falls back
// to English, then to its id, so a forgotten string shows up as an id rather than silently as
// English. English is loaded with the page; another language's catalog when it is chosen.
//
// Dates, times, numbers, lists and spans of time go through Intl in the chosen language and the
// browser's time zone (the player's own): `formatDateTime`, `formatNumber`, `formatList`...
import en from "./i18n/en.js";

const STORE = "darkroom.language";
const LOADERS = {
  en: async () => en,
  fr: async () => (await import("./i18n/fr.js")).default,
  de: async () => (await import("./i18n/de.js")).default,
  // The pseudo-locale: English made longer and accented, for testing (never in the menu). A
  // string left out of the catalogs shows as plain English among accented words; a layout that
  // cannot take a longer language overflows.
  "en-XA": async () => pseudo(en),
};
/** The languages a player may choose, each named in its own language. */
export const LANGUAGES = { en: "English", fr: "Français", de: "Deutsch" };
export const AVAILABLE = Object.keys(LANGUAGES);

const loaded = { en };
let language = "en";
let catalog = en;
let plurals = new Intl.PluralRules("en");
let ordinals = new Intl.PluralRules("en", { type: "ordinal" });

/** The language to start in: the player's choice on this device, else the browser's first
 * language we have, else English. */
export function preferredLanguage() {
  const chosen = localStorage.getItem(STORE);
  if (chosen && LOADERS[chosen]) return chosen;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (AVAILABLE.includes(base)) return base;
  }
  return "en";
}

/** The language chosen on this device from the menu, or null (the browser's own then). */
export function chosenLanguage() {
  const chosen = localStorage.getItem(STORE);
  return chosen && LANGUAGES[chosen] ? chosen : null;
}

/** Remember `code` on this device (it is used on the next visit before the server is asked). */
export function rememberLanguage(code) {
  if (LOADERS[code]) localStorage.setItem(STORE, code);
}

/** Switch to `code`, loading its catalog once; an unknown code keeps English. */
export async function useLanguage(code) {
  if (!LOADERS[code]) code = "en";
  // A catalog that cannot be fetched (offline, before the shell cached it) leaves the page in
  // English rather than blank.
  if (!loaded[code]) loaded[code] = await LOADERS[code]().catch(() => null);
  if (!loaded[code]) { delete loaded[code]; code = "en"; }
  language = code;
  catalog = loaded[code];
  plurals = new Intl.PluralRules(code);
  ordinals = new Intl.PluralRules(code, { type: "ordinal" });
  document.documentElement.lang = code;
  return code;
}

export const currentLanguage = () => language;

function lookup(id) {
  return catalog[id] ?? en[id] ?? id;
}

/** The message `id` in the current language, its {placeholders} filled from `vars`. */
export function t(id, vars = {}) {
  let text = lookup(id);
  if (typeof text === "object") {
    const n = Number(vars.count ?? 0);
    text = text[(id.endsWith("_ordinal") ? ordinals : plurals).select(n)] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? format(vars[name]) : whole));
}

function format(value) {
  return typeof value === "number" ? formatNumber(value) : String(value);
}

/** A number as the player's language writes it (1,234.5 / 1 234,5 / 1.234,5). */
export const formatNumber = (n, options = {}) => new Intl.NumberFormat(language, options).format(n);

/** A rating or such, with one decimal; `signed` adds + to a gain. */
export const formatDecimal = (n, signed = false) =>
  formatNumber(n, { minimumFractionDigits: 1, maximumFractionDigits: 1, ...(signed ? { signDisplay: "exceptZero" } : {}) });

const stamp = (value) => (value instanceof Date ? value : new Date(value));

/** A moment, date and time, in the player's language and time zone. */
export const formatDateTime = (value) =>
  new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(stamp(value));

/** A day, in the player's language and time zone. */
export const formatDate = (value) => new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(stamp(value));

/** "ann, ben and cat" / "ann, ben et cat" / "ann, ben und cat". */
export const formatList = (items) => new Intl.ListFormat(language, { type: "conjunction" }).format(items.map(String));

/** "3 days ago", "in 2 hours", "yesterday", in the player's language. */
export function formatAgo(ms) {
  const seconds = (ms - Date.now()) / 1000;
  const words = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (Math.abs(seconds) >= size) return words.format(Math.round(seconds / size), unit);
  }
  return t("time.just_now");
}

// ---------------------------------------------------------------- the pseudo-locale -------------
const ACCENTS = {
  a: "á", b: "ƀ", c: "ç", d: "ð", e: "é", f: "ƒ", g: "ĝ", h: "ĥ", i: "î", j: "ĵ", k: "ķ", l: "ļ", m: "ɱ",
  n: "ñ", o: "ö", p: "þ", q: "ǫ", r: "ŕ", s: "š", t: "ţ", u: "û", v: "ṽ", w: "ŵ", x: "ẋ", y: "ý", z: "ž",
  A: "Å", B: "Ɓ", C: "Ç", D: "Ð", E: "É", F: "Ƒ", G: "Ĝ", H: "Ĥ", I: "Î", J: "Ĵ", K: "Ķ", L: "Ļ", M: "Ṁ",
  N: "Ñ", O: "Ö", P: "Þ", Q: "Ǫ", R: "Ŕ", S: "Š", T: "Ţ", U: "Û", V: "Ṽ", W: "Ŵ", X: "Ẋ", Y: "Ý", Z: "Ž",
};
/** The characters the pseudo-locale writes letters as: a test finds text without them. */
export const PSEUDO_LETTERS = Object.values(ACCENTS).join("");

/** English text as the pseudo-locale writes it (the rules pages use it too). */
export function pseudoText(text) {
  // Placeholders stay as they are; the words around them are accented and 40 % longer, the
  // padding in short words so a line can still wrap where a real language's would.
  const words = text.split(/(\{\w+\})/).map((part) => (/^\{\w+\}$/.test(part) ? part : part.replace(/[A-Za-z]/g, (c) => ACCENTS[c])));
  const letters = text.replace(/\{\w+\}/g, "").replace(/[^A-Za-z]/g, "").length;
  if (!letters) return words.join("");
  const pad = Math.ceil(letters * 0.4);
  const filler = [];
  for (let left = pad; left > 0; left -= 5) filler.push("ẋ".repeat(Math.min(5, left)));
  return `${words.join("")} ${filler.join(" ")}`;
}

function pseudo(source) {
  const out = {};
  for (const [id, text] of Object.entries(source)) {
    out[id] = typeof text === "object"
      ? Object.fromEntries(Object.entries(text).map(([k, v]) => [k, pseudoText(v)])) : pseudoText(text);
  }
  return out;
}
