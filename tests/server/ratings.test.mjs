// Ratings (docs/ratings.md): a quick solve is the player's win and moves
// the level's rating down and the player's up; a game left unsolved after
// ten entries is given up, the level's win. The library (GET
// /api/v1/levels) shows each level's difficulty and solve count, and
// filters and sorts on the server; the next level for a player (GET
// /api/v1/levels/next) is an unsolved level within a band around their
// rating that widens when nothing fits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';

// The rating pass every second; a game idle a second after its tenth
// entry counts as given up.
const ARGS = ['--rating-interval', '1', '--rating-given-up-after', '1'];

async function until(what, fn, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function library(client, query = '') {
  const r = await client.get(`/api/v1/levels${query}`);
  assert.equal(r.status, 200, `GET /api/v1/levels${query}: ${show(r)}`);
  return r.json;
}

const byId = (list) => Object.fromEntries(list.levels.map((l) => [l.id, l]));

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

test('a quick solve is the player\'s win, a game given up the level\'s', async () => {
  const server = await startServer({ args: ARGS });
  try {
    const [corridor, room] = await levelIds(server.client());
    const anyone = server.client();
    // Every level gets its prior from the first pass.
    const before = byId(await until('every level rated', async () => {
      const l = await library(anyone);
      return l.levels.every((x) => x.difficulty !== null) && l;
    }));
    assert.equal(before[corridor].solves, 0);

    const solver = new Client(server.url);
    await play(solver, corridor, ['r', 'R', 'R']);
    const after = byId(await until('the solve rated', async () => {
      const l = await library(solver);
      return byId(l)[corridor].solves === 1 && byId(l)[corridor].difficulty.rating !== before[corridor].difficulty.rating && l;
    }));
    assert.ok(after[corridor].difficulty.rating < before[corridor].difficulty.rating,
      `a quick solve should lower the level: ${before[corridor].difficulty.rating} -> ${after[corridor].difficulty.rating}`);
    assert.ok(after[corridor].difficulty.deviation < before[corridor].difficulty.deviation);
    assert.equal(after[corridor].solved, true);
    let r = await solver.get('/api/v1/levels/next');
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.player.rated, true);
    assert.ok(r.json.player.rating > 1500, `the winner's rating: ${show(r)}`);
    assert.ok(r.json.player.deviation < 350);

    // Ten entries on Room, never solved, then left: given up.
    const quitter = new Client(server.url);
    await play(quitter, room, ['d', 'u', 'd', 'u', 'd', 'u', 'd', 'u', 'd', 'u']);
    const given = byId(await until('the given-up game rated', async () => {
      const l = await library(quitter);
      return byId(l)[room].difficulty.rating !== before[room].difficulty.rating && l;
    }));
    assert.ok(given[room].difficulty.rating > before[room].difficulty.rating,
      `a game given up should raise the level: ${before[room].difficulty.rating} -> ${given[room].difficulty.rating}`);
    assert.equal(given[room].solves, 0);
    assert.equal(given[room].started, true);
    assert.equal(given[room].solved, false);
    r = await quitter.get('/api/v1/levels/next');
    assert.ok(r.json.player.rating < 1500, `the quitter's rating: ${show(r)}`);
    // Each game is rated once, however many passes go by.
    const rated = sqlite(server.db, 'SELECT count(*) FROM rated_games');
    assert.equal(rated, '2');
    const metrics = await server.client().get('/metrics');
    assert.match(metrics.text, /^sokod_rated_attempts_total 2$/m, 'the metrics count both attempts');
    assert.match(metrics.text, /^sokod_rating_write_seconds_total \d+\.\d{6}$/m);

    // The statistics carry the rating and its history.
    r = await solver.get('/api/v1/account/stats');
    assert.equal(r.status, 200, show(r));
    assert.ok(r.json.rating.rating > 1500, show(r));
    assert.equal(r.json.rating.history.length, 1, show(r));
    assert.equal(r.json.rating.history[0].rating, r.json.rating.rating);
    await stopCleanly(server);
  } finally {
    await server.stop();
  }
});

test('the library filters and sorts on the server, in pages', async () => {
  const server = await startServer({ args: ARGS });
  try {
    const [corridor, room, bend] = await levelIds(server.client());
    const player = new Client(server.url);
    await play(player, corridor, ['r', 'R', 'R']);
    await play(player, room, ['d']);
    await until('the solve counted', async () => byId(await library(player))[corridor].solves === 1);
    const ids = (l) => l.levels.map((x) => x.id);
    assert.deepEqual(ids(await library(player, '?filter=solved')), [corridor]);
    assert.deepEqual(ids(await library(player, '?filter=started')), [room]);
    assert.deepEqual(ids(await library(player, '?filter=unsolved')), [room, bend]);
    assert.deepEqual(ids(await library(player)), [corridor, room, bend]);
    assert.deepEqual(ids(await library(player, '?order=desc')), [bend, room, corridor]);
    // Sorted by what each level says of itself.
    const all = await library(player, '?sort=boxes&order=desc');
    const boxes = all.levels.map((x) => x.boxes);
    assert.deepEqual(boxes, [...boxes].sort((a, b) => b - a), `boxes, most first: ${boxes}`);
    const sized = (await library(player, '?sort=size')).levels.map((x) => x.width * x.height);
    assert.deepEqual(sized, [...sized].sort((a, b) => a - b), `sizes: ${sized}`);
    const rated = (await library(player, '?sort=difficulty')).levels.map((x) => x.difficulty.rating);
    assert.deepEqual(rated, [...rated].sort((a, b) => a - b), `ratings: ${rated}`);
    const solves = (await library(player, '?sort=solves&order=desc')).levels.map((x) => x.solves);
    assert.deepEqual(solves, [1, 0, 0]);
    // Pages: two, then the rest; the total counts every match.
    const first = await library(player, '?limit=2');
    const second = await library(player, '?limit=2&offset=2');
    assert.equal(first.total, 3);
    assert.deepEqual([...ids(first), ...ids(second)], [corridor, room, bend]);
    // Within one collection, or one that does not exist.
    const col = first.levels[0].collection_id;
    assert.equal((await library(player, `?collection=${col}`)).total, 3);
    assert.equal((await library(player, `?collection=${col + 1000}`)).total, 0);
    const wrong = await player.get('/api/v1/levels/next?draw=x');
    assert.equal(wrong.status, 400, show(wrong));
    for (const bad of ['?filter=easy', '?sort=colour', '?order=up', '?limit=100000', '?offset=-1']) {
      const r = await player.get(`/api/v1/levels${bad}`);
      assert.equal(r.status, 400, `${bad}: ${show(r)}`);
      assert.equal(r.json.error.code, 'invalid_value');
    }
    await stopCleanly(server);
  } finally {
    await server.stop();
  }
});

