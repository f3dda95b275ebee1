// Race rooms in memory are bounded (--max-rooms): any client can bring a
// room of the database into memory by asking for it, so the rooms held at
// once are capped. Past the cap, rooms nobody follows are forgotten (they
// come back from the database when asked for again); when every room held
// is followed, another is refused with 503 and Retry-After.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { BACKEND, levelIds, show, startServer, startServerWithLevels, stopCleanly } from './harness.mjs';
import { openStream } from './sse.mjs';

const MAX_ROOMS = 3;
let server;
let ids;

before(async () => {
  // Short heartbeats: the server hears of a closed stream within a second.
  ({ server, ids } = await startServerWithLevels({ args: ['--max-rooms', String(MAX_ROOMS), '--heartbeat', '1'] }));
});

after(() => stopCleanly(server));

// A room opened by a new guest of its own (the per-player limits stay out of the way).
async function newRoom() {
  const host = server.client();
  const r = await host.post('/api/v1/rooms', { level: 'chosen', level_id: ids[0] });
  return { host, r };
}

test('rooms beyond --max-rooms push out rooms nobody follows, which come back when asked for', async () => {
  const made = [];
  for (let i = 0; i < MAX_ROOMS * 2; i++) {
    const { host, r } = await newRoom();
    assert.equal(r.status, 201, `room ${i + 1} of ${MAX_ROOMS * 2} with --max-rooms ${MAX_ROOMS}: ${show(r)}`);
    made.push({ host, id: r.json.room.id });
  }
  for (const { host, id } of made) {
    const got = await host.get(`/api/v1/rooms/${id}`);
    assert.equal(got.status, 200, `GET room ${id}: ${show(got)}`);
    assert.equal(got.json.room.id, id);
  }
});

test('when every room held is followed, another room gets 503 until one is let go', async () => {
  const streams = [];
  const followed = [];
  try {
    for (let i = 0; i < MAX_ROOMS; i++) {
      const { host, r } = await newRoom();
      assert.equal(r.status, 201, show(r));
      followed.push(r.json.room.id);
      streams.push(await openStream(host, `?room=${r.json.room.id}`));
    }
    const { r: refused } = await newRoom();
    assert.equal(refused.status, 503, `a room past ${MAX_ROOMS} followed ones: ${show(refused)}`);
    assert.equal(refused.json.error.code, 'unavailable');
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'no Retry-After');
    // Asking for a room of the database that is not in memory is refused too.
    const stranger = server.client();
    const older = await stranger.get('/api/v1/rooms/1');
    assert.ok(!followed.includes(1), 'room 1 is one of the followed rooms');
    assert.equal(older.status, 503, `GET an unheld room: ${show(older)}`);
    // So is a live stream on it: the room is there, memory is not.
    const watcher = await openStream(stranger, '?room=1');
    streams.push(watcher);
    assert.equal(watcher.status, 503, `a stream on an unheld room: status ${watcher.status} ${watcher.raw.slice(0, 300)}`);
    assert.ok(Number(watcher.headers['retry-after']) > 0, 'no Retry-After on the refused stream');
    // Once a stream ends, its room may go, and a new one comes in.
    streams.pop().close();
    streams.pop().close();
    let again;
    // The server hears of the stream's end a moment later.
    for (let i = 0; i < 50; i++) {
      ({ r: again } = await newRoom());
      if (again.status === 201) break;
      const wait = again.status === 429 ? Number(again.headers.get('retry-after')) * 1000 : 200;
      await new Promise((res) => setTimeout(res, wait));
    }
    assert.equal(again.status, 201, `after a stream ended: ${show(again)}`);
  } finally {
    for (const s of streams) s.close();
  }
});

