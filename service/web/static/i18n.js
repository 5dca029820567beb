// English, Czech and Russian: i18n/<lang>.json (the same keys in each; a test checks it). The language
// comes from the browser (navigator.languages) unless the switch chose one ("meow:lang").
import { getLang, setLang } from "./store.js";

export const LANGS = ["en", "cs", "ru"];
let dict = {};
let fallback = {};
let current = "en";

export function pickLang() {
  const saved = getLang();
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

const loaded = new Map(); // each language's words, fetched once
let asked = 0;

async function load(lang) {
  if (!loaded.has(lang)) {
    const r = await fetch(`/web/i18n/${lang}.json`);
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    loaded.set(lang, await r.json());
  }
  return loaded.get(lang);
}

// Switch to `lang` once its words are here: true if it is now the page's language. The latest
// switch wins (an earlier one answered late changes nothing), and a language whose words cannot
// be fetched leaves the page in the one it shows.
export async function useLang(lang, save = false) {
  const want = LANGS.includes(lang) ? lang : "en";
  const mine = ++asked;
  let words, english;
  try {
    [words, english] = await Promise.all([load(want), load("en")]);
  } catch {
    return false;
  }
  if (mine !== asked) return false;
  [current, dict, fallback] = [want, words, english];
  if (save) setLang(current);
  document.documentElement.lang = current;
  return true;
}

export function lang() { return current; }

// tn(key, n, vars, otherwise): the plural form of `key` for the count n in the page's language
// ("<key>.one", ".few", ".many" or ".other", by Intl.PluralRules), with {n} and vars filled in.
export function tn(key, n, vars = {}, otherwise) {
  let form = "other";
  try { form = new Intl.PluralRules(current).select(Number(n)); } catch { /* an engine without plural rules */ }
  const k = (dict[`${key}.${form}`] ?? fallback[`${key}.${form}`]) !== undefined ? `${key}.${form}` : `${key}.other`;
  return t(k, { n, ...vars }, otherwise);
}

// t(key, {var: 1}, otherwise): {var} placeholders are replaced.
export function t(key, vars = {}, otherwise) {
  let s = dict[key] ?? fallback[key] ?? otherwise ?? key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(String(v));
  return s;
}
