// The reader's words: the server sends them (GET /api/words before sign-in, /api/state after)
// from the bot's catalogs, so the client holds no text of its own, only keys.
let table = {};

export function setWords(words) {
  table = words ?? {};
}

/** The words for `key`, its {placeholders} filled from `values` (a missing key reads as itself). */
export function t(key, values = {}) {
  const text = table[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** Whether the server sent words for `key` (a key newer than the server's words may be missing). */
export function has(key) {
  return key in table;
}
