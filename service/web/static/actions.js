// Legal actions, from their marks (docs/clients.md): an action whose marks name a hand card is that
// card's control; every other one is a button. Labels are the game's words for the action's type
// and for each field marked as a choice; nothing here knows a game.

// { byCard: Map(card id -> [actions]), buttons: [actions] }; equal ids in a hand are one card's
// copies, and so are ids of one face (a second deck's copy): the rules may offer a move with one
// copy only, and the other copy gets the same moves (what is sent names the copy the rules chose).
export function group(game, legal, hand) {
  const byCard = new Map(hand.map((c) => [c, []]));
  const buttons = [];
  for (const a of legal) {
    const card = game.cardOf(a);
    if (card !== null && byCard.has(card)) byCard.get(card).push(a);
    else buttons.push(a);
  }
  const byFace = new Map();
  for (const [c, acts] of byCard) if (acts.length && !byFace.has(game.faceId(c))) byFace.set(game.faceId(c), acts);
  for (const [c, acts] of byCard) if (!acts.length && byFace.has(game.faceId(c))) byCard.set(c, byFace.get(game.faceId(c)));
  for (const [c, acts] of byCard) byCard.set(c, ordered(acts));
  return { byCard, buttons };
}

// A card's ways to play, the fullest first: an action saying yes to a choice (a flag that is true,
// such as announcing with the last card but one) before the same without it.
function ordered(actions) {
  const score = (a) => Object.values(a).filter((x) => x === true).length * 2 - Object.values(a).filter((x) => x === false).length;
  return actions.map((a, i) => [a, i]).sort((x, y) => score(y[0]) - score(x[0]) || x[1] - y[1]).map(([a]) => a);
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
