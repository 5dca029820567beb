// What the page keeps in the browser's localStorage: per game the seat token, the seat and the owner
// token (key "meow:game:<id>", a JSON object), and the chosen language ("meow:lang"). docs/web.md.
const PREFIX = "meow:game:";

function read(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; }
}

export function seatOf(gameId) {
  return read(PREFIX + gameId) || {};
}

export function remember(gameId, patch) {
  const next = { ...seatOf(gameId), ...patch };
  for (const [k, v] of Object.entries(next)) if (v === null || v === undefined) delete next[k];
  localStorage.setItem(PREFIX + gameId, JSON.stringify(next));
  return next;
}

export function forgetSeat(gameId) {
  const { owner_token } = seatOf(gameId);
  localStorage.removeItem(PREFIX + gameId);
  if (owner_token) remember(gameId, { owner_token });
}

export function knownGames() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k && k.startsWith(PREFIX)) out.push(k.slice(PREFIX.length));
  }
  return out;
}

export function getLang() { return localStorage.getItem("meow:lang"); }
export function setLang(lang) { localStorage.setItem("meow:lang", lang); }
