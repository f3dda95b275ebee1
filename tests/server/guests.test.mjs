// Guests and the disk: one address cannot make guests without end, a
// request with nothing to keep makes none, settings are small, and guests
// nobody can use any more are swept away without their ids ever being
// given again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BACKEND, levelIds, show, SOURCE, SQL, sqlite, startServer, stopCleanly, tempDir } from './harness.mjs';

const DAY = 86400;

// Opens the first test level's game for a client (a guest when it has no
// session); resolves to the answer.
async function openGame(c, level) {
  return c.post(`/api/v1/levels/${level}/game`);
}

// Waits (polling, at most `seconds`) until fn() is true; returns its last value.
async function eventually(fn, seconds = 60) {
  for (let i = 0; i < seconds * 10; i++) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return fn();
}

const count = (db, sql) => Number(sqlite(db, sql));

test('one address making guests is refused past its burst, with Retry-After', async () => {
  const server = await startServer();
  try {
    const [level] = await levelIds(server.client());
    // A player who started before the flood keeps playing through it.
    const player = server.client();
    assert.equal((await openGame(player, level)).status, 201);
    const statuses = new Map();
    let retryAfter = null;
    for (let i = 0; i < 200; i++) {
      const r = await openGame(server.client(), level);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status === 429) {
        assert.equal(r.json?.error?.code, 'rate_limited', show(r));
        retryAfter = Number(r.headers.get('retry-after'));
      }
    }
    const made = statuses.get(201) ?? 0;
    const refused = statuses.get(429) ?? 0;
    const guests = count(server.db, 'SELECT count(*) FROM users WHERE guest = 1');
    console.log(`200 requests without a session: ${made} made a guest, ${refused} refused; ` +
      `${guests} guests in the database`);
    assert.equal(made + refused, 200, `only 201 and 429: ${JSON.stringify([...statuses])}`);
    // 60 at once (the player's among them), then one a second: far fewer
    // than 200 even on a slow machine.
    assert.ok(made + 1 >= 60 && made + 1 <= 120, `guests made: ${made} and the player`);
    assert.ok(retryAfter >= 1, `Retry-After on a refusal: ${retryAfter}`);
    assert.equal(guests, made + 1, 'a refused request made no guest');
    const again = await openGame(player, level);
    assert.equal(again.status, 200, `a player with a session is not limited: ${show(again)}`);
  } finally {
    await server.stop();
  }
});

test('settings saved without a session create nobody and stay with the browser', async () => {
  const server = await startServer();
  try {
    const before = count(server.db, 'SELECT count(*) FROM users');
    const c = server.client();
    const r = await c.req('PUT', '/api/v1/account/settings', { settings: { theme: 'midnight' } });
    assert.equal(r.status, 401, show(r));
    assert.equal(r.json?.error?.code, 'no_session', show(r));
    assert.equal(c.cookies.size, 0, 'no session cookie was given');
    assert.equal(count(server.db, 'SELECT count(*) FROM users'), before, 'no user was made');
    assert.equal(count(server.db, 'SELECT count(*) FROM sessions'), 0, 'no session was made');
    assert.equal(count(server.db, 'SELECT count(*) FROM user_settings'), 0, 'nothing was stored');
  } finally {
    await server.stop();
  }
});

test('settings past 2048 bytes of JSON are refused and change nothing', async () => {
  const server = await startServer();
  try {
    const c = server.client();
    const [level] = await levelIds(c);
    assert.equal((await openGame(c, level)).status, 201);
    const kept = { theme: 'garden', speed: 'fast', sound: true, pointMode: true, showDead: false,
      warnFrozen: true, watchable: true };
    let r = await c.req('PUT', '/api/v1/account/settings', { settings: kept });
    assert.equal(r.status, 200, `what the browser stores today fits: ${show(r)}`);
    // 30 keys of 60-byte strings: within the key and string limits, 2.4 KB in all.
    const big = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`key${i}`, 'x'.repeat(60)]));
    r = await c.req('PUT', '/api/v1/account/settings', { settings: big });
    assert.equal(r.status, 413, show(r));
    assert.equal(r.json?.error?.code, 'body_too_large', show(r));
    r = await c.get('/api/v1/account/settings');
    assert.deepEqual(r.json.settings, kept, 'the refused settings left the saved ones alone');
  } finally {
    await server.stop();
  }
});

