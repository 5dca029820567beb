// What everyone sees at a table, from the public view and the game's marks and words (game.js): whose
// turn, the seats, the table's fields, scores and standings, the events in words. No field is named
// here: each is drawn where its mark says (docs/clients.md), and one the marks do not know is a row.
import { serverNow } from "./api.js";
import { cardView } from "./cards.js";
import { h, humanize, spaced } from "./dom.js";
import { t, tn } from "./i18n.js";

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
// A column with a mark of its own (`properties` of the list's mark) reads by it.
function smallTable(game, name, rows, attrs = {}, columns = {}) {
  const cols = Object.keys(rows[0]);
  const cell = (c, x) => (columns[c] ? game.readField(c, x, columns[c].kind) : game.read(x));
  return h("table", { class: "small-table", ...attrs }, h("caption", {}, game.fieldLabel(name)),
    h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, game.fieldLabel(c))))),
    h("tbody", {}, rows.map((row) => h("tr", {}, cols.map((c) => h("td", {}, cell(c, row[c])))))));
}

// A value as a node or text, by its kind: cards as cards, a list of objects as a table, the rest in words.
function shown(game, f) {
  if (f.mark.kind === "card" || f.mark.kind === "cards") return cardViews(game, f.value);
  if (Array.isArray(f.value) && f.value.length && typeof f.value[0] === "object") return smallTable(game, f.name, f.value, {}, f.mark.properties);
  return game.readField(f.name, f.value, f.mark.kind);
}

