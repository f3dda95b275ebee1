// sync.js's outbox: every entry the page played reaches the server once and
// in order, under the seq the server expects, even across a reload or a
// server that cannot be reached for a while.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { FakeServer, settle } from './fakes.mjs';
import { GameSync, savedOutbox, drainSavedOutboxes } from '../../static/js/sync.js';
import { api } from '../../static/js/api.js';

const GAME = 12;
let server;
const syncs = [];

beforeEach(() => {
  localStorage.clear();
  server = new FakeServer();
});

// What a test left in flight is answered once its syncs are closed, so that
// no request's timeout keeps node waiting.
afterEach(async () => {
  for (const s of syncs.splice(0)) s.close();
  for (const r of [...server.open]) r.answer(503);
  await settle();
});

/** A GameSync on GAME whose last confirmed entry is seq, recording its hooks. */
function open(seq = 0) {
  const calls = { adopt: [], confirmed: [], pending: [] };
  const sync = new GameSync(GAME, seq, {
    adopt: (game, message, code) => calls.adopt.push({ game, message, code }),
    confirmed: (game, entry, steps, idle) => calls.confirmed.push({ seq: entry.seq, steps, idle }),
    pending: (n, waiting) => calls.pending.push([n, waiting]),
  });
  syncs.push(sync);
  return { sync, calls };
}

const ok = (seq, extra = {}) => ({ game: { seq }, ...extra });

test('an entry goes out at once with the seq after the confirmed one', async () => {
  const { sync, calls } = open(4);
  sync.add({ kind: 'steps', steps: 'u' });
  const r = await server.next();
  assert.deepEqual([r.path, r.body], [`/games/${GAME}/log`, { seq: 5, steps: 'u' }]);
  r.answer(200, ok(5, { steps: 'u' }));
  await settle();
  assert.equal(sync.seq, 5);
  assert.equal(sync.pending, 0);
  assert.deepEqual(calls.confirmed, [{ seq: 5, steps: 'u', idle: true }]);
});

test('steps played while an entry is in flight gather into one batch', async () => {
  const { sync } = open(0);
  sync.add({ kind: 'steps', steps: 'u' });
  const first = await server.next();
  sync.add({ kind: 'steps', steps: 'l' });
  sync.add({ kind: 'steps', steps: 'L' });
  assert.equal(sync.pending, 2, 'the one in flight is sealed: the rest waits as one entry');
  first.answer(200, ok(1));
  const second = await server.next();
  assert.deepEqual(second.body, { seq: 2, steps: 'lL' });
  second.answer(200, ok(2));
  await settle();
  assert.equal(server.seen.length, 2);
});

test('undos and redos add up; different kinds stay apart, in order', async () => {
  const { sync } = open(0);
  sync.add({ kind: 'steps', steps: 'r' });
  const first = await server.next();
  sync.add({ kind: 'undo', count: 1 });
  sync.add({ kind: 'undo', count: 2 });
  sync.add({ kind: 'redo', count: 1 });
  sync.add({ kind: 'restart' });
  sync.add({ kind: 'walk', walk: { x: 3, y: 1 }, steps: 'rr' });
  assert.deepEqual(sync.queue.map((e) => [e.seq, e.kind]),
    [[1, 'steps'], [2, 'undo'], [3, 'redo'], [4, 'restart'], [5, 'walk']]);
  assert.equal(sync.queue[1].count, 3);
  first.answer(200, ok(1));
  const sent = [];
  for (let seq = 2; seq <= 5; seq++) {
    const r = await server.next();
    sent.push([r.path, r.body]);
    r.answer(200, ok(seq));
  }
  assert.deepEqual(sent, [
    [`/games/${GAME}/log`, { seq: 2, undo: 3 }],
    [`/games/${GAME}/log`, { seq: 3, redo: 1 }],
    [`/games/${GAME}/log`, { seq: 4, restart: true }],
    [`/games/${GAME}/walk`, { seq: 5, x: 3, y: 1 }],
  ]);
});

test('a batch of steps stops growing at 4000 letters', async () => {
  const { sync } = open(0);
  sync.add({ kind: 'steps', steps: 'u' });
  await server.next();
  sync.add({ kind: 'steps', steps: 'l'.repeat(3999) });
  sync.add({ kind: 'steps', steps: 'r' });
  sync.add({ kind: 'steps', steps: 'd' });
  assert.deepEqual(sync.queue.map((e) => e.steps.length), [1, 4000, 1]);
});

test('the queue is kept in localStorage until the server confirms it', async () => {
  const { sync } = open(7);
  sync.add({ kind: 'steps', steps: 'u' });
  const r = await server.next();
  assert.deepEqual(savedOutbox(GAME).map((e) => [e.seq, e.steps, e.sealed]), [[8, 'u', true]],
    'a reload would find the entry, marked as sent once');
  r.answer(200, ok(8));
  await settle();
  assert.deepEqual(savedOutbox(GAME), []);
  assert.equal(localStorage.getItem(`sokod.outbox.${GAME}`), null);
});

test('a saved outbox that is not a list reads as empty', () => {
  localStorage.setItem(`sokod.outbox.${GAME}`, '{not json');
  assert.deepEqual(savedOutbox(GAME), []);
  localStorage.setItem(`sokod.outbox.${GAME}`, '{"seq": 1}');
  assert.deepEqual(savedOutbox(GAME), []);
});