test('guests who never played are swept; players, accounts and their games stay', async () => {
  const server = await startServer({
    args: ['--sweep-interval', '1', '--guest-unplayed-ttl', '2'],
  });
  try {
    const [level] = await levelIds(server.client());
    const idle = server.client();
    const opened = await openGame(idle, level);
    assert.equal(opened.status, 201);
    const idleGame = opened.json.game.id;
    const player = server.client();
    const game = (await openGame(player, level)).json.game.id;
    let r = await player.post(`/api/v1/games/${game}/log`, { seq: 1, steps: 'r' });
    assert.equal(r.status, 200, show(r));
    const account = server.client();
    r = await account.post('/api/v1/account/signup', { username: 'stayer', password: 'a long password 1' });
    assert.ok(r.status === 200 || r.status === 201, show(r));
    const ids = sqlite(server.db, 'SELECT id FROM users ORDER BY id').split('\n').join(',');

    // The log line comes once the sweep has committed: wait for both.
    const gone = await eventually(() =>
      count(server.db, `SELECT count(*) FROM games WHERE id = ${idleGame}`) === 0 &&
      /sweep deleted/.test(server.stderr()));
    assert.ok(gone, `the game of the guest who never played was deleted; users ${ids}; stderr:\n${server.stderr()}`);
    assert.match(server.stderr(), /sweep deleted [1-9]\d* guests who never played/);
    r = await idle.get('/api/v1/account');
    assert.equal(r.json?.user, null, `the swept guest's cookie is no session any more: ${show(r)}`);
    r = await player.get(`/api/v1/games/${game}`);
    assert.equal(r.status, 200, `the guest who played keeps its game: ${show(r)}`);
    r = await account.get('/api/v1/account');
    assert.equal(r.json?.user?.username, 'stayer', show(r));
    assert.equal(count(server.db, 'SELECT count(*) FROM users WHERE guest = 1'), 1,
      'one guest left: the one who played');
  } finally {
    await stopCleanly(server, 'sokod stops cleanly with its sweeper');
  }
});

test('expired sessions and guests unseen for 90 days are swept, accounts stay', async () => {
  const start = 1_900_000_000;
  const first = await startServer({ env: { SOKOD_TEST_NOW: String(start) } });
  let db, dir;
  let guestGame, roomId, maxUser;
  try {
    db = first.db;
    dir = first.dir;
    const [level] = await levelIds(first.client());
    const guest = first.client();
    guestGame = (await openGame(guest, level)).json.game.id;
    let r = await guest.post(`/api/v1/games/${guestGame}/log`, { seq: 1, steps: 'r' });
    assert.equal(r.status, 200, show(r));
    const host = first.client();
    r = await host.post('/api/v1/rooms', { level: 'chosen', level_id: level });
    assert.equal(r.status, 201, show(r));
    roomId = r.json.room.id;
    const account = first.client();
    r = await account.post('/api/v1/account/signup', { username: 'returns', password: 'a long password 1' });
    assert.ok(r.status === 200 || r.status === 201, show(r));
    maxUser = count(db, 'SELECT max(id) FROM users');
  } finally {
    await first.stop();
  }
  // A long history (10,000 more entries), deleted in several transactions.
  sqlite(db, `WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 10001)
    INSERT INTO game_log (game_id, seq, kind, steps, created_at)
    SELECT ${guestGame}, i, 'steps', 'l', ${start} FROM n`);
  const later = await startServer({
    dir, db,
    env: { SOKOD_TEST_NOW: String(start + 91 * DAY) },
    args: ['--sweep-interval', '1'],
  });
  try {
    const swept = await eventually(() => count(db, 'SELECT count(*) FROM sessions') === 0 &&
      count(db, 'SELECT count(*) FROM users WHERE guest = 1') === 0 &&
      /expired sessions/.test(later.stderr()));
    assert.ok(swept, `sessions ${sqlite(db, 'SELECT count(*) FROM sessions')}, guests ` +
      `${sqlite(db, 'SELECT count(*) FROM users WHERE guest = 1')}; stderr:\n${later.stderr()}`);
    assert.match(later.stderr(), /sweep deleted \d+ guests who never played, [1-9]\d* idle guests and [1-9]\d* expired sessions/);
    assert.equal(count(db, "SELECT count(*) FROM users WHERE username = 'returns'"), 1, 'the account stays');
    assert.equal(count(db, `SELECT count(*) FROM games WHERE id = ${guestGame}`), 0, "the idle guest's game went");
    assert.equal(count(db, `SELECT count(*) FROM game_log WHERE game_id = ${guestGame}`), 0,
      "and its 10,001 log entries");
    assert.equal(count(db, `SELECT count(*) FROM rooms WHERE id = ${roomId}`), 0, "the idle host's room went");
    const c = later.client();
    let r = await c.post('/api/v1/account/login', { username: 'returns', password: 'a long password 1' });
    assert.equal(r.status, 200, `the account logs in again: ${show(r)}`);
    // Ids of swept rows are never given again: a new guest, game and room
    // each get an id above every id given before.
    const [level] = await levelIds(c);
    const fresh = later.client();
    r = await openGame(fresh, level);
    assert.equal(r.status, 201, show(r));
    assert.ok(r.json.game.id > guestGame, `new game ${r.json.game.id} after swept ${guestGame}`);
    assert.ok(count(db, 'SELECT max(id) FROM users') > maxUser, 'the new guest has a new id');
    r = await fresh.post('/api/v1/rooms', { level: 'chosen', level_id: level });
    assert.equal(r.status, 201, show(r));
    assert.ok(r.json.room.id > roomId, `new room ${r.json.room.id} after swept ${roomId}`);
  } finally {
    await later.stop();
  }
});

