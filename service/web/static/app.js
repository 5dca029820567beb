// The web table's entry point: the language switch, and a hash router: "#/" the lobby, "#/g/<id>" a table.
import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { LANGS, lang, pickLang, t, useLang } from "./i18n.js";
import { LobbyPage } from "./lobby.js";
import { TablePage } from "./table.js";

const main = document.getElementById("main");
let page = null;
let catalogue = [];

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function route() {
  if (page && page.destroy) page.destroy();
  clear(main);
  const m = /^#\/g\/([A-Za-z0-9_-]+)/.exec(location.hash);
  page = m ? new TablePage(main, m[1], catalogue) : new LobbyPage(main, catalogue, go);
  document.title = m ? `meow \u00b7 ${m[1]}` : `meow \u00b7 ${t("lobby.title")}`;
  main.focus({ preventScroll: true });
}

function chrome() {
  const bar = document.getElementById("bar");
  clear(bar);
  const select = h("select", { id: "lang", "data-testid": "lang", "aria-label": t("lang.label") },
    LANGS.map((l) => h("option", { value: l, selected: l === lang() }, t(`lang.${l}`))));
  select.addEventListener("change", async () => { // every label at once: the bar and the page drawn anew
    if (await useLang(select.value, true)) { chrome(); route(); } else if (select.value !== lang()) chrome();
  });
  bar.append(h("a", { href: "#/", class: "home", "data-testid": "home" }, h("img", { src: "/web/favicon.svg", alt: "", class: "logo" }), "meow"),
    h("span", { class: "tagline" }, t("app.tagline")),
    h("label", { for: "lang", class: "lang-label" }, t("lang.label")), select);
  document.getElementById("skip").textContent = t("app.skip");
}

async function boot() {
  if (!(await useLang(pickLang()))) await useLang("en");
  chrome();
  try {
    catalogue = (await api.variants()).variants;
  } catch (e) {
    main.append(h("p", { class: "error", role: "alert", "data-testid": "error" }, e.message));
    return;
  }
  window.addEventListener("hashchange", route);
  document.getElementById("skip").addEventListener("click", (e) => { e.preventDefault(); main.focus(); });
  route();
}

boot();
