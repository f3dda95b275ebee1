// A batch of the group commit costs a few round trips to PostgreSQL
// whatever its size: its BEGIN and the lock and read of every game in
// one, the entries' writes and the COMMIT in another. Counted, not
// estimated: sokod counts each statement or pipeline it waits for
// (sokod_commit_round_trips, a histogram over the committed batches).
// Batches of a chosen size are made by holding one game's row locked from
// another connection: the committer waits on it with a batch of one, the
// entries of N other games queue behind it (sokod_commit_queued_jobs),
// and once the lock goes they commit as one batch of N.
// With two nodes, a game whose entries alternate between them is behind
// in each node's memory at every entry: the batch reads the entries it
// lacks with its lock, still in the same round trip (a game's first entry
// on a node reads it whole, and is not counted).
// A race entry also writes its room's state and event, in a transaction of
// its own after the batch: its reads of the locked room wait, its writes
// go with the commit.
// On SQLite (no round trips) there is nothing to count.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { BACKEND, Client, show, sqlite, startServer, startServerWithLevels, stopCleanly } from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'round trips to a database server: PostgreSQL only';
const SIZES = [1, 8, 64, 128];
const MOST_TRIPS = 3;
// A race entry, every round trip of every connection counted: its batch's
// 2, its seat's check 1, its room's locked row, seats and streams 3, the
// commit of the room's writes 1.
const MOST_RACE_TRIPS = 7.5;

let server;
let ids;

before(async () => {
  if (skip) return;
  ({ server, ids } = await startServerWithLevels({ args: ['--guests-per-minute', '60000'] }));
});

after(async () => {
  if (!skip) await stopCleanly(server);
});