test('ids of deleted users, games and rooms are never given again', async () => {
  const first = await startServer();
  const { db, dir } = first;
  let last;
  try {
    const [level] = await levelIds(first.client());
    const c = first.client();
    const game = (await openGame(c, level)).json.game.id;
    const r = await c.post('/api/v1/rooms', { level: 'chosen', level_id: level });
    assert.equal(r.status, 201, show(r));
    last = { game, room: r.json.room.id, user: count(db, 'SELECT max(id) FROM users') };
  } finally {
    await first.stop();
  }
  // The newest user goes, and its game and room with it, as a sweep does.
  sqlite(db, `${SQL.foreignKeysOn}DELETE FROM users WHERE id = ${last.user}`);
  assert.equal(count(db, 'SELECT count(*) FROM games'), 0);
  const again = await startServer({ dir, db });
  try {
    const [level] = await levelIds(again.client());
    const c = again.client();
    const game = (await openGame(c, level)).json.game.id;
    const r = await c.post('/api/v1/rooms', { level: 'chosen', level_id: level });
    assert.equal(r.status, 201, show(r));
    const now = { game, room: r.json.room.id, user: count(db, 'SELECT max(id) FROM users') };
    console.log(`ids before the delete ${JSON.stringify(last)}, after ${JSON.stringify(now)}`);
    assert.ok(now.user > last.user, `user id ${now.user} after deleted ${last.user}`);
    assert.ok(now.game > last.game, `game id ${now.game} after deleted ${last.game}`);
    assert.ok(now.room > last.room, `room id ${now.room} after deleted ${last.room}`);
  } finally {
    await again.stop();
  }
});

