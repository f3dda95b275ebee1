// The room presence of a node that never comes back expires. Each node
// writes its heartbeat (node_heartbeats) every --heartbeat, and forgets
// the streams (room_presence) of the nodes whose heartbeat ran out: a node
// of another machine that died is not shown connected for ever. A node
// with no heartbeat row keeps its streams, and so does one whose word has
// not run out; a node taken for gone while it runs counts its own streams
// again. On SQLite (one process) there are no other nodes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BACKEND, levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';
import { openStream } from './sse.mjs';

const skip = BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only';

let server;
let ids;

before(async () => {
  if (skip) return;
  server = await startServer({ args: ['--heartbeat', '1'] });
  ids = await levelIds(server.client());
});

after(async () => {
  if (!skip) await stopCleanly(server);
});

async function eventually(what, check) {
  for (let i = 0; i < 300; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`waited 15 s for ${what}; sokod:\n${server.stderr()}`);
}

const presence = (room) => sqlite(server.db,
  `SELECT node || '=' || streams FROM room_presence WHERE room_id = ${room} ORDER BY node`).split('\n').filter(Boolean);

test('the streams of a node whose heartbeat ran out are forgotten, and only those', { skip }, async () => {
  const host = server.client();
  const made = await host.post('/api/v1/rooms', { level: 'chosen', level_id: ids[0] });
  assert.equal(made.status, 201, show(made));
  const room = made.json.room.id;
  const later = Date.now() + 3600 * 1000;
  sqlite(server.db, `INSERT INTO node_heartbeats (node, expires_at) VALUES ('gone/1.1', 1), ('alive/3.3', ${later});
    INSERT INTO room_presence (room_id, node, user_id, streams) VALUES
      (${room}, 'gone/1.1', 0, 2), (${room}, 'alive/3.3', 0, 1), (${room}, 'unknown/2.2', 0, 1)`);
  await eventually('the gone node\'s streams to be forgotten', () => !presence(room).includes('gone/1.1=2'));
  assert.deepEqual(presence(room), ['alive/3.3=1', 'unknown/2.2=1'], 'the others stay');
  assert.equal(sqlite(server.db, "SELECT count(*) FROM node_heartbeats WHERE node = 'gone/1.1'"), '0', 'with its heartbeat');
  const own = sqlite(server.db, "SELECT node FROM node_heartbeats WHERE node NOT IN ('alive/3.3')");
  assert.match(own, /\/\d+\./, `the node's own heartbeat is written: ${own}`);
  // Said once the transaction is over, a moment after the rows went.
  await eventually('the node to say so', () => /forgot 1 room presence rows of nodes gone/.test(server.stderr()));
});

test('a node taken for gone while it runs counts its streams again', { skip }, async () => {
  const host = server.client();
  const made = await host.post('/api/v1/rooms', { level: 'chosen', level_id: ids[0] });
  assert.equal(made.status, 201, show(made));
  const room = made.json.room.id;
  const stream = await openStream(host, `?room=${room}`);
  try {
    await stream.next('ready');
    const own = sqlite(server.db, "SELECT node FROM node_heartbeats WHERE node NOT IN ('alive/3.3')");
    const before = presence(room);
    assert.deepEqual(before, [`${own}=1`], 'the host\'s stream is counted');
    // What another node that took this one for gone does.
    sqlite(server.db, `DELETE FROM room_presence WHERE node = '${own}'; DELETE FROM node_heartbeats WHERE node = '${own}'`);
    await eventually('the node to count its stream again', () => presence(room).length > 0);
    assert.deepEqual(presence(room), before, 'the same count as before');
    await eventually('the node to say so', () => /taken for gone: counting its room streams again/.test(server.stderr()));
  } finally {
    stream.close();
  }
});
