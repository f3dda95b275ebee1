// Every route's cost, held to what the routing table declares: the server
// lists its routes with their budgets (GET /api/v1/admin/routes?all=1), and
// this test sends each route its most expensive request (the longest body,
// the game at the history cap, the longest solution, the player with the
// most games and saved positions), a few at once, and measures what the
// process spent: bytes added to the database, memory held (the peak
// resident size above where it stood), the answer's size and CPU time. A
// route without a budget, or without a request here, fails; so does one
// that costs more than it declares. docs/operations.md lists the same
// budgets, checked here against the server's.
//
// CPU time is the process's own (every thread's, from /proc), not the
// time on the clock. The test build runs with sanitizers, which cost
// several times a Release build's CPU and memory: SANITIZED scales the
// declared budgets by what they cost there.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client, SOURCE, levelIds, rawRequest, show, sqlite } from './harness.mjs';
import { importUpload, startAdminServer, upload } from './admin.mjs';

const SANITIZED = process.env.SOKOD_SANITIZED === '1';
const CPU_FACTOR = SANITIZED ? 6 : 1.5;
const MEMORY_FACTOR = SANITIZED ? 3 : 1.25;
// What a measure may show beyond the budget without any route's doing:
// database pages (a new row may open a page of each index it touches) and
// the allocator's and SQLite's caches.
const DISK_SLACK = 64 * 1024;
const MEMORY_SLACK = 4 << 20;
const CPU_SLACK_NS = 10e6;
// Requests sent at once to each route: memory held by one is a share of
// the peak of all of them.
const AT_ONCE = 3;
// The largest body sokod takes (--max-body's default), and the history cap.
const MAX_BODY = 65536;
const MAX_HISTORY = 1 << 22;
const SNAPSHOT_STEPS = 50000;

let server;
let admin;
const fx = {};

// ---- Measures ---------------------------------------------------------------

// CPU time of every thread of the process, in nanoseconds.
function cpuNs(pid) {
  let total = 0;
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    try { total += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]); } catch { /* ended */ }
  }
  return total;
}

function status(pid, field) {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m[1]) * 1024;
}

// Bytes of the database's pages in use, tables and indexes (on SQLite the
// WAL's committed pages included; on PostgreSQL the database's files).
function diskBytes(db) {
  if (/^postgres(ql)?:\/\//.test(db)) {
    sqlite(db, 'CHECKPOINT');
    return Number(sqlite(db, 'SELECT pg_database_size(current_database())'));
  }
  return Number(sqlite(db, 'SELECT sum(pgsize) FROM dbstat'));
}

// ---- The most expensive request of each route --------------------------------

// A JSON body of steps that fills --max-body: the player walks right and
// back on the corridor level, changing nothing.
function longSteps(bytes = MAX_BODY - 64) {
  return 'rl'.repeat(Math.floor(bytes / 2));
}

// Fills a game's history to the cap with steps of the longest bodies; the
// game is on the corridor (level 0), and is left with its player at the start.
async function fillHistory(client, game, upTo = MAX_HISTORY - 16) {
  let seq = game.seq;
  let moves = game.moves ?? 0;
  while (moves < upTo) {
    const n = Math.min(MAX_BODY - 64, upTo - moves) & ~1;
    if (n === 0) break;
    const r = await client.post(`/api/v1/games/${game.id}/log`, { seq: seq + 1, steps: longSteps(n) });
    assert.equal(r.status, 200, `filling game ${game.id} at ${moves} steps: ${show(r)}`);
    seq += 1;
    moves += n;
  }
  game.seq = seq;
  game.moves = moves;
}

async function signUp(name) {
  const c = server.client();
  const r = await c.post('/api/v1/account/signup', { username: name, password: 'a route cost password' });
  assert.equal(r.status, 201, show(r));
  return c;
}

async function openGame(client, level) {
  const r = await client.post(`/api/v1/levels/${level}/game`);
  assert.ok(r.status === 201 || r.status === 200, show(r));
  return { id: r.json.game.id, seq: r.json.game.seq ?? 0, moves: r.json.game.moves ?? 0 };
}

// A collection of `n` small levels, each a room of its own size, so that a
// player can hold many games.
function manyLevels(n, from = 0, name = 'route costs') {
  const out = [`Collection: ${name}`, ''];
  for (let i = from; i < from + n; i++) {
    const w = 6 + (i % 20);
    const h = 4 + Math.floor(i / 20);
    const rows = ['#'.repeat(w)];
    for (let y = 1; y < h - 1; y++) rows.push(`#${' '.repeat(w - 2)}#`);
    rows.push('#'.repeat(w));
    rows[1] = `#@$.${' '.repeat(w - 5)}#`;
    out.push(`; Room ${i}`, ...rows, '');
  }
  return out.join('\n');
}

