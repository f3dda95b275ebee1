// A player's statistics (GET /api/v1/account/stats): levels first solved
// and time played per day and per week over the last 84 days, totals with
// the history before them, the daily puzzle's streak, and per collection
// the levels solved and those solved in the best known moves. The history
// is built with the API on a fixed clock, then its times are set in the
// database, so that every figure is known before the answer is read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKEND, Client, levelIds, show, SQL, sqlite, startServer, stopCleanly } from './harness.mjs';

const DAY = 86400;
// The server's clock starts at noon of 2026-06-15 (UTC); M is its midnight.
const NOW = Date.UTC(2026, 5, 15, 12) / 1000;
const M = NOW - (NOW % DAY);
const WINDOW = 84;
const dayText = (t) => new Date(t * 1000).toISOString().slice(0, 10);
// The day's index in the window: today is the last.
const index = (t) => WINDOW - 1 - (M - (t - (t % DAY))) / DAY;

async function signUp(server, name) {
  const c = new Client(server.url);
  const r = await c.post('/api/v1/account/signup', { username: name, password: 'a stats password' });
  assert.equal(r.status, 201, show(r));
  c.id = (await c.get('/api/v1/account')).json.user.id;
  return c;
}

async function play(client, level, lines) {
  let r = await client.post(`/api/v1/levels/${level}/game`);
  assert.ok(r.status === 200 || r.status === 201, show(r));
  const game = r.json.game.id;
  for (let i = 0; i < lines.length; i++) {
    r = await client.post(`/api/v1/games/${game}/log`, { seq: i + 1, steps: lines[i] });
    assert.equal(r.status, 200, `game ${game} entry ${i + 1} '${lines[i]}': ${show(r)}`);
  }
  return game;
}

let hashes = 0;
// A solution row, as the committer writes one (the triggers fill the boards).
function solution(db, user, level, moves, at, lurd) {
  const hash = (++hashes).toString(16).toUpperCase().padStart(64, '0');
  sqlite(db, `INSERT INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at, lurd_hash)
    VALUES (${user}, ${level}, ${moves}, 2, '${lurd}', ${at}, ${SQL.blob(hash)})`);
}

