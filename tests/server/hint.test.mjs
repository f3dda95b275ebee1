// Hints: the next push from where a game stands, "lost" with the fewest
// undos that save it, the count in the game, progress and listings, and
// the errors. The tutorial levels come from levels/; two hard levels from
// ../shared give a search that the time limit stops.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { SHARED, SOURCE, gameOf, levelIds, openGame, runSokod, show, startServer, stopCleanly, tempDir } from './harness.mjs';
import { Board } from './sokoban.mjs';

let server;
let tutorial; // level ids of the tutorial, in order
let hard; // level ids of the hard levels

// Sasquatch 48 and 50, as a collection of their own.
function hardLevels() {
  const text = fs.readFileSync(path.join(SHARED, 'levels', 'Sasquatch_50.xsb'), 'utf8');
  const parts = text.split(/^; (\d+)\s*$/m);
  const boards = [];
  // a board's first row may start with spaces: only blank lines go
  for (let i = 1; i < parts.length; i += 2) boards.push({ n: Number(parts[i]), board: parts[i + 1].replace(/^\n+/, '').trimEnd() });
  const last = boards.filter((b) => b.n === 48 || b.n === 50);
  assert.equal(last.length, 2, 'Sasquatch 48 and 50 are in the shared file');
  return 'Collection: hard\n\n' + last.map((b) => `${b.board.replace(/^\n+/, '')}\nTitle: Sasquatch ${b.n}\n`).join('\n');
}

before(async () => {
  const dir = tempDir();
  const levels = path.join(dir, 'levels');
  fs.mkdirSync(levels, { recursive: true });
  fs.copyFileSync(path.join(SOURCE, 'levels', 'tutorial.sok'), path.join(levels, 'tutorial.sok'));
  fs.writeFileSync(path.join(levels, 'hard.sok'), hardLevels());
  // One hint at a time, so that a second one is refused. Two seconds leave
  // room for the tutorial's proofs on a loaded machine with the sanitizers,
  // and are still far too short for the hard levels.
  server = await startServer({ dir, levels, args: ['--hint-seconds', '2', '--hint-jobs', '1'] });
  const c = server.client();
  tutorial = await levelIds(c, 'First Steps');
  hard = await levelIds(c, 'hard');
  assert.equal(tutorial.length, 10, 'the tutorial has ten levels');
});

after(() => stopCleanly(server, 'sokod should stop cleanly on SIGTERM'));

async function hint(client, game, body = {}) {
  return client.post(`/api/v1/games/${game.id}/hint`, body);
}

// Asks for hints and plays each through the log endpoint until the game is
// solved; checks every hint against a model of the board. Returns the game.
async function followHints(c, game, what) {
  const model = new Board(game.rows);
  let hints = game.hints;
  for (let n = 0; !game.solved; n++) {
    assert.ok(n < 60, `${what}: still not solved after 60 hints`);
    const h = await hint(c, game);
    assert.equal(h.status, 200, `${what}: hint ${n + 1}: ${show(h)}`);
    const { hint: got } = h.json;
    assert.equal(got.kind, 'push', `${what} at ${JSON.stringify(game.rows)}: ${show(h)}`);
    assert.equal(got.counted, true);
    assert.equal(h.json.game.hints, ++hints, `${what}: the game counts hint ${n + 1}`);
    // The steps are a walk and one push, the last step, of the named box to the named square.
    const before = new Set(model.boxes);
    const played = [...got.steps].map((l) => model.step(l)).join('');
    assert.equal(played, got.steps, `${what}: the hint's letters say which steps push`);
    assert.match(played, /^[lurd]*[LURD]$/, `${what}: a walk then one push: ${played}`);
    assert.equal(got.moves, played.length);
    const gone = [...before].filter((b) => !model.boxes.has(b));
    const come = [...model.boxes].filter((b) => !before.has(b));
    assert.deepEqual([gone, come], [[`${got.box.x},${got.box.y}`], [`${got.to.x},${got.to.y}`]],
      `${what}: the box and the square of the hint are those its push moves`);
    const r = await c.post(`/api/v1/games/${game.id}/log`, { seq: game.seq + 1, steps: got.steps });
    assert.equal(r.status, 200, `${what}: playing hint ${n + 1} (${got.steps}): ${show(r)}`);
    assert.equal(r.json.game.hints, hints, 'a step keeps the count');
    game = await gameOf(c, game.id);
    assert.deepEqual(game.rows, model.rows(), `${what}: the position after the hint`);
  }
  assert.equal(model.solved(), true, `${what}: the model agrees that the level is solved`);
  return game;
}

