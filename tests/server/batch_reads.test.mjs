// A committer batch costs what it holds, not what the database holds. On
// PostgreSQL each batch locks its games and reads their new log entries
// in one statement (storage_games_read_ahead); as plain joins the planner
// read the whole of game_log (a table not analysed yet: a fresh site, or
// one that grew faster than autovacuum looked) for every batch, so that
// each step cost more as every player's history grew. Here another game's
// long history fills the log, and the steps of one player must read
// nothing of it. PostgreSQL only.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BACKEND, freshPgDatabase, levelIds, openGame, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const skip = BACKEND === 'postgresql' ? false : 'the statement is PostgreSQL\'s (SOKOD_TEST_BACKEND=postgresql)';
const YOUNG = 400; // entries of the other game when the plan is made
const HISTORY = 5000; // and after
const STEPS = 30;

let server;
before(async () => {
  if (skip) return;
  // PostgreSQL plans a prepared statement with its parameters for its
  // first five runs, then, as it did in bench/bench_capacity.sh, for good
  // without them (a generic plan) where that costs no more. That choice
  // is made here from the start, so that the plan is made while the log
  // is short, as on a young site.
  const db = freshPgDatabase();
  sqlite(db, `DO $$ BEGIN
    EXECUTE format('ALTER DATABASE %I SET plan_cache_mode = force_generic_plan', current_database());
  END $$`);
  server = await startServer({ db });
});
after(async () => {
  if (server) await stopCleanly(server);
});

// The scans of game_log since the last reset, once PostgreSQL has counted
// at least `least` of them (a backend reports its counts when idle, up to
// ten seconds later).
async function logScans(least) {
  const end = Date.now() + 30000;
  for (;;) {
    const [seq, rows, idx] = sqlite(server.db, `SELECT coalesce(seq_scan, 0), coalesce(seq_tup_read, 0),
      coalesce(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = 'game_log'`).split('|').map(Number);
    if (seq + idx >= least || Date.now() > end) return { seq, rows, idx };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('the steps of one game read none of another game\'s long history', { skip }, async () => {
  const [level, other] = await levelIds(server.client());
  const long = await openGame(server.client(), other);
  // Another game's history, written as the server writes entries: first
  // a few hundred entries, so that the log's index is two levels deep
  // while its table is still small, as on a young site.
  const history = (from, to) => sqlite(server.db, `INSERT INTO game_log
      (game_id, seq, kind, steps, count, request, created_at)
      SELECT ${long.id}, s, 'steps', 'r', 1, '', 0 FROM generate_series(${from}, ${to}) AS s;
    UPDATE games SET seq = ${to} WHERE id = ${long.id}`);
  history(1, YOUNG);

  // A player's steps: the committer's statement is planned at the first
  // and planned again only when the tables are analysed or altered.
  const player = server.client();
  const game = await openGame(player, level);
  let seq = 0;
  const step = async () => {
    seq++;
    const r = await player.post(`/api/v1/games/${game.id}/log`, { seq, steps: seq % 2 ? 'r' : 'l' });
    assert.equal(r.status, 200, show(r));
  };
  for (let i = 0; i < 10; i++) await step();

  // The other game's history grows long; the player steps on.
  history(YOUNG + 1, HISTORY);
  sqlite(server.db, 'SELECT pg_stat_reset()');
  for (let i = 0; i < STEPS; i++) await step();
  const scans = await logScans(STEPS);
  assert.ok(scans.seq + scans.idx >= STEPS,
    `PostgreSQL counted ${scans.seq + scans.idx} scans of game_log for ${STEPS} steps within 30 s`);
  // Each batch may read its own game's entries, a few rows; a scan of
  // the table reads the other game's history, thousands of rows at once.
  assert.ok(scans.rows < HISTORY,
    `${STEPS} steps of game ${game.id} read ${scans.rows} rows of game_log in ${scans.seq} sequential ` +
    `scans (and ${scans.idx} by index), where the log holds ${HISTORY} entries of game ${long.id}: ` +
    'a batch must read only its own games\' entries');
});
