// Watching one player (GET /api/v1/events?watch=USER_ID and GET
// /api/v1/watch/{id}): the player's entries reach a watcher in order with
// their seq, a stream resumes with Last-Event-ID, a new level is
// announced, and players who opted out (and guests) cannot be watched.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, test } from 'node:test';
import { show, startServerWithLevels, stopCleanly } from './harness.mjs';
import { openStream } from './sse.mjs';

let server;
let ids;

before(async () => ({ server, ids } = await startServerWithLevels({ args: ['--heartbeat', '1'] })));

after(() => stopCleanly(server));

// A signed-up player; resolves to {client, id, name}.
async function player() {
  const client = server.client();
  const name = `p${crypto.randomBytes(4).toString('hex')}`;
  const r = await client.post('/api/v1/account/signup', { username: name, password: 'a watched password' });
  assert.equal(r.status, 201, show(r));
  const me = await client.get('/api/v1/account');
  return { client, id: me.json.user.id, name };
}

// Sends entries one by one to a game; returns the server's answers.
async function play(client, game, entries, from = 1) {
  const out = [];
  let seq = from;
  for (const e of entries) {
    const r = await client.post(`/api/v1/games/${game}/log`, { seq, ...e });
    assert.equal(r.status, 200, `entry ${seq} ${JSON.stringify(e)}: ${show(r)}`);
    out.push(r.json);
    seq++;
  }
  return out;
}

const stepsOf = (s) => s.of('step').map((e) => e.json);

test('a watcher gets the player\'s entries in order, and resumes with Last-Event-ID', async () => {
  const alice = await player();
  const watcher = server.client(); // no session: anyone may watch an account that allows it
  const opened = await alice.client.post(`/api/v1/levels/${ids[1]}/game`);
  assert.equal(opened.status, 201, show(opened));
  const game = opened.json.game.id;
  const start = await watcher.get(`/api/v1/watch/${alice.id}`);
  assert.equal(start.status, 200, show(start));
  assert.equal(start.json.player.name, alice.name);
  assert.equal(start.json.game.id, game, 'the game the player opened');
  assert.equal(start.json.game.seq, 0);

  const stream = await openStream(watcher, `?watch=${alice.id}`);
  assert.equal(stream.status, 200, stream.raw);
  await stream.next('ready');
  // On the Room level: up, a push right, down, left, then undo and redo.
  const answers = await play(alice.client, game,
    [{ steps: 'u' }, { steps: 'r' }, { steps: 'd' }, { steps: 'l' }, { undo: 1 }, { redo: 1 }]);
  await stream.until((s) => s.of('step').length >= 6, 'six step events');
  const got = stepsOf(stream);
  assert.deepEqual(got.map((e) => e.seq), [1, 2, 3, 4, 5, 6], JSON.stringify(got));
  assert.ok(got.every((e) => e.game === game), JSON.stringify(got));
  assert.deepEqual(got.slice(0, 4).map((e) => e.steps), answers.slice(0, 4).map((a) => a.steps),
    'the steps as the player\'s answers gave them (the push upper case)');
  assert.equal(got[1].steps, 'R');
  assert.deepEqual(got.slice(4).map((e) => [e.kind, e.count]), [['undo', 1], ['redo', 1]]);
  assert.equal(got[5].moves, answers[5].game.moves);
  assert.equal(got[5].pushes, 1);

  // The watcher loses its stream after the third event; the player goes on.
  const third = stream.of('step')[2];
  stream.close();
  await play(alice.client, game, [{ steps: 'r' }, { restart: true }], 7);
  const back = await openStream(watcher, `?watch=${alice.id}`, { 'Last-Event-ID': third.id });
  const ready = await back.next('ready');
  assert.equal(ready.json.replayed, 5, `events 4 to 8 replayed: ${back.raw}`);
  assert.deepEqual(stepsOf(back).map((e) => e.seq), [4, 5, 6, 7, 8], back.raw);
  assert.equal(stepsOf(back)[4].kind, 'restart');
  assert.deepEqual(back.of('step').map((e) => e.id), [...back.of('step').map((e) => e.id)].sort(),
    'ids in order');

  // Another level: the watcher hears which game to load, then its steps.
  const other = await alice.client.post(`/api/v1/levels/${ids[0]}/game`);
  assert.equal(other.status, 201, show(other));
  const playing = await back.next('playing');
  assert.deepEqual(playing.json, { user_id: alice.id, game: other.json.game.id, level_id: ids[0] });
  await play(alice.client, other.json.game.id, [{ steps: 'r' }]);
  await back.next('step', (d) => d.game === other.json.game.id && d.seq === 1);
  const now = await watcher.get(`/api/v1/watch/${alice.id}`);
  assert.equal(now.json.game.id, other.json.game.id, show(now));
  assert.equal(now.json.game.history, 'r', show(now));
  // Opening the same level again is no news.
  await alice.client.post(`/api/v1/levels/${ids[0]}/game`);
  await play(alice.client, other.json.game.id, [{ steps: 'R' }], 2);
  await back.next('step', (d) => d.game === other.json.game.id && d.seq === 2);
  assert.equal(back.of('playing').length, 1, back.raw);
  back.close();
});

