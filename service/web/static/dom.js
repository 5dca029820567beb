// Tiny DOM helpers: h(tag, attrs, ...children) builds an element; text is never parsed as HTML.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "value") el.value = v;
    else if (k === "checked") el.checked = !!v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function humanize(name) {
  return String(name).replace(/_/g, " ");
}

// A name the catalogue has no words for, made readable: "snake_case" and "CamelCase" as words.
export function spaced(name) {
  let s = "";
  for (const ch of humanize(name)) {
    const upper = ch !== ch.toLowerCase();
    s += upper && s && !s.endsWith(" ") ? ` ${ch.toLowerCase()}` : ch.toLowerCase();
  }
  return s.charAt(0).toUpperCase() + s.slice(1);
}
export function rememberFocus(root) {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  return { testid: el.dataset.testid, action: el.dataset.action, card: el.dataset.card, id: el.id };
}

export function restoreFocus(root, f) {
  if (!f) return;
  const pick = (sel) => root.querySelector(sel);
  const esc = (s) => CSS.escape(s);
  const el = (f.id && pick(`#${esc(f.id)}`)) || (f.action && pick(`[data-action="${esc(f.action)}"]`))
    || (f.card && pick(`[data-card="${esc(f.card)}"]`)) || (f.testid && pick(`[data-testid="${esc(f.testid)}"]`))
    || pick("[data-testid=hand] button") || pick("[data-testid=actions] button");
  if (el) el.focus();
}

export function focusFirst(root, sel) {
  const el = root.querySelector(sel);
  if (el) el.focus();
}
