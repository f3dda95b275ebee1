// settings.js: the player's options, kept in this browser's localStorage
// (the server has no settings endpoint yet; when it gets one, load() and
// set() are the two places that would talk to it).

const KEY = 'sokod.settings';
export const SPEEDS = { off: 0, fast: 70, normal: 120, slow: 200 };

const defaults = {
  theme: 'classic',
  speed: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'off' : 'normal',
  sound: false,
  pointMode: true,
  showDead: false,
  warnFrozen: true,
};

let values = { ...defaults };
const listeners = new Set();

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || '{}');
    for (const k of Object.keys(defaults)) {
      if (typeof saved[k] === typeof defaults[k]) values[k] = saved[k];
    }
  } catch {
    values = { ...defaults };
  }
}
load();

export function get(key) {
  return values[key];
}

export function all() {
  return { ...values };
}

export function set(key, value) {
  if (!(key in defaults) || values[key] === value) return;
  values[key] = value;
  localStorage.setItem(KEY, JSON.stringify(values));
  for (const fn of listeners) fn(key, value);
}

/** Calls fn(key, value) after each change. */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Where settings live, in words for the options screen. */
export function storedWhere() {
  return 'Options are saved in this browser.';
}
