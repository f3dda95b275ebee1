// Race rooms: creating, joining, the countdown, race steps checked like
// every step and heard live by spectators, finishing places, leaving and
// coming back, rematches, rate limits, and the player's own games kept
// apart from race games.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { rawRequest, show, startServerWithLevels, stopCleanly } from './harness.mjs';
import { openStream } from './sse.mjs';

let server;
let ids;

before(async () => {
  // Short heartbeats: a dropped connection shows within a second or two.
  ({ server, ids } = await startServerWithLevels({ args: ['--heartbeat', '1'] }));
});

after(() => stopCleanly(server));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A room on the Corridor (#@ $ .#, solved by rRR) with its host and a guest seated.
async function roomOfTwo() {
  const host = server.client();
  const guest = server.client();
  const made = await host.post('/api/v1/rooms', { level: 'chosen', level_id: ids[0] });
  assert.equal(made.status, 201, show(made));
  const id = made.json.room.id;
  const joined = await guest.post(`/api/v1/rooms/${id}/join`);
  assert.equal(joined.status, 200, show(joined));
  return { host, guest, id, hostId: made.json.you.user_id, guestId: joined.json.you.user_id };
}

async function startAndWait(host, id) {
  const r = await host.post(`/api/v1/rooms/${id}/start`);
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.room.state, 'countdown', show(r));
  await sleep(r.json.room.starts_in_ms + 50);
  return r.json;
}

const gameOf = (state, user) => state.room.players.find((p) => p.user_id === user).game_id;

test('a room is created on a chosen or a random level, with its host seated', async () => {
  const host = server.client();
  const r = await host.post('/api/v1/rooms', { level: 'chosen', level_id: ids[1] });
  assert.equal(r.status, 201, show(r));
  const room = r.json.room;
  assert.equal(room.state, 'lobby');
  assert.equal(room.level_id, ids[1]);
  assert.equal(room.title, 'Room');
  assert.equal(room.players.length, 1);
  assert.equal(room.players[0].user_id, r.json.you.user_id);
  assert.equal(room.players[0].host, true);
  assert.equal(r.json.you.seated, true);
  const random = await host.post('/api/v1/rooms', { level: 'random' });
  assert.equal(random.status, 201, show(random));
  assert.ok(ids.includes(random.json.room.level_id), `a level of the library: ${random.json.room.level_id}`);
  // Today's puzzle: only once a GET /daily has made it.
  let daily = await host.post('/api/v1/rooms', { level: 'daily' });
  assert.equal(daily.status, 404, `a race on the daily puzzle before it exists: ${show(daily)}`);
  assert.equal(daily.json.error.code, 'level_not_found', show(daily));
  const today = await host.get('/api/v1/daily');
  assert.equal(today.status, 200, show(today));
  daily = await host.post('/api/v1/rooms', { level: 'daily' });
  assert.equal(daily.status, 201, show(daily));
  assert.equal(daily.json.room.level_id, today.json.level.id, 'the room races on today\'s puzzle');
  assert.equal(daily.json.room.source, 'daily');
  let bad = await host.post('/api/v1/rooms', { level: 'chosen' });
  assert.equal(bad.json.error.code, 'missing_field', show(bad));
  bad = await host.post('/api/v1/rooms', { level: 'somewhere' });
  assert.equal(bad.json.error.code, 'invalid_value', show(bad));
  bad = await host.post('/api/v1/rooms', { level: 'chosen', level_id: 99999 });
  assert.equal(bad.status, 404, show(bad));
  bad = await host.get('/api/v1/rooms/99999');
  assert.equal(bad.json.error.code, 'room_not_found', show(bad));
  // Anyone with the link sees the lobby, without a seat.
  const look = await server.client().get(`/api/v1/rooms/${room.id}`);
  assert.equal(look.status, 200, show(look));
  assert.equal(look.json.you.seated, false);
});

