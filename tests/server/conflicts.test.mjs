// A deadlock or serialization failure of PostgreSQL undoes a transaction
// that would succeed if run again: the committer runs the undone entry
// again, storage_transaction a request's own transaction, and the player
// gets the answer, not 503. Here psql and sokod lock two tables (or a
// table and a row) in opposite orders; psql waits 30 s before it looks for
// a deadlock, so sokod (1 s, the default) finds it first and is the one
// PostgreSQL undoes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { BACKEND, levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'deadlocks between transactions need PostgreSQL';

// psql in a transaction of its own, fed statements one at a time; out()
// is what it printed so far.
function holder(db) {
  const proc = spawn('psql', ['-X', '-q', '-At', '-d', db], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (d) => { out += d; });
  proc.stdin.write("BEGIN;\nSET deadlock_timeout = '30s';\n");
  return { proc, out: () => out };
}

// Whether some session waits for a lock on table.
function waitsFor(db, table) {
  return sqlite(db, `SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = '${table}' AND NOT l.granted`) !== '0';
}

async function eventually(check, seconds = 30) {
  for (let i = 0; i < seconds * 10; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

test('an entry undone by a deadlock runs again and is answered', { skip }, async () => {
  const server = await startServer();
  const db = server.db;
  const psql = holder(db);
  try {
    const c = server.client();
    const [level] = await levelIds(c);
    const opened = await c.post(`/api/v1/levels/${level}/game`);
    assert.equal(opened.status, 201, show(opened));
    const game = opened.json.game.id;
    psql.proc.stdin.write("LOCK TABLE game_log IN EXCLUSIVE MODE;\nSELECT 'locked';\n");
    assert.ok(await eventually(() => psql.out().includes('locked')), 'psql holds the game log');
    // The entry locks its game's row, then waits for the log.
    const step = c.post(`/api/v1/games/${game}/log`, { seq: 1, steps: 'r' });
    assert.ok(await eventually(() => waitsFor(db, 'game_log')), 'the entry waits for the game log');
    // psql now waits for the game's row: a circle, which PostgreSQL breaks
    // by undoing the committer's statement.
    psql.proc.stdin.write(`SELECT 'row ' || id FROM games WHERE id = ${game} FOR UPDATE;\n`);
    assert.ok(await eventually(() => psql.out().includes(`row ${game}`)), `psql got the game's row; sokod:\n${server.stderr()}`);
    psql.proc.stdin.end('COMMIT;\n');
    const r = await step;
    assert.equal(r.status, 200, `the step after the deadlock: ${show(r)}\nsokod:\n${server.stderr()}`);
    assert.equal(r.json.game.seq, 1, show(r));
    assert.match(server.stderr(), /database conflict, to run again/, 'PostgreSQL did undo the entry once');
    assert.equal(sqlite(db, `SELECT seq FROM games WHERE id = ${game}`), '1', 'the entry is stored');
    assert.equal(sqlite(db, `SELECT count(*) FROM game_log WHERE game_id = ${game}`), '1', 'once');
  } finally {
    if (psql.proc.exitCode === null) psql.proc.kill();
    await stopCleanly(server);
  }
});

test('a new guest undone by a deadlock is made again and answered', { skip }, async () => {
  const server = await startServer();
  const db = server.db;
  const psql = holder(db);
  try {
    const [level] = await levelIds(server.client());
    psql.proc.stdin.write("LOCK TABLE sessions IN EXCLUSIVE MODE;\nSELECT 'locked';\n");
    assert.ok(await eventually(() => psql.out().includes('locked')), 'psql holds the sessions');
    // The guest's transaction writes its user, then waits for the sessions.
    const opening = server.client().post(`/api/v1/levels/${level}/game`);
    assert.ok(await eventually(() => waitsFor(db, 'sessions')), 'the new guest waits for the sessions');
    psql.proc.stdin.write("LOCK TABLE users IN EXCLUSIVE MODE;\nSELECT 'users';\n");
    assert.ok(await eventually(() => psql.out().includes('users')), `psql got the users; sokod:\n${server.stderr()}`);
    psql.proc.stdin.end('COMMIT;\n');
    const r = await opening;
    assert.equal(r.status, 201, `the new guest's game after the deadlock: ${show(r)}\nsokod:\n${server.stderr()}`);
    assert.match(server.stderr(), /database conflict, to run again/, 'PostgreSQL did undo the guest once');
    assert.equal(sqlite(db, 'SELECT count(*) FROM users WHERE guest = 1'), '1', 'one guest');
    assert.equal(sqlite(db, 'SELECT count(*) FROM sessions'), '1', 'with one session');
  } finally {
    if (psql.proc.exitCode === null) psql.proc.kill();
    await stopCleanly(server);
  }
});

// A request's own transaction outside the committer and storage_transaction
// (here logging out everywhere: the user's sessions, then the user's row)
// runs again through storage_again.
test('logging out everywhere, undone by a deadlock, runs again and is answered', { skip }, async () => {
  const server = await startServer();
  const db = server.db;
  const psql = holder(db);
  try {
    const dora = server.client();
    let r = await dora.post('/api/v1/account/signup', { username: 'dora', password: 'a long password 4' });
    assert.equal(r.status, 201, show(r));
    const user = sqlite(db, "SELECT id FROM users WHERE username = 'dora'");
    psql.proc.stdin.write(`SELECT 'locked ' || id FROM users WHERE id = ${user} FOR UPDATE;\n`);
    assert.ok(await eventually(() => psql.out().includes(`locked ${user}`)), 'psql holds the user\'s row');
    // sokod deletes the user's sessions, then waits for the user's row.
    const out = dora.post('/api/v1/account/logout-all');
    assert.ok(await eventually(() => waitsFor(db, 'users') ||
      sqlite(db, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'") !== '0'),
    'logging out waits for the user\'s row');
    // psql now waits for the sessions sokod deleted: a circle.
    psql.proc.stdin.write(`SELECT 'sessions ' || count(*) FROM (SELECT 1 FROM sessions WHERE user_id = ${user} FOR UPDATE) s;\n`);
    assert.ok(await eventually(() => psql.out().includes('sessions ')), `psql got the sessions; sokod:\n${server.stderr()}`);
    psql.proc.stdin.end('COMMIT;\n');
    r = await out;
    assert.equal(r.status, 200, `logging out everywhere after the deadlock: ${show(r)}\nsokod:\n${server.stderr()}`);
    assert.match(server.stderr(), /database conflict, to run again/, 'PostgreSQL did undo it once');
    assert.equal(sqlite(db, `SELECT count(*) FROM sessions WHERE user_id = ${user}`), '0', 'no session is left');
  } finally {
    if (psql.proc.exitCode === null) psql.proc.kill();
    await stopCleanly(server);
  }
});

// A room's operations run in transactions of their own (room_state.c):
// joining a room, undone by a deadlock, is run again too.
test('joining a room, undone by a deadlock, runs again and is answered', { skip }, async () => {
  const server = await startServer();
  const db = server.db;
  const psql = holder(db);
  try {
    const host = server.client();
    const [level] = await levelIds(host);
    const made = await host.post('/api/v1/rooms', { level: 'chosen', level_id: level });
    assert.equal(made.status, 201, show(made));
    const room = made.json.room.id;
    psql.proc.stdin.write("LOCK TABLE room_seats IN EXCLUSIVE MODE;\nSELECT 'locked';\n");
    assert.ok(await eventually(() => psql.out().includes('locked')), 'psql holds the seats');
    // The join locks the room's row, then waits to write its seat.
    const joining = server.client().post(`/api/v1/rooms/${room}/join`);
    assert.ok(await eventually(() => waitsFor(db, 'room_seats')), 'the join waits for the seats');
    psql.proc.stdin.write(`SELECT 'room ' || id FROM rooms WHERE id = ${room} FOR UPDATE;\n`);
    assert.ok(await eventually(() => psql.out().includes(`room ${room}`)), `psql got the room's row; sokod:\n${server.stderr()}`);
    psql.proc.stdin.end('COMMIT;\n');
    const r = await joining;
    assert.equal(r.status, 200, `joining after the deadlock: ${show(r)}\nsokod:\n${server.stderr()}`);
    assert.equal(r.json.room.players.length, 2, show(r));
    assert.match(server.stderr(), /database conflict, to run again/, 'PostgreSQL did undo the join once');
    assert.equal(sqlite(db, `SELECT count(*) FROM room_seats WHERE room_id = ${room}`), '2', 'two seats');
  } finally {
    if (psql.proc.exitCode === null) psql.proc.kill();
    await stopCleanly(server);
  }
});
