// The table page: loads the view (API.md's GET /v1/games/{id}) with this browser's token, follows the
// live feed, and renders your hand with its legal actions, the owner's and the joiner's controls and
// the feed's log around the public parts (board.js); a finished game adds the replay.
import { ApiError, api, serverNow } from "./api.js";
import { actionJson, describe, extras, group, typeLabel } from "./actions.js";
import { bannerPanel, describeEvent, handsIn, headlineOf, ownExtra, scoresPanel, seatView, seatsPanel, tablePanel, timerOf, turnExtras,
  turnText } from "./board.js";
import { cardClass, face } from "./cards.js";
import { rematchPanel } from "./rematch.js";
import { Game } from "./game.js";
import { clear, focusFirst, h, restoreFocus, rememberFocus } from "./dom.js";
import { Feed } from "./feed.js";
import { lang, t } from "./i18n.js";
import { Replay } from "./replay.js";
import { forgetSeat, remember, seatOf } from "./store.js";

export class TablePage {
  constructor(root, gameId, catalogue) {
    Object.assign(this, { root, gameId, catalogue, view: null, error: null, notice: null, choosing: null, log: [] });
    this.seen = 0; // the last event seq taken into the log
    this.reveal = null; // the hands shown at the end of the latest round: { seq, round, hands }
    this.drawn = { top: null, lastSeq: 0 }; // what the last render showed, to animate only what changed
    this.game = new Game(null);
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
      if (!this.seeded) await this.seed(view);
      this.show(view);
      if (!this.feed && view.status !== "finished") this.openFeed(view.version);
    } catch (e) {
      this.fail(e);
    }
  }

  // The story so far when the page opens: the last events up to the view's version (JSON feed), so
  // the log, the last move and a round's revealed hands are there after a reload too.
  async seed(view) {
    this.seeded = true;
    this.game = new Game((this.catalogue || []).find((x) => x.name === view.variant));
    this.game.view = view;
    try {
      const r = await api.events(this.gameId, Math.max(0, view.version - 60), this.seat.token);
      for (const ev of r.events || []) if (ev.seq <= view.version) this.take(ev);
    } catch { /* the story starts with the live feed then */ }
  }

  take(ev) {
    if (ev.seq <= this.seen) return;
    this.seen = ev.seq;
    const hands = this.view || this.game.view ? handsIn(this.game, this.view || this.game.view, ev.data) : null;
    if (hands) this.reveal = { seq: ev.seq, round: (this.view || this.game.view).round, hands };
    if (ev.data && typeof ev.data.reason === "string" && ("winner" in ev.data || "winners" in ev.data)) this.endEvent = ev;
    if (!this.game.quiet(ev.type)) {
      this.log.push(ev);
      if (this.log.length > 60) this.log.shift();
    }
  }

  openFeed(after) {
    if (this.feed) this.feed.close();
    this.feed = new Feed(this.gameId, this.seat.token, after, this.game.endEvent, {
      onEvent: (ev) => this.onEvent(ev),
      onStatus: (s, last) => this.feedStatus(s, last),
      onRevoked: () => { forgetSeat(this.gameId); this.feed = null; this.say(t("table.revoked")); this.load(); },
      onEnd: () => this.refresh(),
    });
  }

  onEvent(ev) {
    this.take(ev);
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
    const earlier = this.view;
    // an answer overtaken by a newer one (a read started before an event another read already
    // brought): drawing it would take back what the page showed, with no event left to redo it
    if (earlier && earlier.id === view.id && view.version < earlier.version) return;
    this.view = view;
    if (!earlier || earlier.variant !== view.variant) this.game = new Game((this.catalogue || []).find((x) => x.name === view.variant));
    this.game.view = view;
    if (this.reveal && view.status === "running" && !view.intermission_deadline && view.round !== this.reveal.round) this.reveal = null;
    if (view.status === "finished" && this.feed) { this.feed.close(); this.feed = null; }
    if (view.you) remember(this.gameId, { seat: view.you.seat });
    if (earlier && earlier.version !== view.version) this.error = null;
    this.render();
  }

  fail(e) {
    this.error = e instanceof ApiError ? e.message : String(e);
    this.render();
  }

  say(text) {
    this.notice = text;
    this.late = null;
    const el = this.root.querySelector("[data-testid=notice]");
    if (el) el.textContent = text;
  }

  async run(fn, okText, fromSeat = false, move = false) {
    this.error = null;
    try {
      const out = await fn();
      if (okText) { this.notice = okText; this.late = null; }
      // an action answers with the acting seat's view; seats and start answer for the token that sent
      // them (the owner's, or none), so read the seat's own view then
      if (out && out.game && fromSeat) this.show(out.game);
      else await this.load();
      return out;
    } catch (e) {
      const late = move && e instanceof ApiError && (e.status === 409 || e.status === 412);
      if (late) this.tooLate(e.message);
      else this.fail(e);
      if (e instanceof ApiError && (e.status === 409 || e.status === 412 || e.status === 422)) this.refresh();
      return null;
    }
  }

  // A move: when the feed has brought an event the view does not hold yet, the view is read first
  // and the move posted only if it is still legal; a move refused because the table moved on
  // (409, 412) is told in words. docs/web.md: stale taps.
  async act(action) {
    if (this.feed && this.view && this.feed.last > this.view.version) {
      await this.load();
      const legal = (this.view && this.view.you && this.view.you.legal_actions) || [];
      if (!legal.some((a) => actionJson(a) === actionJson(action))) {
        this.choosing = null;
        this.tooLate();
        return null;
      }
    }
    this.choosing = null;
    this.notice = null;
    this.late = null;
    return this.run(() => api.act(this.gameId, action, this.seat.token, this.view && this.view.version), null, true, true);
  }

  tooLate(detail = "") {
    this.notice = t("table.too_late");
    this.late = { detail }; // drawn with the notice until the next move or notice
    this.render();
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

  // The last move told (the newest event of the log with words), for the felt and its seat.
  lastMove() {
    for (let i = this.log.length - 1; i >= 0; i--) {
      const ev = this.log[i];
      const text = describeEvent(this.game, ev);
      if (!text) continue;
      const seat = ev.seat ?? (ev.data && typeof ev.data.seat === "number" ? ev.data.seat : null);
      return { seq: ev.seq, seat, text, fresh: ev.seq > this.drawn.lastSeq };
    }
    return null;
  }

  // The end of a round or match: the hands shown, and the table's own events of the end in words
  // (the told events at the log's tail that no seat made: the round ended, scored, the match over).
  ending() {
    const told = [];
    for (let i = this.log.length - 1; i >= 0; i--) {
      const ev = this.log[i];
      if (ev.seat !== null && ev.seat !== undefined) break;
      if (handsIn(this.game, this.view, ev.data)) continue;
      const text = describeEvent(this.game, ev);
      if (text) told.unshift(text);
    }
    return { hands: this.reveal ? this.reveal.hands : null, told: told.slice(-4), headline: headlineOf(this.game, this.endEvent) };
  }

  render() {
    const focus = rememberFocus(this.root);
    clear(this.root);
    const v = this.view;
    if (!v) {
      this.root.append(h("p", { "data-testid": "error", role: "alert", class: "error" }, this.error || t("loading")));
      return;
    }
    const last = this.lastMove();
    const topNow = JSON.stringify(v.table ? Object.entries(v.table).filter(([k]) => this.game.mark("table", k).show === "top") : null);
    const freshTop = this.drawn.top !== null && this.drawn.top !== topNow;
    this.drawn = { top: topNow, lastSeq: last ? last.seq : this.drawn.lastSeq };
    const open = v.status === "open";
    const section = h("section", { class: `table${v.you ? " seated" : ""}`, "data-testid": "table", "data-game": v.id, "data-version": v.version,
      "data-status": v.status, "data-phase": v.phase || "", "aria-labelledby": "table-title" },
    this.header(v),
    h("p", { class: "error", role: "alert", "data-testid": "error", hidden: !this.error }, this.error || ""),
    h("p", { class: "notice", "aria-live": "polite", "data-testid": "notice", "data-state": this.late ? "too-late" : null,
      title: this.late && this.late.detail ? this.late.detail : null }, this.notice || ""),
    open ? [this.ownerPanel(v), this.joinPanel(v)] : null,
    h("div", { class: "tabletop" },
      h("div", { class: "playfield" },
        bannerPanel(this.game, v, this.ending()),
        rematchPanel(v, (e) => this.fail(e)),
        seatsPanel(this.game, v, last),
        tablePanel(this.game, v, last, freshTop),
        this.youPanel(v, last)),
      h("aside", { class: "side", "aria-label": t("side.title") }, this.logPanel(v), scoresPanel(this.game, v))),
    open ? null : [this.ownerPanel(v), this.joinPanel(v)],
    v.status === "finished" ? this.replayPanel(v) : null);
    this.root.append(section);
    restoreFocus(this.root, focus);
    this.tick();
  }

  // The table's name, else the game's and its first seat's (the owner sits down first).
  title(v) {
    if (v.name) return v.name;
    const game = this.game.variantName(v.variant);
    return v.seats.length ? t("table.default_title", { game, name: v.seats[0].name }) : game;
  }

  header(v) {
    const status = t(`status.${v.status}`, {}, v.status);
    const title = this.title(v);
    document.title = `meow \u00b7 ${title}`;
    const until = timerOf(this.game, "turn", v.turn);
    const mine = v.you && v.turn && v.turn.seat === v.you.seat;
    return h("header", { class: "table-head" },
      h("div", { class: "title-row" },
        h("h2", { id: "table-title" }, title),
        h("a", { class: "to-story", href: "#story", onclick: (e) => { e.preventDefault(); this.root.querySelector("#story")?.scrollIntoView(); } },
          t("log.title"))),
      h("p", { class: "meta" },
        h("span", { "data-testid": "variant", "data-variant": v.variant }, this.game.variantName(v.variant)), " \u00b7 ",
        h("span", { "data-testid": "status" }, status),
        v.round ? [" \u00b7 ", t("table.round", { n: v.round })] : null, " \u00b7 ",
        h("span", { class: "feed", "data-testid": "feed-status", "data-state": this.feed ? this.feed.state || "" : "off",
          "data-last-event-id": this.feed ? this.feed.last : v.version },
        this.feed ? t(`feed.${this.feed.state || "connecting"}`) : t("feed.off"))),
      h("p", { class: `turn${mine ? " yours" : ""}`, "data-testid": "turn", "aria-live": "polite" }, turnText(this.game, v), turnExtras(this.game, v),
        until ? [" ", h("span", { class: "timer", "data-testid": "timer", "data-until": until })] : null,
        v.intermission_deadline ? [" \u00b7 ", t("table.next_round"), " ", h("span", { class: "timer", "data-testid": "intermission",
          "data-until": v.intermission_deadline, "data-format": "in" })] : null));
  }

  youPanel(v, last = null) {
    const you = v.you;
    if (!you) return null;
    const legal = you.legal_actions || [];
    const game = this.game;
    const { byCard, buttons } = group(game, legal, you.hand);
    if (this.choosing && !(byCard.get(this.choosing) || []).length) this.choosing = null;
    const hand = h("ul", { class: "hand", "data-testid": "hand", "aria-label": t("you.hand") },
      you.hand.map((c) => h("li", {}, this.cardControl(c, byCard.get(c) || []))));
    const choices = this.choosing ? byCard.get(this.choosing) : null;
    const extrasOfYou = Object.entries(you).filter(([k]) => !["seat", "hand", "legal_actions"].includes(k))
      .sort(([a], [b]) => Number(game.mark("you", b).show === "note") - Number(game.mark("you", a).show === "note")); // notes first: beside your moves
    const me = v.seats.find((s) => s.seat === you.seat);
    const turn = v.turn && v.turn.seat === you.seat;
    return h("section", { class: `you${v.status === "running" && !v.intermission_deadline ? " dock" : ""}${turn || legal.length ? " acting" : ""}${choices && choices.length > 1 ? " choosing" : ""}`, "aria-labelledby": "you-title", "data-testid": "you", "data-seat": you.seat },
      h("h3", { id: "you-title", class: "sr-only" }, t("you.title", { name: this.name(you.seat) })),
      me ? h("ul", { class: "me" }, seatView(game, v, me, last)) : null,
      hand,
      choices && choices.length > 1 ? this.chooser(choices) : null,
      h("div", { class: "actions", "data-testid": "actions", role: "group", "aria-label": t("you.actions") },
        buttons.map((a) => h("button", { type: "button", "data-testid": `action-${a.type}`, "data-action": actionJson(a),
          onclick: () => this.act(a) }, describe(game, a))),
        !legal.length && v.status === "running" ? h("span", { class: "idle" }, t("you.wait")) : null),
      extrasOfYou.map(([k, x]) => ownExtra(game, k, x)));
  }

  // The ways to play the card being chosen. While they stay the same, a re-render (another seat's
  // event) keeps this very element: it stays open, and a tap already under way lands.
  chooser(choices) {
    const game = this.game;
    const key = [lang(), this.choosing, ...choices.map(actionJson)].join("\n");
    if (this.kept && this.kept.key === key) return this.kept.el;
    const el = h("div", { class: "chooser", role: "group", "data-testid": "chooser",
      "aria-label": t("you.choose", { card: game.cardName(this.choosing) }), onkeydown: (e) => this.chooserKey(e) },
    choices.map((a) => h("button", { type: "button", class: "choice", "data-testid": "choice", "data-action": actionJson(a),
      onclick: () => this.act(a) }, [typeLabel(game, a.type), ...extras(game, a)].join(" \u00b7 "))),
    h("button", { type: "button", class: "secondary", "data-testid": "choice-cancel",
      onclick: () => { this.choosing = null; this.render(); } }, t("cancel")));
    this.kept = { key, el };
    return el;
  }

  // On a small screen the dock with an open chooser may cover the felt: scroll so that the top
  // card and the called suit stay in sight above it.
  keepInSight() {
    const piles = this.root.querySelector(".felt .piles");
    const dock = this.root.querySelector(".you.dock");
    if (!piles || !dock) return;
    const r = piles.getBoundingClientRect();
    const limit = dock.getBoundingClientRect().top;
    if (r.bottom > limit) window.scrollBy(0, Math.min(r.bottom - limit + 8, r.top - 8));
    else if (r.top < 0) window.scrollBy(0, r.top - 8);
  }

  chooserKey(e) { // Escape closes the chooser and gives the focus back to its card
    if (e.key !== "Escape") return;
    const card = this.choosing;
    this.choosing = null;
    this.render();
    const el = this.root.querySelector(`[data-testid=hand] [data-card="${CSS.escape(card)}"]`);
    if (el) el.focus();
  }

  cardControl(card, actions) {
    const game = this.game;
    const name = game.cardName(card);
    if (!actions.length) {
      return h("span", { class: `${cardClass(game, card)} idle`, "data-card": card, "data-testid": "card", role: "img",
        "aria-label": name }, face(game, card));
    }
    if (actions.length === 1) {
      const a = actions[0];
      return h("button", { type: "button", class: `${cardClass(game, card)} legal`, "data-card": card, "data-testid": "card",
        "data-action": actionJson(a), "aria-label": describe(game, a),
        onclick: () => this.act(a) }, face(game, card));
    }
    return h("button", { type: "button", class: `${cardClass(game, card)} legal`, "data-card": card, "data-testid": "card",
      "data-choices": String(actions.length), "aria-haspopup": "true", "aria-expanded": this.choosing === card ? "true" : "false",
      "aria-label": t("you.card_choices", { card: name, n: actions.length }),
      onclick: () => {
        this.choosing = this.choosing === card ? null : card;
        this.render();
        focusFirst(this.root, "[data-testid=choice]");
        if (this.choosing) this.keepInSight();
      } },
    face(game, card));
  }

  ownerPanel(v) {
    const { owner_token } = this.seat;
    if (!owner_token || v.status === "finished") return null;
    const variant = (this.catalogue || []).find((x) => x.name === v.variant);
    const strengths = (variant && variant.bot_strengths) || ["easy"];
    const open = v.status === "open";
    return h(open ? "section" : "details", { class: "owner", "aria-labelledby": open ? "owner-title" : null, "data-testid": "owner",
      open: !open && this.ownerOpen, ontoggle: open ? null : (e) => { this.ownerOpen = e.currentTarget.open; } },
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

  replayPanel(v) {
    if (!this.replay || this.replay.gameId !== v.id) this.replay = new Replay(v, this.seat.token || this.seat.owner_token, this.game);
    return this.replay.el;
  }

  logPanel(v) {
    return h("section", { class: "log", id: "story", "aria-labelledby": "story-title" },
      h("h3", { id: "story-title" }, t("log.title")),
      h("ul", { "data-testid": "log", tabindex: 0, "aria-labelledby": "story-title" }, this.log.slice().reverse().map((ev) =>
        h("li", { "data-seq": ev.seq, "data-type": ev.type }, `#${ev.seq} `, describeEvent(this.game, ev)))));
  }

  tick() {
    for (const el of this.root.querySelectorAll("[data-until]")) {
      const left = Math.max(0, Math.ceil((Number(el.dataset.until) - serverNow()) / 1000));
      const text = el.dataset.format === "in" ? t("timer.in", { s: left }) : t("timer.left", { s: left });
      if (el.textContent !== text) el.textContent = text;
    }
  }
}
