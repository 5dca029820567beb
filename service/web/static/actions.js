// Legal actions, from their marks (docs/clients.md): an action whose marks name a hand card is that
// card's control; every other one is a button. Labels are the game's words for the action's type
// and for each field marked as a choice; nothing here knows a game.

// { byCard: Map(card id -> [actions]), buttons: [actions] }; equal ids in a hand are one card's copies
export function group(game, legal, hand) {
  const byCard = new Map(hand.map((c) => [c, []]));
  const buttons = [];
  for (const a of legal) {
    const card = game.cardOf(a);
    if (card !== null && byCard.has(card)) byCard.get(card).push(a);
    else buttons.push(a);
  }
  return { byCard, buttons };
}

export function actionJson(action) {
  return JSON.stringify(action);
}

export function typeLabel(game, type) {
  return game.tell(`action.${type}`, {});
}

// The words for the fields a control does not show by itself (the game's `arg.<field>`).
export function extras(game, action) {
  const out = [];
  for (const [k, v] of Object.entries(action)) {
    if (k === "type") continue;
    const mark = game.actionMark(action.type, k);
    if (mark.show === "card" || mark.show === "none") continue;
    if (typeof v === "boolean" && game.has(`arg.${k}.${v}`)) out.push(game.tell(`arg.${k}.${v}`, action));
    else if (game.has(`arg.${k}`)) out.push(game.tell(`arg.${k}`, { value: v }, undefined, { value: mark.kind }));
    else out.push(`${game.fieldLabel(k)}: ${game.read(v, mark.kind)}`);
  }
  return out;
}

// The whole label: the action's words, its card's spoken name, its arguments' words.
export function describe(game, action) {
  const card = game.cardOf(action);
  const head = card !== null ? `${typeLabel(game, action.type)} ${game.cardName(card)}` : typeLabel(game, action.type);
  return [head, ...extras(game, action)].join(" \u00b7 ");
}
