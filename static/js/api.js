// api.js: the sokod HTTP API (JSON under /api/v1). Every call resolves to
// {ok, status, body}; a server that cannot be reached resolves to
// {ok: false, status: 0, offline: true} instead of throwing (or, for an
// answer kept.js keeps, to its last one, with offline set and `kept` the
// time it was kept), and the reachability of the server is reported to
// whoever listens (the indicator).

import { keepAnswer, keptAnswer, keptGeneration } from './kept.js';

const BASE = '/api/v1';
const listeners = new Set();
const writeListeners = new Set();
const sessionListeners = new Set();
let reachable = true;
const SESSION_START = /^\/account\/(login|signup)$/;

/** Calls fn(reachable) whenever the server's reachability changes. */
export function onReachability(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Calls fn() after each change the server accepted (a request other than
 *  GET answered 2xx): the browser has a session from then on. */
export function onAcceptedWrite(fn) {
  writeListeners.add(fn);
  return () => writeListeners.delete(fn);
}

/** Calls fn(started) when the page's session changes under it: false when
 * the server refuses a request for want of a session (it was ended on
 * another device, or expired), true when a log-in or a sign-up starts one. */
export function onSession(fn) {
  sessionListeners.add(fn);
  return () => sessionListeners.delete(fn);
}

/** Tells the listeners that the page's session ended elsewhere, as a
 * refusal would: for an ending noticed another way (the account read again
 * names nobody). */
export function sessionEnded() {
  for (const fn of sessionListeners) fn(false);
}

export function isReachable() {
  return reachable;
}

function setReachable(v) {
  if (v === reachable) return;
  reachable = v;
  for (const fn of listeners) fn(v);
}

async function call(method, path, body, timeoutMs = 10000) {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  const since = keptGeneration();
  try {
    const init = { method, credentials: 'same-origin', signal: ctl.signal, headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(BASE + path, init);
    let json = null;
    try {
      json = await res.json();
    } catch {
      json = null;
    }
    // 502-504 come from a proxy in front of a server that is down.
    const down = res.status === 502 || res.status === 504;
    setReachable(!down);
    if (res.ok) {
      // A change is answered only once it is kept: the outbox drops an
      // entry when its answer comes, and a page reloaded offline right
      // after must find that entry in the game kept.
      const kept = keepAnswer(method, path, body, json, since);
      if (method !== 'GET') await kept;
    }
    if (res.ok && method !== 'GET') for (const fn of writeListeners) fn();
    if (res.status === 401 && json?.error?.code === 'no_session') for (const fn of sessionListeners) fn(false);
    if (res.ok && method === 'POST' && SESSION_START.test(path)) for (const fn of sessionListeners) fn(true);
    return { ok: res.ok, status: res.status, body: json, offline: down };
  } catch (e) {
    setReachable(false);
    // What the page kept of this answer, marked as kept: never a fresh one.
    const kept = await keptAnswer(method, path, body);
    if (kept) return { ok: true, status: 200, body: kept.body, offline: true, kept: kept.at };
    return { ok: false, status: 0, body: null, offline: true };
  } finally {
    clearTimeout(timer);
  }
}

/** The message of an error answer, or a fallback. */
export function errorMessage(r, fallback = 'Something went wrong') {
  if (r.offline) return 'The server cannot be reached';
  return r.body?.error?.message || fallback;
}

export const api = {
  account: () => call('GET', '/account'),
  signup: (username, password) => call('POST', '/account/signup', { username, password }),
  login: (username, password) => call('POST', '/account/login', { username, password }),
  logout: () => call('POST', '/account/logout', {}),
  logoutAll: () => call('POST', '/account/logout-all', {}),
  changePassword: (current, next) =>
    call('POST', '/account/password', { current_password: current, new_password: next }),
  settings: () => call('GET', '/account/settings'),
  saveSettings: (settings) => call('PUT', '/account/settings', { settings }),
  collections: () => call('GET', '/collections'),
  collection: (id) => call('GET', `/collections/${id}`),
  level: (id) => call('GET', `/levels/${id}`),
  // The day's first request makes its level: allow it time.
  daily: (day) => call('GET', day ? `/daily?day=${encodeURIComponent(day)}` : '/daily', undefined, 60000),
  // rule: 0 standard, 1 multi-push; each is a game of its own.
  // A reverse game (rule 2) may name the player's start square {x, y}.
  openGame: (levelId, rule = 0, start = null) =>
    call('POST', `/levels/${levelId}/game`, rule ? (start ? { rule, start } : { rule }) : {}),
  game: (id) => call('GET', `/games/${id}`),
  log: (id, entry) => call('POST', `/games/${id}/log`, entry),
  walk: (id, seq, x, y) => call('POST', `/games/${id}/walk`, { seq, x, y }),
  push: (id, seq, box, to) => call('POST', `/games/${id}/push`, { seq, box, to }),
  // The server searches for up to a few seconds (twice that for a lost position).
  hint: (id, seq) => call('POST', `/games/${id}/hint`, { seq }, 30000),
  snapshots: (id) => call('GET', `/games/${id}/snapshots`),
  snapshot: (id, sid) => call('GET', `/games/${id}/snapshots/${sid}`),
  saveSnapshot: (id, body) => call('POST', `/games/${id}/snapshots`, body),
  deleteSnapshot: (id, sid) => call('DELETE', `/games/${id}/snapshots/${sid}`, {}),
  progress: () => call('GET', '/progress'),
  stats: () => call('GET', '/account/stats'),
  rooms: () => call('GET', '/rooms'),
  createRoom: (body) => call('POST', '/rooms', body),
  room: (id) => call('GET', `/rooms/${id}`),
  roomAction: (id, action) => call('POST', `/rooms/${id}/${action}`, {}),
  watch: (userId) => call('GET', `/watch/${userId}`),
  leaderboard: (levelId, by = 'moves', limit = 20, rule = 0) =>
    call('GET', `/levels/${levelId}/leaderboard?by=${by}&limit=${limit}${rule ? `&rule=${rule}` : ''}`),
  solution: (id) => call('GET', `/solutions/${id}`),
  submitted: (levelId, by = 'moves', limit = 20, rule = 0) =>
    call('GET', `/levels/${levelId}/submitted?by=${by}&limit=${limit}${rule ? `&rule=${rule}` : ''}`),
  // The optimiser searches up to the hints' time limit: allow it that.
  optimise: (solutionId, metric) => call('POST', `/solutions/${solutionId}/optimise`, { metric }, 60000),
  submitSolution: (levelId, lurd, rule = 0) =>
    call('POST', `/levels/${levelId}/solutions`, rule ? { lurd, rule } : { lurd }),
  dailyLeaderboard: (day, by = 'moves', limit = 20) =>
    call('GET', `/daily/leaderboard?by=${by}&limit=${limit}${day ? `&day=${day}` : ''}`),
  streak: () => call('GET', '/daily/streak'),
  // The library by difficulty: query is {collection, filter, sort, order, offset, limit}.
  levels: (query = {}) => call('GET', `/levels?${new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''))}`),
  nextLevel: (exclude = 0, draw = 0) => call('GET', `/levels/next?exclude=${exclude}&draw=${draw}`),
  // Players' own levels. The server solves a level before it takes it:
  // allow it the hints' time.
  publish: (board, title) => call('POST', '/community/levels', { board, title }, 60000),
  communityLevels: (author = 0, limit = 200) =>
    call('GET', `/community/levels?limit=${limit}${author ? `&author=${author}` : ''}`),
  like: (levelId, liked) => call('PUT', `/community/levels/${levelId}/like`, { liked }),
  report: (levelId, reason) => call('POST', `/community/levels/${levelId}/reports`, { reason }),
};
