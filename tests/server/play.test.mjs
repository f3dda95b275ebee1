// Playing through the API: a level to solved, undo, redo, restart, point
// mode, progress and the export of solutions.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { gameOf, openGame, runSokod, show, startServerWithLevels, stopCleanly } from './harness.mjs';
import { Board } from './sokoban.mjs';

let server;
let ids;

before(async () => ({ server, ids } = await startServerWithLevels()));

after(() => stopCleanly(server, 'sokod should stop cleanly on SIGTERM'));

test('a level is played to solved through batches of steps', async () => {
  const c = server.client();
  const level = (await c.get(`/api/v1/levels/${ids[0]}`)).json.level;
  const game = await openGame(c, ids[0]);
  assert.deepEqual(game.rows, level.rows, 'a new game starts on the level board');
  assert.equal(game.seq, 0);
  assert.equal(game.rule, 0, 'bundled levels play under the standard rule (0)');

  const model = new Board(level.rows);
  let seq = 0;
  for (const batch of ['r', 'rr']) {
    const expected = [...batch].map((l) => model.step(l)).join('');
    const r = await c.post(`/api/v1/games/${game.id}/log`, { seq: ++seq, steps: batch });
    console.log(`sent ${batch} as entry ${seq}: ${r.status} ${r.json?.steps}`);
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.steps, expected, 'the answer names the steps with push case');
    assert.deepEqual((await gameOf(c, game.id)).rows, model.rows(), 'position after the batch');
    assert.equal(r.json.game.seq, seq);
    assert.equal(r.json.game.moves, model.moves);
    assert.equal(r.json.game.pushes, model.pushes);
    assert.equal(r.json.game.solved, model.solved());
  }
  assert.equal(model.solved(), true, 'the test moves solve the corridor');

  const level2 = (await c.get(`/api/v1/levels/${ids[0]}`)).json.level;
  assert.equal(level2.solved, true, 'the level shows as solved');
  assert.equal(level2.best_moves, model.moves);
  assert.equal(level2.best_pushes, model.pushes);
  assert.equal(level2.game_id, game.id);

  const progress = (await c.get('/api/v1/progress')).json;
  const solved = progress.solved.find((s) => s.level_id === ids[0]);
  assert.ok(solved, `progress lists the solved level: ${JSON.stringify(progress)}`);
  assert.equal(solved.best_moves, model.moves);
  assert.match(solved.first_solved_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});

test('undo, redo and restart are entries of the log, and the redo stack is kept', async () => {
  const c = server.client();
  const level = (await c.get(`/api/v1/levels/${ids[1]}`)).json.level;
  const game = await openGame(c, ids[1]);
  const steps = 'urrdr';
  const full = new Board(level.rows);
  const letters = [...steps].map((l) => full.step(l)).join('');
  const upTo = (n) => {
    const b = new Board(level.rows);
    for (const l of steps.slice(0, n)) b.step(l);
    return b;
  };
  console.log(`steps ${steps} play as ${letters}`);
  // Each answer carries the game's summary; GET shows its board and stacks.
  let r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps });
  assert.equal(r.status, 200, show(r));
  let g = await gameOf(c, game.id);
  assert.equal(g.history, letters);
  const after5 = g;

  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 2, undo: 2 });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.game.moves, 3);
  assert.equal(r.json.game.pushes, upTo(3).pushes);
  assert.equal(r.json.game.undo_available, 3);
  assert.equal(r.json.game.redo_available, 2);
  g = await gameOf(c, game.id);
  assert.deepEqual(g.rows, upTo(3).rows(), 'undo 2 takes back two steps');
  assert.equal(g.history, letters.slice(0, 3));
  assert.equal(g.redo, letters.slice(3));

  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 3, redo: 1 });
  assert.equal(r.status, 200, show(r));
  g = await gameOf(c, game.id);
  assert.equal(g.history, letters.slice(0, 4));
  assert.equal(g.redo, letters.slice(4));

  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 4, restart: true });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.game.moves, 0);
  g = await gameOf(c, game.id);
  assert.deepEqual(g.rows, level.rows, 'restart puts the level back');
  assert.equal(g.history, letters.slice(0, 4) + '*', 'a restart shows as * in the history');
  assert.equal(g.redo, '', 'a restart drops the redo stack');

  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 5, undo: 1 });
  assert.equal(r.status, 200, show(r));
  g = await gameOf(c, game.id);
  assert.equal(g.history, letters.slice(0, 4), 'undo takes a restart back');
  assert.deepEqual(g.rows, upTo(4).rows());
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 6, undo: 2 });
  g = await gameOf(c, game.id);
  assert.equal(g.history, letters.slice(0, 2), show(r));
  assert.equal(g.redo, letters.slice(2, 4) + '*');
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 7, redo: 3 });
  assert.equal(r.status, 200, show(r));
  g = await gameOf(c, game.id);
  assert.equal(g.history, letters.slice(0, 4) + '*');
  assert.deepEqual(g.rows, level.rows);

  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 8, undo: 100 });
  assert.equal(r.status, 422, show(r));
  assert.equal(r.json.error.code, 'nothing_to_undo');
  assert.equal(r.json.game.seq, 7, 'a refused entry leaves the game as it was');
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 8, redo: 1 });
  assert.equal(r.status, 422, show(r));
  assert.equal(r.json.error.code, 'nothing_to_redo');

  const again = await c.get(`/api/v1/games/${game.id}`);
  assert.equal(again.status, 200, show(again));
  assert.equal(again.json.game.history, letters.slice(0, 4) + '*');
  assert.equal(again.json.game.seq, 7);
  assert.notDeepEqual(after5.rows, again.json.game.rows);

  // A refusal says what can be done, in words: "1 entry", "4 entries".
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 8, undo: 4 });
  assert.equal(r.status, 200, show(r));
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 9, undo: 2 });
  assert.equal(r.status, 422, show(r));
  assert.match(r.json.error.message, /only 1 entry can be undone/, show(r));
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 9, redo: 5 });
  assert.equal(r.status, 422, show(r));
  assert.match(r.json.error.message, /only 4 entries can be redone/, show(r));
});