test('the migration to ids never given twice keeps every row of a played database', { skip: BACKEND === 'postgresql' && 'SQLite rebuilds its tables here; PostgreSQL\'s identities never reused ids' }, async () => {
  // The schema as it stood before: every migration up to 0011.
  const old = tempDir('sokod-migrations-');
  for (const f of fs.readdirSync(path.join(SOURCE, 'migrations'))) {
    if (/^\d{4}_.*\.sql$/.test(f) && Number(f.slice(0, 4)) <= 11) {
      fs.copyFileSync(path.join(SOURCE, 'migrations', f), path.join(old, f));
    }
  }
  const first = await startServer({ args: ['--migrations', old] });
  const { db, dir } = first;
  const tables = ['users', 'sessions', 'games', 'game_log', 'solutions', 'board_entries',
    'board_buckets', 'rooms', 'user_settings'];
  let before, board, level;
  try {
    assert.equal(sqlite(db, 'PRAGMA user_version'), '11');
    [level] = await levelIds(first.client());
    // An account and a guest each solve the Corridor (#@ $ .#: rRR); the
    // guest also has a room; the account saves settings. Today's sokod
    // records solutions with columns of later migrations (0019): the
    // solving step is played, the solution written as the sokod of then
    // wrote it.
    const players = [first.client(), first.client()];
    let r = await players[0].post('/api/v1/account/signup', { username: 'migrant', password: 'a long password 1' });
    assert.equal(r.status, 201, show(r));
    for (const c of players) {
      const game = (await c.post(`/api/v1/levels/${level}/game`)).json.game.id;
      r = await c.post(`/api/v1/games/${game}/log`, { seq: 1, steps: 'rR' });
      assert.equal(r.status, 200, show(r));
      sqlite(db, `PRAGMA foreign_keys = ON; INSERT INTO solutions (user_id, level_id, game_id, moves, pushes, lurd, solved_at)
        SELECT user_id, level_id, id, 3, 2, 'rRR', 0 FROM games WHERE id = ${game}`);
    }
    // The guest's room is written as the schema of then held it: today's
    // server keeps a room's state in tables of later migrations.
    sqlite(db, `INSERT INTO rooms (host_id, level_id, source, created_at) SELECT max(id), ${level}, 'chosen', 0 FROM users WHERE guest = 1`);
    r = await players[0].req('PUT', '/api/v1/account/settings', { settings: { theme: 'garden' } });
    assert.equal(r.status, 200, show(r));
    before = Object.fromEntries(tables.map((t) => [t, sqlite(db, `SELECT count(*) FROM ${t}`)]));
    board = (await first.client().get(`/api/v1/levels/${level}/leaderboard`)).json;
  } finally {
    await first.stop();
  }
  const after = await startServer({ dir, db });
  try {
    assert.match(after.stderr(), /applied migration 0012_/);
    const now = Object.fromEntries(tables.map((t) => [t, sqlite(db, `SELECT count(*) FROM ${t}`)]));
    assert.deepEqual(now, before, 'the same rows in every table');
    assert.equal(sqlite(db, 'PRAGMA foreign_key_check'), '', 'no row refers to a missing one');
    assert.equal(sqlite(db, 'PRAGMA integrity_check'), 'ok');
    assert.deepEqual((await after.client().get(`/api/v1/levels/${level}/leaderboard`)).json, board,
      'the leaderboard reads the same');
    const c = after.client();
    let r = await c.post('/api/v1/account/login', { username: 'migrant', password: 'a long password 1' });
    assert.equal(r.status, 200, show(r));
    r = await c.get('/api/v1/account/settings');
    assert.deepEqual(r.json.settings, { theme: 'garden' });
    // The triggers that name users still work: a guest who signs up is
    // listed on the board it solved.
    const guest = after.client();
    const game = (await guest.post(`/api/v1/levels/${level}/game`)).json.game.id;
    r = await guest.post(`/api/v1/games/${game}/log`, { seq: 1, steps: 'rRR' });
    assert.equal(r.status, 200, show(r));
    r = await guest.post('/api/v1/account/signup', { username: 'latecomer', password: 'a long password 1' });
    assert.equal(r.status, 201, show(r));
    const listed = sqlite(db, "SELECT DISTINCT b.listed FROM board_entries b JOIN users u ON u.id = b.user_id WHERE u.username = 'latecomer' ORDER BY 1").split('\n').join(',');
    assert.equal(listed, '1', 'the new account is listed on the boards');
  } finally {
    await after.stop();
  }
});

test('a sweep that finds the database locked stops, and the next one deletes', { skip: BACKEND === 'postgresql' && 'the lock is SQLite\'s write lock, held by its CLI' }, async () => {
  const server = await startServer({ args: ['--sweep-interval', '1', '--guest-unplayed-ttl', '1'] });
  let holder;
  try {
    const [level] = await levelIds(server.client());
    assert.equal((await openGame(server.client(), level)).status, 201);
    // Another process holds the write lock past the server's busy wait.
    holder = spawn('sqlite3', [server.db], { stdio: ['pipe', 'ignore', 'inherit'] });
    holder.stdin.write('PRAGMA busy_timeout = 10000;\nBEGIN IMMEDIATE;\nSELECT 1;\n');
    const stopped = await eventually(() => /sweep stopped early/.test(server.stderr()), 60);
    assert.ok(stopped, `the sweep gave up on the locked database; stderr:\n${server.stderr()}`);
    assert.equal(count(server.db, 'SELECT count(*) FROM users WHERE guest = 1'), 1,
      'nothing was deleted while the database was locked');
    holder.stdin.end('COMMIT;\n');
    await new Promise((r) => holder.on('exit', r));
    const swept = await eventually(() => /sweep deleted 1 guests who never played/.test(server.stderr()));
    assert.ok(swept, `a later sweep deleted the guest; stderr:\n${server.stderr()}`);
    assert.equal(count(server.db, 'SELECT count(*) FROM users WHERE guest = 1'), 0);
  } finally {
    if (holder && holder.exitCode === null) holder.kill();
    await server.stop();
  }
});
