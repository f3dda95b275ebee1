// sync.js: sends a game's entries to the server, in order, exactly once.
// The page has already played each entry; here it waits in a queue that is
// also kept in localStorage (a reload or a closed tab loses nothing). Every
// entry carries the seq the server expects next, so resending one the server
// already holds changes nothing. While the server cannot be reached the
// queue waits and retries; a refusal or a stale seq hands the server's game
// to `adopt`. Steps typed while an entry is in flight gather into one batch.
// A refusal for want of a session (ended on another device), of a game
// that is not the session's (another account logged in here) or of room
// (the player's storage quota) drops nothing: the queue is held, kept in storage, until a log-in starts a
// session; then every held queue and every stored one goes again, and
// reaches the server once its own account is back.

import { api, onSession } from './api.js';

const MAX_BATCH = 4000;
// How long entries the server had no room for wait before they go again.
const FULL_RETRY_MS = 60000;
const storeKey = (gameId) => `sokod.outbox.${gameId}`;
// The LURD of the position the queued entries lead to: what the player
// keeps if the server's game moves on elsewhere meanwhile.
const lineKey = (gameId) => `sokod.line.${gameId}`;

/** The moves one queued entry stands for, as the offline badge counts them. */
export function entryMoves(e) {
  if (e.kind === 'undo' || e.kind === 'redo') return e.count;
  if (e.kind === 'restart') return 1;
  return e.steps?.length || 1;
}

/** Entries of a game left unsent by an earlier page, oldest first. */
export function savedOutbox(gameId) {
  try {
    const q = JSON.parse(localStorage.getItem(storeKey(gameId)) || '[]');
    return Array.isArray(q) ? q : [];
  } catch {
    return [];
  }
}

// The queues of this page that are not closed (one that holds entries is
// the only sender of its game's), and those held for a session.
const open = new Set();
const held = new Set();

onSession((started) => {
  if (!started) return;
  for (const sync of [...held]) sync.resume();
  drainSavedOutboxes();
});

/** Sends what earlier pages queued for games other than `except` (and
 * other than those this page is sending). */
export function drainSavedOutboxes(except = 0) {
  const sending = new Set([...open].filter((s) => s.pending > 0).map((s) => s.gameId));
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = key && key.match(/^sokod\.outbox\.(\d+)$/);
    if (!m || Number(m[1]) === except || sending.has(Number(m[1]))) continue;
    const queue = savedOutbox(Number(m[1]));
    if (queue.length === 0) continue;
    const sync = new GameSync(Number(m[1]), queue[0].seq - 1, {});
    sync.queue = queue;
    sync.drain();
  }
}

export class GameSync {
  /** hooks: adopt(game, message), confirmed(game, entry, serverSteps, idle),
   * pending(moves, waiting): moves as movesWaiting counts them,
   * conflict(game, entries, line): the game moved on elsewhere while entries
   * waited (without it they are dropped and the game adopted),
   * line(): the LURD of the page's position, kept with the queue */
  constructor(gameId, seq, hooks) {
    this.gameId = gameId;
    this.seq = seq;          // the last entry the server confirmed
    this.queue = [];         // {seq, kind, steps|count|walk|push, sealed}
    this.hooks = hooks;
    this.busy = false;
    this.backoff = 0;
    this.waiting = false;
    this.timer = 0;
    this.closed = false;
    this.draining = false;   // sending for a page that left the game
    this.held = false;       // waiting for a session (see resume)
    this.onOnline = () => this.retryNow();
    window.addEventListener('online', this.onOnline);
    open.add(this);
  }

  close() {
    this.closed = true;
    open.delete(this);
    held.delete(this);
    clearTimeout(this.timer);
    window.removeEventListener('online', this.onOnline);
  }

  get pending() {
    return this.queue.length;
  }

  /** The moves the queue holds, as the player counts them: each step of a
   * batch, walk or push, each undone or redone entry, each restart. */
  get movesWaiting() {
    return this.queue.reduce((n, e) => n + entryMoves(e), 0);
  }

  /** Queues an entry: {steps}, {undo: n}, {redo: n}, {restart: true},
   * {walk: {x, y}, steps} or {push: {box, to}, steps} (steps: what the page played). */
  add(entry) {
    const last = this.queue[this.queue.length - 1];
    if (last && !last.sealed) {
      if (entry.kind === 'steps' && last.kind === 'steps' && last.steps.length < MAX_BATCH) {
        last.steps += entry.steps;
        return this.changed();
      }
      if ((entry.kind === 'undo' || entry.kind === 'redo') && last.kind === entry.kind) {
        last.count += entry.count;
        return this.changed();
      }
    }
    this.queue.push({ ...entry, seq: this.seq + this.queue.length + 1, sealed: false });
    this.changed();
  }

  changed() {
    this.save();
    this.hooks.pending?.(this.movesWaiting, this.waiting);
    this.pump();
  }

