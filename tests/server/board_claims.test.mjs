// The boards' triggers: migration 0013 replaced 0007's eight copies of one
// upsert with a view of what a solution claims. A database under the old
// triggers (migrated to 0012) and one migrated on to 0013 must get the same
// board rows from the same writes, case by case; and a played database
// migrated from 0012 keeps its boards and goes on ranking new solutions.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BACKEND, SOURCE, SQL, freshPgDatabase, levelIds, show, sqlite, startServer, stopCleanly, tempDir } from './harness.mjs';

const ALL = path.join(SOURCE, 'migrations');

// A folder holding the migrations numbered up to n.
// (PostgreSQL's in its subfolder, as sokod reads them).
function migrationsUpTo(n) {
  const dir = tempDir('sokod-migrations-');
  const copy = (from, to) => {
    for (const f of fs.readdirSync(from)) {
      if (/^\d{4}_.*\.sql$/.test(f) && Number(f.slice(0, 4)) <= n) fs.copyFileSync(path.join(from, f), path.join(to, f));
    }
  };
  copy(ALL, dir);
  fs.mkdirSync(path.join(dir, 'postgresql'));
  copy(path.join(ALL, 'postgresql'), path.join(dir, 'postgresql'));
  return dir;
}

// A fresh database that sokod migrated with each folder in turn (starting
// and stopping it once per folder); resolves to its path.
async function migratedDb(folders) {
  const dir = tempDir('sokod-claims-');
  const db = BACKEND === 'postgresql' ? freshPgDatabase() : path.join(dir, 'data', 'sokod.db');
  for (const folder of folders) {
    const s = await startServer({ dir, db, args: ['--migrations', folder] });
    await stopCleanly(s);
  }
  return db;
}

// Every board row and bucket, one line each, in a fixed order.
function boards(db) {
  return {
    entries: sqlite(db, 'SELECT * FROM board_entries ORDER BY level_id, board, hinted, user_id').split('\n').filter(Boolean),
    buckets: sqlite(db, 'SELECT * FROM board_buckets ORDER BY level_id, board, hinted, first').split('\n').filter(Boolean),
  };
}

// How many board rows (by key: level, board, hinted, user) a write added,
// changed or removed.
function touched(before, after) {
  const key = (line) => line.split('|').slice(0, 4).join('|');
  const was = new Map(before.map((l) => [key(l), l]));
  const now = new Map(after.map((l) => [key(l), l]));
  let n = 0;
  for (const [k, l] of now) if (was.get(k) !== l) n++;
  for (const k of was.keys()) if (!now.has(k)) n++;
  return n;
}

// 2026-01-02, the day level 902 is the daily puzzle of, and the day after.
const DAY = 1767315600;
const NEXT = DAY + 86400;

// What the server writes (solutions are recorded with INSERT OR IGNORE, a
// guest joins an account with UPDATE OR IGNORE), each case of the old
// triggers, and how many board rows it must touch under them.
const solution = (user, level, moves, pushes, lurd, at, hints = 0, rule = 0) =>
  'INSERT OR IGNORE INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at, hints, rule) ' +
  `VALUES (${user}, ${level}, ${moves}, ${pushes}, '${lurd}', ${at}, ${hints}, ${rule})`;
