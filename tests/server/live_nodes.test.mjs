// Live events across two sokod nodes on one PostgreSQL database: a step
// committed through node A reaches a stream on node B (through LISTEN and
// NOTIFY), an event id taken on A resumes on B with the missed events, and
// B's listening connection, cut while steps are made, catches up from the
// tables once it is back (a watcher's entries, game and opt-out too), and
// a watcher on B hears which game the player opened on A. PostgreSQL only:
// on SQLite one process serves the database, and the test is skipped.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { Client, levelIds, openGame, show, startServer, stopCleanly } from './harness.mjs';
import { openStream } from './sse.mjs';

const PG_DIR = process.env.SOKOD_TEST_PG_DIR;
const ON_PG = process.env.SOKOD_TEST_BACKEND === 'postgresql' && PG_DIR;
const skip = ON_PG ? false : 'live events cross nodes on PostgreSQL only (SOKOD_TEST_BACKEND=postgresql)';
const uri = (db) => `postgresql://postgres@/${db}?host=${PG_DIR}&port=5432`;

// Runs SQL on the cluster's `postgres` database (or another); returns
// psql's output.
function psql(sql, database = 'postgres') {
  const r = spawnSync('psql', ['-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', uri(database), '-c', sql],
    { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql -c "${sql}" failed: ${r.stderr}`);
  return r.stdout.trim();
}

let a, b, db, ids;

before(async () => {
  if (!ON_PG) return;
  db = `live_nodes_${process.pid}`;
  psql(`CREATE DATABASE ${db}`);
  a = await startServer({ db: uri(db), args: ['--heartbeat', '1'] });
  // B shares A's database (migrated and filled by A).
  b = await startServer({ db: uri(db), levels: a.levels, args: ['--heartbeat', '1'] });
  ids = await levelIds(a.client());
});

after(async () => {
  if (!ON_PG) return;
  if (b) await stopCleanly(b, 'node B should stop cleanly');
  if (a) await stopCleanly(a, 'node A should stop cleanly');
  psql(`DROP DATABASE IF EXISTS ${db}`);
});

// A player on node A and the same player's second device on node B.
async function playerOnBoth(position) {
  const phone = a.client();
  const game = await openGame(phone, ids[position]);
  const laptop = new Client(b.url);
  laptop.cookies = new Map(phone.cookies);
  return { phone, laptop, game };
}

async function step(client, game, entry) {
  const r = await client.post(`/api/v1/games/${game.id}/log`, entry);
  assert.equal(r.status, 200, show(r));
  return r;
}

test('steps committed through node A reach a stream on node B', { skip }, async () => {
  const { phone, laptop, game } = await playerOnBoth(1);
  const s = await openStream(laptop, `?game=${game.id}`);
  await s.next('ready');
  const waits = [];
  for (let seq = 1; seq <= 5; seq++) {
    const sent = performance.now();
    await step(phone, game, seq % 2 ? { seq, steps: 'r' } : { seq, undo: 1 });
    const e = await s.next('step', (x) => x.seq === seq);
    waits.push(e.at - sent);
  }
  const steps = s.of('step');
  assert.deepEqual(steps.map((e) => e.json.seq), [1, 2, 3, 4, 5], `each entry once, in order: ${s.raw}`);
  assert.deepEqual(steps.map((e) => e.id), [1, 2, 3, 4, 5].map((n) => `game:${game.id}@${n}`));
  assert.deepEqual(steps.map((e) => e.json.moves), [1, 0, 1, 0, 1], 'the counts after each entry');
  // Measured, never asserted: from the post's start on A to the event on B.
  console.log(`# step on node A to event on node B: ${waits.map((w) => w.toFixed(1)).join(', ')} ms`);
  s.close();
});

test('an event id taken on node A resumes on node B with the missed events', { skip }, async () => {
  const { phone, game } = await playerOnBoth(1);
  const onA = await openStream(phone.sameUser(), `?game=${game.id}`);
  await onA.next('ready');
  await step(phone, game, { seq: 1, steps: 'r' });
  const seen = await onA.next('step');
  onA.close();
  await step(phone, game, { seq: 2, steps: 'r' });
  await step(phone, game, { seq: 3, undo: 1 });
  const laptop = new Client(b.url);
  laptop.cookies = new Map(phone.cookies);
  const back = await openStream(laptop, `?game=${game.id}`, { 'Last-Event-ID': seen.id });
  const ready = await back.next('ready');
  assert.deepEqual(ready.json, { replayed: 2, snapshots: 0 }, `resumed on B after ${seen.id}: ${back.raw}`);
  assert.deepEqual(back.of('step').map((e) => e.json.seq), [2, 3]);
  assert.equal(back.of('snapshot').length, 0);
  back.close();
});

// Runs fn while node B's listening connection is cut: no new connection
// to the database until fn ends, so that B cannot listen meanwhile (A's
// connections are open already).
async function whileBIsDeaf(fn) {
  psql(`ALTER DATABASE ${db} ALLOW_CONNECTIONS false`);
  let cut;
  try {
    cut = psql(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity ` +
      `WHERE application_name = 'sokod-listen ${b.proc.pid}'`);
    await fn();
  } finally {
    psql(`ALTER DATABASE ${db} ALLOW_CONNECTIONS true`);
  }
  assert.equal(cut, '1', 'node B had one listening connection');
}

test('node B catches up after its listening connection was cut', { skip }, async () => {
  const { phone, laptop, game } = await playerOnBoth(1);
  const s = await openStream(laptop, `?game=${game.id}`);
  await s.next('ready');
  await step(phone, game, { seq: 1, steps: 'r' });
  await s.next('step', (x) => x.seq === 1);
  await whileBIsDeaf(async () => {
    await step(phone, game, { seq: 2, steps: 'r' });
    await step(phone, game, { seq: 3, undo: 1 });
  });
  await s.until((x) => x.of('step').length >= 3, 'steps 2 and 3, made while B was not listening');
  assert.deepEqual(s.of('step').map((e) => e.json.seq), [1, 2, 3], s.raw);
  assert.match(b.stderr(), /listening for other nodes' events again/);
  // And it listens again: a new step arrives as before.
  await step(phone, game, { seq: 4, steps: 'r' });
  await s.next('step', (x) => x.seq === 4);
  s.close();
});

// A signed-up player on node A; resolves to {client, id}.
let players = 0;
async function signedUp() {
  const client = a.client();
  const name = `p${process.pid}n${++players}`;
  const r = await client.post('/api/v1/account/signup', { username: name, password: 'a watched password' });
  assert.equal(r.status, 201, show(r));
  const me = await client.get('/api/v1/account');
  return { client, id: me.json.user.id };
}

test('a watcher on node B gets the entries a player commits through node A, once', { skip }, async () => {
  const alice = await signedUp();
  const game = await openGame(alice.client, ids[1]);
  const watching = await openStream(b.client(), `?watch=${alice.id}`);
  await watching.next('ready');
  for (let seq = 1; seq <= 3; seq++) await step(alice.client, game, seq === 2 ? { seq, undo: 1 } : { seq, steps: 'r' });
  await watching.until((x) => x.of('step').length >= 3, 'three step events on node B');
  // One more, so that a duplicate of the first three would have come by now.
  await step(alice.client, game, { seq: 4, steps: 'r' });
  await watching.next('step', (x) => x.seq === 4);
  assert.deepEqual(watching.of('step').map((e) => [e.json.game, e.json.seq, e.json.moves]),
    [[game.id, 1, 1], [game.id, 2, 0], [game.id, 3, 1], [game.id, 4, 2]], watching.raw);
  watching.close();
});

test('a watcher on node B hears which game a player opens on node A, and node B says so', { skip }, async () => {
  const carol = await signedUp();
  const first = await openGame(carol.client, ids[0]);
  const watching = await openStream(b.client(), `?watch=${carol.id}`);
  await watching.next('ready');
  // Another game opened on A, without a move, then a step in a third.
  const second = await openGame(carol.client, ids[1]);
  await watching.next('playing', (x) => x.game === second.id);
  let r = await b.client().get(`/api/v1/watch/${carol.id}`);
  assert.equal(r.json?.game?.id, second.id, `node B's watch page names the game opened on node A: ${show(r)}`);
  const third = await openGame(carol.client, ids[2]);
  await step(carol.client, third, { seq: 1, steps: 'r' });
  await watching.next('step', (x) => x.game === third.id);
  // Node B may hear of the first game only once the stream is open.
  const heard = watching.of('playing').map((e) => e.json.game);
  if (heard[0] === first.id) heard.shift();
  assert.deepEqual(heard, [second.id, third.id],
    `one playing event for each game opened after the first (${first.id}): ${watching.raw}`);
  // Back to the first game, through node A: node B had heard of the others.
  // (A "playing" event of the first game may have come already.)
  const playingFirst = () => watching.of('playing').filter((e) => e.json.game === first.id).length;
  const before = playingFirst();
  await step(carol.client, first, { seq: 1, steps: 'r' });
  await watching.until(() => playingFirst() > before, `a new 'playing' event of the first game (${first.id})`);
  r = await b.client().get(`/api/v1/watch/${carol.id}`);
  assert.equal(r.json?.game?.id, first.id, `node B's watch page follows the player back: ${show(r)}`);
  watching.close();
});

test('a watcher on node B catches up after B\'s listening connection was cut', { skip }, async () => {
  const dave = await signedUp();
  const first = await openGame(dave.client, ids[1]);
  const watching = await openStream(b.client(), `?watch=${dave.id}`);
  await watching.next('ready');
  await step(dave.client, first, { seq: 1, steps: 'r' });
  await watching.next('step', (x) => x.game === first.id && x.seq === 1);
  await whileBIsDeaf(async () => {
    await step(dave.client, first, { seq: 2, steps: 'r' });
    await step(dave.client, first, { seq: 3, undo: 1 });
  });
  await watching.until((x) => x.of('step').length >= 3, 'the entries made while node B was not listening');
  assert.deepEqual(watching.of('step').map((e) => [e.json.game, e.json.seq]),
    [[first.id, 1], [first.id, 2], [first.id, 3]], watching.raw);
  // Another game, opened and played while B is deaf again: B's watchers
  // hear of it.
  let second;
  await whileBIsDeaf(async () => {
    second = await openGame(dave.client, ids[2]);
    await step(dave.client, second, { seq: 1, steps: 'r' });
  });
  await watching.next('playing', (x) => x.game === second.id);
  // And an opt-out while B is deaf ends the stream once B listens again.
  await whileBIsDeaf(async () => {
    const r = await dave.client.req('PUT', '/api/v1/account/settings', { settings: { watchable: false } });
    assert.equal(r.status, 200, show(r));
  });
  await watching.until((x) => x.ended, 'the end of the stream on node B, the opt-out made while it was not listening');
});

test('a player who opts out on node A ends the streams watching them on node B', { skip }, async () => {
  const { client: bob, id } = await signedUp();
  await openGame(bob, ids[0]);
  const watching = await openStream(b.client(), `?watch=${id}`);
  await watching.next('ready');
  const r = await bob.req('PUT', '/api/v1/account/settings', { settings: { watchable: false } });
  assert.equal(r.status, 200, show(r));
  await watching.until((s) => s.ended, 'the end of the stream on node B once the player opted out on node A');
});

test('an entry committed on node B after one it has not heard of comes after it', { skip }, async () => {
  const { phone, laptop, game } = await playerOnBoth(1);
  const s = await openStream(laptop.sameUser(), `?game=${game.id}`);
  await s.next('ready');
  await step(laptop, game, { seq: 1, steps: 'r' }); // B's committer has its connection
  await s.next('step', (x) => x.seq === 1);
  // B does not hear of entry 2 (committed on A) before it commits entry 3.
  psql(`ALTER DATABASE ${db} ALLOW_CONNECTIONS false`);
  try {
    psql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity ` +
      `WHERE application_name = 'sokod-listen ${b.proc.pid}'`);
    await step(phone, game, { seq: 2, steps: 'r' });
    await step(laptop, game, { seq: 3, undo: 1 });
  } finally {
    psql(`ALTER DATABASE ${db} ALLOW_CONNECTIONS true`);
  }
  await s.until((x) => x.of('step').length >= 3, 'entries 2 and 3 on node B');
  assert.deepEqual(s.of('step').map((e) => e.json.seq), [1, 2, 3], s.raw);
  s.close();
});

// A database that fails over and loses its last entries: the game goes
// back, and its next entries take the lost seqs again. A stream on node B
// that stood past them would drop them as already shown; it ends instead,
// and its client comes back for a snapshot.
test('a game that goes back to an earlier entry starts its streams on node B again', { skip }, async () => {
  const { phone, laptop, game } = await playerOnBoth(1);
  const s = await openStream(laptop, `?game=${game.id}`);
  await s.next('ready');
  for (let seq = 1; seq <= 3; seq++) await step(phone, game, seq % 2 ? { seq, steps: 'r' } : { seq, undo: 1 });
  await s.next('step', (x) => x.seq === 3);
  // What a standby promoted without entries 2 and 3 holds.
  psql(`DELETE FROM game_log WHERE game_id = ${game.id} AND seq > 1;
    UPDATE games SET seq = 1, moves = 1 WHERE id = ${game.id};`, db);
  const shown = s.of('step').length;
  // Entries 2 and 3 taken again with other contents (2 walks back rather
  // than undoing); B may hear of entry 2 only after 3 and 4 are committed.
  await step(phone, game, { seq: 2, steps: 'l' });
  await step(phone, game, { seq: 3, steps: 'r' });
  await step(phone, game, { seq: 4, undo: 1 });
  // Entry 4 is past what B showed: B hears of it either way.
  await s.until((x) => x.ended || x.of('step').slice(shown).some((e) => e.json.seq === 4), 'the stream to end, or entry 4');
  assert.ok(s.ended, `the stream on node B ended rather than go on past entries it showed with other contents: ${s.raw.slice(-800)}`);
  assert.deepEqual(s.of('step').slice(shown).map((e) => e.json.seq), [], 'nothing of the new entries was told as if it followed the old ones');
  assert.match(b.stderr(), /went back from entry 3 to/, 'node B says why');
  // A client back from entry 3 (the old one) gets a snapshot, not entry 4.
  const again = await openStream(laptop, `?game=${game.id}`, { 'Last-Event-ID': `game:${game.id}@3` });
  await again.next('ready');
  assert.deepEqual(again.events.map((e) => e.event), ['snapshot', 'ready'], `back from the old entry 3: ${again.raw}`);
  again.close();
});

// The same while node B hears nothing: it learns of the lost entries when
// it listens again and reads the last entries it showed from the log.
test('a game that went back while node B was not listening starts its streams again', { skip }, async () => {
  const { phone, laptop, game } = await playerOnBoth(1);
  const s = await openStream(laptop, `?game=${game.id}`);
  await s.next('ready');
  for (let seq = 1; seq <= 3; seq++) await step(phone, game, seq % 2 ? { seq, steps: 'r' } : { seq, undo: 1 });
  await s.next('step', (x) => x.seq === 3);
  const shown = s.of('step').length;
  psql(`DELETE FROM game_log WHERE game_id = ${game.id} AND seq > 1;
    UPDATE games SET seq = 1, moves = 1 WHERE id = ${game.id};`, db);
  await whileBIsDeaf(async () => {
    await step(phone, game, { seq: 2, steps: 'l' });
    await step(phone, game, { seq: 3, steps: 'r' });
    await step(phone, game, { seq: 4, undo: 1 });
  });
  await s.until((x) => x.ended || x.of('step').slice(shown).length > 0, 'the stream to end, or the new entries');
  assert.ok(s.ended, `the stream on node B ended: ${s.raw.slice(-800)}`);
  assert.deepEqual(s.of('step').slice(shown).map((e) => e.json.seq), [], 'nothing of the new entries was told as if it followed the old ones');
  assert.match(b.stderr(), new RegExp(`game ${game.id} went back from entry 3 to 1`), 'node B says why');
  const again = await openStream(laptop, `?game=${game.id}`, { 'Last-Event-ID': `game:${game.id}@3` });
  await again.next('ready');
  assert.deepEqual(again.events.map((e) => e.event), ['snapshot', 'ready'], `back from the old entry 3: ${again.raw}`);
  again.close();
});