  save() {
    const key = storeKey(this.gameId);
    if (this.queue.length === 0) {
      localStorage.removeItem(key);
      localStorage.removeItem(lineKey(this.gameId));
      return;
    }
    localStorage.setItem(key, JSON.stringify(this.queue));
    if (!this.hooks.line) return; // draining: the line stored stays
    const line = this.hooks.line();
    if (typeof line === 'string') localStorage.setItem(lineKey(this.gameId), line);
    else localStorage.removeItem(lineKey(this.gameId));
  }

  /** The line an earlier page kept with its queue, or null. */
  savedLine() {
    return localStorage.getItem(lineKey(this.gameId));
  }

  retryNow() {
    if (!this.waiting) return;
    clearTimeout(this.timer);
    this.waiting = false;
    this.pump();
  }

  send(e) {
    switch (e.kind) {
      case 'steps': return api.log(this.gameId, { seq: e.seq, steps: e.steps });
      case 'undo': return api.log(this.gameId, { seq: e.seq, undo: e.count });
      case 'redo': return api.log(this.gameId, { seq: e.seq, redo: e.count });
      case 'restart': return api.log(this.gameId, { seq: e.seq, restart: true });
      case 'walk': return api.walk(this.gameId, e.seq, e.walk.x, e.walk.y);
      case 'push': return api.push(this.gameId, e.seq, e.push.box, e.push.to);
      default: throw new Error(`unknown entry kind ${e.kind}`);
    }
  }

  /** A session started: a queue held for one goes again. */
  resume() {
    held.delete(this);
    if (!this.held) return;
    this.held = false;
    this.pump();
  }

  async pump() {
    if (this.busy || this.closed || this.waiting || this.held) return;
    this.busy = true;
    try {
      while (this.queue.length > 0 && !this.closed) {
        const e = this.queue[0];
        e.sealed = true;
        this.save();
        const r = await this.send(e);
        if (this.closed) return;
        if (this.queue[0] !== e) continue; // reset while the entry was on its way
        if (r.ok) {
          this.queue.shift();
          this.seq = e.seq;
          this.backoff = 0;
          this.save();
          this.hooks.pending?.(this.movesWaiting, false);
          this.hooks.confirmed?.(r.body.game, e, r.body.steps ?? '', this.queue.length === 0);
          continue;
        }
        if (r.offline || r.status >= 500 || r.status === 429) {
          // Try the same entry again later: its seq makes a repeat harmless.
          this.backoff = Math.min(5000, Math.max(500, this.backoff * 2));
          this.waiting = true;
          this.hooks.pending?.(this.movesWaiting, true);
          this.timer = setTimeout(() => { this.waiting = false; this.pump(); }, this.backoff);
          return;
        }
        const code = r.body?.error?.code ?? '';
        if (code === 'no_session' || code === 'game_not_found') {
          // The entries are the account's that played them, and no session
          // here is that account's now: they wait, stored, for its log-in.
          if (this.draining) return this.close();
          this.held = true;
          held.add(this);
          this.hooks.pending?.(this.movesWaiting, true);
          return;
        }
        if (code === 'quota_exceeded') {
          // The server stores nothing more for this player now (its quota,
          // or all guests' storage): the entries stay stored here and go
          // again at the next log-in (a guest who signs up has room) or
          // after a while (room made meanwhile).
          this.held = true;
          held.add(this);
          this.hooks.pending?.(this.movesWaiting, true);
          this.hooks.full?.(r.body?.error?.message ?? 'the server stores nothing more for now');
          this.timer = setTimeout(() => this.resume(), FULL_RETRY_MS);
          return;
        }
        // Refused, stale, or not understood: the server's game is the truth.
        const game = r.body?.game ?? null;
        const entries = this.queue, line = this.savedLine();
        if (code === 'stale_seq' && this.draining) {
          // A game the player has left: its queue stays stored, and the
          // player chooses what to keep when the level is opened again.
          this.close();
          return;
        }
        this.queue = [];
        this.save();
        this.hooks.pending?.(0, false);
        if (code === 'stale_seq' && this.hooks.conflict) {
          // Another device moved on: what waited here is the player's to keep.
          this.hooks.conflict(game, entries, line);
          return;
        }
        let message = r.body?.error?.message ?? `the server refused the move (${r.status})`;
        if (code === 'stale_seq') message = 'This level moved on elsewhere: continuing from there';
        else message = `The server refused that: ${message}`;
        this.hooks.adopt?.(game, message, code);
        return;
      }
    } finally {
      this.busy = false;
    }
  }

  /** Keeps sending what is queued with no page to report to, then closes:
   * for a game the player has left. */
  drain() {
    this.hooks = {};
    this.draining = true;
    // Held for a session: stored, it goes with the others at the log-in.
    if (this.held) return this.close();
    const closeWhenDone = () => {
      if (this.closed) return;
      if (this.queue.length === 0) this.close();
      else setTimeout(closeWhenDone, 1000);
    };
    closeWhenDone();
    this.pump();
  }

  /** The server's game changed under us (adopted): start from its seq. */
  reset(seq) {
    this.seq = seq;
    this.queue = [];
    this.save();
    this.hooks.pending?.(0, false);
  }
}
