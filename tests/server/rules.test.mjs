// Games under the multi-push rule (a push moves the whole line of boxes in
// front of the player): a player holds one game per level and rule, the
// server plays each game under its own rule, and multi-push solutions rank
// on boards of their own. Migration 0015 keeps a played database's games,
// solutions and boards, and puts multi-push solutions on their boards.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BACKEND, SOURCE, levelIds, show, sqlite, startServer, tempDir } from './harness.mjs';

// Corridor: "rRR" solves it under either rule. Line: two boxes in a row,
// which only a multi-push can move together ("RR" solves it).
const LEVELS = `Collection: sokod rules

; Corridor
#######
#@ $ .#
#######

; Line
 #######
 #     #
 #@$$..#
 #     #
 #######
`;

async function startRules(options = {}) {
  const dir = options.dir ?? tempDir('sokod-rules-');
  const levels = path.join(dir, 'levels');
  fs.mkdirSync(levels, { recursive: true });
  fs.writeFileSync(path.join(levels, 'rules.sok'), LEVELS);
  const server = await startServer({ ...options, dir, levels });
  const [corridor, line] = await levelIds(server.client(), 'sokod rules');
  return { server, corridor, line };
}

async function open(client, level, body, expected) {
  const r = await client.post(`/api/v1/levels/${level}/game`, body);
  assert.equal(r.status, expected, `POST /api/v1/levels/${level}/game ${JSON.stringify(body)}: ${show(r)}`);
  return r.json.game;
}

async function play(client, game, seq, steps) {
  return client.post(`/api/v1/games/${game.id}/log`, { seq, steps });
}

