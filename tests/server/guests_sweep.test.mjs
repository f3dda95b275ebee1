// The sweep of guests and what they own: a saved position is play, so a
// guest who saved one is not swept as one who never played; a guest who
// holds thousands of saved positions and solutions goes in many short
// transactions rather than one long one; and nothing of anyone else goes
// with it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const DAY = 86400;
const count = (db, sql) => Number(sqlite(db, sql));

// Waits (polling, at most `seconds`) until fn() is true; returns its last value.
async function eventually(fn, seconds = 60) {
  for (let i = 0; i < seconds * 10; i++) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return fn();
}

// What user `id` owns, table by table, as counts.
function owned(db, id) {
  const of = (sql) => count(db, sql);
  return {
    games: of(`SELECT count(*) FROM games WHERE user_id = ${id}`),
    game_log: of(`SELECT count(*) FROM game_log l JOIN games g ON g.id = l.game_id WHERE g.user_id = ${id}`),
    snapshots: of(`SELECT count(*) FROM snapshots n JOIN games g ON g.id = n.game_id WHERE g.user_id = ${id}`),
    solutions: of(`SELECT count(*) FROM solutions WHERE user_id = ${id}`),
    rooms: of(`SELECT count(*) FROM rooms WHERE host_id = ${id}`),
    board_entries: of(`SELECT count(*) FROM board_entries WHERE user_id = ${id}`),
    user_settings: of(`SELECT count(*) FROM user_settings WHERE user_id = ${id}`),
    users: of(`SELECT count(*) FROM users WHERE id = ${id}`),
  };
}

// The sweep's log lines that deleted guests: {unplayed, idle, transactions, rows} each.
function sweepLines(stderr) {
  const re = /sweep deleted (\d+) guests who never played, (\d+) idle guests and \d+ expired sessions; the guests in (\d+) transactions of at most (\d+) rows/g;
  return [...stderr.matchAll(re)].map((m) => ({
    unplayed: Number(m[1]), idle: Number(m[2]), transactions: Number(m[3]), rows: Number(m[4]),
  }));
}

test('a guest who only saved a position is not swept as one who never played', async () => {
  const server = await startServer({ args: ['--sweep-interval', '1', '--guest-unplayed-ttl', '1'] });
  try {
    const [level] = await levelIds(server.client());
    const saver = server.client();
    let r = await saver.post(`/api/v1/levels/${level}/game`);
    assert.equal(r.status, 201, show(r));
    const game = r.json.game.id;
    r = await saver.post(`/api/v1/games/${game}/snapshots`, { name: 'before the first push', lurd: 'r' });
    assert.equal(r.status, 201, show(r));
    assert.equal(count(server.db, `SELECT seq FROM games WHERE id = ${game}`), 0, 'no entry in the log');
    const saverId = count(server.db, `SELECT user_id FROM games WHERE id = ${game}`);
    // A guest made after the saver, who only opened a game: the sweep that
    // deletes it has looked at the saver too (the pass goes by age).
    const opener = server.client();
    r = await opener.post(`/api/v1/levels/${level}/game`);
    assert.equal(r.status, 201, show(r));
    const openerGame = r.json.game.id;
    const swept = await eventually(() =>
      count(server.db, `SELECT count(*) FROM games WHERE id = ${openerGame}`) === 0 &&
      /sweep deleted [1-9]\d* guests who never played/.test(server.stderr()));
    assert.ok(swept, `the guest who only opened a game was swept; stderr:\n${server.stderr()}`);
    const kept = owned(server.db, saverId);
    console.log(`guest ${saverId} saved a position in game ${game} and made no step; after the ` +
      `sweep that deleted the guest who only opened game ${openerGame}, it holds ${JSON.stringify(kept)}`);
    assert.deepEqual([kept.users, kept.games, kept.snapshots], [1, 1, 1],
      'the guest who saved a position stays, with its game and the position');
    r = await saver.get(`/api/v1/games/${game}/snapshots`);
    assert.equal(r.status, 200, `its session still reaches the game: ${show(r)}`);
    assert.deepEqual(r.json.snapshots.map((s) => s.name), ['before the first push'], show(r));
  } finally {
    await stopCleanly(server, 'sokod stops cleanly with its sweeper');
  }
});

