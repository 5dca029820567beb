// The table: renders any game's view (API.md's GET /v1/games/{id}) generically: seats, the table's
// public fields, whose turn and its timer, your hand with its legal actions, the owner's and the
// joiner's controls, scores and standings, the live feed's log; a finished game adds the replay.
import { ApiError, api, serverNow } from "./api.js";
import { actionJson, describe, extras, group, typeLabel } from "./actions.js";
import { SUITS, cardClass, cardName, cardView, face, suitText } from "./cards.js";
import { clear, h, humanize } from "./dom.js";
import { Feed } from "./feed.js";
import { t } from "./i18n.js";
import { Replay } from "./replay.js";
import { forgetSeat, remember, seatOf } from "./store.js";

const SHOWN_ELSEWHERE = new Set(["top_card", "called_suit", "parasites", "parasite_totals", "drew_on", "passed",
  "race", "round_end", "kinds", "dealer", "direction", "step_deadline"]);
const QUIET_EVENTS = new Set(["ShuffleCommitted", "TurnStarted"]);

export class TablePage {
  constructor(root, gameId, catalogue) {
    Object.assign(this, { root, gameId, catalogue, view: null, error: null, notice: null, choosing: null, log: [] });
    this.timer = setInterval(() => this.tick(), 250);
    this.load();
  }

  destroy() {
    clearInterval(this.timer);
    if (this.feed) this.feed.close();
    clearTimeout(this.refreshSoon);
  }

  get seat() { return seatOf(this.gameId); }

  async load() {
    try {
      let view;
      try {
        view = await api.view(this.gameId, this.seat.token);
      } catch (e) {
        if (!(e instanceof ApiError) || !(e.status === 401 || e.status === 403) || !this.seat.token) throw e;
        forgetSeat(this.gameId); // a token the game no longer knows (left, removed): watch instead
        view = await api.view(this.gameId);
      }
      this.show(view);
      if (!this.feed && view.status !== "finished") this.openFeed(view.version);
    } catch (e) {
      this.fail(e);
    }
  }

  openFeed(after) {
    if (this.feed) this.feed.close();
    this.feed = new Feed(this.gameId, this.seat.token, after, {
      onEvent: (ev) => this.onEvent(ev),
      onStatus: (s, last) => this.feedStatus(s, last),
      onRevoked: () => { forgetSeat(this.gameId); this.feed = null; this.say(t("table.revoked")); this.load(); },
      onEnd: () => this.refresh(),
    });
  }

  onEvent(ev) {
    if (!QUIET_EVENTS.has(ev.type)) {
      this.log.push(ev);
      if (this.log.length > 60) this.log.shift();
    }
    if (!this.view || ev.seq > this.view.version) this.refresh();
  }

  refresh() {
    clearTimeout(this.refreshSoon);
    this.refreshSoon = setTimeout(() => this.load(), 60); // a burst of events, one read
  }

  feedStatus(state, last) {
    const el = this.root.querySelector("[data-testid=feed-status]");
    if (el) {
      el.textContent = t(`feed.${state}`);
      el.dataset.state = state;
      el.dataset.lastEventId = String(last);
    }
  }

  show(view) {
    const before = this.view;
    this.view = view;
    if (view.status === "finished" && this.feed) { this.feed.close(); this.feed = null; }
    if (view.you) remember(this.gameId, { seat: view.you.seat });
    if (before && before.version !== view.version) this.error = null;
    this.render();
  }

  fail(e) {
    this.error = e instanceof ApiError ? e.message : String(e);
    this.render();
  }

  say(text) {
    this.notice = text;
    const el = this.root.querySelector("[data-testid=notice]");
    if (el) el.textContent = text;
  }

  async run(fn, okText) {
    this.error = null;
    try {
      const out = await fn();
      if (okText) this.notice = okText;
      if (out && out.game) this.show(out.game);
      else if (out && out.view) this.show(out.view);
      else await this.load();
      return out;
    } catch (e) {
      this.fail(e);
      if (e instanceof ApiError && (e.status === 409 || e.status === 412 || e.status === 422)) this.refresh();
      return null;
    }
  }

