// A game as its catalogue entry describes it (GET /v1/variants, docs/clients.md): the faces of its
// cards, its suits, the marks on its view's fields and actions, its words in the page's language
// and the event that ends a match. The page knows no game: everything it says about one comes here.
import { humanize } from "./dom.js";
import { lang, t } from "./i18n.js";

const PLACEHOLDER = /\{([A-Za-z0-9_.]+)(?::([A-Za-z0-9_]+))?\}/g;

function at(thing, path) {
  let x = thing;
  for (const part of path.split(".")) {
    if (x === null || x === undefined || typeof x !== "object") return undefined;
    x = x[part];
  }
  return x;
}

export class Game {
  constructor(entry) {
    this.entry = entry || {};
    const words = this.entry.words || {};
    this.words = words[lang()] || words.en || {};
    this.faces = new Map((this.entry.cards || []).map((c) => [c.id, c]));
    this.suits = new Map((this.entry.suits || []).map((s) => [s.id, s]));
    const marks = this.entry.marks || {}; // docs/clients.md: the marks of the view's fields, `own` for `you`'s
    this.marks = { ...marks, you: marks.own || {} };
    this.endEvent = this.entry.end_event || null;
    this.view = null; // the view being drawn: names of seats, the table's options
  }

  // ---- words ----
  has(key) { return typeof this.words[key] === "string"; }

  // The words of `key` told about `thing` (an event's data, an action, a note), else `otherwise`; a
  // placeholder with no kind reads its value by `readAs[path]` (a field's mark), if given.
  tell(key, thing = {}, otherwise = undefined, readAs = {}) {
    const text = this.words[key];
    if (typeof text !== "string") return otherwise === undefined ? humanize(key.split(".").pop()) : otherwise;
    return text.replace(PLACEHOLDER, (_, path, kind) => {
      const value = path.startsWith("options.") ? at(this.view && this.view.options, path.slice(8)) : at(thing, path);
      return value === undefined || value === null ? "\u2014" : this.read(value, kind || readAs[path]);
    });
  }

  // One value read by its kind (docs/clients.md): a seat's name, a card's or suit's spoken name, a word.
  read(value, kind) {
    if (value === null || value === undefined) return "\u2014";
    switch (kind || "") {
      case "seat": return this.seatName(value);
      case "seats": case "order": return [].concat(value).map((s) => this.seatName(s)).join(", ");
      case "card": return this.cardName(value);
      case "cards": return [].concat(value).map((c) => this.cardName(c)).join(", ");
      case "suit": return this.suitSpoken(value);
      case "bool": return this.yesNo(value);
      case "": case "int": case "text": case "ms":
        return typeof value === "boolean" ? this.yesNo(value) : typeof value === "object" ? JSON.stringify(value) : String(value);
      case "object": return JSON.stringify(value);
      default:
        if (typeof value === "object") return JSON.stringify(value);
        return this.has(`${kind}.${value}`) ? this.words[`${kind}.${value}`] : String(value);
    }
  }

  // A field's value: a `word` field reads as words["<name>.<value>"], a list item by item.
  readField(name, value, kind) {
    if (kind === "word" && Array.isArray(value)) return value.map((x) => this.readField(name, x, kind)).join(", ");
    if (kind === "word") return this.has(`${name}.${value}`) ? this.words[`${name}.${value}`] : String(value);
    if (Array.isArray(value) && !["seats", "order", "cards"].includes(kind)) return value.map((x) => this.read(x, kind)).join(", ");
    return this.read(value, kind);
  }

  yesNo(value) {
    const key = value ? "yes" : "no";
    return this.has(key) ? this.words[key] : t(key);
  }

  seatName(seat) {
    const s = this.view && (this.view.seats || []).find((x) => x.seat === Number(seat));
    return s ? s.name : t("seat.n", { n: seat });
  }

  // ---- cards and suits ----
  // The face of a card id: its own, else its id's with the last ":part" dropped, and so on.
  face(id) {
    let key = String(id);
    for (;;) {
      const f = this.faces.get(key);
      if (f) return { ...f, label: f.label ?? (String(id).slice(key.length + 1).split(":").join(" ") || null) };
      const cut = key.lastIndexOf(":");
      if (cut < 0) return { id, label: String(id), suit: null, symbol: null, colour: null, name: null, unknown: true };
      key = key.slice(0, cut);
    }
  }

  cardName(id) {
    const f = this.face(id);
    if (!f.name || !this.has(f.name)) return f.label || String(id);
    const label = f.label === null ? "" : this.has(`label.${f.label}`) ? this.words[`label.${f.label}`] : f.label;
    return this.tell(f.name, { label, suit: f.suit ? this.suitName(f.suit) : "" });
  }

  suit(id) { return this.suits.get(id) || { id, symbol: "", colour: null }; }
  suitName(id) { return this.has(`suit.${id}`) ? this.words[`suit.${id}`] : String(id); }
  suitText(id) { const s = this.suit(id); return s.symbol ? `${s.symbol} ${id}` : String(id); } // symbol and id: never colour alone
  suitSpoken(id) { return `${this.suitText(id)} (${this.suitName(id)})`; }

  // ---- marks ----
  mark(part, name) {
    const m = (this.marks[part] || {})[name];
    return m || { show: "row", kind: "" }; // a field the marks do not know: a row (forward compatible)
  }

  actionMark(type, field) {
    return ((this.marks.actions || {})[type] || {})[field] || { show: "arg", kind: "" };
  }

  // The hand card an action plays (the field its marks call the card), or null.
  cardOf(action) {
    for (const [k, v] of Object.entries(action)) {
      if (k !== "type" && this.actionMark(action.type, k).show === "card" && typeof v === "string") return v;
    }
    return null;
  }

  // Whether a string is a card of this game (it has a face in the catalogue).
  isCard(id) { return typeof id === "string" && !this.face(id).unknown; }

  // Two ids of one face are copies of one card (a second deck's 7 of hearts): the player cannot
  // tell them apart, and a move with one is a move with the other.
  faceId(id) { return this.face(id).id; }

  // An option's words for the create form (contract W): `option.<name>`, `.help`, `.<value>`.
  optionLabel(name) { return this.has(`option.${name}`) ? this.words[`option.${name}`] : humanize(name); }
  optionHelp(name) { return this.has(`option.${name}.help`) ? this.words[`option.${name}.help`] : ""; }
  optionValue(name, value) {
    const key = `option.${name}.${value}`;
    return this.has(key) ? this.words[key] : this.has(`label.${value}`) ? this.words[`label.${value}`] : humanize(value);
  }

  // A variant by its name in the page's language (words `variant.<name>`), else its id.
  variantName(name) { return this.has(`variant.${name}`) ? this.words[`variant.${name}`] : String(name || ""); }

  fieldLabel(name) { return this.tell(`field.${name}`, {}, humanize(name)); }
  quiet(type) { return this.words[`event.${type}`] === ""; }
}
