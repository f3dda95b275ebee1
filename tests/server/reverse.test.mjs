// Reverse games (rule 2): the player starts with every box on a goal and
// pulls them back to the level's start. The server checks every pull with
// the core, keeps the log like a forward game's (undo, redo, a second
// device), and stores a finished reverse game as the forward solution it
// stands for: under the standard rule, marked as found in reverse, on the
// witnessed boards, and accepted by `sokod replay`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BACKEND, Client, freshPgDatabase, levelIds, runSokod, show, startServer, stopCleanly,
  tempDir } from './harness.mjs';

// Corridor: "rrrLL" in reverse is "rRR" forward. Pair: a box each side of
// the player, "lRrL" in reverse is "RlL" forward.
const LEVELS = `Collection: sokod reverse

; Corridor
#######
#@ $ .#
#######

; Pair
#######
#     #
#.$@$.#
#     #
#######
`;

async function startReverse() {
  const dir = tempDir('sokod-reverse-');
  const levels = path.join(dir, 'levels');
  fs.mkdirSync(levels, { recursive: true });
  fs.writeFileSync(path.join(levels, 'reverse.sok'), LEVELS);
  const server = await startServer({ dir, levels });
  const [corridor, pair] = await levelIds(server.client(), 'sokod reverse');
  return { server, corridor, pair };
}

async function open(client, level, body, expected) {
  const r = await client.post(`/api/v1/levels/${level}/game`, body);
  assert.equal(r.status, expected, `POST /api/v1/levels/${level}/game ${JSON.stringify(body)}: ${show(r)}`);
  return r.json.game;
}

function log(client, game, body) {
  return client.post(`/api/v1/games/${game.id}/log`, body);
}