const ANN = 901, GUEST = 902, BOB = 903, HAL = 904;
const STEPS = [
  ['two levels, level 902 the puzzle of the day, two accounts and two guests', 0,
    `INSERT INTO collections (id, name, source, created_at) VALUES (901, 'claims', 'claims.sok', 0);
     INSERT INTO levels (id, collection_id, position, board, width, height, boxes, canonical_hash, created_at)
       VALUES (901, 901, 1, '#', 1, 1, 1, '0000000000000901', 0), (902, 901, 2, '#', 1, 1, 1, '0000000000000902', 0);
     INSERT INTO daily (day, level_id, created_at) VALUES ('2026-01-02', 902, 0);
     INSERT INTO users (id, username, password_hash, guest, created_at)
       VALUES (${ANN}, 'ann', 'x', 0, 0), (${GUEST}, NULL, NULL, 1, 0), (${BOB}, 'bob', 'x', 0, 0), (${HAL}, NULL, NULL, 1, 0)`],
  ['a first solution takes both boards of its kind', 2, solution(ANN, 901, 10, 4, 'a', DAY)],
  ['fewer pushes but more moves: the pushes board only', 1, solution(ANN, 901, 12, 3, 'b', DAY + 1)],
  ['the same counts found later change nothing', 0, solution(ANN, 901, 10, 4, 'c', DAY + 2)],
  ['the same counts at the same time, a later solution: nothing', 0, solution(ANN, 901, 10, 4, 'd', DAY)],
  ['the same counts found earlier take the moves board', 1, solution(ANN, 901, 10, 4, 'e', DAY - 5)],
  ['a worse solution changes nothing', 0, solution(ANN, 901, 13, 5, 'f', DAY + 3)],
  ['a solution seen before is ignored', 0, solution(ANN, 901, 1, 1, 'a', DAY)],
  ['a hinted solution takes the hinted boards', 2, solution(ANN, 901, 8, 2, 'g', DAY + 4, 2)],
  ['a multi-push solution ranks nowhere', 0, solution(ANN, 901, 5, 1, 'h', DAY + 5, 0, 1)],
  ['on the daily puzzle\'s day: its two boards too', 4, solution(ANN, 902, 20, 6, 'a', DAY)],
  ['the day after: the level\'s own boards only', 2, solution(ANN, 902, 18, 5, 'b', NEXT)],
  ['a hinted daily solution: four hinted boards', 4, solution(ANN, 902, 30, 9, 'c', DAY + 6, 1)],
  ['a guest is ranked but not listed', 2, solution(GUEST, 901, 9, 5, 'g', DAY)],
  ['a guest on the daily puzzle', 4, solution(GUEST, 902, 15, 7, 'g', DAY)],
  ['a guest\'s better daily pushes: two boards', 2, solution(GUEST, 902, 16, 6, 'g2', DAY + 10)],
  ['a guest\'s better moves the day after: one board', 1, solution(GUEST, 902, 14, 8, 'g3', NEXT)],
  ['a guest\'s multi-push solution ranks nowhere', 0, solution(GUEST, 901, 2, 1, 'm', DAY, 0, 1)],
  ['an account that will take the guest in', 2, solution(BOB, 901, 7, 6, 'b1', DAY)],
  ['the account on the daily puzzle, with a line the guest found too', 4, solution(BOB, 902, 30, 9, 'g', DAY)],
  ['a guest\'s hinted daily solution', 4, solution(GUEST, 902, 40, 10, 'gt', DAY, 1)],
  ['the account\'s, with the same counts at the same time', 4, solution(BOB, 902, 40, 10, 'bt', DAY, 1)],
  // g (pushes 5 < 6) on 901's pushes board; on 902 g2 takes all four and
  // g3 the moves board (not the daily's: the day after); gt, a tie but the
  // older solution, the four hinted ones; the guest's g on 902 is the
  // account's already and stays the guest's.
  ['the guest joins the account: its solutions claim the account\'s boards', 9,
    `UPDATE OR IGNORE solutions SET user_id = ${BOB} WHERE user_id = ${GUEST}`],
  ['a solution that stays with its user is not offered again', 0, 'UPDATE solutions SET user_id = user_id'],
  ['the guest goes, and its rows with it', 10, `DELETE FROM users WHERE id = ${GUEST} AND guest = 1`],
  ['another guest solves', 2, solution(HAL, 901, 11, 2, 'x', DAY)],
  ['the guest signs up and is listed', 2,
    `UPDATE users SET guest = 0, username = 'hal', password_hash = 'x' WHERE id = ${HAL}`],
  ['a better solution of a listed player moves its bucket', 2, solution(HAL, 901, 6, 1, 'y', DAY + 20)],
  ['the level goes, and its rows with it', 8, 'DELETE FROM levels WHERE id = 901'],
];

