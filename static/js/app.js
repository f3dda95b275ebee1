// app.js: what the screens share: the core (loaded once), the theme in use,
// the signed-in account, cached collections, and the last level played.

import { loadCore } from './core.js';
import { api, sessionEnded } from './api.js';
import * as settings from './settings.js';

let corePromise = null;
const collectionCache = new Map();
// Counts the invalidations: an answer asked for before the last one is
// not kept, or it would bring back what the invalidation forgot.
let cacheEpoch = 0;

export const app = {
  theme: null,
  account: null,

  core() {
    if (!corePromise) corePromise = loadCore('/core.wasm');
    return corePromise;
  },

  /** The list of collections (fresh from the server each call). */
  async collections() {
    const r = await api.collections();
    return r.ok ? r.body.collections : null;
  },

  /** A collection and its levels, cached until invalidated. */
  async collection(id, fresh = false) {
    if (!fresh && collectionCache.has(id)) return collectionCache.get(id);
    const epoch = cacheEpoch;
    const r = await api.collection(id);
    if (!r.ok) return collectionCache.get(id) ?? null;
    if (epoch === cacheEpoch) collectionCache.set(id, r.body);
    return r.body;
  },

  /** Forgets cached collections (solved marks changed, account changed). */
  invalidate() {
    cacheEpoch++;
    collectionCache.clear();
  },

  /** Reads the account of the page's session. With changedHere false (a
   * check, not a log-in or a log-out of this page), a named account that
   * the server no longer knows the session of was ended elsewhere: the page
   * is signed out from it (signedOut) and says so at once (sessionEnded).
   * settingsToo: false reads the account alone, not the settings. */
  async refreshAccount({ changedHere = false, settingsToo = true } = {}) {
    const r = await api.account();
    if (r.ok) app.account = r.body && 'user' in r.body ? r.body.user : r.body;
    else if (r.status === 401 || r.status === 404) app.account = null;
    if (r.ok && !r.kept) {
      const had = app.knownUser, now = app.account?.username ?? '';
      app.knownUser = now;
      // (Another named account is a log-in in another tab: followed.)
      if (had && !now && !changedHere) {
        app.signedOut = had;
        sessionEnded();
      }
    }
    if (settingsToo) await settings.sync();
    return app.account;
  },

  /** Settles once the page's first reading of its account is done: a game
   * opened before then could be a guest's made by a session that ended. */
  accountChecked: null,

  /** The account the server last said the page's session is (kept across
   * reloads: a session ended while the page was closed is noticed too). */
  get knownUser() {
    return localStorage.getItem('sokod.user') || '';
  },
  set knownUser(name) {
    if (name) localStorage.setItem('sokod.user', name);
    else localStorage.removeItem('sokod.user');
  },

  /** The name of the account whose session was ended elsewhere, until a
   * log-in or a sign-up ('' for none); kept across reloads, as the moves
   * waiting for it are. */
  get signedOut() {
    return localStorage.getItem('sokod.signed-out') || '';
  },
  set signedOut(name) {
    if (name) localStorage.setItem('sokod.signed-out', name);
    else localStorage.removeItem('sokod.signed-out');
  },

  get lastLevel() {
    return Number(localStorage.getItem('sokod.last')) || 0;
  },
  set lastLevel(id) {
    localStorage.setItem('sokod.last', String(id));
  },
  /** The last level the player made a move on (lastLevel: opened). */
  get lastPlayed() {
    return Number(localStorage.getItem('sokod.played')) || 0;
  },
  set lastPlayed(id) {
    localStorage.setItem('sokod.played', String(id));
  },
  /** The rule of that game: 0 standard, 1 multi-push, 2 reverse. */
  get lastPlayedRule() {
    const rule = Number(localStorage.getItem('sokod.played-rule'));
    return rule === 1 || rule === 2 ? rule : 0;
  },
  set lastPlayedRule(rule) {
    localStorage.setItem('sokod.played-rule', String(rule));
  },
  get lastCollection() {
    return Number(localStorage.getItem('sokod.collection')) || 0;
  },
  set lastCollection(id) {
    localStorage.setItem('sokod.collection', String(id));
  },
};