const fresh = () => crypto.randomBytes(5).toString('hex');

// Each route's request: `as` gives the client (a function, called once per
// request before measuring), `path` and `body` the request (functions of
// the request's number and its setup), `setup` runs before measuring, and
// `ok` the statuses the request may rightly get (default: 2xx).
const SCENARIOS = {
  'GET /healthz': {},
  'GET /readyz': {},
  'GET /metrics': {},
  'GET /core.wasm': {},
  'GET /...': { path: () => '/' },
  'GET /api/v1/account': { as: () => fx.heavy },
  'POST /api/v1/account/signup': { body: () => ({ username: `s${fresh()}`, password: 'p'.repeat(200) }) },
  'POST /api/v1/account/login': { body: () => ({ username: 'heavy', password: 'a route cost password' }) },
  'POST /api/v1/account/logout': { as: () => signUp(`o${fresh()}`) },
  'POST /api/v1/account/logout-all': { as: () => signUp(`a${fresh()}`) },
  'POST /api/v1/account/password': { as: () => signUp(`p${fresh()}`), body: () => ({ current_password: 'a route cost password', new_password: 'q'.repeat(200) }) },
  // The heavy player: a game on every level and the longest histories.
  'GET /api/v1/account/stats': { as: () => fx.heavy },
  'GET /api/v1/account/settings': { as: () => fx.heavy },
  'PUT /api/v1/account/settings': {
    as: () => fx.heavy,
    body: () => {
      const settings = {};
      for (let i = 0; i < 7; i++) settings[`k${i}${'x'.repeat(40)}`] = 'v'.repeat(240);
      return { settings };
    },
  },
  'GET /api/v1/collections': {},
  'GET /api/v1/collections/{id}': { as: () => fx.heavy, path: () => `/api/v1/collections/${fx.bigCollection}` },
  'GET /api/v1/levels/{id}': { path: () => `/api/v1/levels/${fx.levels[1]}` },
  'GET /api/v1/daily': {},
  'GET /api/v1/daily/leaderboard': {},
  'GET /api/v1/daily/streak': { as: () => fx.heavy },
  'POST /api/v1/levels/{id}/game': { as: () => server.client(), path: () => `/api/v1/levels/${fx.levels[1]}/game` },
  // The longest line a body this size expands to (SUBMITTED_MAX_STEPS),
  // from a player of its own each time: nothing bounds it away.
  'POST /api/v1/levels/{id}/solutions': {
    as: () => signUp(`s${fresh()}`),
    path: () => `/api/v1/levels/${fx.levels[0]}/solutions`,
    body: () => ({ lurd: `${(1 << 19) - 2}(rl)rRR` }),
  },
  'GET /api/v1/levels/{id}/submitted': { path: () => `/api/v1/levels/${fx.levels[0]}/submitted?limit=100` },
  'GET /api/v1/levels/{id}/leaderboard': { path: () => `/api/v1/levels/${fx.levels[0]}/leaderboard?limit=100` },
  // As many at once as the hints' places (2), each its own player's.
  'POST /api/v1/solutions/{id}/optimise': {
    atOnce: 2,
    as: (i) => fx.optimised[i].client,
    path: (i) => `/api/v1/solutions/${fx.optimised[i].id}/optimise`,
    body: () => ({ metric: 'pushes' }),
  },
  'GET /api/v1/solutions/{id}': { path: () => `/api/v1/solutions/${fx.longSolution}` },
  'GET /api/v1/games/{id}': { as: () => fx.heavy, path: () => `/api/v1/games/${fx.longGame.id}` },
  // The longest body, and the entry that solves a game at the history
  // cap: it stores a solution of four million steps.
  'POST /api/v1/games/{id}/log': {
    as: (i) => fx.solveGames[i].client,
    setup: (i) => fx.solveGames[i],
    path: (i, g) => `/api/v1/games/${g.id}/log`,
    body: (i, g) => ({ seq: ++g.seq, steps: `${longSteps(MAX_BODY - 80)}rRR` }),
  },
  'POST /api/v1/games/{id}/walk': {
    as: (i) => fx.walkGames[i].client,
    setup: (i) => fx.walkGames[i],
    path: (i, g) => `/api/v1/games/${g.id}/walk`,
    body: (i, g) => ({ seq: ++g.seq, x: 6, y: 4 }),
  },
  'POST /api/v1/games/{id}/push': {
    as: (i) => fx.pushGames[i].client,
    setup: (i) => fx.pushGames[i],
    path: (i, g) => `/api/v1/games/${g.id}/push`,
    body: (i, g) => ({ seq: ++g.seq, box: { x: 2, y: 2 }, to: { x: 2, y: 3 } }),
  },
  'GET /api/v1/games/{id}/reach': { as: () => fx.heavy, path: () => `/api/v1/games/${fx.walkGames[0].id}/reach?x=2&y=2` },
  // As many at once as --hint-jobs (2) runs: a third waits its turn or gets 503.
  'POST /api/v1/games/{id}/hint': { atOnce: 2, as: (i) => fx.hintGames[i].client, setup: (i) => fx.hintGames[i], path: (i, g) => `/api/v1/games/${g.id}/hint` },
  'GET /api/v1/games/{id}/snapshots': { as: () => fx.heavy, path: () => `/api/v1/games/${fx.snapGame.id}/snapshots` },
  'POST /api/v1/games/{id}/snapshots': {
    as: (i) => fx.snapshotGames[i].client,
    setup: (i) => fx.snapshotGames[i],
    path: (i, g) => `/api/v1/games/${g.id}/snapshots`,
    body: () => ({ name: 'n'.repeat(40) }),
  },
  'GET /api/v1/games/{id}/snapshots/{id}': { as: () => fx.heavy, path: () => `/api/v1/games/${fx.snapGame.id}/snapshots/${fx.snapshots[0]}` },
  'DELETE /api/v1/games/{id}/snapshots/{id}': { as: () => fx.heavy, path: (i) => `/api/v1/games/${fx.snapGame.id}/snapshots/${fx.snapshots[1 + i]}` },
  'GET /api/v1/progress': { as: () => fx.heavy },
  'GET /api/v1/events': { as: () => fx.heavy, path: () => `/api/v1/events?game=${fx.longGame.id}`, stream: true },
  'GET /api/v1/progress/export': { as: () => fx.heavy },
  'GET /api/v1/rooms': {},
  'POST /api/v1/rooms': { as: () => signUp(`r${fresh()}`), body: () => ({ level: 'chosen', level_id: fx.levels[1] }) },
  'GET /api/v1/rooms/{id}': { path: () => `/api/v1/rooms/${fx.room}` },
  'POST /api/v1/rooms/{id}/join': { as: () => signUp(`j${fresh()}`), path: () => `/api/v1/rooms/${fx.room}/join` },
  'POST /api/v1/rooms/{id}/leave': { as: (i) => fx.roomGuests[i], path: () => `/api/v1/rooms/${fx.room}/leave` },
  'POST /api/v1/rooms/{id}/start': {
    as: (i) => fx.hosts[i].client,
    path: (i) => `/api/v1/rooms/${fx.hosts[i].room}/start`,
  },
  'POST /api/v1/rooms/{id}/rematch': {
    as: (i) => fx.hosts[i].client,
    path: (i) => `/api/v1/rooms/${fx.hosts[i].room}/rematch`,
    ok: [200, 201, 409],
  },
  'GET /api/v1/watch/{id}': { path: () => `/api/v1/watch/${fx.heavyId}` },
  // The admin API: admins only; each is sent the request of an admin's work.
  'GET /api/v1/admin/routes': { as: () => admin, path: () => '/api/v1/admin/routes?all=1' },
  'GET /api/v1/admin/audit': { as: () => admin, path: () => '/api/v1/admin/audit?limit=1000' },
  'GET /api/v1/admin/uploads': { as: () => admin },
  'POST /api/v1/admin/uploads': {
    as: () => admin,
    // A first part as large as a body carries, of a file of that size.
    body: (i) => {
      const bytes = Buffer.from(manyLevels(200, 400 + 40 * i, `upload ${i}`)).subarray(0, 48000);
      return { filename: `cost${i}.sok`, size: bytes.length, data: bytes.toString('base64') };
    },
  },
  'GET /api/v1/admin/uploads/{id}': { as: () => admin, path: () => `/api/v1/admin/uploads/${fx.upload}` },
  'DELETE /api/v1/admin/uploads/{id}': { as: () => admin, path: (i) => `/api/v1/admin/uploads/${fx.discards[i]}`, body: () => ({}) },
  'POST /api/v1/admin/uploads/{id}/parts': {
    as: () => admin,
    setup: (i) => fx.partial[i],
    path: (i, u) => `/api/v1/admin/uploads/${u.id}/parts`,
    body: (i, u) => ({ offset: 0, data: u.bytes.toString('base64') }),
  },
  'POST /api/v1/admin/uploads/{id}/import': { as: () => admin, path: (i) => `/api/v1/admin/uploads/${fx.imports[i]}/import`, body: () => ({}) },
  'GET /api/v1/admin/collections': { as: () => admin },
  'PUT /api/v1/admin/collections/order': { as: () => admin, body: async () => ({ collections: (await admin.get('/api/v1/admin/collections')).json.collections.map((c) => c.id) }) },
  'GET /api/v1/admin/collections/{id}': { as: () => admin, path: () => `/api/v1/admin/collections/${fx.bigCollection}` },
  'PATCH /api/v1/admin/collections/{id}': { as: () => admin, path: () => `/api/v1/admin/collections/${fx.bigCollection}`, body: () => ({ hidden: false }) },
  'DELETE /api/v1/admin/collections/{id}': { as: () => admin, path: (i) => `/api/v1/admin/collections/${fx.deletable[i]}`, body: () => ({}) },
  'POST /api/v1/admin/collections/{id}/restore': { as: () => admin, path: (i) => `/api/v1/admin/collections/${fx.deletable[i]}/restore` },
  'PUT /api/v1/admin/collections/{id}/order': { as: () => admin, path: () => `/api/v1/admin/collections/${fx.bigCollection}/order`, body: () => ({ levels: fx.bigLevels }) },
  'GET /api/v1/admin/collections/{id}/export': { as: () => admin, path: () => `/api/v1/admin/collections/${fx.bigCollection}/export` },
  'GET /api/v1/admin/levels/{id}': { as: () => admin, path: () => `/api/v1/admin/levels/${fx.bigLevels[0]}` },
  'PATCH /api/v1/admin/levels/{id}': { as: () => admin, path: () => `/api/v1/admin/levels/${fx.bigLevels[0]}`, body: () => ({ hidden: false }) },
  'DELETE /api/v1/admin/levels/{id}': { as: () => admin, path: (i) => `/api/v1/admin/levels/${fx.bigLevels[5 + i]}`, body: () => ({}) },
  'POST /api/v1/admin/levels/{id}/restore': { as: () => admin, path: (i) => `/api/v1/admin/levels/${fx.bigLevels[5 + i]}/restore` },
  // The library by difficulty: the largest page, the filter that reads
  // each level's solutions and games, across every collection.
  'GET /api/v1/levels': { as: () => fx.heavy, path: () => '/api/v1/levels?filter=started&sort=difficulty&limit=200' },
  'GET /api/v1/levels/next': { as: () => fx.heavy },
  // The largest board a player may publish, open and full of boxes: the
  // solver searches it for all of its time. As many at once as the hints'
  // places, each its own author's.
  'POST /api/v1/community/levels': {
    atOnce: 2,
    as: () => signUp(`c${fresh()}`),
    body: (i) => ({ board: widestBoard(i), title: 't'.repeat(100) }),
    ok: [201, 422],
  },
  'GET /api/v1/community/levels': { as: () => fx.heavy, path: () => '/api/v1/community/levels?limit=200' },
  'PUT /api/v1/community/levels/{id}/like': {
    as: () => signUp(`l${fresh()}`),
    path: () => `/api/v1/community/levels/${fx.community}/like`,
    body: () => ({ liked: true }),
  },
  'POST /api/v1/community/levels/{id}/reports': {
    as: () => signUp(`q${fresh()}`),
    path: () => `/api/v1/community/levels/${fx.community}/reports`,
    body: () => ({ reason: 'r'.repeat(500) }),
  },
  'GET /api/v1/admin/community': { as: () => admin },
  'PUT /api/v1/admin/community/authors/{id}': {
    as: () => admin,
    path: () => `/api/v1/admin/community/authors/${fx.heavyId}`,
    body: () => ({ blocked: true, reason: 'r'.repeat(500) }),
  },
};