test('following hints solves tutorial levels, and each hint is counted', async () => {
  const c = server.client();
  for (const index of [0, 2, 4, 5, 7, 8]) {
    const what = `tutorial level ${index + 1}`;
    const start = await openGame(c, tutorial[index]);
    assert.equal(start.hints, 0, `${what}: a new game has no hints`);
    const game = await followHints(c, start, what);
    assert.ok(game.hints >= 1, `${what}: solved with ${game.hints} hints`);
    // Once solved there is nothing to hint, and that is not counted.
    const done = await hint(c, game);
    assert.equal(done.status, 200, show(done));
    assert.equal(done.json.hint.kind, 'solved');
    assert.equal(done.json.hint.counted, false);
    assert.equal(done.json.game.hints, game.hints, `${what}: "solved" is not counted`);
    const again = await c.get(`/api/v1/games/${game.id}`);
    assert.equal(again.json.game.hints, game.hints, `${what}: the game read again keeps its count`);
  }
});

test('a lost position gets the fewest undos that save it', async () => {
  const c = server.client();
  // "Corners are traps": the box at (2,2) pushed left lies on the left wall, far from the goal.
  let game = await openGame(c, tutorial[3]);
  const moves = ['r', 'l', 'L', 'r', 'r']; // positions 0 to 2 can be solved, 3 to 5 cannot
  let r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: moves.join('') });
  assert.equal(r.status, 200, show(r));
  game = r.json.game;

  const lost = await hint(c, game);
  assert.equal(lost.status, 200, show(lost));
  assert.equal(lost.json.hint.kind, 'lost', `after ${moves.join('')}: ${show(lost)}`);
  assert.equal(lost.json.hint.undo, 3, 'undoing "rrL" brings back the last position that can be solved');
  assert.equal(lost.json.hint.counted, true, '"lost" is counted');
  assert.equal(lost.json.game.hints, 1);

  // One undo fewer: still lost, one undo away.
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 2, undo: 2 });
  assert.equal(r.status, 200, show(r));
  const still = await hint(c, r.json.game);
  assert.equal(still.json.hint.kind, 'lost', `after two undos: ${show(still)}`);
  assert.equal(still.json.hint.undo, 1, 'the count is the least: one more undo');

  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 3, undo: 1 });
  assert.equal(r.status, 200, show(r));
  const saved = await hint(c, r.json.game);
  assert.equal(saved.json.hint.kind, 'push', `after the undos a hint is given again: ${show(saved)}`);
  assert.equal(saved.json.game.hints, 3);

  // After a restart the search back stops at the restart: the start is one undo back.
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 4, restart: true });
  assert.equal(r.status, 200, show(r));
  r = await c.post(`/api/v1/games/${game.id}/log`, { seq: 5, steps: 'L' });
  assert.equal(r.status, 200, show(r));
  const fresh = await hint(c, r.json.game);
  assert.equal(fresh.json.hint.kind, 'lost', show(fresh));
  assert.equal(fresh.json.hint.undo, 1);
});

test('progress and the listing tell a level solved with hints from one solved alone', async () => {
  const c = server.client();
  // Level 1 with hints, level 2 alone (its reference solution).
  await followHints(c, await openGame(c, tutorial[0]), 'level 1');
  const alone = await openGame(c, tutorial[1]);
  const r = await c.post(`/api/v1/games/${alone.id}/log`, { seq: 1, steps: 'dRRurD' });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.game.solved, true, 'dRRurD solves "Around the box"');
  // Level 3 in progress with a hint.
  const playing = await openGame(c, tutorial[2]);
  await c.post(`/api/v1/games/${playing.id}/log`, { seq: 1, steps: 'l' });
  const h = await hint(c, { id: playing.id });
  assert.equal(h.status, 200, show(h));

  const progress = (await c.get('/api/v1/progress')).json;
  const one = progress.solved.find((s) => s.level_id === tutorial[0]);
  const two = progress.solved.find((s) => s.level_id === tutorial[1]);
  assert.equal(one?.hinted, true, `level 1 was solved only with hints: ${JSON.stringify(one)}`);
  assert.equal(two?.hinted, false, `level 2 was solved alone: ${JSON.stringify(two)}`);
  assert.deepEqual([two.best_moves, two.best_pushes], [6, 3]);
  const three = progress.in_progress.find((g) => g.game_id === playing.id);
  assert.equal(three?.hints, 1, `the game in progress shows its hint: ${JSON.stringify(three)}`);

  const listing = (await c.get(`/api/v1/collections/${(await c.get(`/api/v1/levels/${tutorial[0]}`)).json.level.collection_id}`)).json;
  const byId = new Map(listing.levels.map((l) => [l.id, l]));
  assert.deepEqual([byId.get(tutorial[0]).solved, byId.get(tutorial[0]).hinted], [true, true]);
  assert.deepEqual([byId.get(tutorial[1]).solved, byId.get(tutorial[1]).hinted], [true, false]);
  assert.deepEqual([byId.get(tutorial[2]).solved, byId.get(tutorial[2]).hinted], [false, false]);
  const level = (await c.get(`/api/v1/levels/${tutorial[0]}`)).json.level;
  assert.equal(level.hinted, true, 'the level endpoint says so too');
});