function capital(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

export function timerOf(game, part, obj) {
  const f = fields(game, part, obj).find((x) => x.mark.show === "timer" && x.value);
  return f ? f.value : null;
}

export function turnText(game, v) {
  if (v.status === "open") return t("turn.open");
  if (v.status === "finished") return t("turn.finished");
  const turn = v.turn;
  if (!turn) return v.phase ? capital(game.tell(`phase.${v.phase}`, {}, humanize(v.phase))) : "";
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

// One seat at the table: its name, kind, state, score, badges, and (while a round is dealt) its
// cards face down with their count. `last` is the last move told ({seat, text, fresh}), shown as a
// bubble on the seat that made it.
export function seatView(game, v, s, last = null) {
  const ann = (v.announcements || []).find((a) => a.seat === s.seat);
  const word = game.tell("announce.word", {}, "");
  const mine = v.you && v.you.seat === s.seat;
  const turn = v.turn && v.turn.seat === s.seat;
  const spoke = last && last.seat === s.seat;
  const n = Number(s.hand_count) || 0;
  return h("li", { class: `seat${turn ? " on-turn" : ""}${mine ? " mine" : ""}${s.state !== "active" ? " out" : ""}`,
    "data-testid": "seat", "data-seat": s.seat, "aria-current": turn ? "true" : null },
  h("div", { class: "seat-head" },
    h("span", { class: "seat-name" }, turn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "\u25B6 ") : null,
      s.name, mine ? ` (${t("seat.you")})` : null),
    h("span", { class: "score", title: game.tell("points", {}, "") || null }, t("seat.score", { n: s.score }))),
  h("div", { class: "seat-meta" },
    h("span", { class: "seat-kind" }, s.kind === "bot" ? t("seat.bot", { strength: t(`strength.${s.strength}`, {}, s.strength || "") }) : t("seat.human")),
    s.state !== "active" ? h("span", { class: "badge seat-state" }, t(`state.${s.state}`, {}, s.state)) : null,
    turn ? h("span", { class: "badge turn-badge" }, t("seat.to_move")) : null),
  v.status === "running" && !mine ? h("div", { class: "backs", "aria-hidden": "true" },
    Array.from({ length: Math.min(n, 8) }, () => h("span", { class: "back" }))) : null,
  v.status === "running" ? h("span", { class: "count", "data-testid": "hand-count" }, tn("seat.cards", n)) : null,
  ann ? h("span", { class: "badge announce", "data-testid": "announcement" }, game.tell(ann.satisfied ? "announce.said"
    : ann.grace_until && ann.grace_until > serverNow() ? "announce.grace" : "announce.open", { word }, word)) : null,
  v.armed === s.seat ? h("span", { class: "badge announce" }, game.tell("announce.armed", { word }, word)) : null,
  seatFacts(game, v, s),
  spoke ? h("p", { class: `said${last.fresh ? " fresh" : ""}`, "data-testid": "last-move" }, last.text) : null);
}

// The other seats around the table (yours is drawn with your hand).
export function seatsPanel(game, v, last = null) {
  const others = v.seats.filter((s) => !(v.you && v.you.seat === s.seat));
  return h("section", { class: "seats", "aria-label": t("seats.title") },
    h("h3", { class: "sr-only" }, t("seats.title")),
    h("ul", { class: "ring", "data-testid": "seats" }, others.map((s) => seatView(game, v, s, last))));
}

// An object keyed by seat whose values are lists of this game's cards (the hands shown at a
// round's end), found in an event's data; null if it has none.
export function handsIn(game, v, data) {
  const seats = new Set(v.seats.map((s) => String(s.seat)));
  for (const x of Object.values(data || {})) {
    if (!x || typeof x !== "object" || Array.isArray(x)) continue;
    const keys = Object.keys(x);
    if (!keys.length || !keys.every((k) => seats.has(k))) continue;
    const lists = Object.values(x);
    if (lists.every((l) => Array.isArray(l) && l.every((c) => game.isCard(c))) && lists.some((l) => l.length)) return x;
  }
  return null;
}

// A round's headline from the event that ended it (docs/clients.md: a `reason` with the kernel's
// `winner` or `winners`): the game's words `headline.<reason>` (`.none` when nobody took it), else
// who took the round, and why in the words `end.<reason>`. Null when no such event is known.
export function headlineOf(game, ev) {
  const d = (ev && ev.data) || {};
  if (typeof d.reason !== "string" || !("winner" in d || "winners" in d)) return null;
  const who = [].concat(d.winners ?? d.winner ?? []).filter((x) => x !== null && x !== undefined);
  const key = `headline.${d.reason}${who.length ? "" : ".none"}`;
  if (game.has(key)) return game.tell(key, d);
  const why = game.tell(`end.${d.reason}`, {}, humanize(d.reason));
  return who.length ? t("banner.took", { name: who.map((x) => game.seatName(x)).join(", "), why }) : t("banner.nobody", { why });
}

// Each seat's latest known total: a seat out of play before the last round keeps its last total.
export function latestTotals(v) {
  const out = {};
  for (const e of v.scores || []) for (const [seat, total] of Object.entries(e.totals || {})) out[seat] = total;
  return out;
}

// The banner at a round's end (between rounds) or the match's end: who went out or won, the
// story of the end in the game's words, the hands shown, the points of the round and the totals,
// what points mean. `end` = { hands, told: [texts] }. The actions slot (`banner-actions`) is for
// what comes next (a rematch); it is empty here.
export function bannerPanel(game, v, end) {
  const finished = v.status === "finished";
  const between = !finished && v.intermission_deadline;
  if (!finished && !between) return null;
  const entry = (v.scores || [])[v.scores.length - 1];
  const totals = latestTotals(v);
  const hands = end && end.hands;
  const active = v.seats.filter((s) => s.state === "active");
  const empty = active.filter((s) => s.hand_count === 0 && !finished);
  // went out: an empty hand shown, else an empty hand among others that are not (a game that
  // collects every hand at a round's end tells who took the round by its headline instead)
  const out = hands ? Object.entries(hands).filter(([, l]) => !l.length).map(([s]) => Number(s))
    : empty.length < active.length ? empty.map((s) => s.seat) : [];
  const headline = end && end.headline;
  const standings = v.standings || [];
  const winners = standings.filter((x) => x.rank === 1).map((x) => x.name);
  const head = finished ? t("banner.match_over") : t("banner.round_over", { n: entry ? entry.round : v.round });
  const rows = v.seats.filter((s) => (hands && hands[String(s.seat)]) || (entry && String(s.seat) in (entry.points || {})) || String(s.seat) in totals);
  return h("section", { class: `banner${finished ? " match-end" : " round-end-banner"}`, "data-testid": finished ? "match-end" : "round-end",
    role: "status", "aria-labelledby": "banner-title" },
  h("h3", { id: "banner-title" }, head),
  headline && !finished ? h("p", { class: "headline", "data-testid": "headline" }, h("span", { "aria-hidden": "true" }, "\u2605 "), headline) : null,
  finished && winners.length ? h("p", { class: "winner", "data-testid": "winner" }, h("span", { "aria-hidden": "true" }, "\u2605 "),
    winners.length === 1 ? t("banner.winner", { name: winners[0] }) : t("banner.winners", { names: winners.join(", ") })) : null,
  out.length && !(headline && !finished) ? h("p", { class: "went-out", "data-testid": "went-out" }, t(finished && (v.scores || []).length > 1 ? "banner.out_last" : "banner.out",
    { name: out.map((s) => game.seatName(s)).join(", ") })) : null,
  finished && v.end_reason && !(end && end.told.length) ? h("p", { class: "why" }, t("table.match_end", { reason: game.tell(`end.${v.end_reason}`, {}, humanize(v.end_reason)) })) : null,
  end && end.told.length ? h("p", { class: "told" }, end.told.join(" \u00b7 ")) : null,
  between ? h("p", { class: "next" }, t("table.next_round"), " ", h("span", { class: "timer", "data-testid": "intermission-banner",
    "data-until": v.intermission_deadline, "data-format": "in" })) : null,
  rows.length ? h("table", { class: "banner-table", "data-testid": "banner-scores" },
    h("caption", {}, game.has("points") ? t("banner.points", { points: game.tell("points") }) : t("scores.title")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("banner.player")), hands ? h("th", { scope: "col" }, t("banner.hand")) : null,
      entry ? h("th", { scope: "col" }, t("banner.this_round")) : null, h("th", { scope: "col" }, t("scores.total")))),
    h("tbody", {}, rows.map((s) => h("tr", { "data-seat": s.seat },
      h("th", { scope: "row" }, s.name),
      hands ? h("td", { class: "shown-hand", "data-testid": "revealed" }, (hands[String(s.seat)] || []).length
        ? hands[String(s.seat)].map((c) => cardView(game, c, { class: "small" })) : t("banner.empty_hand")) : null,
      entry ? h("td", {}, entry.points[String(s.seat)] ?? "\u2014") : null,
      h("td", {}, totals[String(s.seat)] ?? "\u2014"))))) : null,
  finished && standings.length ? h("ol", { class: "standings", "data-testid": "standings" }, standings.map((x) =>
    h("li", { "data-seat": x.seat, class: x.rank === 1 ? "first" : null }, t("scores.standing", { rank: x.rank, name: x.name, total: x.total })))) : null,
  h("div", { class: "banner-actions", "data-testid": "banner-actions" }));
}