  act(action) {
    this.choosing = null;
    return this.run(() => api.act(this.gameId, action, this.seat.token, this.view && this.view.version));
  }

  async join(name) {
    const { owner_token } = this.seat;
    const out = await this.run(async () => {
      const r = await api.takeSeat(this.gameId, { name }, owner_token);
      remember(this.gameId, { token: r.token, seat: r.seat });
      return r;
    });
    if (out) this.openFeed(this.view.version);
  }

  addBot(strength) {
    return this.run(() => api.takeSeat(this.gameId, { bot: { strength } }, this.seat.owner_token));
  }

  start() {
    return this.run(() => api.start(this.gameId, this.seat.owner_token));
  }

  async leave() {
    const { seat, token } = this.seat;
    const out = await this.run(async () => { await api.leave(this.gameId, seat, token); forgetSeat(this.gameId); return {}; });
    if (out) this.openFeed(this.view.version);
  }

  // ---- rendering ----
  name(seat) {
    const s = this.view && this.view.seats.find((x) => x.seat === seat);
    return s ? s.name : t("seat.n", { n: seat });
  }

  render() {
    const focus = rememberFocus(this.root);
    clear(this.root);
    const v = this.view;
    if (!v) {
      this.root.append(h("p", { "data-testid": "error", role: "alert", class: "error" }, this.error || t("loading")));
      return;
    }
    const section = h("section", { class: "table", "data-testid": "table", "data-game": v.id, "data-version": v.version,
      "data-status": v.status, "data-phase": v.phase || "", "aria-labelledby": "table-title" },
    this.header(v),
    h("p", { class: "error", role: "alert", "data-testid": "error", hidden: !this.error }, this.error || ""),
    h("p", { class: "notice", "aria-live": "polite", "data-testid": "notice" }, this.notice || ""),
    h("div", { class: "board" }, this.seatsPanel(v), this.tablePanel(v)),
    this.youPanel(v),
    this.ownerPanel(v),
    this.joinPanel(v),
    this.scoresPanel(v),
    v.status === "finished" ? this.replayPanel(v) : null,
    this.logPanel(v));
    this.root.append(section);
    restoreFocus(this.root, focus);
    this.tick();
  }

  header(v) {
    const status = t(`status.${v.status}`, {}, v.status);
    const phase = v.phase ? t(`phase.${v.phase}`, {}, humanize(v.phase)) : null;
    return h("header", { class: "table-head" },
      h("h2", { id: "table-title" }, v.name || t("table.untitled", { id: v.id })),
      h("p", { class: "meta" },
        h("span", { "data-testid": "variant" }, v.variant), " \u00b7 ",
        h("span", { "data-testid": "status" }, status), phase ? [" \u00b7 ", h("span", { "data-testid": "phase" }, phase)] : null,
        v.round ? [" \u00b7 ", t("table.round", { n: v.round })] : null, " \u00b7 ", t("table.version", { n: v.version }), " \u00b7 ",
        h("span", { class: "feed", "data-testid": "feed-status", "data-state": this.feed ? this.feed.state || "" : "off",
          "data-last-event-id": this.feed ? this.feed.last : v.version },
        this.feed ? t(`feed.${this.feed.state || "connecting"}`) : t("feed.off"))),
      h("p", { class: "turn", "data-testid": "turn", "aria-live": "polite" }, this.turnText(v), this.turnExtras(v),
        v.turn && v.turn.deadline ? [" ", h("span", { class: "timer", "data-testid": "timer", "data-deadline": v.turn.deadline })] : null,
        v.intermission_deadline ? [" ", t("table.next_round"), " ", h("span", { class: "timer", "data-testid": "intermission",
          "data-deadline": v.intermission_deadline })] : null));
  }