test('a room stays in memory while its rematch waits for the database', async () => {
  // One room in memory: asking for another one forgets the first.
  const own = await startServer({ args: ['--max-rooms', '1'] });
  let holder = null;
  try {
    const levels = await levelIds(own.client());
    const hostB = own.client();
    const b = await hostB.post('/api/v1/rooms', { level: 'chosen', level_id: levels[0] });
    assert.equal(b.status, 201, show(b));
    const host = own.client();
    const a = await host.post('/api/v1/rooms', { level: 'chosen', level_id: levels[0] });
    assert.equal(a.status, 201, show(a));
    const id = a.json.room.id;
    let r = await host.post(`/api/v1/rooms/${id}/start`);
    assert.equal(r.status, 200, show(r));
    r = await host.post(`/api/v1/rooms/${id}/leave`);
    assert.equal(r.json.room.state, 'finished', show(r));
    // Another process holds the room: SQLite's write lock, or the room's
    // row on PostgreSQL. The rematch waits for it with the rooms' lock
    // released, and meanwhile room B is asked for. Room A must not be
    // forgotten under the rematch: B waits for space (503), unless it came
    // before the rematch reached the database.
    const hold = BACKEND === 'postgresql'
      ? ['psql', ['-X', '-q', '-A', '-t', own.db], `BEGIN; SELECT id FROM rooms WHERE id = ${id} FOR UPDATE; SELECT 'locked';\n`]
      : ['sqlite3', [own.db], "BEGIN EXCLUSIVE; INSERT INTO users (guest, created_at) VALUES (1, 0); SELECT 'locked';\n"];
    holder = spawn(hold[0], hold[1], { stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    holder.stdout.on('data', (d) => { said += d; });
    holder.stderr.on('data', (d) => { said += d; });
    const exited = new Promise((done) => holder.on('exit', done));
    holder.stdin.write(hold[2]);
    while (!said.includes('locked')) {
      const ended = await Promise.race([exited.then(() => true), new Promise((done) => setTimeout(() => done(false), 20))]);
      assert.ok(!ended || said.includes('locked'), `${hold[0]} ended before it held the lock: ${said}`);
    }
    const rematch = host.post(`/api/v1/rooms/${id}/rematch`);
    await new Promise((done) => setTimeout(done, 500));
    const got = await own.client().get(`/api/v1/rooms/${b.json.room.id}`);
    assert.ok(got.status === 503 || got.status === 200, show(got));
    holder.stdin.end('ROLLBACK;\n');
    await exited;
    holder = null;
    // B may also have waited until the rematch gave up on the lock (503):
    // either answer is right, a crash is not.
    r = await rematch;
    if (r.status === 200) assert.equal(r.json.room.state, 'lobby', show(r));
    else assert.equal(r.json?.error?.code, 'unavailable', show(r));
  } finally {
    holder?.kill(); // a failed assertion must not leave the lock held
    await stopCleanly(own);
  }
});

test('a stream the database refused does not hold its room in memory', { skip: BACKEND === 'postgresql' && 'SQLite\'s write lock gives up; a PostgreSQL row lock waits' }, async () => {
  const own = await startServer({ args: ['--max-rooms', '1'] });
  let holder = null;
  const streams = [];
  try {
    const levels = await levelIds(own.client());
    const host = own.client();
    const a = await host.post('/api/v1/rooms', { level: 'chosen', level_id: levels[0] });
    assert.equal(a.status, 201, show(a));
    // The stream's presence cannot be written while another process holds
    // the write lock: the stream is refused once the wait gives up.
    holder = spawn('sqlite3', [own.db], { stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    holder.stdout.on('data', (d) => { said += d; });
    holder.stderr.on('data', (d) => { said += d; });
    const exited = new Promise((done) => holder.on('exit', done));
    holder.stdin.write("BEGIN EXCLUSIVE; INSERT INTO users (guest, created_at) VALUES (1, 0); SELECT 'locked';\n");
    while (!said.includes('locked')) {
      const ended = await Promise.race([exited.then(() => true), new Promise((done) => setTimeout(() => done(false), 20))]);
      assert.ok(!ended || said.includes('locked'), `sqlite3 ended before it held the lock: ${said}`);
    }
    const refused = await openStream(host, `?room=${a.json.room.id}`);
    streams.push(refused);
    assert.equal(refused.status, 503, `a stream while the database is locked: status ${refused.status} ${refused.raw.slice(0, 300)}`);
    holder.stdin.end('ROLLBACK;\n');
    await exited;
    holder = null;
    // Nothing follows room A: another room takes its place in memory.
    const b = await own.client().post('/api/v1/rooms', { level: 'chosen', level_id: levels[0] });
    assert.equal(b.status, 201, `a room once the refused stream is gone: ${show(b)}`);
  } finally {
    holder?.kill();
    for (const s of streams) s.close();
    await stopCleanly(own);
  }
});