test('the claims of migration 0013 write the same board rows as the triggers of 0007', { skip: BACKEND === 'postgresql' && 'server_schema_backends compares PostgreSQL\'s boards under 0007 and 0013' }, async () => {
  // Up to 0013 only: 0015 gives multi-push solutions boards of their own.
  const old12 = migrationsUpTo(12);
  const [old, now] = await Promise.all([migratedDb([old12]), migratedDb([old12, migrationsUpTo(13)])]);
  assert.equal(sqlite(old, 'PRAGMA user_version'), '12');
  assert.equal(sqlite(now, 'PRAGMA user_version'), '13');
  assert.match(sqlite(old, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'solutions'"), /^4$/,
    'the old database has the four triggers of 0007');
  for (const [what, expected, sql] of STEPS) {
    const before = boards(old);
    const write = `PRAGMA foreign_keys = ON; ${sql};`;
    sqlite(old, write);
    sqlite(now, write);
    const a = boards(old);
    const b = boards(now);
    assert.equal(touched(before.entries, a.entries), expected,
      `${what}: board rows touched under 0007's triggers\nbefore:\n${before.entries.join('\n')}\nafter:\n${a.entries.join('\n')}`);
    assert.deepEqual(b.entries, a.entries, `${what}: ${sql}\nthe board rows differ (0013 then 0007)`);
    assert.deepEqual(b.buckets, a.buckets, `${what}: ${sql}\nthe buckets differ (0013 then 0007)`);
  }
  assert.equal(sqlite(now, 'PRAGMA integrity_check'), 'ok');
});

test('a played database migrated from 0012 keeps its boards and ranks new solutions', async () => {
  const env = { SOKOD_TEST_NOW: String(Date.UTC(2026, 2, 14, 12, 0, 0) / 1000) };
  const first = await startServer({ env, args: ['--migrations', migrationsUpTo(12)] });
  const { db, dir } = first;
  let before, answers, corridor, daily;
  const asked = () => [`/api/v1/levels/${corridor}/leaderboard`, `/api/v1/levels/${corridor}/leaderboard?by=pushes`,
    '/api/v1/daily/leaderboard?day=2026-03-14'];
  try {
    [corridor] = await levelIds(first.client());
    daily = (await first.client().get('/api/v1/daily')).json.level.id;
    const lurd = sqlite(db, `SELECT lurd FROM reference_solutions WHERE level_id = ${daily}`);
    // An account, a guest and a guest that then logs in to the account
    // each solve the Corridor (#@ $ .#) and the daily puzzle. Today's
    // sokod writes solutions with columns of later migrations (0019), so
    // the solutions, and the guest's joining the account, are written as
    // the sokod of then wrote them, beside games it opened.
    const players = [first.client(), first.client(), first.client()];
    const r = await players[0].post('/api/v1/account/signup', { username: 'keeper', password: 'a long password 1' });
    assert.equal(r.status, 201, show(r));
    const users = [];
    for (const [i, c] of players.entries()) {
      for (const [level, steps] of [[corridor, i === 2 ? 'rRlrR' : 'rRR'], [daily, lurd]]) {
        const game = (await c.post(`/api/v1/levels/${level}/game`)).json.game.id;
        const pushes = steps.replace(/[a-z]/g, '').length;
        sqlite(db, `${SQL.foreignKeysOn}INSERT INTO solutions (user_id, level_id, game_id, moves, pushes, lurd, solved_at)
          SELECT user_id, level_id, id, ${steps.length}, ${pushes}, '${steps}', ${env.SOKOD_TEST_NOW} FROM games WHERE id = ${game}`);
        users[i] = Number(sqlite(db, `SELECT user_id FROM games WHERE id = ${game}`));
      }
    }
    sqlite(db, `${SQL.foreignKeysOn}
      UPDATE solutions SET user_id = ${users[0]} WHERE user_id = ${users[2]} AND NOT EXISTS (SELECT 1 FROM solutions o
        WHERE o.user_id = ${users[0]} AND o.level_id = solutions.level_id AND o.lurd = solutions.lurd);
      DELETE FROM users WHERE id = ${users[2]} AND guest = 1`);
    before = boards(db);
    assert.equal(sqlite(db, 'SELECT count(*) FROM board_entries WHERE board >= 2'), '4',
      'the account and the guest are on both daily boards');
    answers = await Promise.all(asked().map(async (p) => (await first.client().get(p)).json));
  } finally {
    await first.stop();
  }
  const after = await startServer({ dir, db, env });
  try {
    assert.match(after.stderr(), /applied migration 0013_/);
    assert.deepEqual(boards(db), before, 'the same board rows and buckets');
    const again = await Promise.all(asked().map(async (p) => (await after.client().get(p)).json));
    assert.deepEqual(again, answers, 'the leaderboards read the same');
    // A new guest's solution of the daily puzzle takes four boards.
    const c = after.client();
    const game = (await c.post(`/api/v1/levels/${daily}/game`)).json.game.id;
    const lurd = sqlite(db, `SELECT lurd FROM reference_solutions WHERE level_id = ${daily}`);
    const r = await c.post(`/api/v1/games/${game}/log`, { seq: 1, steps: lurd });
    assert.equal(r.json?.game?.solved, true, show(r));
    assert.equal(touched(before.entries, boards(db).entries), 4, 'the new solution is on the daily level\'s four boards');
  } finally {
    await after.stop();
  }
});
