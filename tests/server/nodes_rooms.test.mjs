// Race rooms across three sokod nodes on one PostgreSQL database, with the
// players of one room on different nodes (no sticky sessions): every node
// shows the same room, who is in it and who is connected; the start is
// decided once, whichever nodes the host's start reaches; the players race
// through any node; and the streams following the room on every node get
// the same events, ending in one set of results, and an event id of one
// node resumes the room's stream on another.
// On SQLite (one process per database) there is nothing to test.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BACKEND, Client, freshPgDatabase, levelIds, show, startServer, stopCleanly } from './harness.mjs';
import { openStream } from './sse.mjs';

const skip = BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const nodes = [];
let ids;
let db;

before(async () => {
  if (skip) return;
  db = freshPgDatabase();
  for (let i = 0; i < 3; i++) nodes.push(await startServer({ db, args: ['--heartbeat', '1'] }));
  ids = await levelIds(nodes[0].client());
});

after(async () => {
  for (const [i, node] of nodes.entries()) {
    if (node.proc.exitCode === null && node.proc.signalCode === null) await stopCleanly(node, `node ${i} should stop cleanly`);
  }
});

// A client of node `server` with the cookies of `client` (the same player).
function samePlayerOn(server, client) {
  const c = new Client(server.url);
  c.cookies = new Map(client.cookies);
  return c;
}

// What a room shows of its players, for comparing nodes.
const seats = (room) => room.players.map((p) => [p.user_id, p.host, p.connected, p.left, p.game_id]);

// Reads the room through every node until each shows what `want` accepts
// (a stream's opening reaches the database a moment after its headers).
async function everyNodeShows(id, want, what) {
  let rooms = [];
  for (let i = 0; i < 100; i++) {
    rooms = await Promise.all(nodes.map(async (n) => (await n.client().get(`/api/v1/rooms/${id}`)).json.room));
    if (rooms.every(want)) return rooms;
    await sleep(50);
  }
  assert.fail(`${what}: the nodes show ${rooms.map((r) => JSON.stringify(r.players)).join('\n')}`);
}

