// Legal actions, generically: an action is "about" a hand card when one of its string fields names
// that card (its id, its short form "7H", or the part after the card's prefix, as "k2" for "cat:k2").
// Every other action is a button. Labels come from the action's type and fields, never from a game.
import { suitText } from "./cards.js";
import { humanize } from "./dom.js";
import { t } from "./i18n.js";

const CONTEXT_FIELDS = new Set(["type", "card", "kind", "step", "seen_step"]); // shown by the control itself

function names(card, value) {
  if (typeof value !== "string" || !value) return false;
  return card === value || card.startsWith(`${value}:`) || card.endsWith(`:${value}`);
}

export function cardsOf(action, hand) {
  const cards = [...new Set(hand)];
  if (typeof action.card === "string") return cards.filter((c) => names(c, action.card));
  for (const [k, v] of Object.entries(action)) {
    if (k === "type") continue;
    const hit = cards.filter((c) => names(c, v));
    if (hit.length) return hit;
  }
  return [];
}

// { byCard: Map(card id -> [actions]), buttons: [actions] }
export function group(legal, hand) {
  const byCard = new Map(hand.map((c) => [c, []]));
  const buttons = [];
  for (const a of legal) {
    const cards = cardsOf(a, hand);
    if (!cards.length) buttons.push(a);
    for (const c of cards) byCard.get(c).push(a);
  }
  return { byCard, buttons };
}

export function actionJson(action) {
  return JSON.stringify(action);
}

export function typeLabel(type, view) {
  if (type === "announce") return t("action.announce", { word: announceWord(view) });
  return t(`action.${type}`, {}, humanize(type));
}

export function announceWord(view) {
  const w = view && view.options && view.options.announce_word;
  return typeof w === "string" && w ? w : t("announce.default");
}

// The words for the fields a control does not show by itself: "call ♠ S", "say Mau", "x: y".
export function extras(action, view) {
  const out = [];
  for (const [k, v] of Object.entries(action)) {
    if (CONTEXT_FIELDS.has(k)) continue;
    if (k === "called_suit") out.push(t("action.call", { suit: suitText(v) }));
    else if (k === "announce") out.push(v ? t("action.say", { word: announceWord(view) }) : t("action.silent"));
    else out.push(`${humanize(k)}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
  }
  return out;
}

export function describe(action, view, cardName) {
  const about = typeof action.card === "string" ? cardName(action.card)
    : typeof action.kind === "string" ? action.kind : null;
  const head = about ? `${typeLabel(action.type, view)} ${about}` : typeLabel(action.type, view);
  return [head, ...extras(action, view)].join(" \u00b7 ");
}