// The felt: the fields marked `top` (the top card arrives animated when it changed: `freshTop`),
// notes, the table's rows, and the last move told (`last`).
export function tablePanel(game, v, last = null, freshTop = false) {
  const table = v.table;
  const lastLine = last ? h("p", { class: `last-move${last.fresh ? " fresh" : ""}`, "data-testid": "last-told" },
    h("span", { class: "sr-only" }, `${t("table.last_move")}: `), last.text) : null;
  if (!table) return h("section", { class: "felt", "aria-label": t("table.title") }, h("p", {}, t("table.not_dealt")), lastLine);
  const top = [], notes = [], rows = [];
  for (const f of fields(game, "table", table)) {
    if (!present(f.value) || f.value === false || ["none", "seat"].includes(f.mark.show)) continue; // a false flag: no news
    const label = game.fieldLabel(f.name);
    if (f.mark.show === "top" && (f.mark.kind === "card" || f.mark.kind === "cards")) {
      top.push(h("div", { class: "pile" }, h("span", { class: "label" }, label),
        [].concat(f.value).map((c) => cardView(game, String(c), { "data-testid": "top-card", class: `big${freshTop ? " fresh" : ""}` }))));
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
  return h("section", { class: `felt${top.length ? " with-piles" : ""}`, "aria-label": t("table.title") },
    top.length ? h("div", { class: "piles" }, top) : null, notes, lastLine,
    h("dl", { class: "facts", "data-testid": "table-facts" }, rows.map(([k, x]) => [h("dt", {}, k), h("dd", {}, x)])));
}

export function ownExtra(game, key, value) {
  const mark = game.mark("you", key);
  if (mark.show === "none" || !present(value)) return null;
  const label = game.fieldLabel(key);
  if (Array.isArray(value)) {
    if (typeof value[0] !== "object") return h("p", { "data-testid": `you-${key}` }, `${label}: `, shown(game, { name: key, value, mark }));
    return smallTable(game, key, value, { "data-testid": `you-${key}` }, mark.properties);
  }
  if (mark.show === "note" && typeof value !== "object") { // a word told as one line: words["<name>.<value>"]
    return h("p", { class: "you-note", "data-testid": `you-${key}`, "data-value": String(value), id: `you-${key}` },
      game.tell(`${key}.${value}`, {}, game.readField(key, value, "word")));
  }
  if (typeof value === "object") return h("p", { "data-testid": `you-${key}` }, game.tell(`field.${key}`, value, label));
  return h("p", { "data-testid": `you-${key}` }, `${label}: `, shown(game, { name: key, value, mark }));
}

export function scoresPanel(game, v) {
  if (!v.scores.length && !v.standings) return null;
  const seats = v.seats.map((s) => s.seat);
  const totals = latestTotals(v);
  return h("section", { class: "scores", "aria-labelledby": "scores-title" },
    h("h3", { id: "scores-title" }, t("scores.title")),
    game.has("points") ? h("p", { class: "hint", "data-testid": "points" }, game.tell("points")) : null,
    v.scores.length ? h("table", { "data-testid": "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("scores.round")), seats.map((s) => h("th", { scope: "col" }, game.seatName(s))))),
      h("tbody", {}, v.scores.map((e) => h("tr", {}, h("th", { scope: "row" }, String(e.round)),
        seats.map((s) => h("td", {}, e.points[String(s)] ?? "\u2014"))))),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("scores.total")), seats.map((s) => h("td", {}, totals[String(s)] ?? "\u2014"))))) : null,
    null);
}

// An event in the game's words, or null for one its words leave out of a log.
export function describeEvent(game, ev) {
  if (game.quiet(ev.type)) return null;
  const thing = { ...(ev.data || {}) };
  if ((thing.seat === null || thing.seat === undefined) && ev.seat !== null && ev.seat !== undefined) thing.seat = ev.seat;
  const who = thing.seat !== undefined && thing.seat !== null ? `${game.seatName(thing.seat)}: ` : "";
  return game.tell(`event.${ev.type}`, thing, `${who}${spaced(ev.type)}`);
}
