// What everyone sees at a table, from the public view and the game's marks and words (game.js): whose
// turn, the seats, the table's fields, scores and standings, the events in words. No field is named
// here: each is drawn where its mark says (docs/clients.md), and one the marks do not know is a row.
import { serverNow } from "./api.js";
import { cardView } from "./cards.js";
import { h, humanize } from "./dom.js";
import { t } from "./i18n.js";

const SEAT_ROW = new Set(["seat", "name", "kind", "strength", "state", "hand_count", "score", "timeouts", "removal_deadline"]);

function present(x) {
  return x !== null && x !== undefined && !(Array.isArray(x) && !x.length)
    && !(typeof x === "object" && !Array.isArray(x) && !Object.keys(x).length);
}

// Every field of a part of the view (table, turn, seat, you) with its mark; a group's own
// properties follow it, each with its own mark.
export function fields(game, part, obj, marks = null) {
  const out = [];
  for (const [k, x] of Object.entries(obj || {})) {
    const mark = marks ? (marks[k] || { show: "row", kind: "" }) : game.mark(part, k);
    if (mark.show === "group" && x && typeof x === "object") out.push(...fields(game, part, x, mark.properties || {}));
    else out.push({ name: k, value: x, mark });
  }
  return out;
}

function cardViews(game, items, cls = "small") {
  return [].concat(items).map((c) => cardView(game, String(c), { class: cls }));
}

// A list of objects as a small table, its columns labelled by the game's words.
function smallTable(game, name, rows, attrs = {}) {
  const cols = Object.keys(rows[0]);
  return h("table", { class: "small-table", ...attrs }, h("caption", {}, game.fieldLabel(name)),
    h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, game.fieldLabel(c))))),
    h("tbody", {}, rows.map((row) => h("tr", {}, cols.map((c) => h("td", {}, game.read(row[c])))))));
}

// A value as a node or text, by its kind: cards as cards, a list of objects as a table, the rest in words.
function shown(game, f) {
  if (f.mark.kind === "card" || f.mark.kind === "cards") return cardViews(game, f.value);
  if (Array.isArray(f.value) && f.value.length && typeof f.value[0] === "object") return smallTable(game, f.name, f.value);
  return game.readField(f.name, f.value, f.mark.kind);
}

export function timerOf(game, part, obj) {
  const f = fields(game, part, obj).find((x) => x.mark.show === "timer" && x.value);
  return f ? f.value : null;
}

export function turnText(game, v) {
  if (v.status === "open") return t("turn.open");
  if (v.status === "finished") return t("turn.finished");
  const turn = v.turn;
  if (!turn) return v.phase ? game.tell(`phase.${v.phase}`, {}, humanize(v.phase)) : "";
  if (turn.seat !== null && turn.seat !== undefined) {
    return v.you && v.you.seat === turn.seat ? t("turn.yours") : t("turn.of", { name: game.seatName(turn.seat) });
  }
  const own = Object.entries(turn).find(([k, x]) => present(x) && game.has(`turn.${k}`));
  return own ? game.tell(`turn.${own[0]}`, turn) : t("turn.everyone");
}

export function turnExtras(game, v) { // the turn's own rows (draws left, ...)
  return fields(game, "turn", v.turn).filter((f) => f.mark.show === "row" && f.name !== "seat" && present(f.value)
    && typeof f.value !== "object" && !game.has(`turn.${f.name}`))
    .map((f) => h("span", { class: "turn-extra", "data-field": f.name }, ` \u00b7 ${game.fieldLabel(f.name)}: ${shown(game, f)}`));
}

// The per-seat facts of the table and of each seat row: values by seat, badges on listed seats.
function seatFacts(game, v, s) {
  const out = [];
  const perSeat = [...fields(game, "table", v.table).filter((f) => f.mark.show === "seat"),
    ...fields(game, "seat", Object.fromEntries(Object.entries(s).filter(([k]) => !SEAT_ROW.has(k)))).map((f) => ({ ...f, own: true }))];
  for (const f of perSeat) {
    if (f.mark.show === "none" || !present(f.value)) continue;
    const label = game.fieldLabel(f.name);
    if (f.own || (!Array.isArray(f.value) && typeof f.value === "object")) { // a value of each seat
      const x = f.own ? f.value : f.value[String(s.seat)];
      if (!present(x)) continue;
      out.push(h("span", { class: "seat-extra", "data-field": f.name }, `${label}: `,
        f.mark.kind === "cards" || f.mark.kind === "card" || (Array.isArray(x) && f.mark.kind === "")
          ? cardViews(game, x) : game.readField(f.name, x, f.mark.kind)));
    } else if (Array.isArray(f.value) ? f.value.includes(s.seat) : f.value === s.seat) { // a badge
      const n = Array.isArray(f.value) ? f.value.indexOf(s.seat) + 1 : 1;
      out.push(h("span", { class: "badge", "data-field": f.name }, game.tell(`field.${f.name}`, { n }, humanize(f.name))));
    }
  }
  return out;
}

