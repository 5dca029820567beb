// The public HTTP API (/v1, API.md), and nothing else. Errors become ApiError with the
// problem+json `detail` (and `code`) the server sent.
export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.code = problem && problem.code;
    this.problem = problem || {};
  }
}

// A strong Idempotency-Key (22+ of [A-Za-z0-9_-]) from getRandomValues: works outside secure contexts too.
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

let clockSkew = 0; // server time minus local time, ms (from the Date header)
export function serverNow() { return Date.now() + clockSkew; }

export async function call(method, path, { token, body, headers = {}, idempotent = false } = {}) {
  const h = { Accept: "application/json", ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h["Content-Type"] = "application/json";
  if (idempotent) h["Idempotency-Key"] = newKey();
  let resp;
  try {
    resp = await fetch(`/v1${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, { detail: String(e && e.message || e), code: "network" });
  }
  const date = Date.parse(resp.headers.get("Date") || "");
  if (!Number.isNaN(date)) { // Date has 1 s precision: correct only a clock that is clearly off
    const skew = date + 500 - Date.now();
    clockSkew = Math.abs(skew) > 1500 ? skew : 0;
  }
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text }; }
  if (!resp.ok) throw new ApiError(resp.status, data);
  return data;
}

export const api = {
  variants: () => call("GET", "/variants"),
  games: (status, cursor) => call("GET", `/games?status=${encodeURIComponent(status)}&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
  create: (body) => call("POST", "/games", { body, idempotent: true }),
  view: (id, token) => call("GET", `/games/${encodeURIComponent(id)}`, { token }),
  takeSeat: (id, body, token) => call("POST", `/games/${encodeURIComponent(id)}/seats`, { body, token, idempotent: true }),
  leave: (id, seat, token) => call("DELETE", `/games/${encodeURIComponent(id)}/seats/${seat}`, { token }),
  rematch: (id, token) => call("POST", `/games/${encodeURIComponent(id)}/rematch`, { token }),
  start: (id, token) => call("POST", `/games/${encodeURIComponent(id)}/start`, { token, idempotent: true }),
  act: (id, action, token, version) => call("POST", `/games/${encodeURIComponent(id)}/actions`, {
    body: action, token, headers: version ? { "If-Match": `"${version}"` } : {} }),
  events: (id, after, token) => call("GET", `/games/${encodeURIComponent(id)}/events?after=${after}`, { token }),
  stateAt: (id, at, token) => call("GET", `/games/${encodeURIComponent(id)}/state?at=${at}`, { token }),
  history: (id, token) => call("GET", `/games/${encodeURIComponent(id)}/history`, { token }),
  verify: (id, token) => call("GET", `/games/${encodeURIComponent(id)}/verify`, { token }),
};