// A board of COMMUNITY_MAX_SIDE squares a side with COMMUNITY_MAX_BOXES
// boxes and goals spread over its floor, away from the walls; `i` shifts
// them, so that each is a level of its own.
function widestBoard(i) {
  const side = 40;
  const rows = [];
  let placed = 0;
  for (let y = 0; y < side; y++) {
    let row = '';
    for (let x = 0; x < side; x++) {
      const edge = x === 0 || y === 0 || x === side - 1 || y === side - 1;
      const inner = x >= 3 && y >= 3 && x <= side - 4 && y <= side - 4;
      if (edge) row += '#';
      else if (x === 1 && y === 1) row += '@';
      else if (inner && (y * side + x + i) % 17 === 0 && placed < 80) row += placed++ % 2 === 0 ? '$' : '.';
      else row += ' ';
    }
    rows.push(row);
  }
  return rows.join('\n');
}

// ---- The fixture: the most a player and an admin can have ---------------------

before(async () => {
  ({ server, admin } = await startAdminServer({
    // The cost limiter is the last test's: here it would refuse what is measured.
    args: ['--auth-per-minute', '10000', '--guests-per-minute', '10000', '--cost-per-second', '1000000'],
    // The sanitizer's quarantine would hold every freed block: memory held
    // is what the server keeps, not what it freed.
    env: { ASAN_OPTIONS: 'quarantine_size_mb=1:detect_leaks=1' },
  }));
  fx.levels = await levelIds(server.client());
  // A collection of 300 levels: the player below has a game on each.
  const up = await upload(admin, 'many.sok', manyLevels(300));
  const imp = await importUpload(admin, up.id);
  assert.ok(imp.status === 200 || imp.status === 201, show(imp));
  fx.bigCollection = imp.json.import.collection_id;
  fx.bigLevels = await levelIds(admin, 'route costs');
  // The heavy player: a game on every level, one game at the history cap,
  // solved, with every saved position a game may hold.
  fx.heavy = await signUp('heavy');
  fx.heavyId = (await fx.heavy.get('/api/v1/account')).json.user.id;
  for (const l of fx.bigLevels) await openGame(fx.heavy, l);
  fx.longGame = await openGame(fx.heavy, fx.levels[0]);
  await fillHistory(fx.heavy, fx.longGame, MAX_HISTORY - 16);
  let r = await fx.heavy.post(`/api/v1/games/${fx.longGame.id}/log`, { seq: fx.longGame.seq + 1, steps: 'rRR' });
  assert.equal(r.status, 200, `solving the long game: ${show(r)}`);
  fx.longGame.seq += 1;
  r = await fx.heavy.get(`/api/v1/levels/${fx.levels[0]}/leaderboard?limit=100`);
  fx.longSolution = r.json.you?.solution_id ?? r.json.entries?.find((e) => e.user_id === fx.heavyId)?.solution_id;
  if (fx.longSolution === undefined) fx.longSolution = Number(sqlite(server.db, 'SELECT max(id) FROM solutions'));
  // A saved position holds at most SNAPSHOT_STEPS steps: the game of the
  // saved positions is that long.
  fx.snapGame = await openGame(fx.heavy, fx.bigLevels[200]);
  await fillHistory(fx.heavy, fx.snapGame, SNAPSHOT_STEPS - 2);
  fx.snapshots = [];
  for (let i = 0; i < 50; i++) {
    r = await fx.heavy.post(`/api/v1/games/${fx.snapGame.id}/snapshots`, { name: `kept ${i}` });
    if (r.status !== 201) break;
    fx.snapshots.push(r.json.snapshot.id);
  }
  assert.ok(fx.snapshots.length > AT_ONCE + 1, `saved positions of the long game: ${show(r)}`);
  // Games for the writes, each its own (entries of one game take turns).
  fx.stepGames = [];
  fx.walkGames = [];
  fx.pushGames = [];
  fx.hintGames = [];
  fx.snapshotGames = [];
  for (let i = 0; i < AT_ONCE; i++) {
    const g = await openGame(fx.heavy, fx.bigLevels[100 + i]);
    g.client = fx.heavy;
    fx.stepGames.push(g);
  }
  fx.solveGames = [];
  for (let i = 0; i < AT_ONCE; i++) {
    const c = await signUp(`v${i}${fresh()}`);
    const g = await openGame(c, fx.levels[0]);
    await fillHistory(c, g, MAX_HISTORY - 2 * MAX_BODY);
    fx.solveGames.push({ ...g, client: c });
  }
  // The step games must allow 'rl': their rooms are wide; the walk, push,
  // hint and saved-position games are on the test levels, one per player.
  for (let i = 0; i < AT_ONCE; i++) {
    const c = i === 0 ? fx.heavy : await signUp(`w${i}${fresh()}`);
    fx.walkGames.push({ ...(await openGame(c, fx.levels[1])), client: c });
  }
  for (let i = 0; i < AT_ONCE; i++) {
    const c = await signUp(`h${i}${fresh()}`);
    fx.hintGames.push({ ...(await openGame(c, fx.levels[2])), client: c });
    fx.pushGames.push({ ...(await openGame(c, fx.levels[1])), client: c });
    const g = await openGame(c, fx.levels[0]);
    await fillHistory(c, g, SNAPSHOT_STEPS - 2);
    fx.snapshotGames.push({ ...g, client: c });
  }
  // Solutions of the room near the optimiser's limit on moves, walking to
  // and fro before solving it: one player each, as hints take turns.
  fx.optimised = [];
  for (let i = 0; i < 2; i++) {
    const c = await signUp(`p${i}${fresh()}`);
    const g = await openGame(c, fx.levels[1]);
    const r = await c.post(`/api/v1/games/${g.id}/log`, { seq: g.seq + 1, steps: `${'du'.repeat(30000)}rRRllluRRR` });
    assert.equal(r.json?.game?.solved, true, `a long solution of the room: ${show(r)}`);
    const id = Number(sqlite(server.db, `SELECT max(id) FROM solutions WHERE game_id = ${g.id}`));
    fx.optimised.push({ client: c, id });
  }
  // Rooms: one to read and join, and a host's room for each start.
  const host = await signUp('host');
  r = await host.post('/api/v1/rooms', { level: 'chosen', level_id: fx.levels[1] });
  assert.ok(r.status === 201 || r.status === 200, show(r));
  fx.room = r.json.room.id;
  fx.roomGuests = [];
  for (let i = 0; i < AT_ONCE; i++) {
    const c = await signUp(`g${i}${fresh()}`);
    assert.ok((await c.post(`/api/v1/rooms/${fx.room}/join`)).status < 300);
    fx.roomGuests.push(c);
  }
  fx.hosts = [];
  for (let i = 0; i < AT_ONCE; i++) {
    const c = await signUp(`t${i}${fresh()}`);
    r = await c.post('/api/v1/rooms', { level: 'chosen', level_id: fx.levels[1] });
    const other = await signUp(`u${i}${fresh()}`);
    await other.post(`/api/v1/rooms/${r.json.room.id}/join`);
    fx.hosts.push({ client: c, room: r.json.room.id });
  }
  // Uploads: one to read, some to discard, to send a part to, to import.
  const made = async (text, name) => (await upload(admin, `${name}.sok`, text)).id;
  fx.upload = await made(manyLevels(200, 600, 'read'), 'read');
  fx.discards = [];
  fx.imports = [];
  fx.partial = [];
  for (let i = 0; i < AT_ONCE; i++) {
    fx.discards.push(await made(manyLevels(3, 800 + 3 * i, `discard ${i}`), 'discard'));
    fx.imports.push(await made(manyLevels(100, 820 + 100 * i, `import ${i}`), 'import'));
    // The largest part a request may carry, of a larger file.
    const bytes = Buffer.from(manyLevels(150, 1120 + 150 * i, `part ${i}`));
    const u = await admin.post('/api/v1/admin/uploads', { filename: 'p.sok', size: bytes.length });
    assert.equal(u.status, 201, show(u));
    assert.ok(bytes.length > u.json.upload.part_bytes, `a file larger than a part: ${bytes.length}`);
    fx.partial.push({ id: u.json.upload.id, bytes: bytes.subarray(0, u.json.upload.part_bytes) });
  }
  fx.deletable = [];
  for (let i = 0; i < AT_ONCE; i++) {
    const id = await made(manyLevels(7, 1600 + 7 * i, `deletable ${i}`), 'deletable');
    r = await importUpload(admin, id);
    fx.deletable.push(r.json.import.collection_id);
  }
  // A level a player published, to like and report.
  const author = await signUp('author');
  r = await author.post('/api/v1/community/levels', { board: '########\n#@ $  .#\n#  $  .#\n########', title: 'published' });
  assert.equal(r.status, 201, `publishing a level: ${show(r)}`);
  fx.community = r.json.level.id;
  // A full page of the listing: 200 more levels of the longest titles, liked.
  const authorId = r.json.level.author_id;
  sqlite(server.db, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
    INSERT INTO levels (collection_id, position, title, author, board, width, height, boxes, canonical_hash, created_at)
    SELECT ${r.json.level.collection_id}, 100 + i, '${'t'.repeat(96)}' || (1000 + i), 'author', '#', 40, 40, 40,
      'listed' || i, 1 FROM n`);
  sqlite(server.db, `INSERT INTO community_levels (level_id, author_id, canonical_hash, bytes, published_at)
    SELECT id, ${authorId}, canonical_hash, 0, 1 FROM levels WHERE canonical_hash LIKE 'listed%'`);
  sqlite(server.db, `INSERT INTO community_likes (level_id, user_id, created_at)
    SELECT level_id, ${authorId}, 1 FROM community_levels`);
});

after(() => server?.stop());

// ---- The test -----------------------------------------------------------------

async function sendOne(scenario, method, pattern, i) {
  const client = scenario.as ? await scenario.as(i) : new Client(server.url);
  const setup = scenario.setup ? await scenario.setup(i) : undefined;
  const p = scenario.path ? scenario.path(i, setup) : pattern;
  return { client, setup, p };
}

async function measure(key, budget) {
  const [method, pattern] = key.split(' ');
  const scenario = SCENARIOS[key];
  const atOnce = scenario.atOnce ?? AT_ONCE;
  const prepared = [];
  for (let i = 0; i < atOnce; i++) prepared.push(await sendOne(scenario, method, pattern, i));
  const bodies = [];
  for (let i = 0; i < atOnce; i++) bodies.push(scenario.body ? await scenario.body(i, prepared[i].setup) : undefined);
  const pid = server.proc.pid;
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const rss0 = status(pid, 'VmRSS');
  const disk0 = diskBytes(server.db);
  const cpu0 = cpuNs(pid);
  let answers;
  let peak;
  if (scenario.stream) {
    const ctl = new AbortController();
    const opened = await Promise.all(prepared.map((x) => fetch(server.url + x.p, { headers: { Cookie: x.client.cookieHeader() }, signal: ctl.signal })));
    await new Promise((r) => setTimeout(r, 300));
    peak = status(pid, 'VmHWM');
    answers = opened.map((res) => ({ status: res.status, text: '' }));
    ctl.abort();
  } else {
    answers = await Promise.all(prepared.map((x, i) => x.client.req(method, x.p, bodies[i] ?? (method === 'GET' ? undefined : {}))));
    peak = status(pid, 'VmHWM');
  }
  const cpu = (cpuNs(pid) - cpu0) / atOnce;
  const disk = Math.max(0, diskBytes(server.db) - disk0) / atOnce;
  const memory = Math.max(0, peak - rss0) / atOnce;
  const answer = Math.max(...answers.map((a) => Buffer.byteLength(a.text ?? '')));
  const ok = scenario.ok ?? [];
  const over = [];
  for (const a of answers) {
    if (!((a.status >= 200 && a.status < 300) || ok.includes(a.status))) over.push(`refused, so not measured: ${show(a)}`);
  }
  if (disk > budget.disk_kib * 1024 + DISK_SLACK) over.push(`disk ${Math.round(disk / 1024)} KiB > ${budget.disk_kib} KiB`);
  if (memory > budget.memory_kib * 1024 * MEMORY_FACTOR + MEMORY_SLACK) over.push(`memory ${Math.round(memory / 1024)} KiB > ${budget.memory_kib} KiB × ${MEMORY_FACTOR}`);
  if (!scenario.stream && answer > budget.answer_kib * 1024) over.push(`answer ${Math.round(answer / 1024)} KiB > ${budget.answer_kib} KiB`);
  if (cpu > budget.cpu_ms * 1e6 * CPU_FACTOR + CPU_SLACK_NS) over.push(`cpu ${(cpu / 1e6).toFixed(1)} ms > ${budget.cpu_ms} ms × ${CPU_FACTOR}`);
  return { key, disk, memory, answer, cpu, over };
}

test('every route declares its cost and its limiter, and the docs list the same', async () => {
  const r = await admin.get('/api/v1/admin/routes?all=1');
  assert.equal(r.status, 200, show(r));
  const routes = r.json.routes;
  assert.ok(routes.length >= 60, `the server lists its routes: ${routes.length}`);
  const undeclared = routes.filter((x) => x.cost.limiter === 'undeclared' || x.cost.cpu_ms === 0 || x.cost.memory_kib === 0)
    .map((x) => `${x.method} ${x.path}`);
  assert.deepEqual(undeclared, [], 'routes of server/endpoints.c without a cost (ROUTE_COST)');
  const keys = routes.map((x) => `${x.method} ${x.path}`);
  const missing = keys.filter((k) => !(k in SCENARIOS));
  assert.deepEqual(missing, [], 'routes without a request in SCENARIOS of tests/server/route_costs.test.mjs');
  const stale = Object.keys(SCENARIOS).filter((k) => !keys.includes(k));
  assert.deepEqual(stale, [], 'SCENARIOS for routes no longer in the table');
  // docs/operations.md: one row per route, "| `METHOD pattern` | disk | memory | answer | cpu | limiter |".
  const doc = fs.readFileSync(path.join(SOURCE, 'docs', 'operations.md'), 'utf8');
  const rows = new Map();
  for (const m of doc.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) ([^`]+)` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\w+) \|$/gm)) {
    rows.set(`${m[1]} ${m[2]}`, [m[3], m[4], m[5], m[6], m[7]].join(' '));
  }
  const differ = [];
  for (const x of routes) {
    const want = [x.cost.disk_kib, x.cost.memory_kib, x.cost.answer_kib, x.cost.cpu_ms, x.cost.limiter].join(' ');
    const got = rows.get(`${x.method} ${x.path}`);
    if (got !== want) differ.push(`${x.method} ${x.path}: docs ${got ?? 'absent'}, table ${want}`);
  }
  assert.deepEqual(differ, [], 'docs/operations.md, "Every route\'s budget", against the routing table');
});

test('every route, sent its most expensive request, costs no more than it declares', async () => {
  const routes = (await admin.get('/api/v1/admin/routes?all=1')).json.routes;
  const results = [];
  for (const x of routes) {
    const key = `${x.method} ${x.path}`;
    if (!(key in SCENARIOS)) continue;
    results.push(await measure(key, x.cost));
  }
  console.log('route | disk KiB | memory KiB | answer KiB | cpu ms (per request, measured)');
  for (const m of results) {
    console.log(`${m.key} | ${(m.disk / 1024).toFixed(1)} | ${(m.memory / 1024).toFixed(0)} | ${(m.answer / 1024).toFixed(1)} | ${(m.cpu / 1e6).toFixed(1)}`);
  }
  const over = results.filter((m) => m.over.length > 0).map((m) => `${m.key}: ${m.over.join(', ')}`);
  assert.deepEqual(over, [], `routes over their budget (SANITIZED=${SANITIZED})`);
});

test('the heavier routes are limited per address by their declared cost', async () => {
  // A server whose addresses may spend 50 ms a second, 500 ms at once.
  const RATE = 50;
  const { server: s, admin: a } = await startAdminServer({ args: ['--cost-per-second', String(RATE)] });
  try {
    const routes = (await a.get('/api/v1/admin/routes?all=1')).json.routes;
    const level = routes.find((x) => x.method === 'GET' && x.path === '/api/v1/levels/{id}').cost;
    assert.equal(level.limiter, 'cost');
    const allowed = Math.floor((RATE * 10) / level.cpu_ms);
    const id = (await levelIds(a))[0];
    // From an address of its own, whose bucket nothing else drew on.
    const from = { localAddress: '127.0.0.2' };
    let refused = null;
    let sent = 0;
    const started = Date.now();
    while (sent < allowed + 50 && refused === null) {
      const r = await rawRequest(s.url, 'GET', `/api/v1/levels/${id}`, {}, undefined, from);
      sent++;
      if (r.status !== 200) refused = r;
    }
    assert.ok(refused !== null, `${sent} GET /api/v1/levels/{id} from one address were all answered`);
    assert.equal(refused.status, 429, show(refused));
    assert.equal(refused.json.error.code, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) >= 1, `a Retry-After header: ${JSON.stringify(refused.headers)}`);
    // The bucket refills while the requests run: by what the time they
    // took buys, however slow a loaded machine makes them.
    const refilled = Math.ceil((((Date.now() - started) / 1000) * RATE) / level.cpu_ms);
    assert.ok(sent - 1 >= allowed && sent - 1 <= allowed + refilled + 1,
      `answered ${sent - 1} requests of ${level.cpu_ms} ms at ${RATE} ms/s in ${Date.now() - started} ms, ` +
      `ten seconds of burst: ${allowed} expected, and ${refilled} more refilled meanwhile`);
    // Routes of other limiters go on, and other addresses.
    assert.equal((await rawRequest(s.url, 'GET', '/api/v1/account', {}, undefined, from)).status, 200);
    assert.equal((await a.get(`/api/v1/levels/${id}`)).status, 200);
  } finally {
    await s.stop();
  }
});