// The samples of GET /metrics, by name with their labels ("name{le=\"3\"}").
async function metrics(node = server) {
  const r = await node.client().get('/metrics');
  assert.equal(r.status, 200, show(r));
  const samples = new Map();
  for (const line of r.text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const sample = (m, key) => {
  assert.ok(m.has(key), `GET /metrics has ${key}`);
  return m.get(key);
};

async function until(what, check) {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`waited 10 s for ${what}`);
}

// A game of its own guest on the Room level, where "u" then "d" walk up
// and back from the start.
async function openRoom() {
  const c = server.client();
  const r = await c.post(`/api/v1/levels/${ids[1]}/game`);
  assert.equal(r.status, 201, show(r));
  return { c, id: r.json.game.id, seq: 0 };
}

// Sends the game's next entry; resolves to the answer.
function step(g) {
  g.seq++;
  return g.c.post(`/api/v1/games/${g.id}/log`, { seq: g.seq, steps: g.seq % 2 === 1 ? 'u' : 'd' });
}

// Holds game id's row locked from a psql session of its own until the
// returned function is called (it resolves once psql has ended).
async function lockRow(id) {
  const p = spawn('psql', ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', server.db], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { out += d; });
  const ended = new Promise((resolve) => p.on('exit', resolve));
  p.stdin.write(`BEGIN;\nSELECT id FROM games WHERE id = ${id} FOR UPDATE;\n\\echo locked\n`);
  await until(`psql to lock game ${id} (it printed: ${out})`, () => out.includes('locked'));
  return async () => {
    p.stdin.end('COMMIT;\n');
    assert.equal(await ended, 0, `psql: ${out}`);
  };
}

test('a batch of N entries costs at most 3 round trips, whatever N', { skip }, async () => {
  const blocker = await openRoom();
  const games = [];
  for (let i = 0; i < Math.max(...SIZES); i++) games.push(await openRoom());
  // Entry 1 of each: the committer's statements are prepared, the games cached.
  for (const g of [blocker, ...games]) {
    const r = await step(g);
    assert.equal(r.status, 200, show(r));
  }
  const found = [];
  for (const n of SIZES) {
    const before = await metrics();
    const release = await lockRow(blocker.id);
    const first = step(blocker);
    // The committer waits for the lock, its batch of one begun.
    await until('the committer to wait for the locked row', () =>
      sqlite(server.db, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' " +
        'AND datname = current_database()') !== '0');
    const batch = games.slice(0, n).map((g) => step(g));
    await until(`${n} entries to queue behind the lock`, async () =>
      sample(await metrics(), 'sokod_commit_queued_jobs') === n);
    await release();
    const answers = await Promise.all([first, ...batch]);
    answers.forEach((r, i) => assert.equal(r.status, 200, `entry ${i} of the batch of ${n}: ${show(r)}`));
    const after = await metrics();
    const delta = (key) => sample(after, key) - sample(before, key);
    const batches = delta('sokod_commit_round_trips_count');
    const trips = delta('sokod_commit_round_trips_sum');
    assert.equal(batches, 2, `the lock's batch of 1 and the batch of ${n}: ${batches} batches committed`);
    assert.equal(delta('sokod_commit_batch_jobs_sum'), n + 1, `${n} + 1 entries committed`);
    found.push(`batch of ${n}: ${trips} round trips for both batches`);
    assert.equal(delta(`sokod_commit_round_trips_bucket{le="${MOST_TRIPS}"}`), 2,
      `batch of ${n} (and the lock's batch of 1): ${trips} round trips for both, more than ${MOST_TRIPS} for one`);
  }
  console.log(found.join('\n'));
  // Every entry acknowledged is in the database, each game's in order.
  for (const g of [blocker, ...games]) {
    const log = sqlite(server.db, `SELECT string_agg(seq::text, ',' ORDER BY seq) FROM game_log WHERE game_id = ${g.id}`);
    assert.equal(log, Array.from({ length: g.seq }, (_, i) => i + 1).join(','), `game ${g.id}`);
  }
});

test('entries alternating between two nodes cost each batch at most 3 round trips', { skip }, async () => {
  const b = await startServer({ db: server.db, args: ['--guests-per-minute', '60000'] });
  try {
    const games = [];
    for (let i = 0; i < 8; i++) games.push(await openRoom());
    const onB = games.map((g) => {
      const c = new Client(b.url);
      c.cookies = new Map(g.c.cookies);
      return { ...g, c };
    });
    const nodes = [server, b];
    // Round 0 on A, round 1 on B: the games' first entries on each node,
    // which read them whole (their rows, levels and logs), are not counted.
    let before;
    for (let round = 0; round < 8; round++) {
      if (round === 2) before = await Promise.all(nodes.map((n) => metrics(n)));
      // Each game's entry goes to A on even rounds, to B on odd ones, all
      // games at once: batches of several games, each behind on its node.
      const answers = await Promise.all(games.map((g, i) => {
        const via = round % 2 === 0 ? g : onB[i];
        via.seq = g.seq;
        const r = step(via);
        g.seq = via.seq;
        return r;
      }));
      answers.forEach((r, i) => assert.equal(r.status, 200, `round ${round}, game ${games[i].id}: ${show(r)}`));
    }
    const after = await Promise.all(nodes.map((n) => metrics(n)));
    for (const i of [0, 1]) {
      const delta = (key) => sample(after[i], key) - sample(before[i], key);
      const batches = delta('sokod_commit_round_trips_count');
      const trips = delta('sokod_commit_round_trips_sum');
      console.log(`node ${'AB'[i]}: ${batches} batches, ${trips} round trips, ${delta('sokod_commit_batch_jobs_sum')} entries`);
      assert.ok(batches > 0, `node ${'AB'[i]} committed batches`);
      assert.equal(delta(`sokod_commit_round_trips_bucket{le="${MOST_TRIPS}"}`), batches,
        `node ${'AB'[i]}: ${trips} round trips over ${batches} batches, more than ${MOST_TRIPS} for one`);
    }
    for (const g of games) {
      const history = (await g.c.get(`/api/v1/games/${g.id}`)).json.game.history;
      assert.equal(history, 'ud'.repeat(g.seq / 2) + (g.seq % 2 === 1 ? 'u' : ''), `game ${g.id} on node A`);
    }
  } finally {
    await stopCleanly(b, 'node B should stop cleanly');
  }
});

test('a race entry costs its room a few round trips, not one a statement', { skip }, async () => {
  const c = server.client();
  let r = await c.post('/api/v1/rooms', { level: 'chosen', level_id: ids[1] });
  assert.equal(r.status, 201, show(r));
  const room = r.json.room.id;
  r = await c.post(`/api/v1/rooms/${room}/start`);
  assert.equal(r.status, 200, show(r));
  let game = null;
  await until('the race to start after its countdown', async () => {
    const seat = (await c.get(`/api/v1/rooms/${room}`)).json.room;
    game = seat.players[0].game_id;
    return seat.state === 'racing' && game !== null;
  });
  const g = { c, id: game, seq: 0 };
  const first = await step(g); // a game's first entry on a node reads it whole: not counted
  assert.equal(first.status, 200, show(first));
  const total = async () => sample(await metrics(), 'sokod_db_round_trips_total');
  // What reading the metrics costs, to take it out.
  const a = await total();
  const reading = (await total()) - a;
  const STEPS = 20;
  const before = await total();
  for (let i = 0; i < STEPS; i++) {
    const s = await step(g);
    assert.equal(s.status, 200, show(s));
  }
  const each = ((await total()) - before - reading) / STEPS;
  assert.ok(each <= MOST_RACE_TRIPS,
    `${STEPS} race entries on game ${game} cost ${each.toFixed(2)} round trips each, at most ${MOST_RACE_TRIPS} expected`);
});
