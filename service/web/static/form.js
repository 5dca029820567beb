// The create form's options, generated from GET /v1/variants: one input per option of the chosen
// variant, of its type, with its default and range, labelled and explained by the game's words
// (`option.<name>`, `option.<name>.help`, `option.<name>.<value>`; the name itself when it has
// none); an option whose parent is off is hidden. Only the options that differ from the preset's
// defaults are sent.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SCALAR = new Set(["int", "float", "bool", "enum", "rank", "string", "int_or_null", "ranks"]);
export const TOP_LEVEL = new Set(["min_players", "max_players"]); // the form's own "players" field

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

function inputFor(game, opt, id) {
  const [lo, hi] = Array.isArray(opt.range) && opt.range.length === 2 ? opt.range : [undefined, undefined];
  switch (opt.type) {
    case "bool":
      return h("input", { type: "checkbox", id, checked: opt.default });
    case "int":
    case "int_or_null":
      return h("input", { type: "number", id, step: 1, min: lo, max: hi, value: opt.default ?? "",
        placeholder: opt.nullable ? t("form.none") : null, required: !opt.nullable });
    case "float":
      return h("input", { type: "number", id, step: "any", min: lo, max: hi, value: opt.default, required: true });
    case "enum":
    case "rank":
      return h("select", { id }, (opt.enum || opt.range).map((x) => h("option", { value: x, selected: x === opt.default },
        game.optionValue(opt.name, x))));
    case "string":
      return h("input", { type: "text", id, minlength: lo, maxlength: hi, value: opt.default, required: true });
    case "ranks":
      return h("fieldset", { id, class: "ranks" }, h("legend", { class: "sr-only" }, game.optionLabel(opt.name)),
        opt.range.map((r) => h("label", {}, h("input", { type: "checkbox", value: r, checked: opt.default.includes(r) }), r)));
    default:
      return structured(game, opt, id, lo, hi);
  }
}

// A structured value, drawn by the shape of its default (never as JSON text): a map of numbers is
// one number input per key, a map of lists one row of inputs per key, a list one input per item.
function structured(game, opt, id, lo, hi) {
  const keyLabel = (k) => (game.has(`label.${k}`) ? game.words[`label.${k}`] : t(`strength.${k}`, {}, String(k)));
  const num = (value, label, path) => h("input", { type: "number", step: 1, min: typeof lo === "number" ? lo : null,
    max: typeof hi === "number" ? hi : null, value, required: true, "aria-label": label, "data-path": path });
  const text = (value, label, path) => h("input", { type: "text", value, required: true, "aria-label": label, "data-path": path, size: 8 });
  const item = (value, label, path) => (typeof value === "number" ? num(value, label, path) : text(value, label, path));
  const name = game.optionLabel(opt.name);
  const d = opt.default;
  let cells;
  if (Array.isArray(d)) {
    cells = d.map((x, i) => item(x, `${name} ${i + 1}`, JSON.stringify([i])));
  } else {
    cells = Object.entries(d || {}).map(([k, x]) => h("span", { class: "cell" }, h("span", { class: "cell-key", "aria-hidden": "true" }, keyLabel(k)),
      Array.isArray(x) ? x.map((y, i) => item(y, `${name}: ${keyLabel(k)} ${i + 1}`, JSON.stringify([k, i])))
        : item(x, `${name}: ${keyLabel(k)}`, JSON.stringify([k]))));
  }
  return h("fieldset", { id, class: "structured" }, h("legend", { class: "sr-only" }, name), cells);
}

function readStructured(opt, el) {
  const out = JSON.parse(JSON.stringify(opt.default));
  for (const input of el.querySelectorAll("input[data-path]")) {
    const path = JSON.parse(input.dataset.path);
    let x = out;
    for (const p of path.slice(0, -1)) x = x[p];
    const last = path[path.length - 1];
    x[last] = typeof x[last] === "number" ? Number(input.value) : input.value;
  }
  return out;
}

function valueOf(opt, el) {
  switch (opt.type) {
    case "bool": return el.checked;
    case "int": return el.value === "" ? opt.default : Math.trunc(Number(el.value));
    case "int_or_null": return el.value === "" ? null : Math.trunc(Number(el.value));
    case "float": return Number(el.value);
    case "enum": case "rank": case "string": return el.value;
    case "ranks": return [...el.querySelectorAll("input:checked")].map((x) => x.value);
    default: return readStructured(opt, el);
  }
}

function valid(el) {
  const inputs = el.matches("input, select") ? [el] : [...el.querySelectorAll("input")];
  return inputs.every((x) => !x.reportValidity || x.reportValidity());
}

export class OptionsForm {
  constructor(variant, game) {
    this.variant = variant;
    this.game = game;
    this.rows = new Map();
    this.el = h("div", { class: "options-grid", "data-testid": "options" });
    for (const opt of variant.options) {
      if (TOP_LEVEL.has(opt.name)) continue;
      const id = `opt-${opt.name}`;
      const input = inputFor(game, opt, id);
      input.dataset.option = opt.name;
      input.addEventListener("change", () => this.sync());
      const range = Array.isArray(opt.range) && opt.range.length === 2 && typeof opt.range[0] === "number"
        ? t("form.range", { lo: opt.range[0], hi: opt.range[1] }) : "";
      const help = game.optionHelp(opt.name);
      const label = h(SCALAR.has(opt.type) && opt.type !== "ranks" ? "label" : "span", { for: SCALAR.has(opt.type) && opt.type !== "ranks" ? id : null,
        id: `${id}-label`, class: "option-label" }, game.optionLabel(opt.name), range ? h("small", {}, ` (${range})`) : null);
      if (!SCALAR.has(opt.type) || opt.type === "ranks") input.setAttribute("aria-labelledby", `${id}-label`);
      if (help) input.setAttribute("aria-describedby", `${id}-help`);
      const row = h("div", { class: `option${SCALAR.has(opt.type) && opt.type !== "ranks" ? "" : " wide"}${opt.type === "bool" ? " flag" : ""}`,
        "data-option-row": opt.name },
      h("div", { class: "option-input" }, opt.type === "bool" ? [input, label] : [label, input]),
      help ? h("small", { class: "option-help", id: `${id}-help` }, help) : null);
      this.rows.set(opt.name, { opt, input, row });
      this.el.append(row);
    }
    this.sync();
  }

  current(name) {
    const r = this.rows.get(name);
    return r ? valueOf(r.opt, r.input) : undefined;
  }

  sync() {
    for (const { opt, row } of this.rows.values()) {
      let shown = true;
      if (opt.parent) {
        try { shown = same(this.current(opt.parent.option), opt.parent.value); } catch { shown = true; }
      }
      row.hidden = !shown;
    }
  }

  // The options that differ from the defaults (and whose parent is on).
  changed() {
    const out = {};
    for (const { opt, input, row } of this.rows.values()) {
      if (row.hidden) continue;
      if (!valid(input)) throw new Error(t("form.invalid", { name: this.game.optionLabel(opt.name) }));
      const value = valueOf(opt, input);
      if (!same(value, opt.default)) out[opt.name] = value;
    }
    return out;
  }
}
