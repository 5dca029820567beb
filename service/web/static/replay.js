// A finished game: a slider over GET /state?at=N (the view right after event N, with the caller's
// redaction), each position named by its event from the history (for those who may read it), and
// the server's verifyGame report, in words.
import { ApiError, api } from "./api.js";
import { describeEvent, fields } from "./board.js";
import { cardView } from "./cards.js";
import { clear, h, humanize } from "./dom.js";
import { t, tn } from "./i18n.js";

export class Replay {
  constructor(view, token, game) {
    Object.assign(this, { gameId: view.id, version: view.version, token, game });
    this.slider = h("input", { type: "range", id: "replay-at", min: 1, max: view.version, value: view.version, step: 1,
      "data-testid": "replay-slider", "aria-valuetext": t("replay.at", { n: view.version, of: view.version }) });
    this.out = h("div", { class: "replay-state", "data-testid": "replay-state", "aria-live": "polite" });
    this.report = h("div", { class: "verify", "data-testid": "verify-report" });
    this.slider.addEventListener("input", () => this.schedule());
    this.el = h("section", { class: "replay", "aria-labelledby": "replay-title", "data-testid": "replay" },
      h("h3", { id: "replay-title" }, t("replay.title")),
      h("label", { for: "replay-at" }, t("replay.label")), this.slider,
      h("div", { class: "replay-buttons", role: "group", "aria-label": t("replay.title") },
        h("button", { type: "button", "data-testid": "replay-prev", onclick: () => this.by(-1) }, t("replay.prev")),
        h("button", { type: "button", "data-testid": "replay-next", onclick: () => this.by(1) }, t("replay.next"))),
      this.out,
      h("h3", {}, t("verify.title")),
      h("button", { type: "button", "data-testid": "verify", onclick: () => this.verify() }, t("verify.button")),
      this.report);
    this.history = null; // the log (players, owner and audit tokens), to say what each position's event was
    if (this.token) { // a reader with no token may not read it: not asked
      api.history(this.gameId, this.token).then((r) => { this.history = r.events; this.show(Number(this.slider.value)); },
        () => {});
    }
    this.show(view.version);
    this.verify();
  }

  by(d) {
    this.slider.value = String(Math.min(this.version, Math.max(1, Number(this.slider.value) + d)));
    this.schedule();
  }

  schedule() {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.show(Number(this.slider.value)), 80);
  }

  async show(at) {
    this.slider.setAttribute("aria-valuetext", t("replay.at", { n: at, of: this.version }));
    try {
      const v = await api.stateAt(this.gameId, at, this.token);
      if (Number(this.slider.value) !== at) return; // the slider moved on meanwhile
      clear(this.out).append(this.renderState(v, at));
    } catch (e) {
      clear(this.out).append(h("p", { class: "error", role: "alert" }, e instanceof ApiError ? e.message : String(e)));
    }
  }

  renderState(v, at) {
    const game = this.game;
    const facts = [];
    if (v.phase) facts.push(game.tell(`phase.${v.phase}`, {}, humanize(v.phase)));
    if (v.round) facts.push(t("table.round", { n: v.round }));
    if (v.turn && v.turn.seat !== null && v.turn.seat !== undefined) facts.push(t("turn.of", { name: game.seatName(v.turn.seat) }));
    const top = fields(game, "table", v.table).filter((f) => f.mark.show === "top" && f.value !== null && f.value !== undefined);
    const ev = this.history && this.history[at - 1];
    return h("div", { "data-testid": "replay-view", "data-at": at, "data-version": v.version },
      h("p", {}, t("replay.at", { n: at, of: this.version }), facts.length ? ` \u00b7 ${facts.join(" \u00b7 ")}` : ""),
      ev && ev.seq === at ? h("p", { "data-testid": "replay-event", "data-type": ev.type }, describeEvent(game, ev)) : null,
      top.length ? h("p", {}, top.map((f) => [`${game.fieldLabel(f.name)}: `, f.mark.kind === "card"
        ? cardView(game, String(f.value), { "data-testid": "replay-top-card", class: "small" })
        : game.readField(f.name, f.value, f.mark.kind), " "])) : null,
      h("ul", { class: "replay-seats" }, v.seats.map((s) => h("li", {},
        `${s.name}: ${tn("seat.cards", s.hand_count)}, ${t("seat.score", { n: s.score })}`))),
      v.you && v.you.hand.length ? h("p", { "data-testid": "replay-hand" }, t("replay.your_hand"), " ",
        v.you.hand.map((c) => cardView(game, c, { class: "small" }))) : null);
  }

  async verify() {
    clear(this.report).append(h("p", {}, t("loading")));
    try {
      const r = await api.verify(this.gameId, this.token);
      clear(this.report).append(this.renderReport(r));
    } catch (e) {
      clear(this.report).append(h("p", { class: "error", role: "alert", "data-testid": "verify-error" },
        e instanceof ApiError ? e.message : String(e)));
    }
  }

  renderReport(r) {
    const line = (ok, text) => h("li", { class: ok ? "ok" : "bad" }, h("span", { "aria-hidden": "true" }, ok ? "\u2714 " : "\u2718 "),
      `${text}: ${ok ? t("verify.ok") : t("verify.bad")}`);
    const parts = [];
    for (const [k, x] of Object.entries(r)) {
      if (x && typeof x === "object" && !Array.isArray(x) && "ok" in x) {
        const detail = Object.entries(x).filter(([kk]) => kk !== "ok").map(([kk, vv]) => (typeof vv === "number" ? tn(`verify.${kk}`, vv, {}, `${humanize(kk)} ${vv}`) : `${humanize(kk)} ${vv}`)).join(", ");
        parts.push(line(x.ok, `${t(`verify.${k}`, {}, humanize(k))}${detail ? ` (${detail})` : ""}`));
      }
    }
    return h("div", { "data-testid": "verify-result", "data-ok": r.ok ? "true" : "false" },
      h("p", { class: r.ok ? "ok" : "bad" }, r.ok ? t("verify.all_ok", { n: r.events }) : t("verify.failed", { seq: r.first_bad_seq ?? "?" })),
      h("ul", {}, parts),
      (r.problems || []).length ? h("ul", { class: "bad" }, r.problems.map((p) => h("li", {}, typeof p === "string" ? p : JSON.stringify(p)))) : null);
  }
}