test('two players race: steps checked, spectators hear each one, places and times at the end', async () => {
  const { host, guest, id, hostId, guestId } = await roomOfTwo();
  const spectator = server.client();
  const watch = await openStream(spectator, `?room=${id}`);
  await watch.next('ready');
  let r = await guest.post(`/api/v1/rooms/${id}/start`);
  assert.equal(r.status, 403, `only the host starts: ${show(r)}`);
  assert.equal(r.json.error.code, 'not_host');
  r = await host.post(`/api/v1/rooms/${id}/start`);
  assert.equal(r.status, 200, show(r));
  const hostGame = gameOf(r.json, hostId), guestGame = gameOf(r.json, guestId);
  assert.ok(hostGame && guestGame && hostGame !== guestGame, 'a fresh game per seat');
  const early = await host.post(`/api/v1/games/${hostGame}/log`, { seq: 1, steps: 'r' });
  assert.equal(early.status, 409, `a step in the countdown: ${show(early)}`);
  assert.equal(early.json.error.code, 'race_not_started');
  await sleep(r.json.room.starts_in_ms + 50);
  // Nobody plays another's race game.
  r = await guest.post(`/api/v1/games/${hostGame}/log`, { seq: 1, steps: 'r' });
  assert.equal(r.status, 404, show(r));
  // Steps are checked by the core like any step.
  r = await guest.post(`/api/v1/games/${guestGame}/log`, { seq: 1, steps: 'l' });
  assert.equal(r.json.error.code, 'step_refused', show(r));
  r = await guest.post(`/api/v1/games/${guestGame}/log`, { seq: 1, steps: 'r' });
  assert.equal(r.status, 200, show(r));
  const heard = await watch.next('race_step', (e) => e.user_id === guestId);
  assert.deepEqual([heard.json.seq, heard.json.steps, heard.json.moves, heard.json.game],
    [1, 'r', 1, guestGame]);
  for (const [seq, steps] of [[1, 'rR'], [2, 'R']]) {
    r = await host.post(`/api/v1/games/${hostGame}/log`, { seq, steps });
    assert.equal(r.status, 200, show(r));
  }
  assert.equal(r.json.game.solved, true);
  const first = await watch.next('room', (room) => room.players.some((p) => p.finished));
  const winner = first.json.players.find((p) => p.user_id === hostId);
  assert.equal(winner.place, 1);
  assert.ok(winner.time_ms >= 0, JSON.stringify(winner));
  assert.equal(first.json.state, 'racing', 'the guest still races');
  r = await host.post(`/api/v1/games/${hostGame}/log`, { seq: 3, undo: 1 });
  assert.equal(r.json.error.code, 'race_over', `no steps after finishing: ${show(r)}`);
  r = await guest.post(`/api/v1/games/${guestGame}/log`, { seq: 2, steps: 'RR' });
  assert.equal(r.status, 200, show(r));
  const done = await watch.next('room', (room) => room.state === 'finished');
  const places = done.json.players.map((p) => [p.user_id, p.place, p.moves, p.pushes]);
  assert.deepEqual(places.sort(), [[hostId, 1, 3, 2], [guestId, 2, 3, 2]].sort());
  // Everyone reads the same results.
  const a = (await host.get(`/api/v1/rooms/${id}`)).json.room;
  const b = (await spectator.get(`/api/v1/rooms/${id}`)).json.room;
  assert.deepEqual(a.players, b.players);
  assert.deepEqual(watch.of('race_step').map((e) => e.json.user_id),
    [guestId, hostId, hostId, guestId], 'every committed race entry, once, in order');
  watch.close();
});

test('race games stay apart from the player\'s own games', async () => {
  const { host, id, hostId } = await roomOfTwo();
  const state = await startAndWait(host, id);
  const race = gameOf(state, hostId);
  let r = await host.post(`/api/v1/games/${race}/log`, { seq: 1, steps: 'r' });
  assert.equal(r.status, 200, show(r));
  r = await host.post(`/api/v1/games/${race}/hint`, {});
  assert.equal(r.status, 409, `no hints in a race: ${show(r)}`);
  assert.equal(r.json.error.code, 'race_under_way');
  const own = await host.post(`/api/v1/levels/${ids[0]}/game`);
  assert.equal(own.status, 201, `the player's own game is a new one: ${show(own)}`);
  assert.notEqual(own.json.game.id, race);
  assert.equal(own.json.game.seq, 0);
  const progress = await host.get('/api/v1/progress');
  assert.doesNotMatch(JSON.stringify(progress.json), new RegExp(`"game_id":${race}\\b`), show(progress));
  const col = await host.get(`/api/v1/levels/${ids[0]}`);
  assert.equal(col.json.level.game_id, own.json.game.id, show(col));
});

