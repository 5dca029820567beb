// Cards as the catalogue draws them (game.js): a label (a rank or value), a suit's symbol and id, or
// an icon, and a colour hint that is never the only carrier of meaning.
import { h } from "./dom.js";

export function face(game, id) {
  const f = game.face(id);
  if (f.suit) {
    const s = game.suit(f.suit);
    return [h("span", { class: "face-label" }, f.label || ""), h("span", { class: "face-symbol", "aria-hidden": "true" }, s.symbol || ""),
      h("span", { class: "face-suit", "aria-hidden": "true" }, f.suit)];
  }
  // a card with no suit shows its label's words when the game has some (a kind's name), else the label
  const label = f.label && game.has(`label.${f.label}`) ? game.words[`label.${f.label}`] : f.label || String(id);
  return [f.symbol ? h("span", { class: "face-icon", "aria-hidden": "true" }, f.symbol) : null,
    h("span", { class: `face-label${label.length > 7 ? " longer" : label.length > 4 ? " long" : ""}` }, label)];
}

export function cardClass(game, id) {
  const f = game.face(id);
  const hint = f.colour || (f.suit && game.suit(f.suit).colour) || "";
  return `card${f.suit ? "" : " token"}${/^[a-z0-9-]+$/.test(hint) ? ` hint-${hint}` : ""}`;
}

// A card that is only shown (the table's cards, a seat's cards, the replay, a spectator's view).
export function cardView(game, id, attrs = {}) {
  const { class: extra, ...rest } = attrs;
  return h("span", { class: `${cardClass(game, id)}${extra ? ` ${extra}` : ""}`, "data-card": id, role: "img",
    "aria-label": game.cardName(id), ...rest }, face(game, id));
}