test('a player holds one game per level and rule', async () => {
  const { server, corridor } = await startRules();
  try {
    const c = server.client();
    const multi = await open(c, corridor, { rule: 1 }, 201);
    assert.equal(multi.rule, 1, 'the game carries the rule asked for');
    const standard = await open(c, corridor, {}, 201);
    assert.equal(standard.rule, 0, 'a body without a rule opens the standard game');
    assert.notEqual(standard.id, multi.id, 'the two rules are two games');
    assert.equal((await open(c, corridor, { rule: 1 }, 200)).id, multi.id, 'the multi-push game resumes');
    assert.equal((await open(c, corridor, { rule: 0 }, 200)).id, standard.id, 'rule 0 is the standard game');
    // Both games, once played, are in progress, each with its rule.
    assert.equal((await play(c, multi, 1, 'r')).status, 200);
    assert.equal((await play(c, standard, 1, 'r')).status, 200);
    const progress = (await c.get('/api/v1/progress')).json.in_progress;
    assert.deepEqual(progress.map((p) => [p.game_id, p.rule]).sort((a, b) => a[0] - b[0]),
      [[multi.id, 1], [standard.id, 0]].sort((a, b) => a[0] - b[0]), `in progress: ${JSON.stringify(progress)}`);
    const col = await c.get('/api/v1/collections');
    const id = col.json.collections.find((x) => x.name === 'sokod rules').id;
    const levels = (await c.get(`/api/v1/collections/${id}`)).json.levels;
    assert.equal(levels.length, 2, `each level is listed once, whatever games it has: ${JSON.stringify(levels)}`);
    for (const [body, code] of [[{ rule: 3 }, 'invalid_value'], [{ rule: -1 }, 'invalid_value'],
      [{ rule: 'multipush' }, 'wrong_type'], [{ rules: 1 }, 'unknown_field']]) {
      const r = await c.post(`/api/v1/levels/${corridor}/game`, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${show(r)}`);
      assert.equal(r.json.error.code, code, `${JSON.stringify(body)}: ${show(r)}`);
    }
  } finally {
    await server.stop();
  }
});

test('each game is played under its rule and ranks on its own boards', async () => {
  const { server, corridor, line } = await startRules();
  try {
    const c = server.client();
    let r = await c.post('/api/v1/account/signup', { username: 'liner', password: 'a long password 1' });
    assert.equal(r.status, 201, show(r));
    // Two boxes in a row: the standard rule cannot push them, multi-push can.
    const standard = await open(c, line, {}, 201);
    r = await play(c, standard, 1, 'R');
    assert.notEqual(r.status, 200, `a standard push of two boxes is refused: ${show(r)}`);
    const multi = await open(c, line, { rule: 1 }, 201);
    r = await play(c, multi, 1, 'rr');
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.steps, 'RR', `multi-push moved the line of boxes: ${show(r)}`);
    assert.equal(r.json.game.solved, true, show(r));
    assert.equal(r.json.game.rule, 1, show(r));

    // The same line under both rules on the Corridor: two solutions.
    for (const rule of [0, 1]) {
      r = await play(c, await open(c, corridor, { rule }, 201), 1, 'rRR');
      assert.equal(r.json?.game?.solved, true, `rule ${rule}: ${show(r)}`);
    }

    const board = async (level, query) => {
      const b = await c.get(`/api/v1/levels/${level}/leaderboard${query}`);
      assert.equal(b.status, 200, show(b));
      return b.json;
    };
    for (const by of ['moves', 'pushes']) {
      const std = await board(line, `?by=${by}`);
      assert.equal(std.rule, 0);
      assert.equal(std.total, 0, `the standard board of Line holds no multi-push solution: ${JSON.stringify(std)}`);
      const mp = await board(line, `?by=${by}&rule=1`);
      assert.equal(mp.rule, 1);
      assert.equal(mp.total, 1, `Line's multi-push board (${by}): ${JSON.stringify(mp)}`);
      assert.equal(mp.entries[0].user, 'liner');
      assert.deepEqual([mp.entries[0].moves, mp.entries[0].pushes], [2, 2]);
      const sol = await c.get(mp.entries[0].solution);
      assert.equal(sol.json.solution.rule, 1, show(sol));
      assert.equal(sol.json.solution.lurd, 'RR', show(sol));
      for (const rule of [0, 1]) {
        const cb = await board(corridor, `?by=${by}&rule=${rule}`);
        assert.equal(cb.total, 1, `Corridor under rule ${rule} (${by}): ${JSON.stringify(cb)}`);
        const s = await c.get(cb.entries[0].solution);
        assert.equal(s.json.solution.rule, rule, show(s));
      }
    }
    // The export says which lines need the multi-push rule.
    const file = (await c.get('/api/v1/progress/export')).text;
    assert.match(file, /^Solution 2\/2 \(multi-push\)\nRR$/m, file);
    assert.match(file, /^Solution 3\/2\nrRR$/m, `the standard line of the Corridor: ${file}`);
    assert.match(file, /^Solution 3\/2 \(multi-push\)\nrRR$/m, `the multi-push line of the Corridor: ${file}`);
    r = await c.get(`/api/v1/levels/${line}/leaderboard?rule=2`);
    assert.equal(r.status, 400, show(r));
    assert.equal(r.json.error.code, 'invalid_value', show(r));
  } finally {
    await server.stop();
  }
});

test('a guest\'s multi-push game joins the account that has the standard one', async () => {
  const { server, corridor } = await startRules();
  try {
    const account = server.client();
    let r = await account.post('/api/v1/account/signup', { username: 'joiner', password: 'a long password 1' });
    assert.equal(r.status, 201, show(r));
    const standard = await open(account, corridor, {}, 201);
    const guest = server.client();
    const multi = await open(guest, corridor, { rule: 1 }, 201);
    r = await play(guest, multi, 1, 'r');
    assert.equal(r.status, 200, show(r));
    r = await guest.post('/api/v1/account/login', { username: 'joiner', password: 'a long password 1' });
    assert.equal(r.status, 200, show(r));
    assert.equal((await open(guest, corridor, { rule: 1 }, 200)).id, multi.id, 'the guest\'s multi-push game is the account\'s');
    assert.equal((await open(guest, corridor, {}, 200)).id, standard.id, 'the account keeps its standard game');
  } finally {
    await server.stop();
  }
});

// A folder holding the migrations numbered up to n.
function migrationsUpTo(n) {
  const all = path.join(SOURCE, 'migrations');
  const dir = tempDir('sokod-migrations-');
  for (const f of fs.readdirSync(all)) {
    if (/^\d{4}_.*\.sql$/.test(f) && Number(f.slice(0, 4)) <= n) fs.copyFileSync(path.join(all, f), path.join(dir, f));
  }
  return dir;
}

test('migration 0015 keeps a played database and ranks its multi-push solutions', { skip: BACKEND === 'postgresql' && 'SQLite rebuilds its tables here; server_schema_backends compares PostgreSQL\'s 0015' }, async () => {
  const first = await startRules({ args: ['--migrations', migrationsUpTo(14)] });
  const { db, dir } = first.server;
  const count = (sql) => sqlite(db, sql);
  try {
    const c = first.server.client();
    let r = await c.post('/api/v1/account/signup', { username: 'older', password: 'a long password 1' });
    assert.equal(r.status, 201, show(r));
    // Today's sokod records solutions with a column of a later migration
    // (0019): the game is played up to its solving step, and its solution
    // written as the sokod of then wrote it.
    const game = await open(c, first.corridor, {}, 201);
    r = await play(c, game, 1, 'rR');
    assert.equal(r.status, 200, show(r));
    sqlite(db, `PRAGMA foreign_keys = ON; INSERT INTO solutions (user_id, level_id, game_id, moves, pushes, lurd, solved_at)
      SELECT user_id, level_id, id, 3, 2, 'rRR', updated_at FROM games WHERE id = ${game.id}`);
  } finally {
    await first.server.stop();
  }
  // A multi-push solution recorded before 0015 (as 0007 let one be) and the
  // same line again under that rule.
  sqlite(db, `INSERT INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at, hints, rule)
    SELECT user_id, level_id, 2, 2, 'RR', solved_at, 0, 1 FROM solutions`);
  // The games' columns as they are before the migrations: later ones add
  // columns of their own (the storage quota's bytes).
  const gameColumns = sqlite(db, BACKEND === 'postgresql'
    ? "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'games'"
    : "SELECT group_concat(name, ', ') FROM pragma_table_info('games')");
  const rows = {
    games: count(`SELECT ${gameColumns} FROM games ORDER BY id`),
    solutions: count('SELECT id, user_id, level_id, game_id, moves, pushes, lurd, solved_at, hints, rule FROM solutions ORDER BY id'),
    boards: count('SELECT * FROM board_entries ORDER BY level_id, board, hinted, user_id'),
  };
  assert.equal(count('SELECT count(*) FROM board_entries WHERE board >= 4'), '0');
  const after = await startServer({ dir, db, levels: path.join(dir, 'levels') });
  try {
    assert.match(after.stderr(), /applied migration 0015_/);
    assert.equal(count(`SELECT ${gameColumns} FROM games ORDER BY id`), rows.games, 'the same games');
    assert.equal(count('SELECT id, user_id, level_id, game_id, moves, pushes, lurd, solved_at, hints, rule FROM solutions ORDER BY id'),
      rows.solutions, 'the same solutions');
    assert.equal(count('SELECT * FROM board_entries WHERE board < 4 ORDER BY level_id, board, hinted, user_id'),
      rows.boards, 'the same standard board rows');
    assert.equal(count('SELECT count(*) FROM board_entries WHERE board >= 4'), '2',
      'the multi-push solution is on both multi-push boards');
    assert.equal(count('PRAGMA integrity_check'), 'ok');
    assert.equal(count('PRAGMA foreign_key_check'), '');
    const b = (await after.client().get(`/api/v1/levels/${first.corridor}/leaderboard?rule=1`)).json;
    assert.equal(b.total, 1, JSON.stringify(b));
    assert.equal(b.entries[0].user, 'older');
  } finally {
    await after.stop();
  }
});
