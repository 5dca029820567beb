// The create form's options, generated from GET /v1/variants: one input per option of the chosen
// variant, of its type, with its default and range; an option whose parent is off is hidden. Only
// the options that differ from the preset's defaults are sent.
import { h, humanize } from "./dom.js";
import { t } from "./i18n.js";

const SCALAR = new Set(["int", "float", "bool", "enum", "rank", "string", "int_or_null", "ranks"]);
export const TOP_LEVEL = new Set(["min_players", "max_players"]); // the form's own "players" field

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

function inputFor(opt, id) {
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
      return h("select", { id }, (opt.enum || opt.range).map((x) => h("option", { value: x, selected: x === opt.default }, humanize(x))));
    case "string":
      return h("input", { type: "text", id, minlength: lo, maxlength: hi, value: opt.default, required: true });
    case "ranks":
      return h("fieldset", { id, class: "ranks" }, h("legend", { class: "sr-only" }, humanize(opt.name)),
        opt.range.map((r) => h("label", {}, h("input", { type: "checkbox", value: r, checked: opt.default.includes(r) }), r)));
    default: // structured values (points, delays, names, …) as JSON
      return h("textarea", { id, rows: 2, spellcheck: "false" }, JSON.stringify(opt.default));
  }
}

function valueOf(opt, el) {
  switch (opt.type) {
    case "bool": return el.checked;
    case "int": return el.value === "" ? opt.default : Math.trunc(Number(el.value));
    case "int_or_null": return el.value === "" ? null : Math.trunc(Number(el.value));
    case "float": return Number(el.value);
    case "enum": case "rank": case "string": return el.value;
    case "ranks": return [...el.querySelectorAll("input:checked")].map((x) => x.value);
    default:
      try { return JSON.parse(el.value); } catch { throw new Error(t("form.bad_json", { name: humanize(opt.name) })); }
  }
}

export class OptionsForm {
  constructor(variant) {
    this.variant = variant;
    this.rows = new Map();
    this.el = h("div", { class: "options-grid", "data-testid": "options" });
    for (const opt of variant.options) {
      if (TOP_LEVEL.has(opt.name)) continue;
      const id = `opt-${opt.name}`;
      const input = inputFor(opt, id);
      input.dataset.option = opt.name;
      input.addEventListener("change", () => this.sync());
      const range = Array.isArray(opt.range) && opt.range.length === 2 && typeof opt.range[0] === "number"
        ? t("form.range", { lo: opt.range[0], hi: opt.range[1] }) : "";
      const label = h("label", { for: id, title: opt.name }, humanize(opt.name), range ? h("small", {}, ` (${range})`) : null);
      const row = h("div", { class: `option${SCALAR.has(opt.type) ? "" : " wide"}`, "data-option-row": opt.name },
        opt.type === "bool" ? [input, label] : [label, input]);
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
      if (input.reportValidity && !input.reportValidity()) throw new Error(t("form.invalid", { name: humanize(opt.name) }));
      const value = valueOf(opt, input);
      if (!same(value, opt.default)) out[opt.name] = value;
    }
    return out;
  }
}