test('saving a position moves when a guest was last seen, as opening a game does', async () => {
  const start = 1_900_000_000;
  const first = await startServer({ env: { SOKOD_TEST_NOW: String(start) } });
  const { db, dir } = first;
  let saver, saverId, saverGame, playerId;
  try {
    const [level] = await levelIds(first.client());
    saver = first.client();
    let r = await saver.post(`/api/v1/levels/${level}/game`);
    assert.equal(r.status, 201, show(r));
    saverGame = r.json.game.id;
    r = await saver.post(`/api/v1/games/${saverGame}/snapshots`, { name: 'first day' });
    assert.equal(r.status, 201, show(r));
    saverId = count(db, `SELECT user_id FROM games WHERE id = ${saverGame}`);
    // A guest who played on the first day and never came back.
    const player = first.client();
    r = await player.post(`/api/v1/levels/${level}/game`);
    assert.equal(r.status, 201, show(r));
    r = await player.post(`/api/v1/games/${r.json.game.id}/log`, { seq: 1, steps: 'r' });
    assert.equal(r.status, 200, show(r));
    playerId = count(db, 'SELECT max(id) FROM users');
  } finally {
    await first.stop();
  }
  // Two days later the saver comes back and saves another position, and
  // nothing else.
  const second = await startServer({ dir, db, env: { SOKOD_TEST_NOW: String(start + 2 * DAY) } });
  try {
    const back = new Client(second.url);
    back.cookies = new Map(saver.cookies);
    const r = await back.post(`/api/v1/games/${saverGame}/snapshots`, { name: 'third day' });
    assert.equal(r.status, 201, show(r));
  } finally {
    await second.stop();
  }
  // 91 days after the first: the player is unseen for 91 days, the saver for 89.
  const later = await startServer({
    dir, db,
    env: { SOKOD_TEST_NOW: String(start + 91 * DAY) },
    args: ['--sweep-interval', '1'],
  });
  try {
    const swept = await eventually(() => count(db, `SELECT count(*) FROM users WHERE id = ${playerId}`) === 0 &&
      /sweep deleted \d+ guests who never played, [1-9]\d* idle guests/.test(later.stderr()));
    assert.ok(swept, `the player unseen for 91 days was swept; stderr:\n${later.stderr()}`);
    const kept = owned(db, saverId);
    console.log(`guest ${saverId} saved positions on days 0 and 2; on day 91, after the sweep that ` +
      `deleted guest ${playerId} (last seen on day 0), it holds ${JSON.stringify(kept)}`);
    assert.deepEqual([kept.users, kept.games, kept.snapshots], [1, 1, 2],
      'the guest who saved a position on day 2 stays, with its positions');
  } finally {
    await stopCleanly(later, 'sokod stops cleanly with its sweeper');
  }
});

test('an idle guest with 5,000 saved positions, 600 solutions and 150 rooms goes in short transactions, others keep theirs', async () => {
  const start = 1_900_000_000;
  const first = await startServer({ env: { SOKOD_TEST_NOW: String(start) } });
  const { db, dir } = first;
  let guestId, accountId, guestGame, level;
  try {
    [level] = await levelIds(first.client());
    // The guest solves the Corridor (#@ $ .#: rRR) and saves positions;
    // the account does the same and keeps everything.
    const guest = first.client();
    const account = first.client();
    let r = await account.post('/api/v1/account/signup', { username: 'keeper', password: 'a long password 1' });
    assert.equal(r.status, 201, show(r));
    for (const c of [guest, account]) {
      r = await c.post(`/api/v1/levels/${level}/game`);
      assert.equal(r.status, 201, show(r));
      const game = r.json.game.id;
      r = await c.post(`/api/v1/games/${game}/snapshots`, { name: 'start' });
      assert.equal(r.status, 201, show(r));
      r = await c.post(`/api/v1/games/${game}/log`, { seq: 1, steps: 'rRR' });
      assert.equal(r.status, 200, show(r));
      r = await c.post(`/api/v1/games/${game}/snapshots`, { name: 'solved' });
      assert.equal(r.status, 201, show(r));
      r = await c.req('PUT', '/api/v1/account/settings', { settings: { theme: 'garden' } });
      assert.equal(r.status, 200, show(r));
      if (c === guest) guestGame = game;
    }
    guestId = count(db, `SELECT user_id FROM games WHERE id = ${guestGame}`);
    accountId = count(db, "SELECT id FROM users WHERE username = 'keeper'");
  } finally {
    await first.stop();
  }
  // 5,000 more saved positions of 1,000 steps each (5 MB), 600 more
  // solutions and 150 rooms, as a guest could gather over many games.
  const lurd = 'lr'.repeat(500);
  const walks = 'lr'.repeat(600);
  sqlite(db, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
    INSERT INTO snapshots (game_id, name, lurd, moves, pushes, solved, created_at)
    SELECT ${guestGame}, 'kept ' || i, '${lurd}', 1000, 0, 0, ${start} FROM n`);
  sqlite(db, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
    INSERT INTO solutions (user_id, level_id, game_id, moves, pushes, lurd, solved_at)
    SELECT ${guestId}, ${level}, ${guestGame}, 3 + 2 * i, 2, substr('${walks}', 1, 2 * i) || 'rRR', ${start} FROM n`);
  sqlite(db, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
    INSERT INTO rooms (host_id, level_id, source, created_at) SELECT ${guestId}, ${level}, 'chosen', ${start} FROM n`);
  const guestBefore = owned(db, guestId);
  const accountBefore = owned(db, accountId);
  const guestRows = Object.values(guestBefore).reduce((a, b) => a + b, 0);
  const later = await startServer({
    dir, db,
    env: { SOKOD_TEST_NOW: String(start + 91 * DAY) },
    args: ['--sweep-interval', '1'],
  });
  try {
    const gone = await eventually(() => count(db, `SELECT count(*) FROM users WHERE id = ${guestId}`) === 0 &&
      /sweep deleted \d+ guests who never played, [1-9]\d* idle guests/.test(later.stderr()), 120);
    assert.ok(gone, `the idle guest ${guestId} was swept; stderr:\n${later.stderr()}`);
    const line = sweepLines(later.stderr()).find((l) => l.idle > 0);
    assert.ok(line, `the sweep's log line tells in how many transactions of how many rows at most ` +
      `the guests went; stderr:\n${later.stderr()}`);
    const guestAfter = owned(db, guestId);
    const accountAfter = owned(db, accountId);
    console.log(`idle guest ${guestId} held ${JSON.stringify(guestBefore)} (${guestRows} rows); the sweep ` +
      `deleted it in ${line.transactions} transactions of at most ${line.rows} rows; left of it: ` +
      `${JSON.stringify(guestAfter)}`);
    console.log(`account ${accountId} before the sweep ${JSON.stringify(accountBefore)}, after ${JSON.stringify(accountAfter)}`);
    assert.deepEqual(guestAfter, Object.fromEntries(Object.keys(guestBefore).map((k) => [k, 0])),
      'nothing of the guest is left');
    assert.ok(line.rows <= 1000,
      `no transaction deleted more than 1,000 rows (the guest held ${guestRows}): at most ${line.rows}`);
    assert.ok(line.transactions >= Math.ceil(guestRows / 1000),
      `the guest's ${guestRows} rows took ${line.transactions} transactions`);
    assert.deepEqual(accountAfter, accountBefore, 'everything of the account stays');
    const c = later.client();
    const r = await c.post('/api/v1/account/login', { username: 'keeper', password: 'a long password 1' });
    assert.equal(r.status, 200, show(r));
    const game = count(db, `SELECT id FROM games WHERE user_id = ${accountId}`);
    const list = await c.get(`/api/v1/games/${game}/snapshots`);
    assert.deepEqual(list.json?.snapshots?.map((s) => s.name), ['start', 'solved'], show(list));
  } finally {
    await stopCleanly(later, 'sokod stops cleanly with its sweeper');
  }
});

