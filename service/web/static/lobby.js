// The lobby: open and running tables (listGames) with join / watch / back-to-my-seat, and the create
// form built from the catalogue (listVariants). Creating a table takes the creator's own seat.
import { ApiError, api } from "./api.js";
import { clear, h } from "./dom.js";
import { OptionsForm } from "./form.js";
import { Game } from "./game.js";
import { t } from "./i18n.js";
import { remember, seatOf } from "./store.js";

export class LobbyPage {
  constructor(root, catalogue, go) {
    Object.assign(this, { root, catalogue, go, error: null });
    this.lists = h("div", { class: "lists" });
    this.errorEl = h("p", { class: "error", role: "alert", "data-testid": "error", hidden: true });
    root.append(h("section", { class: "lobby", "aria-labelledby": "lobby-title", "data-testid": "lobby" },
      h("h2", { id: "lobby-title" }, t("lobby.title")), this.errorEl,
      h("div", { class: "lobby-cols" }, this.createForm(), h("div", {},
        h("button", { type: "button", class: "secondary", "data-testid": "refresh", onclick: () => this.refresh() }, t("lobby.refresh")),
        this.lists))));
    this.refresh();
    this.poll = setInterval(() => this.refresh(), 5000);
  }

  destroy() { clearInterval(this.poll); }

  // A variant by its name in the page's language (its game's words `variant.<name>`), else its id.
  variantName(name) {
    const entry = (this.catalogue || []).find((x) => x.name === name);
    return entry ? new Game(entry).variantName(name) : name;
  }

  showError(e) {
    this.errorEl.hidden = !e;
    this.errorEl.textContent = e ? (e instanceof ApiError ? e.message : String(e.message || e)) : "";
  }

  async refresh() {
    try {
      const [open, running] = await Promise.all([api.games("open"), api.games("running")]);
      clear(this.lists).append(this.list("open", open.games), this.list("running", running.games));
    } catch (e) {
      this.showError(e);
    }
  }

  list(status, games) {
    return h("section", { "aria-labelledby": `list-${status}` },
      h("h3", { id: `list-${status}` }, t(`lobby.${status}`)),
      games.length ? h("ul", { class: "games", "data-testid": `games-${status}` }, games.map((g) => {
        const mine = seatOf(g.id).token;
        return h("li", { "data-game": g.id },
          h("span", { class: "game-name" }, g.name || g.id), " ",
          h("span", { class: "meta" }, `${this.variantName(g.variant)} \u00b7 ${t("lobby.players", { n: g.players, max: g.max_players })}`), " ",
          mine ? h("a", { href: `#/g/${g.id}`, "data-testid": "back", class: "button" }, t("lobby.back"))
            : [status === "open" ? h("a", { href: `#/g/${g.id}`, "data-testid": "join-table", class: "button" }, t("lobby.join")) : null,
              h("a", { href: `#/g/${g.id}`, "data-testid": "watch", class: "button secondary" }, t("lobby.watch"))]);
      })) : h("p", { class: "empty" }, t("lobby.none")));
  }

  createForm() {
    const variants = this.catalogue;
    const select = h("select", { id: "new-variant", "data-testid": "variant" }, variants.map((v) =>
      h("option", { value: v.name }, this.variantName(v.name))));
    const name = h("input", { id: "new-name", "data-testid": "table-name", maxlength: 100, placeholder: t("form.optional") });
    const me = h("input", { id: "new-me", "data-testid": "your-name", maxlength: 40, required: true,
      value: localStorage.getItem("meow:name") || "", autocomplete: "nickname" });
    const players = h("input", { id: "new-players", "data-testid": "players", type: "number", step: 1 });
    const holder = h("div", {});
    let options = null;
    const pick = () => {
      const v = variants.find((x) => x.name === select.value) || variants[0];
      players.min = v.min_players; players.max = v.max_players; players.value = v.max_players;
      options = new OptionsForm(v, new Game(v));
      clear(holder).append(options.el);
    };
    // the last game this browser created, else a game's own preset (named as the game), else the first
    const saved = localStorage.getItem("meow:variant");
    const plain = variants.find((v) => v.name === v.game);
    if (variants.some((v) => v.name === saved)) select.value = saved;
    else if (plain) select.value = plain.name;
    select.addEventListener("change", () => { localStorage.setItem("meow:variant", select.value); pick(); });
    const form = h("form", { class: "create", "data-testid": "create-form", "aria-labelledby": "create-title",
      onsubmit: async (e) => {
        e.preventDefault();
        this.showError(null);
        try {
          const who = me.value.trim();
          if (!who) throw new Error(t("join.name_needed"));
          localStorage.setItem("meow:name", who);
          const body = { variant: select.value, options: options.changed(), max_players: Number(players.value) };
          if (name.value.trim()) body.name = name.value.trim();
          const g = await api.create(body);
          remember(g.id, { owner_token: g.owner_token });
          const seat = await api.takeSeat(g.id, { name: who }, g.owner_token);
          remember(g.id, { token: seat.token, seat: seat.seat });
          this.go(`#/g/${g.id}`);
        } catch (err) {
          this.showError(err);
        }
      } },
    h("h3", { id: "create-title" }, t("create.title")),
    h("div", { class: "field" }, h("label", { for: "new-variant" }, t("create.variant")), select),
    h("div", { class: "field" }, h("label", { for: "new-name" }, t("create.name")), name),
    h("div", { class: "field" }, h("label", { for: "new-me" }, t("create.you")), me),
    h("div", { class: "field" }, h("label", { for: "new-players" }, t("create.players")), players),
    h("details", { class: "all-options" }, h("summary", {}, t("create.options")), holder),
    h("button", { type: "submit", class: "primary", "data-testid": "create" }, t("create.button")));
    pick();
    return form;
  }
}