test('race games are not shown to the player\'s watchers', async () => {
  const alice = await player();
  const stream = await openStream(server.client(), `?watch=${alice.id}`);
  await stream.next('ready');
  const room = await alice.client.post('/api/v1/rooms', { level: 'chosen', level_id: ids[0] });
  assert.equal(room.status, 201, show(room));
  const start = await alice.client.post(`/api/v1/rooms/${room.json.room.id}/start`);
  await new Promise((r) => setTimeout(r, start.json.room.starts_in_ms + 50));
  const race = start.json.room.players[0].game_id;
  await play(alice.client, race, [{ steps: 'r' }]);
  // A step of the player's own game after it: the watcher sees that one only.
  const own = (await alice.client.post(`/api/v1/levels/${ids[2]}/game`)).json.game.id;
  await play(alice.client, own, [{ steps: 'r' }]);
  await stream.next('step', (d) => d.game === own);
  assert.ok(!stepsOf(stream).some((e) => e.game === race), stream.raw);
  stream.close();
});

test('a player who opted out, or a guest, cannot be watched', async () => {
  const bob = await player();
  const watcher = server.client();
  await bob.client.post(`/api/v1/levels/${ids[0]}/game`);
  const stream = await openStream(watcher, `?watch=${bob.id}`);
  await stream.next('ready');
  let r = await bob.client.req('PUT', '/api/v1/account/settings', { settings: { theme: 'midnight', watchable: false } });
  assert.equal(r.status, 200, show(r));
  // The open stream ends, and no new one starts.
  await stream.until((s) => s.ended, 'the end of the watcher\'s stream once the player opted out');
  const refused = await openStream(watcher, `?watch=${bob.id}`);
  assert.equal(refused.status, 403, refused.raw);
  await refused.until((s) => s.ended, 'the refusal\'s end');
  assert.equal(JSON.parse(refused.raw).error.code, 'not_watchable', refused.raw);
  r = await watcher.get(`/api/v1/watch/${bob.id}`);
  assert.equal(r.status, 403, show(r));
  assert.equal(r.json.error.code, 'not_watchable', show(r));
  // Back on: watchable again.
  r = await bob.client.req('PUT', '/api/v1/account/settings', { settings: { watchable: true } });
  assert.equal(r.status, 200, show(r));
  r = await watcher.get(`/api/v1/watch/${bob.id}`);
  assert.equal(r.status, 200, show(r));
  r = await bob.client.req('PUT', '/api/v1/account/settings', { settings: { watchable: 'no' } });
  assert.equal(r.status, 400, show(r));
  assert.equal(r.json.error.code, 'wrong_type', show(r));

  const guest = server.client();
  const g = await guest.post(`/api/v1/levels/${ids[0]}/game`);
  const guestId = (await guest.get('/api/v1/account')).json.user.id;
  assert.ok(g.status === 201 && guestId > 0, show(g));
  r = await watcher.get(`/api/v1/watch/${guestId}`);
  assert.equal(r.status, 403, show(r));
  assert.equal(r.json.error.code, 'not_watchable', show(r));
  r = await watcher.get('/api/v1/events?watch=' + guestId);
  assert.equal(r.status, 403, show(r));
  r = await watcher.get('/api/v1/watch/999999');
  assert.equal(r.status, 404, show(r));
  assert.equal(r.json.error.code, 'user_not_found', show(r));
  r = await watcher.get('/api/v1/events?watch=abc');
  assert.equal(r.status, 400, show(r));
  assert.equal(r.json.error.code, 'invalid_value', show(r));
});