test('every figure of the statistics is the history that was built', async () => {
  // The rating pass runs once at the start, before any play, and not
  // again: the rating stays null (tests/server/ratings.test.mjs rates).
  const server = await startServer({ env: { SOKOD_TEST_NOW: String(NOW) }, args: ['--rating-interval', '3600'] });
  try {
    const [corridor, room, bend] = await levelIds(server.client());
    const player = await signUp(server, 'statsplayer');
    const rival = await signUp(server, 'statsrival');
    const db = server.db;

    // Nothing yet: every count is zero, and the window ends today.
    let r = await player.get('/api/v1/account/stats');
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.today, dayText(NOW));
    assert.equal(r.json.first_day, dayText(M - (WINDOW - 1) * DAY));
    assert.equal(r.json.days.length, WINDOW);
    assert.equal(r.json.weeks.length, WINDOW / 7);
    assert.equal(r.json.days.at(-1).day, dayText(NOW));
    assert.deepEqual(r.json.totals, { levels_solved: 0, seconds_played: 0, solved_in_window: 0, seconds_in_window: 0, played_partial: false });

    // The corridor, solved ten days ago in 3 moves, 60 s after the game
    // was opened; solved again today in 5 moves, today being the day its
    // level is the daily puzzle's. The rival solved it in 3 too: the
    // player's best equals the best known.
    const a = await play(player, corridor, ['rRR']);
    sqlite(db, `UPDATE games SET created_at = ${M - 10 * DAY + 1000} WHERE id = ${a};
      UPDATE game_log SET created_at = ${M - 10 * DAY + 1060} WHERE game_id = ${a};
      UPDATE solutions SET solved_at = ${M - 10 * DAY + 1060} WHERE game_id = ${a}`);
    // The room: entries 100 s, 1000 s (counted 300), 300 s and, after
    // midnight, a day (counted 300) apart; solved yesterday in 20 moves,
    // yesterday's daily puzzle; the rival's 10 moves are the best known.
    const b = await play(player, room, ['u', 'd', 'u', 'd']);
    sqlite(db, `UPDATE games SET created_at = ${M - 2 * DAY} WHERE id = ${b};
      UPDATE game_log SET created_at = CASE seq WHEN 1 THEN ${M - 2 * DAY + 100}
        WHEN 2 THEN ${M - 2 * DAY + 1100} WHEN 3 THEN ${M - 2 * DAY + 1400} ELSE ${M + 50} END
      WHERE game_id = ${b}`);
    // The bend, 200 days ago: one entry 30 s after the opening, and a
    // solution of 12 moves, beaten by a submitted line of 9.
    const c = await play(player, bend, ['r']);
    sqlite(db, `UPDATE games SET created_at = ${M - 200 * DAY} WHERE id = ${c};
      UPDATE game_log SET created_at = ${M - 200 * DAY + 30} WHERE game_id = ${c}`);
    sqlite(db, `INSERT INTO daily (day, level_id, created_at) VALUES
      ('${dayText(M)}', ${corridor}, ${M}), ('${dayText(M - DAY)}', ${room}, ${M - DAY})`);
    solution(db, player.id, corridor, 5, M + 100, 'rRlrR');
    solution(db, rival.id, corridor, 3, M - 5 * DAY, 'rRR');
    solution(db, player.id, room, 20, M - DAY + 500, 'uduuddrRRllluRRR');
    solution(db, rival.id, room, 10, M - 5 * DAY, 'rRRllluRRR');
    solution(db, player.id, bend, 12, M - 200 * DAY + 30, 'rrrrrrrrrrrr');
    sqlite(db, `INSERT INTO submitted_solutions (user_id, level_id, moves, pushes, lurd, lurd_hash, submitted_at)
      VALUES (${rival.id}, ${bend}, 9, 2, 'rrrrrrrrr', ${SQL.blob('AB'.repeat(32))}, ${M - 3 * DAY})`);

    r = await player.get('/api/v1/account/stats');
    assert.equal(r.status, 200, show(r));
    const s = r.json;
    const expected = new Map([
      [index(M - 10 * DAY), { solved: 1, seconds: 60 }],
      [index(M - 2 * DAY), { solved: 0, seconds: 100 + 300 + 300 }],
      [index(M - DAY), { solved: 1, seconds: 0 }],
      [index(M), { solved: 0, seconds: 300 }],
    ]);
    s.days.forEach((d, i) => {
      assert.equal(d.day, dayText(M - (WINDOW - 1 - i) * DAY), `day ${i}'s date`);
      assert.deepEqual({ solved: d.solved, seconds: d.seconds }, expected.get(i) ?? { solved: 0, seconds: 0 },
        `day ${i} (${d.day}) of ${JSON.stringify(s.days.filter((x) => x.solved || x.seconds))}`);
    });
    s.weeks.forEach((w, i) => {
      const days = s.days.slice(7 * i, 7 * i + 7);
      assert.equal(w.first_day, days[0].day, `week ${i} starts on its first day`);
      const want = i === 11 ? { solved: 1, seconds: 1000 } : i === 10 ? { solved: 1, seconds: 60 } : { solved: 0, seconds: 0 };
      assert.deepEqual({ solved: w.solved, seconds: w.seconds }, want, `week ${i}: ${JSON.stringify(w)}`);
    });
    assert.deepEqual(s.totals, { levels_solved: 3, seconds_played: 60 + 700 + 300 + 30, solved_in_window: 2, seconds_in_window: 1060, played_partial: false },
      'totals: the bend and its 30 s came before the window');
    assert.deepEqual(s.streak, { days: 2, solved_today: true }, 'yesterday\'s and today\'s daily puzzles');
    const tests = s.collections.find((x) => x.name === 'sokod tests');
    assert.deepEqual(tests, { id: tests.id, name: 'sokod tests', levels: 3, solved: 3, at_best_known: 1 },
      'the corridor at the best known 3 moves; the room (20 against 10) and the bend (12 against a submitted 9) not');
    assert.equal(s.rating, null, 'no rated attempt yet');

    // The same count as the levels' own best known (GET /api/v1/levels/{id})
    // against the player's fewest moves (GET /api/v1/progress).
    const progress = (await player.get('/api/v1/progress')).json.solved;
    let atBest = 0;
    for (const p of progress.filter((x) => x.collection_id === tests.id)) {
      const known = (await player.get(`/api/v1/levels/${p.level_id}`)).json.level.best_known;
      if (p.best_moves === known.moves) atBest++;
    }
    assert.equal(atBest, tests.at_best_known, `best known per level: ${JSON.stringify(progress)}`);

    // The rival sees only their own: two levels, both at the best known.
    r = await rival.get('/api/v1/account/stats');
    const theirs = r.json.collections.find((x) => x.name === 'sokod tests');
    assert.deepEqual([theirs.solved, theirs.at_best_known, r.json.totals.levels_solved], [2, 2, 2], show(r));
    assert.deepEqual(r.json.streak, { days: 0, solved_today: false }, show(r));

    // A hidden level leaves its collection's counts.
    sqlite(db, `UPDATE levels SET hidden = 1 WHERE id = ${corridor}`);
    r = await player.get('/api/v1/account/stats');
    const hidden = r.json.collections.find((x) => x.name === 'sokod tests');
    assert.deepEqual([hidden.levels, hidden.solved, hidden.at_best_known], [2, 2, 0], show(r));
  } finally {
    await stopCleanly(server);
  }
});