test('a search the time limit stops answers "unknown", uncounted; busy hints wait', async () => {
  const c = server.client();
  // Sasquatch 48: the solver solves 50 well within two seconds since its
  // packing list, and 49 since its search from the solved position, but
  // not 48.
  const a = await openGame(c, hard[0]);
  const b = await openGame(c, hard[1]);
  const unknown = await hint(c, a);
  assert.equal(unknown.status, 200, show(unknown));
  assert.equal(unknown.json.hint.kind, 'unknown', `Sasquatch 48 in two seconds: ${show(unknown)}`);
  assert.equal(unknown.json.hint.counted, false);
  assert.equal(unknown.json.game.hints, 0, '"unknown" is not counted');
  assert.ok(unknown.json.hint.reason.length > 0, 'it says why');

  // Two at once on one game: one answer, one 429.
  const same = await Promise.all([hint(c, a), hint(c, a)]);
  const sameStatus = same.map((x) => x.status).sort();
  assert.deepEqual(sameStatus, [200, 429], same.map(show).join('\n'));
  const pending = same.find((x) => x.status === 429);
  assert.equal(pending.json.error.code, 'hint_pending');
  assert.equal(pending.headers.get('retry-after'), '2', 'Retry-After: the hint time limit');

  // Two games at once with room for one hint: one answer, one 503.
  const both = await Promise.all([hint(c, a), hint(c, b)]);
  assert.deepEqual(both.map((x) => x.status).sort(), [200, 503], both.map(show).join('\n'));
  const busy = both.find((x) => x.status === 503);
  assert.equal(busy.json.error.code, 'unavailable');
  assert.equal(busy.headers.get('retry-after'), '2');
});

test('hints refuse what is not theirs to answer', async () => {
  const owner = server.client();
  const game = await openGame(owner, tutorial[0]);
  const stranger = server.client();
  await openGame(stranger, tutorial[1]); // a guest with a game of its own

  let r = await hint(stranger, game);
  assert.equal(r.status, 404, `another user's game: ${show(r)}`);
  assert.equal(r.json.error.code, 'game_not_found');
  r = await server.client().post(`/api/v1/games/${game.id}/hint`, {});
  assert.equal(r.status, 401, `no session: ${show(r)}`);
  assert.equal(r.json.error.code, 'no_session');
  r = await owner.post('/api/v1/games/999999/hint', {});
  assert.equal(r.status, 404, show(r));
  r = await owner.get(`/api/v1/games/${game.id}/hint`);
  assert.equal(r.status, 405, show(r));
  assert.match(r.headers.get('allow') ?? '', /POST/);
  r = await hint(owner, game, { seq: 'one' });
  assert.equal(r.status, 400, show(r));
  assert.equal(r.json.error.code, 'wrong_type');
  r = await hint(owner, game, { seq: 0, depth: 3 });
  assert.equal(r.status, 400, show(r));
  assert.equal(r.json.error.code, 'unknown_field');
  r = await hint(owner, game, { seq: -1 });
  assert.equal(r.status, 400, show(r));
  r = await owner.post(`/api/v1/games/${game.id}/hint`, '{"seq":', {});
  assert.equal(r.status, 400, show(r));
  assert.equal(r.json.error.code, 'bad_json');
  r = await hint(owner, game, { seq: 5 });
  assert.equal(r.status, 409, `a hint for an entry the game is not at: ${show(r)}`);
  assert.equal(r.json.error.code, 'stale_seq');
  assert.equal(r.json.game.seq, 0, 'the refusal carries the game');
  r = await owner.post(`/api/v1/games/${game.id}/hint`, {}, { 'Content-Type': 'text/plain' });
  assert.equal(r.status, 415, show(r));
  r = await hint(owner, game, { seq: 0 });
  assert.equal(r.status, 200, `the right seq: ${show(r)}`);
  const again = await owner.get(`/api/v1/games/${game.id}`);
  assert.equal(again.json.game.hints, 1, 'only the answered hint is counted');
});

test('the hint flags refuse values out of their range, and --help lists them', () => {
  for (const args of [['--hint-seconds', '0.01'], ['--hint-seconds', '2.5s'], ['--hint-seconds', '601'],
    ['--hint-memory', '8'], ['--hint-jobs', '0'], ['--hint-jobs', '9']]) {
    const r = runSokod(['serve', '--port', '0', '--db', path.join(tempDir(), 'x.db'), ...args]);
    assert.equal(r.status, 2, `sokod serve ${args.join(' ')}: exit ${r.status}, ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`invalid value '${args[1]}' for ${args[0]}`), r.stderr);
  }
  const env = runSokod(['serve', '--port', '0', '--db', path.join(tempDir(), 'x.db')],
    { env: { ...process.env, SOKOD_HINT_JOBS: '12' } });
  assert.equal(env.status, 2, `SOKOD_HINT_JOBS=12: exit ${env.status}, ${env.stderr}`);
  assert.match(env.stderr, /for SOKOD_HINT_JOBS/);
  const help = runSokod(['serve', '--help']);
  for (const flag of ['--hint-seconds', '--hint-memory', '--hint-jobs']) assert.match(help.stdout, new RegExp(flag));
});