test('a player who leaves is shown as gone and comes back to the same game', async () => {
  const { host, guest, id, guestId } = await roomOfTwo();
  const spectator = await openStream(server.client(), `?room=${id}`);
  await spectator.next('ready');
  const seat = await openStream(guest, `?room=${id}`);
  await seat.next('ready');
  const connected = await spectator.next('room', (room) => room.players.find((p) => p.user_id === guestId)?.connected);
  assert.ok(connected);
  const state = await startAndWait(host, id);
  const game = gameOf(state, guestId);
  let r = await guest.post(`/api/v1/games/${game}/log`, { seq: 1, steps: 'r' });
  assert.equal(r.status, 200, show(r));
  // The connection drops.
  seat.close();
  await spectator.next('room', (room) => room.state === 'racing' && !room.players.find((p) => p.user_id === guestId).connected);
  // Leaving on purpose.
  r = await guest.post(`/api/v1/rooms/${id}/leave`);
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.room.players.find((p) => p.user_id === guestId).left, true);
  r = await guest.post(`/api/v1/games/${game}/log`, { seq: 2, steps: 'R' });
  assert.equal(r.json.error.code, 'race_over', show(r));
  // Coming back: the same seat, the same game where it was.
  r = await guest.post(`/api/v1/rooms/${id}/join`);
  assert.equal(r.status, 200, show(r));
  const back = r.json.room.players.find((p) => p.user_id === guestId);
  assert.deepEqual([back.left, back.game_id], [false, game]);
  const board = r.json.games[r.json.room.players.indexOf(back)];
  assert.equal(board.history, 'r', 'the game as it was left');
  r = await guest.post(`/api/v1/games/${game}/log`, { seq: 2, steps: 'R' });
  assert.equal(r.status, 200, show(r));
  // A stranger cannot take a seat while the race is on.
  r = await server.client().post(`/api/v1/rooms/${id}/join`);
  assert.equal(r.json.error.code, 'race_under_way', show(r));
  spectator.close();
});

/** How many lists of rooms the server has read from its database. */
async function listsMade() {
  const r = await rawRequest(server.url, 'GET', '/metrics');
  assert.equal(r.status, 200, show(r));
  const line = r.text.split('\n').find((l) => l.startsWith('sokod_room_lists_made_total '));
  assert.ok(line, 'GET /metrics has sokod_room_lists_made_total');
  return Number(line.split(' ')[1]);
}

test('the list of rooms is read once for many who ask, and anew after a change', async () => {
  const { id } = await roomOfTwo();
  const before = await listsMade();
  const t0 = Date.now();
  const lists = await Promise.all(Array.from({ length: 40 }, () => server.client().get('/api/v1/rooms')));
  const seconds = (Date.now() - t0) / 1000;
  for (const l of lists) assert.ok(l.json.rooms.some((room) => room.id === id), `each answer lists room ${id}: ${show(l)}`);
  const made = (await listsMade()) - before;
  // Read once, and once more each second the requests took.
  assert.ok(made >= 1 && made <= 1 + Math.ceil(seconds), `40 lists asked for in ${seconds} s were read ${made} times`);
  // A room that changes is listed as it is now, at once.
  const other = await roomOfTwo();
  const after = await server.client().get('/api/v1/rooms');
  assert.ok(after.json.rooms.some((room) => room.id === other.id), `a room opened since is listed: ${show(after)}`);
});