  turnText(v) {
    if (v.status === "open") return t("turn.open");
    if (v.status === "finished") return t("turn.finished");
    const turn = v.turn;
    if (!turn) return v.phase ? t(`phase.${v.phase}`, {}, humanize(v.phase)) : "";
    if (turn.seat !== null && turn.seat !== undefined) {
      return v.you && v.you.seat === turn.seat ? t("turn.yours") : t("turn.of", { name: this.name(turn.seat) });
    }
    if (turn.race !== undefined) return t("turn.race", { n: turn.race });
    if (turn.step !== undefined) return t("turn.step", { n: turn.step });
    return t("turn.everyone");
  }

  turnExtras(v) { // any other scalar of the turn (e.g. draws left), generically
    const known = new Set(["seat", "turn_id", "deadline", "step", "race"]);
    const rest = Object.entries(v.turn || {}).filter(([k, x]) => !known.has(k) && x !== null && typeof x !== "object");
    return rest.map(([k, x]) => h("span", { class: "turn-extra", "data-field": k }, ` \u00b7 ${t(`field.${k}`, {}, humanize(k))}: ${x}`));
  }

  seatsPanel(v) {
    const table = v.table || {};
    const passed = new Set(table.passed || []);
    const slaps = (table.race && table.race.slaps) || [];
    const ann = new Map((v.announcements || []).map((a) => [a.seat, a]));
    return h("section", { class: "seats", "aria-label": t("seats.title") },
      h("h3", {}, t("seats.title")),
      h("ul", { "data-testid": "seats" }, v.seats.map((s) => {
        const mine = v.you && v.you.seat === s.seat;
        const turn = v.turn && v.turn.seat === s.seat;
        const a = ann.get(s.seat);
        const extra = Object.entries(s).filter(([k, x]) => Array.isArray(x) && !["seat"].includes(k));
        return h("li", { class: `seat${turn ? " on-turn" : ""}${mine ? " mine" : ""}`, "data-testid": "seat", "data-seat": s.seat,
          "aria-current": turn ? "true" : null },
        h("span", { class: "seat-name" }, turn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "\u25B6 ") : null,
          s.name, mine ? ` (${t("seat.you")})` : null),
        h("span", { class: "seat-kind" }, s.kind === "bot" ? t("seat.bot", { strength: t(`strength.${s.strength}`, {}, s.strength || "") }) : t("seat.human")),
        s.state !== "active" ? h("span", { class: "seat-state" }, t(`state.${s.state}`, {}, s.state)) : null,
        v.status === "running" ? h("span", { class: "count", "data-testid": "hand-count" }, t("seat.cards", { n: s.hand_count })) : null,
        h("span", { class: "score" }, t("seat.score", { n: s.score })),
        passed.has(s.seat) ? h("span", { class: "badge", "data-testid": "passed" }, t("seat.passed")) : null,
        slaps.includes(s.seat) ? h("span", { class: "badge" }, t("seat.slapped", { n: slaps.indexOf(s.seat) + 1 })) : null,
        a ? h("span", { class: "badge announce", "data-testid": "announcement" }, a.satisfied ? t("announce.said", { word: this.word(v) })
          : a.grace_until && a.grace_until > serverNow() ? t("announce.grace", { word: this.word(v) }) : t("announce.open", { word: this.word(v) })) : null,
        v.armed === s.seat ? h("span", { class: "badge announce" }, t("announce.armed", { word: this.word(v) })) : null,
        table.dealer === s.seat ? h("span", { class: "badge" }, t("seat.dealer")) : null,
        extra.map(([k, items]) => items.length ? h("span", { class: "seat-extra" }, `${humanize(k)}: `,
          items.map((c) => cardView(String(c), { class: `${cardClass(String(c))} small` })),
          table.parasite_totals && k === "parasites" ? ` = ${table.parasite_totals[String(s.seat)] ?? ""}` : null) : null));
      })));
  }

  word(v) {
    return (v.options && v.options.announce_word) || t("announce.default");
  }

  tablePanel(v) {
    const table = v.table;
    if (!table) return h("section", { class: "felt", "aria-label": t("table.title") }, h("p", {}, t("table.not_dealt")));
    const rows = [];
    if (table.direction !== undefined) rows.push([t("table.direction"), table.direction > 0 ? t("table.clockwise") : t("table.counter")]);
    if (table.kinds) rows.push([t("table.kinds"), table.kinds.join(", ")]);
    for (const [k, x] of Object.entries(table)) {
      if (SHOWN_ELSEWHERE.has(k) || x === null || typeof x === "object") continue;
      if (k === "pending_skip" && !x) continue;
      if (k === "pending_draw" && !x) continue;
      rows.push([t(`field.${k}`, {}, humanize(k)), typeof x === "boolean" ? t(x ? "yes" : "no")
        : /suit/.test(k) && SUITS[x] ? suitText(x) : String(x)]);
    }
    const end = table.round_end;
    return h("section", { class: "felt", "aria-label": t("table.title") },
      table.top_card ? h("div", { class: "pile" }, h("span", { class: "label" }, t("table.top")),
        cardView(table.top_card, { "data-testid": "top-card", class: `${cardClass(table.top_card)} big` })) : null,
      table.called_suit ? h("p", { class: "called", "data-testid": "called-suit", "data-suit": table.called_suit },
        t("table.called", { suit: suitText(table.called_suit) })) : null,
      end ? h("p", { class: "round-end" }, t("table.round_end", { reason: humanize(end.reason || ""),
        winner: end.winner === null || end.winner === undefined ? "\u2014" : this.name(end.winner) })) : null,
      v.end_reason ? h("p", { class: "round-end" }, t("table.match_end", { reason: humanize(v.end_reason) })) : null,
      h("dl", { class: "facts", "data-testid": "table-facts" }, rows.map(([k, x]) => [h("dt", {}, k), h("dd", {}, x)])));
  }

  youPanel(v) {
    const you = v.you;
    if (!you) return null;
    const legal = you.legal_actions || [];
    const { byCard, buttons } = group(legal, you.hand);
    if (this.choosing && !(byCard.get(this.choosing) || []).length) this.choosing = null;
    const hand = h("ul", { class: "hand", "data-testid": "hand", "aria-label": t("you.hand") },
      you.hand.map((c, i) => h("li", {}, this.cardControl(c, byCard.get(c) || [], i, v))));
    const choices = this.choosing ? byCard.get(this.choosing) : null;
    const extrasOfYou = Object.entries(you).filter(([k]) => !["seat", "hand", "legal_actions"].includes(k));
    return h("section", { class: "you", "aria-labelledby": "you-title", "data-testid": "you", "data-seat": you.seat },
      h("h3", { id: "you-title" }, t("you.title", { name: this.name(you.seat) })),
      hand,
      choices && choices.length > 1 ? h("div", { class: "chooser", role: "group", "data-testid": "chooser",
        "aria-label": t("you.choose", { card: cardName(this.choosing) }) },
      choices.map((a) => h("button", { type: "button", "data-testid": "choice", "data-action": actionJson(a),
        onclick: () => this.act(a) }, [typeLabel(a.type, v), ...extras(a, v)].join(" \u00b7 "))),
      h("button", { type: "button", class: "secondary", "data-testid": "choice-cancel",
        onclick: () => { this.choosing = null; this.render(); } }, t("cancel"))) : null,
      h("div", { class: "actions", "data-testid": "actions", role: "group", "aria-label": t("you.actions") },
        buttons.map((a) => h("button", { type: "button", "data-testid": `action-${a.type}`, "data-action": actionJson(a),
          onclick: () => this.act(a) }, describe(a, v, cardName))),
        !legal.length && v.status === "running" ? h("span", { class: "idle" }, t("you.wait")) : null),
      extrasOfYou.map(([k, x]) => this.ownExtra(k, x)));
  }

  cardControl(card, actions, i, v) {
    const name = cardName(card);
    if (!actions.length) {
      return h("span", { class: `${cardClass(card)} idle`, "data-card": card, "data-testid": "card", role: "img",
        "aria-label": name }, face(card));
    }
    if (actions.length === 1) {
      const a = actions[0];
      return h("button", { type: "button", class: `${cardClass(card)} legal`, "data-card": card, "data-testid": "card",
        "data-action": actionJson(a), "aria-label": describe(a, v, cardName),
        onclick: () => this.act(a) }, face(card));
    }
    return h("button", { type: "button", class: `${cardClass(card)} legal`, "data-card": card, "data-testid": "card",
      "data-choices": String(actions.length), "aria-haspopup": "true", "aria-expanded": this.choosing === card ? "true" : "false",
      "aria-label": t("you.card_choices", { card: name, n: actions.length }),
      onclick: () => { this.choosing = this.choosing === card ? null : card; this.render(); focusFirst(this.root, "[data-testid=choice]"); } },
    face(card));
  }

  ownExtra(key, value) {
    const label = t(`field.${key}`, {}, humanize(key));
    if (value === null || value === undefined) return null;
    if (Array.isArray(value)) {
      if (!value.length) return null;
      if (typeof value[0] !== "object") return h("p", { "data-testid": `you-${key}` }, `${label}: ${value.join(", ")}`);
      const cols = Object.keys(value[0]);
      return h("table", { class: "small-table", "data-testid": `you-${key}` }, h("caption", {}, label),
        h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, t(`field.${c}`, {}, humanize(c)))))),
        h("tbody", {}, value.map((row) => h("tr", {}, cols.map((c) => h("td", {}, String(row[c])))))));
    }
    if (typeof value === "object") return null;
    return h("p", { "data-testid": `you-${key}` }, `${label}: ${value}`);
  }

  ownerPanel(v) {
    const { owner_token } = this.seat;
    if (!owner_token || v.status === "finished") return null;
    const variant = (this.catalogue || []).find((x) => x.name === v.variant);
    const strengths = (variant && variant.bot_strengths) || ["easy"];
    const open = v.status === "open";
    return h(open ? "section" : "details", { class: "owner", "aria-labelledby": open ? "owner-title" : null, "data-testid": "owner",
      open: !open && this.ownerOpen, ontoggle: open ? null : (e) => { this.ownerOpen = e.target.open; } },
      open ? h("h3", { id: "owner-title" }, t("owner.title")) : h("summary", {}, t("owner.title")),
      h("div", { role: "group", "aria-label": t("owner.bots") }, strengths.map((s) =>
        h("button", { type: "button", "data-testid": `add-bot-${s}`, onclick: () => this.addBot(s) },
          t("owner.add_bot", { strength: t(`strength.${s}`, {}, s) })))),
      v.status === "open" ? h("button", { type: "button", class: "primary", "data-testid": "start", onclick: () => this.start() },
        t("owner.start")) : null);
  }

  joinPanel(v) {
    if (v.status === "finished") return null;
    if (v.you) {
      return h("section", { class: "leave" }, this.confirmLeave
        ? [h("button", { type: "button", "data-testid": "leave-confirm", class: "danger", onclick: () => { this.confirmLeave = false; this.leave(); } }, t("leave.confirm")),
          h("button", { type: "button", class: "secondary", onclick: () => { this.confirmLeave = false; this.render(); } }, t("cancel"))]
        : h("button", { type: "button", class: "secondary", "data-testid": "leave", onclick: () => { this.confirmLeave = true; this.render(); } }, t("leave.button")));
    }
    const input = h("input", { id: "join-name", "data-testid": "join-name", maxlength: 40, required: true,
      value: localStorage.getItem("meow:name") || "", autocomplete: "nickname" });
    return h("form", { class: "join", "data-testid": "join-form", onsubmit: (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) { this.fail(new Error(t("join.name_needed"))); return; }
      localStorage.setItem("meow:name", name);
      this.join(name);
    } }, h("label", { for: "join-name" }, t("join.name")), input,
    h("button", { type: "submit", class: "primary", "data-testid": "join" }, t("join.button")),
    h("span", { class: "hint" }, t("join.watching")));
  }

  scoresPanel(v) {
    if (!v.scores.length && !v.standings) return null;
    const seats = v.seats.map((s) => s.seat);
    const last = v.scores[v.scores.length - 1];
    return h("section", { class: "scores", "aria-labelledby": "scores-title" },
      h("h3", { id: "scores-title" }, t("scores.title")),
      v.scores.length ? h("table", { "data-testid": "scores" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("scores.round")), seats.map((s) => h("th", { scope: "col" }, this.name(s))))),
        h("tbody", {}, v.scores.map((e) => h("tr", {}, h("th", { scope: "row" }, String(e.round)),
          seats.map((s) => h("td", {}, e.points[String(s)] ?? "\u2014"))))),
        h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("scores.total")), seats.map((s) => h("td", {}, last.totals[String(s)] ?? "\u2014"))))) : null,
      v.standings ? h("ol", { class: "standings", "data-testid": "standings" }, v.standings.map((x) =>
        h("li", { "data-seat": x.seat }, t("scores.standing", { rank: x.rank, name: x.name, total: x.total })))) : null);
  }

  replayPanel(v) {
    if (!this.replay || this.replay.gameId !== v.id) this.replay = new Replay(v, this.seat.token, (s) => this.name(s));
    return this.replay.el;
  }

  logPanel(v) {
    return h("details", { class: "log", open: !this.logClosed, ontoggle: (e) => { this.logClosed = !e.target.open; } },
      h("summary", {}, t("log.title")),
      h("ul", { "data-testid": "log" }, this.log.slice().reverse().map((ev) =>
        h("li", { "data-seq": ev.seq, "data-type": ev.type }, `#${ev.seq} `, this.describeEvent(ev, v)))));
  }

  describeEvent(ev, v) {
    const d = ev.data || {};
    const vars = { seat: ev.seat !== null && ev.seat !== undefined ? this.name(ev.seat) : "" };
    for (const [k, x] of Object.entries(d)) {
      if (k === "seat" || k === "winner" || k === "from") vars[k] = typeof x === "number" ? this.name(x) : x;
      else if (k === "card" && typeof x === "string") vars.card = cardName(x);
      else if (k === "suit" || k === "called_suit") vars.suit = suitText(x);
      else if (typeof x !== "object") vars[k] = x;
    }
    const fallback = `${vars.seat ? `${vars.seat}: ` : ""}${humanize(ev.type)}`;
    return t(`event.${ev.type}`, vars, fallback);
  }

  tick() {
    for (const el of this.root.querySelectorAll("[data-deadline]")) {
      const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - serverNow()) / 1000));
      const text = t("timer.left", { s: left });
      if (el.textContent !== text) el.textContent = text;
    }
  }
}

function rememberFocus(root) {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  return { testid: el.dataset.testid, action: el.dataset.action, card: el.dataset.card, id: el.id };
}

function restoreFocus(root, f) {
  if (!f) return;
  const pick = (sel) => root.querySelector(sel);
  const esc = (s) => CSS.escape(s);
  const el = (f.id && pick(`#${esc(f.id)}`)) || (f.action && pick(`[data-action="${esc(f.action)}"]`))
    || (f.card && pick(`[data-card="${esc(f.card)}"]`)) || (f.testid && pick(`[data-testid="${esc(f.testid)}"]`))
    || pick("[data-testid=hand] button") || pick("[data-testid=actions] button");
  if (el) el.focus();
}

function focusFirst(root, sel) {
  const el = root.querySelector(sel);
  if (el) el.focus();
}