test('point mode walks, pushes a box to a square, and tells where a box can go', async () => {
  const c = server.client();
  const level = (await c.get(`/api/v1/levels/${ids[1]}`)).json.level;
  const game = await openGame(c, ids[1]);
  // Room: the player at (1,3); boxes at (2,2) and (3,3); goals at (5,2) and (5,3).
  let r = await c.post(`/api/v1/games/${game.id}/walk`, { seq: 1, x: 6, y: 1 });
  assert.equal(r.status, 200, show(r));
  const model = new Board(level.rows);
  for (const l of r.json.steps) model.step(l);
  assert.deepEqual(model.player, [6, 1], `the walk ${r.json.steps} ends on (6,1)`);
  assert.equal(r.json.steps, r.json.steps.toLowerCase(), 'a walk pushes nothing');
  assert.equal(r.json.steps.length, 7, 'the walk is a shortest one');
  assert.deepEqual(r.json.game.player, { x: 6, y: 1 });

  r = await c.get(`/api/v1/games/${game.id}/reach?x=3&y=3`);
  assert.equal(r.status, 200, show(r));
  const squares = new Set(r.json.squares.map(([x, y]) => `${x},${y}`));
  assert.ok(squares.has('3,3') && squares.has('5,3') && squares.has('4,3'), r.text);
  assert.ok(!squares.has('0,0') && !squares.has('7,3'), `a box never reaches a wall: ${r.text}`);

  r = await c.post(`/api/v1/games/${game.id}/push`, { seq: 2, box: { x: 3, y: 3 }, to: { x: 5, y: 3 } });
  assert.equal(r.status, 200, show(r));
  for (const l of r.json.steps) assert.equal(model.step(l), l, `step ${l} of ${r.json.steps} has the right case`);
  assert.ok(model.boxes.has('5,3'), 'the box reached (5,3)');
  assert.deepEqual((await gameOf(c, game.id)).rows, model.rows());
  assert.equal((r.json.steps.match(/[LURD]/g) ?? []).length, 2, 'two pushes: fewest');

  r = await c.post(`/api/v1/games/${game.id}/push`, { seq: 3, box: { x: 2, y: 2 }, to: { x: 5, y: 2 } });
  assert.equal(r.status, 200, show(r));
  for (const l of r.json.steps) model.step(l);
  assert.equal(model.solved(), true);
  assert.equal(r.json.game.solved, true);

  r = await c.post(`/api/v1/games/${game.id}/push`, { seq: 4, box: { x: 1, y: 1 }, to: { x: 2, y: 1 } });
  assert.equal(r.status, 422, show(r));
  assert.equal(r.json.error.code, 'no_box');
  r = await c.post(`/api/v1/games/${game.id}/walk`, { seq: 4, x: 40, y: 1 });
  assert.equal(r.status, 422, show(r));
  assert.equal(r.json.error.code, 'off_board');
  r = await c.post(`/api/v1/games/${game.id}/walk`, { seq: 4, x: 0, y: 0 });
  assert.equal(r.status, 422, show(r));
  assert.equal(r.json.error.code, 'no_path');
  assert.equal(r.json.game.seq, 3);

  // A point request sent again with the same seq is recognised, not replayed.
  r = await c.post(`/api/v1/games/${game.id}/push`, { seq: 3, box: { x: 2, y: 2 }, to: { x: 5, y: 2 } });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.duplicate, true);
  assert.equal(r.json.game.seq, 3);
});

test('the export holds every solution as a level file that sokod replay accepts', async () => {
  const c = server.client();
  const game = await openGame(c, ids[0]);
  let r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'rrr' });
  assert.equal(r.json.game.solved, true, show(r));
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 2, restart: true });
  assert.equal(r.status, 200, show(r));
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 3, steps: 'rrlrr' });
  assert.equal(r.json.game.solved, true, show(r));

  r = await c.get('/api/v1/progress/export');
  assert.equal(r.status, 200, show(r));
  assert.match(r.headers.get('content-type'), /^text\/plain/);
  assert.match(r.headers.get('content-disposition'), /attachment/);
  console.log(r.text);
  const file = path.join(server.dir, 'export.sok');
  fs.writeFileSync(file, r.text);
  const replay = runSokod(['replay', '--json', file]);
  assert.equal(replay.status, 0, `sokod replay of the export: ${replay.stdout}${replay.stderr}`);
  assert.match(replay.stdout, /"solved":\s*2/, replay.stdout);
  assert.match(r.text, /^rRR$/m);
  assert.match(r.text, /^rRlrR$/m);
});
