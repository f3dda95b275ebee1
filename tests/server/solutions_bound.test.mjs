// Solutions are bounded per user, level and rule (migration 0019): a
// player keeps the solutions the boards hold and the latest; a line that
// leaves the solved position and comes back to it is no new solution; the
// line stored is the one from the last restart without undone steps; the
// unique index holds a hash of the line, not the line again. The attack
// this answers: a game padded to millions of steps, then bodies that step
// off the solved position and on again (`lddrUluurD` eight times), each
// re-entry a new solution of millions of steps.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BACKEND, SQL, levelIds, migrationsUpTo, show, sqlite, startServer, stopCleanly, tempDir } from './harness.mjs';

// A box above its goal, and room all around: "D" solves it, with the
// player left just above the box; from there `lddrUluurD` goes round the
// box, pushes it up off the goal, goes round again and pushes it back.
const WELL = `Collection: bounds

; Well
######
#    #
# @  #
# $  #
# .  #
#    #
######
`;
const LOOP = 'lddrUluurD';

function wellFolder() {
  const levels = tempDir('sokod-well-');
  fs.writeFileSync(path.join(levels, 'well.sok'), WELL);
  return levels;
}

async function startWell(options = {}) {
  const levels = wellFolder();
  const server = await startServer({ levels, ...options });
  const [well] = await levelIds(server.client(), 'bounds');
  return { server, well };
}