test('players on different nodes share one room, one start and one set of results', { skip }, async () => {
  const [a, b, c] = nodes;
  // The host is on node A, the guest on node B; each follows the room on
  // their node, and a spectator on each of the three nodes.
  const host = a.client();
  const made = await host.post('/api/v1/rooms', { level: 'chosen', level_id: ids[0] });
  assert.equal(made.status, 201, show(made));
  const id = made.json.room.id;
  const hostId = made.json.you.user_id;
  const guest = b.client();
  const joined = await guest.post(`/api/v1/rooms/${id}/join`);
  assert.equal(joined.status, 200, `joining through node B: ${show(joined)}`);
  const guestId = joined.json.you.user_id;
  assert.deepEqual(joined.json.room.players.map((p) => p.user_id), [hostId, guestId],
    'node B seats the guest beside the host seated through node A');
  const streams = [await openStream(host, `?room=${id}`), await openStream(guest, `?room=${id}`)];
  const spectators = [];
  for (const node of nodes) spectators.push(await openStream(node.client(), `?room=${id}`));
  streams.push(...spectators);
  try {
    for (const s of streams) await s.next('ready');
    // Presence: both seated players connected, three spectators, on every node.
    const shown = await everyNodeShows(id, (r) => r.players.every((p) => p.connected) && r.spectators === 3,
      'both players connected and three spectators');
    for (const room of shown) assert.deepEqual(seats(room), seats(shown[0]), 'every node shows the same seats');
    const listed = await c.client().get('/api/v1/rooms');
    assert.ok(listed.json.rooms.some((r) => r.id === id), `node C lists the room: ${show(listed)}`);

    // The host's start reaches two nodes at once: one starts the race, the
    // other finds it started.
    const hostOnB = samePlayerOn(b, host);
    const starts = await Promise.all([host.post(`/api/v1/rooms/${id}/start`), hostOnB.post(`/api/v1/rooms/${id}/start`)]);
    assert.deepEqual(starts.map((r) => r.status).sort(), [200, 409],
      `the start through nodes A and B: ${starts.map(show).join('; ')}`);
    const started = starts.find((r) => r.status === 200).json.room;
    assert.equal(starts.find((r) => r.status === 409).json.error.code, 'race_under_way');
    const game = (user) => started.players.find((p) => p.user_id === user).game_id;
    const early = await samePlayerOn(c, guest).post(`/api/v1/games/${game(guestId)}/log`, { seq: 1, steps: 'r' });
    assert.equal(early.json?.error?.code, 'race_not_started', `a step in the countdown through node C: ${show(early)}`);
    // Each node's clock follows the database's, to within a round trip.
    await sleep(started.starts_in_ms + 250);

    // Both race, each entry through another node (the Corridor: rRR).
    const post = async (player, node, user, seq, steps) => {
      const r = await samePlayerOn(node, player).post(`/api/v1/games/${game(user)}/log`, { seq, steps });
      assert.equal(r.status, 200, `entry ${seq} '${steps}' of user ${user}: ${show(r)}`);
      return r;
    };
    await post(guest, b, guestId, 1, 'r');
    await post(host, a, hostId, 1, 'rR');
    const solved = await post(host, c, hostId, 2, 'R');
    assert.equal(solved.json.game.solved, true);
    const over = await samePlayerOn(b, host).post(`/api/v1/games/${game(hostId)}/log`, { seq: 3, undo: 1 });
    assert.equal(over.json?.error?.code, 'race_over', `a step after finishing, through node B: ${show(over)}`);
    await post(guest, a, guestId, 2, 'RR');

    // Every stream, on every node, hears the same events from the start
    // to the results, and the results are one.
    const finished = (room) => room.state === 'finished';
    for (const s of streams) await s.next('room', finished);
    const fromStart = (s) => {
      const events = s.events.filter((e) => e.event === 'room' || e.event === 'race_step');
      const first = events.findIndex((e) => e.event === 'room' && e.json.state === 'countdown');
      const last = events.findIndex((e) => e.event === 'room' && finished(e.json));
      return events.slice(first, last + 1).map((e) => `${e.event} ${e.data}`);
    };
    const told = streams.map(fromStart);
    const steps = told[0].filter((e) => e.startsWith('race_step')).map((e) => JSON.parse(e.slice(10)));
    assert.deepEqual(steps.map((e) => [e.user_id, e.seq]), [[guestId, 1], [hostId, 1], [hostId, 2], [guestId, 2]],
      `every committed entry once, in order: ${told[0].join('\n')}`);
    for (const [i, events] of told.entries()) {
      assert.deepEqual(events, told[0], `stream ${i} (of the host on A, the guest on B, spectators on A, B, C)`);
    }
    const results = await everyNodeShows(id, finished, 'the finished race');
    const places = results.map((room) => room.players.map((p) => [p.user_id, p.place, p.time_ms]));
    for (const p of places) assert.deepEqual(p, places[0], 'every node shows the same results');
    assert.deepEqual(places[0].map(([user, place]) => [user, place]), [[hostId, 1], [guestId, 2]]);
    assert.equal(told[0].filter((e) => e.startsWith('room') && e.includes('"state":"finished"')).length, 1,
      'the race ends once');

    // An id of node A's stream resumes on node C with the events it
    // missed: a room's positions are its events' numbers, on every node.
    const onA = spectators[0];
    const countdown = onA.events.find((e) => e.event === 'room' && e.json.state === 'countdown');
    const resumed = await openStream(c.client(), `?room=${id}`, { 'Last-Event-ID': countdown.id });
    streams.push(resumed);
    await resumed.next('ready');
    const replayed = resumed.events.filter((e) => e.event !== 'ready').map((e) => `${e.event} ${e.data}`);
    assert.deepEqual(replayed, told[2].slice(1),
      `resuming on node C after ${countdown.id}, an id of node A: ${resumed.raw.slice(0, 2000)}`);
  } finally {
    for (const s of streams) s.close();
  }
});

test('a player leaving through one node ends the race for the room on every node', { skip }, async () => {
  const [a, b, c] = nodes;
  const host = a.client();
  const made = await host.post('/api/v1/rooms', { level: 'chosen', level_id: ids[0] });
  const id = made.json.room.id;
  const r = await host.post(`/api/v1/rooms/${id}/start`);
  assert.equal(r.status, 200, show(r));
  const left = await samePlayerOn(b, host).post(`/api/v1/rooms/${id}/leave`);
  assert.equal(left.json.room.state, 'finished', `leaving through node B: ${show(left)}`);
  await everyNodeShows(id, (room) => room.state === 'finished', 'the race its only player left');
  // The rematch, called through node C, brings every node to the next round's lobby.
  const again = await samePlayerOn(c, host).post(`/api/v1/rooms/${id}/rematch`);
  assert.equal(again.status, 200, show(again));
  await everyNodeShows(id, (room) => room.state === 'lobby' && room.round === 2, 'the rematch');
});

test('a node killed with streams open leaves nobody connected once it is back', { skip }, async () => {
  const [a, b] = nodes;
  const host = a.client();
  const made = await host.post('/api/v1/rooms', { level: 'chosen', level_id: ids[0] });
  const id = made.json.room.id;
  const stream = await openStream(samePlayerOn(b, host), `?room=${id}`);
  await stream.next('ready');
  const spectator = await openStream(b.client(), `?room=${id}`);
  await spectator.next('ready');
  await everyNodeShows(id, (room) => room.players[0].connected && room.spectators === 1, 'the host connected through node B');
  // Node B dies without a word; a node started again on its machine
  // forgets the streams of the processes there that no longer run.
  b.proc.kill('SIGKILL');
  await new Promise((done) => b.proc.once('exit', done));
  stream.close();
  spectator.close();
  nodes[1] = await startServer({ db, args: ['--heartbeat', '1'] });
  await everyNodeShows(id, (room) => !room.players[0].connected && room.spectators === 0,
    'nobody connected once node B is gone');
});