test('an unreachable server gets the same entry again, once the browser is online', async () => {
  const { sync, calls } = open(0);
  sync.add({ kind: 'steps', steps: 'u' });
  (await server.next()).answer(503);
  await settle();
  assert.equal(sync.waiting, true);
  assert.deepEqual(calls.pending.at(-1), [1, true], 'the page shows the entry waiting');
  sync.add({ kind: 'steps', steps: 'r' });
  assert.equal(server.waiting.length, 0, 'nothing is sent while waiting');
  globalThis.window.dispatchEvent(new Event('online'));
  const again = await server.next();
  assert.deepEqual(again.body, { seq: 1, steps: 'u' }, 'the same entry, under the same seq');
  again.answer(200, ok(1));
  const next = await server.next();
  assert.deepEqual(next.body, { seq: 2, steps: 'r' });
});

test('a refusal empties the queue and hands the server\'s game to adopt', async () => {
  const { sync, calls } = open(3);
  sync.add({ kind: 'steps', steps: 'u' });
  const r = await server.next();
  sync.add({ kind: 'steps', steps: 'l' });
  r.answer(409, { error: { code: 'stale_seq', message: 'stale' }, game: { seq: 9 } });
  await settle();
  assert.equal(sync.pending, 0);
  assert.deepEqual(savedOutbox(GAME), []);
  assert.deepEqual(calls.adopt, [{
    game: { seq: 9 }, code: 'stale_seq', message: 'This level moved on elsewhere: continuing from there',
  }]);
  assert.equal(server.waiting.length, 0, 'the entry queued behind it is not sent');
});

/** Logs in through api.js, the server saying yes. */
async function logIn() {
  const done = api.login('someone', 'a password');
  const r = await server.next();
  assert.equal(r.path, '/account/login');
  r.answer(200, { user: { id: 1, username: 'someone', guest: false } });
  await done;
}

test('a session ended elsewhere holds the queue, whole, until a log-in; another account\'s holds it again', async () => {
  const { sync, calls } = open(4);
  sync.add({ kind: 'steps', steps: 'u' });
  const r = await server.next();
  sync.add({ kind: 'steps', steps: 'r' });
  r.answer(401, { error: { code: 'no_session', message: 'this needs a session' } });
  await settle();
  assert.equal(sync.pending, 2, 'nothing is dropped');
  assert.deepEqual(savedOutbox(GAME).map((e) => [e.seq, e.steps]), [[5, 'u'], [6, 'r']], 'and the queue stays stored');
  assert.deepEqual(calls.adopt, [], 'the game is not the server\'s to replace');
  assert.deepEqual(calls.pending.at(-1), [2, true]);
  sync.add({ kind: 'steps', steps: 'd' });
  globalThis.window.dispatchEvent(new Event('online'));
  await settle();
  assert.equal(server.waiting.length, 0, 'nothing is sent without a session');

  // Another account logs in: the game is not its own, and waits again.
  await logIn();
  const other = await server.next();
  assert.deepEqual(other.body, { seq: 5, steps: 'u' });
  other.answer(404, { error: { code: 'game_not_found', message: 'no such game' } });
  await settle();
  assert.equal(sync.pending, 2);
  assert.equal(server.waiting.length, 0);

  // Its own account is back: every move goes, in order.
  await logIn();
  const first = await server.next();
  assert.deepEqual(first.body, { seq: 5, steps: 'u' });
  first.answer(200, ok(5));
  const second = await server.next();
  assert.deepEqual(second.body, { seq: 6, steps: 'rd' });
  second.answer(200, ok(6));
  await settle();
  assert.equal(sync.pending, 0);
  assert.deepEqual(savedOutbox(GAME), []);
});

test('a stored outbox refused for want of a session stays stored, and goes at the next log-in', async () => {
  localStorage.setItem('sokod.outbox.5', JSON.stringify([{ seq: 3, kind: 'steps', steps: 'ud', sealed: true }]));
  drainSavedOutboxes();
  (await server.next()).answer(401, { error: { code: 'no_session', message: 'this needs a session' } });
  await settle();
  assert.equal(savedOutbox(5).length, 1, 'kept');
  await logIn();
  const r = await server.next();
  assert.deepEqual([r.path, r.body], ['/games/5/log', { seq: 3, steps: 'ud' }]);
  r.answer(200, ok(3));
  await settle();
  assert.equal(localStorage.getItem('sokod.outbox.5'), null);
});

test('outboxes left by an earlier page for other games are sent; the open game\'s is not', async () => {
  localStorage.setItem('sokod.outbox.5', JSON.stringify([{ seq: 3, kind: 'steps', steps: 'ud', sealed: true }]));
  localStorage.setItem(`sokod.outbox.${GAME}`, JSON.stringify([{ seq: 2, kind: 'undo', count: 1, sealed: false }]));
  drainSavedOutboxes(GAME);
  const r = await server.next();
  assert.deepEqual([r.path, r.body], ['/games/5/log', { seq: 3, steps: 'ud' }]);
  r.answer(200, ok(3));
  await settle();
  assert.equal(localStorage.getItem('sokod.outbox.5'), null);
  assert.equal(server.seen.length, 1);
  assert.equal(savedOutbox(GAME).length, 1, 'the open game resumes its own');
});
