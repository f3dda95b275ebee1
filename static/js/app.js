// app.js: what the screens share: the core (loaded once), the theme in use,
// the signed-in account, cached collections, and the last level played.

import { loadCore } from './core.js';
import { api } from './api.js';
import * as settings from './settings.js';

let corePromise = null;
const collectionCache = new Map();

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
    const r = await api.collection(id);
    if (!r.ok) return collectionCache.get(id) ?? null;
    collectionCache.set(id, r.body);
    return r.body;
  },

  /** Forgets cached collections (solved marks changed, account changed). */
  invalidate() {
    collectionCache.clear();
  },

  async refreshAccount() {
    const r = await api.account();
    if (r.ok) app.account = r.body && 'user' in r.body ? r.body.user : r.body;
    else if (r.status === 401 || r.status === 404) app.account = null;
    await settings.sync();
    return app.account;
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
  /** The rule of that game: 0 standard, 1 multi-push. */
  get lastPlayedRule() {
    return Number(localStorage.getItem('sokod.played-rule')) === 1 ? 1 : 0;
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