test('a reverse game starts with the boxes on their goals, from a square the player picks', async () => {
  const { server, corridor } = await startReverse();
  try {
    const c = server.client();
    const g = await open(c, corridor, { rule: 2 }, 201);
    assert.equal(g.rule, 2);
    assert.deepEqual(g.start, { x: 1, y: 1 }, 'the default start is the level\'s player square');
    assert.deepEqual(g.rows, ['#######', '#@   *#', '#######'], `the box stands on its goal: ${JSON.stringify(g)}`);
    assert.deepEqual(g.level.rows, ['#######', '#@ $ .#', '#######'], 'the level is the forward one');
    assert.equal(g.boxes_on_start, 0);

    // Nothing played: the start may move.
    let moved = await open(c, corridor, { rule: 2, start: { x: 3, y: 1 } }, 200);
    assert.equal(moved.id, g.id);
    assert.deepEqual(moved.start, { x: 3, y: 1 }, show({ status: 200, text: JSON.stringify(moved) }));
    assert.deepEqual(moved.player, { x: 3, y: 1 });
    assert.equal((await c.get(`/api/v1/games/${g.id}`)).json.game.player.x, 3, 'a read sees the new start');

    // Squares a player cannot start on, and a start for a forward game.
    for (const [body, code] of [[{ rule: 2, start: { x: 5, y: 1 } }, 'invalid_value'],
      [{ rule: 2, start: { x: 0, y: 1 } }, 'invalid_value'],
      [{ rule: 2, start: { x: 40, y: 1 } }, 'invalid_value'],
      [{ rule: 0, start: { x: 2, y: 1 } }, 'invalid_value'],
      [{ rule: 2, start: { x: 'a', y: 1 } }, 'wrong_type'],
      [{ rule: 2, start: { x: 2 } }, 'missing_field']]) {
      const r = await c.post(`/api/v1/levels/${corridor}/game`, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${show(r)}`);
      assert.equal(r.json.error.code, code, `${JSON.stringify(body)}: ${show(r)}`);
    }

    // Once a step is played, the start stays.
    assert.equal((await log(c, g, { seq: 1, steps: 'r' })).status, 200);
    moved = await open(c, corridor, { rule: 2, start: { x: 1, y: 1 } }, 200);
    assert.deepEqual(moved.start, { x: 3, y: 1 }, 'a played game keeps its start');
    assert.deepEqual(moved.player, { x: 4, y: 1 });
  } finally {
    await server.stop();
  }
});

test('the server refuses what is not a pull and plays the pulls it gets', async () => {
  const { server, corridor } = await startReverse();
  try {
    const c = server.client();
    const g = await open(c, corridor, { rule: 2 }, 201);
    const refused = [
      ['R', 'a pull with no box behind the player'],
      ['L', 'a pull into a wall'],
      ['rrrr', 'a step into a box: nothing pushes in reverse'],
      ['rrrR', 'a pull into a box'],
    ];
    for (const [steps, why] of refused) {
      const r = await log(c, g, { seq: 1, steps });
      assert.equal(r.status, 422, `${why} ('${steps}'): ${show(r)}`);
      assert.equal(r.json.error.code, 'step_refused', `${why}: ${show(r)}`);
      assert.equal(r.json.game.seq, 0, `${why}: nothing of the batch is applied`);
    }
    // A step away from a box in lower case leaves it; in upper case pulls it.
    let r = await log(c, g, { seq: 1, steps: 'rrrl' });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.game.pushes, 0, show(r));
    r = await log(c, g, { seq: 2, steps: 'rL' });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.steps, 'rL', show(r));
    assert.equal(r.json.game.pushes, 1, show(r));
    const whole = (await c.get(`/api/v1/games/${g.id}`)).json.game;
    assert.deepEqual(whole.rows, ['#######', '#  @$.#', '#######'], `the box pulled off its goal: ${JSON.stringify(whole)}`);
    assert.equal(whole.history, 'rrrlrL');

    for (const [p, body] of [['hint', { seq: 2 }], ['push', { seq: 3, box: { x: 4, y: 1 }, to: { x: 2, y: 1 } }]]) {
      r = await c.post(`/api/v1/games/${g.id}/${p}`, body);
      assert.equal(r.status, 422, `${p} in a reverse game: ${show(r)}`);
      assert.equal(r.json.error.code, 'reverse_game', `${p}: ${show(r)}`);
    }
    r = await c.get(`/api/v1/games/${g.id}/reach?x=4&y=1`);
    assert.equal(r.json?.error?.code, 'reverse_game', `reach: ${show(r)}`);
    // Saved positions: the game's own, and a line sent, both with their pulls.
    r = await c.post(`/api/v1/games/${g.id}/snapshots`, { name: 'here' });
    assert.equal(r.status, 201, show(r));
    assert.deepEqual([r.json.snapshot.lurd, r.json.snapshot.pushes], ['rrrlrL', 1], show(r));
    r = await c.post(`/api/v1/games/${g.id}/snapshots`, { name: 'sent', lurd: 'rrrL' });
    assert.equal(r.status, 201, show(r));
    assert.deepEqual([r.json.snapshot.lurd, r.json.snapshot.moves, r.json.snapshot.pushes], ['rrrL', 4, 1], show(r));
    r = await c.post(`/api/v1/games/${g.id}/snapshots`, { name: 'no box', lurd: 'R' });
    assert.equal(r.status, 422, `a pull with no box behind is refused: ${show(r)}`);
    // A walk works as in a forward game: moves only.
    r = await c.post(`/api/v1/games/${g.id}/walk`, { seq: 3, x: 1, y: 1 });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.steps, 'll', show(r));
  } finally {
    await server.stop();
  }
});

test('a finished reverse game is stored as a forward solution that sokod replay accepts', async () => {
  const { server, corridor } = await startReverse();
  try {
    const c = server.client();
    let r = await c.post('/api/v1/account/signup', { username: 'puller', password: 'a long password 1' });
    assert.equal(r.status, 201, show(r));
    const g = await open(c, corridor, { rule: 2 }, 201);
    r = await log(c, g, { seq: 1, steps: 'rrrLL' });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.game.solved, true, `the boxes are back on their start and the player can walk home: ${show(r)}`);
    assert.equal(r.json.game.boxes_on_start, 1, show(r));

    const board = await c.get(`/api/v1/levels/${corridor}/leaderboard?by=moves`);
    assert.equal(board.status, 200, show(board));
    assert.equal(board.json.rule, 0);
    assert.equal(board.json.total, 1, `the standard board holds the reverse game's solution: ${board.text}`);
    const entry = board.json.entries[0];
    assert.deepEqual([entry.user, entry.moves, entry.pushes], ['puller', 3, 2], board.text);
    const sol = await c.get(entry.solution);
    assert.equal(sol.status, 200, show(sol));
    assert.equal(sol.json.solution.lurd, 'rRR', `the pulls turned round, after the walk from the start: ${show(sol)}`);
    assert.equal(sol.json.solution.rule, 0, show(sol));
    assert.equal(sol.json.solution.reverse, true, show(sol));

    // The export holds it, and sokod replay solves the level with it.
    r = await c.get('/api/v1/progress/export');
    assert.equal(r.status, 200, show(r));
    assert.match(r.text, /^rRR$/m, r.text);
    const file = path.join(server.dir, 'export.sok');
    fs.writeFileSync(file, r.text);
    const replay = runSokod(['replay', '--json', file]);
    assert.equal(replay.status, 0, `sokod replay of the export: ${replay.stdout}${replay.stderr}`);
    assert.match(replay.stdout, /"solved":\s*1/, replay.stdout);

    // A forward game's solution is not marked.
    const fwd = await open(c, corridor, {}, 201);
    r = await log(c, fwd, { seq: 1, steps: 'rrr' });
    assert.equal(r.json.game.solved, true, show(r));
    const moves = await c.get(`/api/v1/levels/${corridor}/leaderboard?by=pushes`);
    const mine = await c.get(moves.json.entries[0].solution);
    assert.equal(mine.json.solution.reverse, mine.json.solution.lurd === 'rRR', show(mine));
  } finally {
    await server.stop();
  }
});

test('a reverse game resumes on a second device with its undo history', async () => {
  const { server, pair } = await startReverse();
  try {
    const phone = server.client();
    const g = await open(phone, pair, { rule: 2 }, 201);
    let r = await log(phone, g, { seq: 1, steps: 'lR' });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.steps, 'lR', show(r));
    r = await log(phone, g, { seq: 2, undo: 1 });
    assert.equal(r.status, 200, show(r));

    const laptop = phone.sameUser();
    const resumed = await open(laptop, pair, { rule: 2 }, 200);
    assert.equal(resumed.id, g.id);
    assert.equal(resumed.history, 'l', JSON.stringify(resumed));
    assert.equal(resumed.redo, 'R', JSON.stringify(resumed));
    assert.equal(resumed.rows[2], '#*@  *#', JSON.stringify(resumed));
    assert.deepEqual(resumed.player, { x: 2, y: 2 });
    assert.deepEqual(resumed.start, { x: 3, y: 2 });

    r = await log(laptop, g, { seq: 3, redo: 1 });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.game.pushes, 1, show(r));
    // The phone is behind: refused, and it adopts the laptop's game.
    r = await log(phone, g, { seq: 3, steps: 'r' });
    assert.equal(r.status, 409, show(r));
    assert.equal(r.json.game.seq, 3);
    r = await log(phone, g, { seq: 4, steps: 'rL' });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.game.solved, true, show(r));
    const after = (await laptop.get(`/api/v1/games/${g.id}`)).json.game;
    assert.equal(after.history, 'lRrL');
    assert.equal(after.lurd, 'lRrL', 'a reverse game\'s own line, as played');
    assert.deepEqual(after.rows, after.level.rows, `the level's start, reached backwards: ${JSON.stringify(after)}`);
  } finally {
    await server.stop();
  }
});

test('a start moved on one node is the start another node plays from', {
  skip: BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only',
}, async () => {
  const db = freshPgDatabase();
  const a = await startServer({ db });
  const b = await startServer({ db });
  try {
    const onA = a.client();
    const [corridor] = await levelIds(onA);
    const onB = new Client(b.url);
    // Node B holds the game from its default start, the level's player square.
    const g = await open(onA, corridor, { rule: 2 }, 201);
    onB.cookies = new Map(onA.cookies);
    assert.deepEqual((await open(onB, corridor, { rule: 2 }, 200)).start, { x: 1, y: 1 });
    // Node A moves it next to the box, where a pull to the left is legal
    // (from the old start, it runs into the wall).
    assert.deepEqual((await open(onA, corridor, { rule: 2, start: { x: 4, y: 1 } }, 200)).start, { x: 4, y: 1 });
    const r = await log(onB, g, { seq: 1, steps: 'L' });
    assert.equal(r.status, 200, `node B plays from the start node A set: ${show(r)}`);
    assert.equal(r.json.game.pushes, 1, show(r));
  } finally {
    await stopCleanly(a, 'node A should stop cleanly');
    await stopCleanly(b, 'node B should stop cleanly');
  }
});