test('the next level is unsolved and within a band that widens', async () => {
  const server = await startServer({ args: ['--rating-interval', '3600'] });
  try {
    const [corridor, room, bend] = await levelIds(server.client());
    const player = new Client(server.url);
    const game = await play(player, corridor, ['r']);
    const me = (await player.get('/api/v1/account')).json.user.id;
    // Ratings set by hand: the player at 1500, the levels far apart.
    const set = (level, rating) => sqlite(server.db, `INSERT INTO level_ratings (level_id, rating_milli,
      deviation_milli, volatility_micro, prior, updated_at) VALUES (${level}, ${rating * 1000}, 100000, 60000, 'none', 0)
      ON CONFLICT (level_id) DO UPDATE SET rating_milli = excluded.rating_milli`);
    sqlite(server.db, `INSERT INTO player_ratings (user_id, rating_milli, deviation_milli, volatility_micro, updated_at)
      VALUES (${me}, 1500000, 80000, 60000, 0)`);
    set(corridor, 1480);
    set(room, 1350);
    set(bend, 2100);
    const next = async (q = '') => {
      const r = await player.get(`/api/v1/levels/next${q}`);
      assert.equal(r.status, 200, show(r));
      return r.json;
    };
    // Corridor, within 100 points, is the nearest; once solved, the band
    // widens to 200 and finds Room.
    let n = await next();
    assert.equal(n.level.id, corridor, JSON.stringify(n));
    assert.deepEqual(n.band, { low: 1400, high: 1600 });
    assert.equal(n.widened, 0);
    assert.equal(n.level.difficulty.rating, 1480);
    const r = await player.post(`/api/v1/games/${game}/log`, { seq: 2, steps: 'RR' });
    assert.equal(r.status, 200, show(r));
    n = await next();
    assert.equal(n.level.id, room, JSON.stringify(n));
    assert.deepEqual(n.band, { low: 1300, high: 1700 });
    assert.equal(n.widened, 1);
    // "Another": Room left out, the band widens until Bend fits.
    n = await next(`?exclude=${room}`);
    assert.equal(n.level.id, bend, JSON.stringify(n));
    assert.ok(n.band.low <= 2100 && 2100 <= n.band.high, JSON.stringify(n.band));
    assert.equal(n.widened, 3);
    // The same draw gives the same level; over draws, every level within
    // the band comes, none outside it.
    set(bend, 1390);
    assert.equal((await next('?draw=7')).level.id, (await next('?draw=7')).level.id);
    const seen = new Set();
    for (let i = 0; i < 40; i++) {
      n = await next(`?draw=${i}`);
      assert.ok(n.level.difficulty.rating >= n.band.low && n.level.difficulty.rating <= n.band.high, JSON.stringify(n));
      seen.add(n.level.id);
    }
    assert.deepEqual([...seen].sort(), [room, bend].sort(), 'both levels of the band drawn');
    // Nobody signed in: taken at 1500, the same band.
    const anyone = await new Client(server.url).get('/api/v1/levels/next');
    assert.equal(anyone.status, 200, show(anyone));
    assert.equal(anyone.json.player.rated, false);
    assert.equal(anyone.json.player.rating, 1500);
    await stopCleanly(server);
  } finally {
    await server.stop();
  }
});

test('a level rated before its solver\'s verdict takes the solver\'s prior', async () => {
  const server = await startServer({ args: ARGS });
  try {
    const [corridor, room] = await levelIds(server.client());
    const anyone = server.client();
    const before = byId(await until('every level rated', async () => {
      const l = await library(anyone);
      return l.levels.every((x) => x.difficulty !== null) && l;
    }));
    // The verdict of an upload's check arrives after the import: the
    // solver solved the room in 60 pushes (2 boxes).
    sqlite(server.db, `UPDATE levels SET solver_status = 'solvable', solver_moves = 200, solver_pushes = 60 WHERE id = ${room}`);
    const after = byId(await until('the new prior', async () => {
      const l = byId(await library(anyone));
      return l[room].difficulty.rating !== before[room].difficulty.rating && { levels: Object.values(l) };
    }));
    assert.equal(after[room].difficulty.rating, 1000 + 4 * (60 + 4 * 2), 'the prior of 60 pushes and 2 boxes');
    assert.equal(after[room].difficulty.deviation, 250);
    assert.equal(sqlite(server.db, `SELECT prior FROM level_ratings WHERE level_id = ${room}`), 'solver');
    assert.equal(after[corridor].difficulty.rating, before[corridor].difficulty.rating, 'the others keep theirs');
    await stopCleanly(server);
  } finally {
    await server.stop();
  }
});