export function seatsPanel(game, v) {
  const ann = new Map((v.announcements || []).map((a) => [a.seat, a]));
  const word = game.tell("announce.word", {}, "");
  return h("section", { class: "seats", "aria-label": t("seats.title") },
    h("h3", {}, t("seats.title")),
    h("ul", { "data-testid": "seats" }, v.seats.map((s) => {
      const mine = v.you && v.you.seat === s.seat;
      const turn = v.turn && v.turn.seat === s.seat;
      const a = ann.get(s.seat);
      return h("li", { class: `seat${turn ? " on-turn" : ""}${mine ? " mine" : ""}`, "data-testid": "seat", "data-seat": s.seat,
        "aria-current": turn ? "true" : null },
      h("span", { class: "seat-name" }, turn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "\u25B6 ") : null,
        s.name, mine ? ` (${t("seat.you")})` : null),
      h("span", { class: "seat-kind" }, s.kind === "bot" ? t("seat.bot", { strength: t(`strength.${s.strength}`, {}, s.strength || "") }) : t("seat.human")),
      s.state !== "active" ? h("span", { class: "seat-state" }, t(`state.${s.state}`, {}, s.state)) : null,
      v.status === "running" ? h("span", { class: "count", "data-testid": "hand-count" }, t("seat.cards", { n: s.hand_count })) : null,
      h("span", { class: "score" }, t("seat.score", { n: s.score })),
      a ? h("span", { class: "badge announce", "data-testid": "announcement" }, game.tell(a.satisfied ? "announce.said"
        : a.grace_until && a.grace_until > serverNow() ? "announce.grace" : "announce.open", { word }, word)) : null,
      v.armed === s.seat ? h("span", { class: "badge announce" }, game.tell("announce.armed", { word }, word)) : null,
      seatFacts(game, v, s));
    })));
}

export function tablePanel(game, v) {
  const table = v.table;
  if (!table) return h("section", { class: "felt", "aria-label": t("table.title") }, h("p", {}, t("table.not_dealt")));
  const top = [], notes = [], rows = [];
  for (const f of fields(game, "table", table)) {
    if (!present(f.value) || f.value === false || ["none", "seat"].includes(f.mark.show)) continue; // a false flag: no news
    const label = game.fieldLabel(f.name);
    if (f.mark.show === "top" && (f.mark.kind === "card" || f.mark.kind === "cards")) {
      top.push(h("div", { class: "pile" }, h("span", { class: "label" }, label),
        [].concat(f.value).map((c) => cardView(game, String(c), { "data-testid": "top-card", class: "big" }))));
    } else if (f.mark.show === "top") {
      top.push(h("p", { class: "called", "data-testid": f.mark.kind === "suit" ? "top-suit" : "top-fact", "data-value": String(f.value) },
        `${label}: ${game.readField(f.name, f.value, f.mark.kind)}`));
    } else if (f.mark.show === "note") {
      notes.push(h("p", { class: "round-end", "data-field": f.name }, game.tell(`field.${f.name}`, f.value, label)));
    } else if (f.mark.show === "timer") {
      rows.push([label, h("span", { class: "timer", "data-until": f.value })]);
    } else {
      rows.push([label, shown(game, f)]);
    }
  }
  return h("section", { class: "felt", "aria-label": t("table.title") }, top, notes,
    v.end_reason ? h("p", { class: "round-end" }, t("table.match_end", { reason: game.tell(`end.${v.end_reason}`, {}, humanize(v.end_reason)) })) : null,
    h("dl", { class: "facts", "data-testid": "table-facts" }, rows.map(([k, x]) => [h("dt", {}, k), h("dd", {}, x)])));
}

export function ownExtra(game, key, value) {
  const mark = game.mark("you", key);
  if (mark.show === "none" || !present(value)) return null;
  const label = game.fieldLabel(key);
  if (Array.isArray(value)) {
    if (typeof value[0] !== "object") return h("p", { "data-testid": `you-${key}` }, `${label}: `, shown(game, { name: key, value, mark }));
    return smallTable(game, key, value, { "data-testid": `you-${key}` });
  }
  if (typeof value === "object") return h("p", { "data-testid": `you-${key}` }, game.tell(`field.${key}`, value, label));
  return h("p", { "data-testid": `you-${key}` }, `${label}: `, shown(game, { name: key, value, mark }));
}

export function scoresPanel(game, v) {
  if (!v.scores.length && !v.standings) return null;
  const seats = v.seats.map((s) => s.seat);
  const last = v.scores[v.scores.length - 1];
  return h("section", { class: "scores", "aria-labelledby": "scores-title" },
    h("h3", { id: "scores-title" }, t("scores.title")),
    game.has("points") ? h("p", { class: "hint", "data-testid": "points" }, game.tell("points")) : null,
    v.scores.length ? h("table", { "data-testid": "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("scores.round")), seats.map((s) => h("th", { scope: "col" }, game.seatName(s))))),
      h("tbody", {}, v.scores.map((e) => h("tr", {}, h("th", { scope: "row" }, String(e.round)),
        seats.map((s) => h("td", {}, e.points[String(s)] ?? "\u2014"))))),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("scores.total")), seats.map((s) => h("td", {}, last.totals[String(s)] ?? "\u2014"))))) : null,
    v.standings ? h("ol", { class: "standings", "data-testid": "standings" }, v.standings.map((x) =>
      h("li", { "data-seat": x.seat }, t("scores.standing", { rank: x.rank, name: x.name, total: x.total })))) : null);
}

// An event in the game's words, or null for one its words leave out of a log.
export function describeEvent(game, ev) {
  if (game.quiet(ev.type)) return null;
  const thing = { ...(ev.data || {}) };
  if ((thing.seat === null || thing.seat === undefined) && ev.seat !== null && ev.seat !== undefined) thing.seat = ev.seat;
  const who = thing.seat !== undefined && thing.seat !== null ? `${game.seatName(thing.seat)}: ` : "";
  return game.tell(`event.${ev.type}`, thing, `${who}${humanize(ev.type)}`);
}