// What the database takes on disk: SQLite's file and its WAL, or
// PostgreSQL's database.
function diskBytes(db) {
  if (BACKEND === 'postgresql') return Number(sqlite(db, 'SELECT pg_database_size(current_database())'));
  return [db, `${db}-wal`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
}

// The user's solutions of a level: one line each, "moves|pushes|length".
function stored(db, level) {
  return sqlite(db, `SELECT moves, pushes, length(lurd) FROM solutions WHERE level_id = ${level} ORDER BY id`)
    .split('\n').filter(Boolean);
}

// Posts entries in turn, each the next seq; returns the last answer's game.
async function play(c, game, entries) {
  let seq = (await c.get(`/api/v1/games/${game}`)).json.game.seq;
  let last;
  for (const entry of entries) {
    const r = await c.post(`/api/v1/games/${game}/log`, { seq: ++seq, ...entry });
    assert.equal(r.status, 200, `entry ${JSON.stringify(entry).slice(0, 80)}: ${show(r)}`);
    last = r.json.game;
  }
  return last;
}

const PAD = 60000; // steps before the solve, in batches the body cap lets through
const REQUESTS = 16;

test('stepping off the solved position and on again stores no solution, and the disk stays put', async () => {
  const { server, well } = await startWell();
  try {
    const c = server.client();
    const game = (await c.post(`/api/v1/levels/${well}/game`)).json.game.id;
    const pad = Array.from({ length: PAD / 30000 }, () => ({ steps: 'lr'.repeat(15000) }));
    let g = await play(c, game, [...pad, { steps: 'D' }]);
    assert.equal(g.solved, true, 'the padded game is solved');
    const before = diskBytes(server.db);
    const first = stored(server.db, well);
    for (let i = 0; i < REQUESTS; i++) g = await play(c, game, [{ steps: LOOP.repeat(8) }]);
    assert.equal(g.solved, true, 'each body ends on the solved position');
    const after = diskBytes(server.db);
    const rows = stored(server.db, well);
    // Each request may add its log entry (80 letters) and the pages a
    // commit touches: 64 KiB each is far above that, and far below one
    // padded solution per re-entry (8 x 60 KB a request).
    const bound = REQUESTS * 65536;
    console.log(`${BACKEND}: a ${PAD}-step game solved, then ${REQUESTS} requests of ${LOOP} x 8: ` +
      `solutions ${first.length} -> ${rows.length}, disk ${before} -> ${after} bytes ` +
      `(+${after - before}, bound ${bound})`);
    assert.deepEqual(rows, first, `the re-entries stored solutions:\n${rows.join('\n')}`);
    assert.ok(rows.length <= 3, `${rows.length} solutions of one level`);
    assert.ok(after - before <= bound, `the disk grew by ${after - before} bytes, more than ${bound}`);
  } finally {
    await stopCleanly(server);
  }
});

test('the stored line starts at the last restart and holds no undone step', async () => {
  const { server, well } = await startWell();
  try {
    const c = server.client();
    const game = (await c.post(`/api/v1/levels/${well}/game`)).json.game.id;
    // Wander, restart, wander and take some of it back, then solve.
    await play(c, game, [{ steps: 'rrll' }, { restart: true }, { steps: 'rrdl' }, { undo: 2 }, { steps: 'llD' }]);
    const lines = sqlite(server.db, `SELECT lurd FROM solutions WHERE level_id = ${well} ORDER BY id`).split('\n');
    console.log(`log: rrll, restart, rrdl, undo 2, llD; stored: ${lines.join(', ')}`);
    assert.deepEqual(lines, ['rrllD'], 'the line since the restart, without the two steps undone');
    // The same line again (undo to before the solve, then the same steps)
    // is no new row; stepping off and on is none either.
    await play(c, game, [{ undo: 1 }, { steps: 'D' }, { steps: LOOP }]);
    const again = sqlite(server.db, `SELECT lurd FROM solutions WHERE level_id = ${well} ORDER BY id`).split('\n');
    assert.deepEqual(again, ['rrllD'], 'nothing new');
  } finally {
    await stopCleanly(server);
  }
});

test('a new solution replaces those it beats, the boards follow, and at most three stay', async () => {
  const { server, well } = await startWell();
  try {
    const c = server.client();
    const r = await c.post('/api/v1/account/signup', { username: 'bounded', password: 'a long password 1' });
    assert.equal(r.status, 201, show(r));
    const game = (await c.post(`/api/v1/levels/${well}/game`)).json.game.id;
    // Lines, each played from a restart, and the rows each leaves: the
    // board's best (fewest moves, then pushes, then the earliest) and the
    // latest. Here the fewest moves go with the fewest pushes.
    const steps = [
      ['lurdlurdD', ['9|1|9']],
      ['lurdD', ['5|1|5']], // beats the first on both boards: it goes
      ['rllrD', ['5|1|5', '5|1|5']], // a tie, found later: the latest only
      ['lurdlurdlurdD', ['5|1|5', '13|1|13']], // replaces the latest
      ['rddlUluurDD', ['5|1|5', '11|3|11']], // the box off its square and back first
      ['D', ['1|1|1']], // beats them all
    ];
    const seen = [];
    for (const [i, [line, expected]] of steps.entries()) {
      await play(c, game, [...(i > 0 ? [{ restart: true }] : []), { steps: line }]);
      const rows = stored(server.db, well);
      const board = (await c.get(`/api/v1/levels/${well}/leaderboard`)).json;
      const pushes = (await c.get(`/api/v1/levels/${well}/leaderboard?by=pushes`)).json;
      seen.push(`${line}: rows ${rows.join(' ')}; moves board ${board.you?.moves}/${board.you?.pushes}, ` +
        `pushes board ${pushes.you?.moves}/${pushes.you?.pushes}`);
      assert.deepEqual(rows, expected, `after ${line}:\n${seen.join('\n')}`);
      // The boards show the best, and their solutions are there to replay.
      const best = expected[0].split('|').map(Number);
      assert.deepEqual([board.you.moves, board.you.pushes], best.slice(0, 2), `the moves board\n${seen.join('\n')}`);
      assert.deepEqual([pushes.you.moves, pushes.you.pushes], best.slice(0, 2), `the pushes board\n${seen.join('\n')}`);
      for (const e of [board.you, pushes.you]) {
        const s = await c.get(e.solution);
        assert.equal(s.status, 200, `${e.solution} after ${line}: ${show(s)}`);
      }
    }
    console.log(seen.join('\n'));
  } finally {
    await stopCleanly(server);
  }
});

test('a database of the old schema keeps every solution, hashed, and its boards', async () => {
  // Version 18: an account, a guest and their solutions written by SQL, as
  // sokod before 0019 kept them: every distinct line, long ones too.
  const old = await startWell({ args: ['--migrations', migrationsUpTo(18)] });
  const { dir, db, levels } = old.server;
  const { well } = old;
  let keeper;
  try {
    const r = await old.server.client().post('/api/v1/account/signup', { username: 'keeper', password: 'a long password 1' });
    assert.equal(r.status, 201, show(r));
    keeper = Number(sqlite(db, "SELECT id FROM users WHERE username = 'keeper'"));
  } finally {
    await stopCleanly(old.server);
  }
  assert.equal(sqlite(db, SQL.version), '18');
  const long = `${'lr'.repeat(3000)}D`; // 6,001 letters: past a B-tree entry's 2.7 kB on PostgreSQL
  const rows = [
    [keeper, 9, 1, 'lurdlurdD', 0, 0], [keeper, 5, 1, 'lurdD', 0, 0], [keeper, 5, 1, 'rrllD', 0, 0],
    [keeper, 11, 3, 'rddlUluurDD', 0, 0], [keeper, 6001, 1, long, 0, 0], [keeper, 1, 1, 'D', 0, 1],
    [keeper, 13, 1, 'lurdlurdlurdD', 2, 0], ['GUEST', 5, 1, 'lurdD', 0, 0], ['GUEST', 9, 1, 'lurdlurdD', 0, 0],
  ];
  const values = rows.map(([u, m, p, l, h, rule], i) =>
    `(${u === 'GUEST' ? 990 : u}, ${well}, ${m}, ${p}, '${l}', ${1767315600 + i}, ${h}, ${rule})`).join(', ');
  sqlite(db, `${SQL.foreignKeysOn}INSERT INTO users (id, username, password_hash, guest, created_at) VALUES (990, NULL, NULL, 1, 0);
    INSERT INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at, hints, rule) VALUES ${values}`);
  const columns = 'id, user_id, level_id, moves, pushes, lurd, solved_at, hints, rule';
  const before = sqlite(db, `SELECT ${columns} FROM solutions ORDER BY id`);
  const entries = () => sqlite(db, 'SELECT * FROM board_entries ORDER BY level_id, board, hinted, user_id');
  const boardsBefore = entries();

  const now = await startServer({ dir, db, levels });
  try {
    assert.match(now.stderr(), /applied migration 0019_/);
    const after = sqlite(db, `SELECT ${columns} FROM solutions ORDER BY id`);
    console.log(`${BACKEND}: ${before.split('\n').length} solutions at version 18, ` +
      `${after.split('\n').length} after 0019`);
    assert.equal(after, before, 'every solution is kept as it was');
    assert.equal(entries(), boardsBefore, 'the boards are the same');
    // Each line's hash is its SHA-256, as sokod computes it for new ones.
    const hashes = sqlite(db, `SELECT lurd, ${SQL.hex('lurd_hash')}, legacy FROM solutions ORDER BY id`).split('\n');
    for (const line of hashes) {
      const [lurd, hex, legacy] = line.split('|');
      const want = crypto.createHash('sha256').update(lurd).digest('hex').toUpperCase();
      assert.equal(hex, want, `the hash of ${lurd.slice(0, 40)}`);
      assert.equal(legacy, '1', `${lurd.slice(0, 40)} is marked as recorded before the bound`);
    }
    const c = now.client();
    let r = await c.post('/api/v1/account/login', { username: 'keeper', password: 'a long password 1' });
    assert.equal(r.status, 200, show(r));
    const board = (await c.get(`/api/v1/levels/${well}/leaderboard`)).json;
    assert.deepEqual([board.you.moves, board.you.pushes], [5, 1], `the best of the old rows: ${JSON.stringify(board.you)}`);
    // New solutions are bounded; the old rows stay whatever comes after.
    const game = (await c.post(`/api/v1/levels/${well}/game`)).json.game.id;
    await play(c, game, [{ steps: 'lurdlurdlurdlurdD' }, { restart: true }, { steps: 'rllrlurdD' }, { restart: true },
      { steps: 'lurdlurdD' }, { restart: true }, { steps: 'D' }]);
    const kept = sqlite(db, `SELECT ${columns} FROM solutions WHERE legacy = 1 ORDER BY id`);
    assert.equal(kept, before, 'the old rows are all there');
    const added = sqlite(db, `SELECT moves, pushes, lurd FROM solutions WHERE legacy = 0 ORDER BY id`);
    console.log(`new rows after four solutions: ${added.split('\n').join(', ')}`);
    assert.equal(added, '1|1|D', 'of the new ones, the one that beats all is left');
    const best = (await c.get(`/api/v1/levels/${well}/leaderboard`)).json;
    assert.deepEqual([best.you.moves, best.you.pushes], [1, 1], 'the boards show the new best');
    // The same line as an old row is not recorded again.
    r = await c.post(`/api/v1/games/${game}/log`, { seq: (await c.get(`/api/v1/games/${game}`)).json.game.seq + 1, restart: true });
    assert.equal(r.status, 200, show(r));
    await play(c, game, [{ steps: 'lurdD' }]);
    assert.equal(sqlite(db, `SELECT count(*) FROM solutions WHERE lurd = 'lurdD' AND user_id = ${keeper}`), '1',
      'an old line played again is the old row');
  } finally {
    await stopCleanly(now);
  }
});
