// settings.js: the player's options. They apply at once from this
// browser's localStorage, and the server keeps them for the user, so that an
// account's options follow it to every device (sync() adopts them). The
// server keeps nothing for a visitor without a session (it answers 401):
// the options then wait here, and go to the server with the first change it
// accepts from this browser (a game opened, a room joined, a log-in).

import { api, onAcceptedWrite } from './api.js';

const KEY = 'sokod.settings';
export const SPEEDS = { off: 0, fast: 70, normal: 120, slow: 200 };

const defaults = {
  theme: 'classic',
  speed: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'off' : 'normal',
  sound: false,
  pointMode: true,
  showDead: false,
  warnFrozen: true,
  // Others may watch this player live (#/watch/ID); the server refuses
  // watchers when false.
  watchable: true,
};

let values = { ...defaults };
const listeners = new Set();
let saveTimer = null;
// Changes made here, and how many of them the server has acknowledged: until
// it has them all, this browser's options win over the server's copy.
let changes = 0;
let savedChanges = 0;
// The server refused the last save for want of a session.
let waitingForSession = false;

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
  changes++;
  saveSoon();
}

/** Sends the options to the server a moment after the last change, so
 *  that a slider dragged across its range is one request. */
function saveSoon() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(save, 300);
}

// One PUT at a time: two at once may reach the server out of order, leaving
// it the older copy, which the next sync would bring back. Changes made
// while one is out are sent when it answers.
let saving = false;

async function save() {
  if (saving) return;
  saving = true;
  const upTo = changes;
  const r = await api.saveSettings({ ...values });
  saving = false;
  waitingForSession = r.status === 401;
  if (r.ok) savedChanges = Math.max(savedChanges, upTo);
  if (changes > upTo && !waitingForSession) save();
}

onAcceptedWrite(() => {
  if (waitingForSession && !saving) {
    waitingForSession = false;
    saveSoon();
  }
});

/** Adopts the options the server keeps for this user (after start-up and
 *  after logging in or out); when it keeps none yet, gives it this
 *  browser's, if they differ from the defaults. */
export async function sync() {
  if (savedChanges < changes) {
    saveSoon();
    return;
  }
  const r = await api.settings();
  if (!r.ok || savedChanges < changes) return;
  const remote = r.body?.settings ?? {};
  if (Object.keys(remote).length === 0) {
    if (Object.keys(defaults).some((k) => values[k] !== defaults[k])) saveSoon();
    return;
  }
  for (const k of Object.keys(defaults)) {
    if (typeof remote[k] !== typeof defaults[k] || values[k] === remote[k]) continue;
    values[k] = remote[k];
    for (const fn of listeners) fn(k, remote[k]);
  }
  localStorage.setItem(KEY, JSON.stringify(values));
}

/** Calls fn(key, value) after each change. */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Where settings live, in words for the options screen. */
export function storedWhere() {
  return 'Options are saved with your account and follow it to every device.';
}