test('a rematch is a new round with fresh games, and the list shows rooms being played', async () => {
  const { host, guest, id, hostId, guestId } = await roomOfTwo();
  let list = await server.client().get('/api/v1/rooms');
  assert.ok(list.json.rooms.some((room) => room.id === id), 'a lobby is listed');
  const state = await startAndWait(host, id);
  for (const [c, u] of [[host, hostId], [guest, guestId]]) {
    const r = await c.post(`/api/v1/games/${gameOf(state, u)}/log`, { seq: 1, steps: 'rRR' });
    assert.equal(r.status, 200, show(r));
  }
  let r = await guest.get(`/api/v1/rooms/${id}`);
  assert.equal(r.json.room.state, 'finished', show(r));
  list = await server.client().get('/api/v1/rooms');
  assert.ok(!list.json.rooms.some((room) => room.id === id), 'a finished room is not listed');
  r = await server.client().post(`/api/v1/rooms/${id}/rematch`);
  assert.equal(r.status, 401, `nobody: ${show(r)}`);
  r = await guest.post(`/api/v1/rooms/${id}/rematch`);
  assert.equal(r.status, 200, show(r));
  assert.deepEqual([r.json.room.state, r.json.room.round], ['lobby', 2]);
  assert.ok(r.json.room.players.every((p) => p.game_id === null && !p.finished));
  const again = await startAndWait(host, id);
  assert.notEqual(gameOf(again, hostId), gameOf(state, hostId), 'a fresh game for the new round');
  // The old round's game takes no more steps.
  r = await host.post(`/api/v1/games/${gameOf(state, hostId)}/log`, { seq: 2, undo: 1 });
  assert.equal(r.json.error.code, 'race_over', show(r));
});

test('each change a player makes is heard by the room\'s followers', async () => {
  const host = server.client();
  const guest = server.client();
  const made = await host.post('/api/v1/rooms', { level: 'chosen', level_id: ids[0] });
  assert.equal(made.status, 201, show(made));
  const id = made.json.room.id;
  const spectator = await openStream(server.client(), `?room=${id}`);
  await spectator.next('ready');
  const joined = await guest.post(`/api/v1/rooms/${id}/join`);
  assert.equal(joined.status, 200, show(joined));
  const guestId = joined.json.you.user_id;
  const seated = (room) => room.players.find((p) => p.user_id === guestId);
  await spectator.next('room', (room) => room.state === 'lobby' && seated(room));
  let r = await guest.post(`/api/v1/rooms/${id}/leave`);
  assert.equal(r.status, 200, show(r));
  await spectator.next('room', (room) => room.state === 'lobby' && room.players.length === 1);
  r = await guest.post(`/api/v1/rooms/${id}/join`);
  assert.equal(r.status, 200, show(r));
  r = await host.post(`/api/v1/rooms/${id}/start`);
  assert.equal(r.status, 200, show(r));
  await spectator.next('room', (room) => room.state === 'countdown' && room.players.length === 2);
  r = await guest.post(`/api/v1/rooms/${id}/leave`);
  assert.equal(r.status, 200, show(r));
  await spectator.next('room', (room) => room.state !== 'finished' && seated(room)?.left);
  r = await host.post(`/api/v1/rooms/${id}/leave`);
  assert.equal(r.status, 200, show(r));
  await spectator.next('room', (room) => room.state === 'finished');
  r = await host.post(`/api/v1/rooms/${id}/rematch`);
  assert.equal(r.status, 200, show(r));
  await spectator.next('room', (room) => room.state === 'lobby' && room.round === 2);
  spectator.close();
});

test('room creation is rate limited per user', async () => {
  const eager = server.client();
  const answers = [];
  for (let i = 0; i < 8; i++) answers.push(await eager.post('/api/v1/rooms', { level: 'random' }));
  const codes = answers.map((r) => r.status);
  assert.deepEqual(codes.slice(0, 6), [201, 201, 201, 201, 201, 201], codes.join());
  assert.equal(codes[6], 429, codes.join());
  assert.equal(answers[6].json.error.code, 'rate_limited');
  assert.ok(answers[6].json.retry_after >= 1, show(answers[6]));
  // Someone else is not held back.
  const other = await server.client().post('/api/v1/rooms', { level: 'random' });
  assert.equal(other.status, 201, show(other));
});
