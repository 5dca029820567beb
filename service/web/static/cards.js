// Cards as API.md names them: rank, suit letter, copy ("7H:0", "10S:1"); any other id ("cat:k2",
// "par:fleas:2:a") is shown by its parts. Suits carry a symbol and a letter, never colour alone.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const SUITS = {
  H: { symbol: "\u2665", red: true }, D: { symbol: "\u2666", red: true },
  S: { symbol: "\u2660", red: false }, C: { symbol: "\u2663", red: false },
};
const PLAYING = /^(10|[2-9JQKA])([HDSC])(?::(\d+))?$/;
const ICONS = { cat: "\u{1F408}", par: "\u{1FAB3}", ins: "\u{1F9F4}", shower: "\u{1F6BF}" };

export function parseCard(id) {
  const m = PLAYING.exec(String(id));
  if (m) return { rank: m[1], suit: m[2], copy: m[3] };
  const parts = String(id).split(":");
  return { prefix: parts[0], rest: parts.slice(1) };
}

export function suitText(letter) {
  const s = SUITS[letter];
  return s ? `${s.symbol} ${letter}` : String(letter);
}

export function suitName(letter) {
  return t(`suit.${letter}`, {}, letter);
}

export function cardName(id) {
  const c = parseCard(id);
  if (c.rank) return t("card.name", { rank: t(`rank.${c.rank}`, {}, c.rank), suit: suitName(c.suit) });
  if (c.prefix === "cat") return t("card.cat", { kind: c.rest.join(" ") });
  return [c.prefix, ...c.rest].join(" ");
}

function hueOf(text) {
  let n = 0;
  for (const ch of text) n = (n * 31 + ch.charCodeAt(0)) % 360;
  return n;
}

// The face of a card: rank and suit symbol and letter (playing cards), or an icon and its parts.
export function face(id) {
  const c = parseCard(id);
  if (c.rank) {
    const s = SUITS[c.suit];
    return [h("span", { class: "rank" }, c.rank), h("span", { class: "suit", "aria-hidden": "true" }, s.symbol),
      h("span", { class: "suit-letter", "aria-hidden": "true" }, c.suit)];
  }
  return [h("span", { class: "icon", "aria-hidden": "true" }, ICONS[c.prefix] || "\u{1F0A0}"),
    h("span", { class: "rank" }, c.rest.slice(0, 2).join(" ") || c.prefix)];
}

export function cardClass(id) {
  const c = parseCard(id);
  if (c.rank) return `card suit-${c.suit}${SUITS[c.suit].red ? " red" : ""}`;
  return `card token kind-${(hueOf(c.rest[0] || c.prefix) % 6)}`;
}

// A card that is only shown (top card, replay, a spectator's view of the table).
export function cardView(id, attrs = {}) {
  return h("span", { class: cardClass(id), "data-card": id, role: "img", "aria-label": cardName(id), ...attrs }, face(id));
}