test('a guest who never played, with 600 games opened, goes in short transactions', async () => {
  const first = await startServer();
  const { db, dir } = first;
  let guestId, level;
  try {
    [level] = await levelIds(first.client());
    const guest = first.client();
    const r = await guest.post(`/api/v1/levels/${level}/game`);
    assert.equal(r.status, 201, show(r));
    guestId = count(db, `SELECT user_id FROM games WHERE id = ${r.json.game.id}`);
  } finally {
    await first.stop();
  }
  // 600 more levels in the collection, and the guest's game opened on each,
  // without a step.
  sqlite(db, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
    INSERT INTO levels (collection_id, position, title, board, width, height, boxes, canonical_hash, created_at)
    SELECT l.collection_id, 1000 + i, 'copy ' || i, l.board, l.width, l.height, l.boxes, l.canonical_hash, l.created_at
    FROM n, levels l WHERE l.id = ${level}`);
  sqlite(db, `INSERT INTO games (user_id, level_id, created_at, updated_at)
    SELECT ${guestId}, id, 0, 0 FROM levels WHERE position > 1000`);
  const before = owned(db, guestId);
  const later = await startServer({ dir, db, args: ['--sweep-interval', '1', '--guest-unplayed-ttl', '1'] });
  try {
    const gone = await eventually(() => count(db, `SELECT count(*) FROM users WHERE id = ${guestId}`) === 0 &&
      /sweep deleted [1-9]\d* guests who never played/.test(later.stderr()));
    assert.ok(gone, `the guest ${guestId} who never played was swept; stderr:\n${later.stderr()}`);
    const line = sweepLines(later.stderr()).find((l) => l.unplayed > 0);
    assert.ok(line, `the sweep's log line tells in how many transactions of how many rows at most ` +
      `the guests went; stderr:\n${later.stderr()}`);
    const after = owned(db, guestId);
    console.log(`guest ${guestId} who never played held ${JSON.stringify(before)}; the sweep deleted it ` +
      `in ${line.transactions} transactions of at most ${line.rows} rows; left of it: ${JSON.stringify(after)}`);
    assert.equal(after.games + after.users, 0, 'nothing of the guest is left');
    assert.ok(line.rows <= 300, `no transaction deleted more than 300 rows (the guest held ${before.games} games): ${line.rows}`);
    assert.ok(line.transactions >= 3, `the guest's ${before.games} games took ${line.transactions} transactions`);
    assert.equal(count(db, 'SELECT count(*) FROM levels'), 603, 'the levels stay');
  } finally {
    await stopCleanly(later, 'sokod stops cleanly with its sweeper');
  }
});