test('time played reads at most the latest 100,000 entries of the log', async () => {
  const server = await startServer({ env: { SOKOD_TEST_NOW: String(NOW) } });
  try {
    const [corridor, room] = await levelIds(server.client());
    const player = await signUp(server, 'longplayer');
    // An old game of one entry, then a game of 100,005 entries a second
    // apart, the latest yesterday: the budget ends in the second game.
    // On PostgreSQL the entries go in without their triggers (the live
    // events' and the quota's, row by row, take minutes there).
    const old = await play(player, room, ['u']);
    const long = await play(player, corridor, ['r']);
    const last = M - DAY + 1000, n = 100005;
    sqlite(server.db, `UPDATE games SET created_at = ${M - 50 * DAY}, updated_at = ${M - 50 * DAY + 10} WHERE id = ${old};
      UPDATE game_log SET created_at = ${M - 50 * DAY + 10} WHERE game_id = ${old};
      DELETE FROM game_log WHERE game_id = ${long};
      ${BACKEND === 'postgresql' ? 'SET session_replication_role = replica;' : ''}
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
      INSERT INTO game_log (game_id, seq, kind, steps, created_at)
      SELECT ${long}, i, 'steps', 'l', ${last - n} + i FROM n;
      UPDATE games SET created_at = ${last - n - 100}, updated_at = ${last}, seq = ${n} WHERE id = ${long}`);
    const r = await player.get('/api/v1/account/stats');
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.log_entries_read_at_most, 100000, show(r));
    // 100,001 entries read (one past the budget shows there is more): 100,000 gaps of a second.
    assert.deepEqual([r.json.totals.seconds_played, r.json.totals.played_partial], [100000, true],
      `the latest entries only, not the old game's: ${JSON.stringify(r.json.totals)}`);
    // A gap is counted on the day of its later entry: entries n - 99,999 to n.
    const want = new Map();
    for (let i = n - 99999; i <= n; i++) {
      const day = dayText(last - n + i);
      want.set(day, (want.get(day) ?? 0) + 1);
    }
    const byDay = r.json.days.filter((d) => d.seconds > 0).map((d) => [d.day, d.seconds]);
    assert.deepEqual(byDay, [...want], 'time played by day');
  } finally {
    await stopCleanly(server);
  }
});

test('a visitor without a session gets empty statistics and no account', async () => {
  const server = await startServer();
  try {
    const visitor = server.client();
    const r = await visitor.get('/api/v1/account/stats');
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.days.length, WINDOW);
    assert.ok(r.json.days.every((d) => d.solved === 0 && d.seconds === 0), show(r));
    assert.deepEqual(r.json.totals, { levels_solved: 0, seconds_played: 0, solved_in_window: 0, seconds_in_window: 0, played_partial: false });
    assert.ok(r.json.collections.every((c) => c.solved === 0 && c.at_best_known === 0), show(r));
    assert.equal(visitor.cookies.size, 0, 'reading statistics makes no guest');
  } finally {
    await stopCleanly(server);
  }
});
