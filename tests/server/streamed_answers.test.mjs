// Large answers are streamed from the database as their clients read them:
// a player's export of megabytes of solutions, one solution of four
// megabytes, and an admin's .sok export of a collection with three
// megabytes of reference solutions, asked for by clients that never read,
// hold at most the streamed routes' memory budget per connection (plus a
// slack for the database's caches), where an answer built whole would hold
// its size per connection. What a client that reads gets is unchanged: the export is the
// same text, byte for byte, as the level file it always was, and a client
// that reads slowly gets the same bytes as one that reads at once.
//
// The clients that never read are tests/tools/slow_reader (a small receive
// buffer, which node cannot set), stopped after the answer's headers.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BACKEND, levelIds, show, stopCleanly, tempDir } from './harness.mjs';
import { importUpload, startAdminServer, upload } from './admin.mjs';

const SLOW_READER = process.env.SOKOD_SLOW_READER;
// Connections that never read, per route.
const UNREAD = 10;
// The memory budget of a streamed route (server/endpoints.c): one buffer.
const BOUND = 256 * 1024;
// What the server may grow by besides the connections: SQLite's page cache
// (2 MiB per HTTP thread) and the listing of a player's solutions, which
// on SQLite reads each one's key of the unique index whole (at most 4 MiB
// per HTTP thread at a time, freed after; docs/operations.md).
const SLACK = 16 << 20;
const MAX_BODY = 65536;
const MAX_HISTORY = 1 << 22;

// Three corridors: the player walks right and back ('rl') as long as it
// likes, then pushes the box onto the goal.
const COLLECTION = 'streamed';
const LEVELS = [
  { title: 'Corridor 1', rows: ['#######', '#@ $ .#', '#######'], finish: 'rRR' },
  { title: 'Corridor 2', rows: ['########', '#@  $ .#', '########'], finish: 'rrRR' },
  { title: 'Corridor 3', rows: ['#########', '#@   $ .#', '#########'], finish: 'rrrRR' },
];
// Steps of walking before each level's finish: four, two and one megabytes.
// PostgreSQL keeps solutions unique by a btree index over their moves,
// whose keys hold a few kilobytes once compressed: there a solution of a
// megabyte of walking cannot be saved at all ("index row requires 11768
// bytes, maximum size is 8191", and sokod answers 500), so the solutions
// are what it can hold, still longer than a buffer.
const PADDING = BACKEND === 'postgresql' ? [200000, 160000, 140000] : [MAX_HISTORY - 64, 2 << 20, 1 << 20];

// Steps of walking of the reference solutions of the admin's export.
const REFERENCES = BACKEND === 'postgresql' ? [200000, 160000] : [(1 << 20) - 16, (1 << 20) - 20, (1 << 20) - 24];

let server;
const fx = {};

const statusKiB = (field) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${server.proc.pid}/status`, 'utf8'))[1]);

// Plays a game on `level` to a solution of `padding` steps of walking and
// the finish; resolves to the solution's moves.
async function solve(client, level, padding, finish) {
  let r = await client.post(`/api/v1/levels/${level}/game`);
  assert.ok(r.status === 200 || r.status === 201, show(r));
  const game = r.json.game.id;
  let seq = r.json.game.seq ?? 0;
  let moves = '';
  for (let done = 0; done < padding;) {
    const n = Math.min(MAX_BODY - 64, padding - done) & ~1;
    const steps = 'rl'.repeat(n / 2);
    r = await client.post(`/api/v1/games/${game}/log`, { seq: seq + 1, steps });
    assert.equal(r.status, 200, `walking in game ${game} at ${done} steps: ${show(r)}`);
    seq++;
    done += n;
    moves += steps;
  }
  r = await client.post(`/api/v1/games/${game}/log`, { seq: seq + 1, steps: finish });
  assert.equal(r.status, 200, `solving game ${game}: ${show(r)}`);
  assert.equal(r.json.game.solved, true, `game ${game} is solved: ${show(r)}`);
  return moves + finish;
}

// Starts the helper on `p`; resolves once it has the answer's headers and
// has stopped reading.
async function unreadClient(p, cookie) {
  const args = [String(server.port), p];
  if (cookie) args.push(cookie);
  const proc = spawn(SLOW_READER, args, { env: { ...process.env, SLOW_READER_UNTIL: '\r\n\r\n' } });
  const parts = [];
  proc.stdout.on('data', (d) => parts.push(d));
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (Buffer.concat(parts).includes('\nready\n')) { clearInterval(timer); resolve(); }
      if (proc.exitCode !== null) { clearInterval(timer); reject(new Error(`slow_reader ended: ${err}`)); }
    }, 10);
  });
  return {
    // Reads the rest; resolves to the answer's body, de-chunked.
    async drain() {
      proc.stdin.write('read\n');
      const code = await exited;
      assert.ok(code === 0 || code === 3, `slow_reader: exit ${code}: ${err}`);
      return bodyOf(Buffer.concat(parts));
    },
    stop() {
      proc.stdin.end();
      return exited;
    },
  };
}

// The body of an answer as slow_reader printed it (its headers, "\nready\n"
// after the bytes it had read, then the rest).
function bodyOf(out) {
  const mark = out.indexOf('\nready\n');
  const raw = Buffer.concat([out.subarray(0, mark), out.subarray(mark + 7)]);
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, end).toString('latin1');
  const rest = raw.subarray(end + 4);
  if (!/^transfer-encoding:\s*chunked/im.test(head)) return rest;
  const parts = [];
  let at = 0;
  for (;;) {
    const eol = rest.indexOf('\r\n', at);
    const size = parseInt(rest.subarray(at, eol).toString('latin1'), 16);
    assert.ok(eol > 0 && Number.isInteger(size), `a chunk's size at byte ${at} of the body`);
    at = eol + 2;
    if (size === 0) break;
    parts.push(rest.subarray(at, at + size));
    at += size + 2;
  }
  return Buffer.concat(parts);
}

// Fetches `p` at once; resolves to its bytes.
async function fetchBytes(p, cookie) {
  const res = await fetch(server.url + p, { headers: cookie ? { Cookie: cookie } : {} });
  assert.equal(res.status, 200, `GET ${p}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

// Opens UNREAD clients of `p` that never read, and measures what the
// server grew by once they have all stalled: its resident size's peak
// (VmHWM, reset first) above where it stood.
async function unreadGrowth(p, cookie) {
  // Answers read whole first, a few at once so that every HTTP thread
  // has served one: the database's caches and the allocator's are warm.
  for (let i = 0; i < 2; i++) await Promise.all([1, 2, 3, 4].map(() => fetchBytes(p, cookie)));
  fs.writeFileSync(`/proc/${server.proc.pid}/clear_refs`, '5');
  const rss0 = statusKiB('VmRSS');
  const clients = [];
  for (let i = 0; i < UNREAD; i++) clients.push(await unreadClient(p, cookie));
  // The server writes what the sockets take, then stops: let it.
  await new Promise((r) => setTimeout(r, 1500));
  const rss = statusKiB('VmRSS');
  const peak = statusKiB('VmHWM');
  const grown = Math.max(rss, peak) - rss0;
  console.log(`GET ${p}: ${UNREAD} clients that never read: VmRSS ${rss0} KiB -> ${rss} KiB, ` +
    `peak ${peak} KiB: grown by ${grown} KiB; allowed ${UNREAD} × ${BOUND / 1024} KiB + ${SLACK >> 10} KiB`);
  return { clients, grown, rss0, rss, peak };
}

before(async () => {
  assert.ok(SLOW_READER && fs.existsSync(SLOW_READER), `SOKOD_SLOW_READER names the helper (got ${SLOW_READER})`);
  const dir = tempDir();
  const levels = path.join(dir, 'levels');
  fs.mkdirSync(levels, { recursive: true });
  const text = [`Collection: ${COLLECTION}`, ''];
  for (const l of LEVELS) text.push(`; ${l.title}`, ...l.rows, '');
  fs.writeFileSync(path.join(levels, 'streamed.sok'), text.join('\n'));
  // Without AddressSanitizer's quarantine, freed memory is used again (and
  // large blocks given back), so the resident size follows what is held.
  ({ server, admin: fx.admin } = await startAdminServer({
    dir,
    levels,
    args: ['--cost-per-second', '1000000'],
    env: { ASAN_OPTIONS: `${process.env.ASAN_OPTIONS ?? ''}:quarantine_size_mb=0` },
  }));
  fx.ids = await levelIds(server.client(), COLLECTION);
  fx.player = server.client();
  const r = await fx.player.post('/api/v1/account/signup', { username: 'exporter', password: 'a password to export' });
  assert.equal(r.status, 201, show(r));
  fx.moves = [];
  for (let i = 0; i < LEVELS.length; i++) fx.moves.push(await solve(fx.player, fx.ids[i], PADDING[i], LEVELS[i].finish));
  const board = await fx.player.get(`/api/v1/levels/${fx.ids[0]}/leaderboard`);
  fx.solution = board.json.entries.find((e) => e.user === 'exporter')?.solution_id;
  assert.ok(fx.solution, `the player's solution of level ${fx.ids[0]} is on its board: ${show(board)}`);
  // A collection whose level comes with long reference solutions (the
  // checker takes at most 1,048,576 moves each).
  fx.references = REFERENCES.map((n) => `${'rl'.repeat(n / 2)}rRR`);
  const file = ['Collection: references', '', '; Long', ...LEVELS[0].rows, ''];
  for (const r of fx.references) file.push('Solution', r, '');
  const up = await upload(fx.admin, 'references.sok', file.join('\n'));
  const imp = await importUpload(fx.admin, up.id, { keep_duplicates: true });
  assert.equal(imp.status, 201, show(imp));
  fx.collection = imp.json.import.collection_id;
});

after(() => stopCleanly(server));

test('the export is the level file of every solution, byte for byte, for a client that reads', async () => {
  const got = await fetchBytes('/api/v1/progress/export', fx.player.cookieHeader());
  // The text the export has always been (the solutions in level order, each
  // level's board, title and comment before its first).
  let want = 'Collection: sokod solutions\n';
  LEVELS.forEach((l, i) => {
    const pushes = 2;
    want += `\n${l.rows.join('\n')}\nTitle: ${l.title}\nComment: level ${i + 1} of ${COLLECTION}\n`;
    want += `\nSolution ${fx.moves[i].length}/${pushes}\n${fx.moves[i]}\n`;
  });
  if (!got.equals(Buffer.from(want))) {
    let at = 0;
    while (at < got.length && got[at] === want.charCodeAt(at)) at++;
    assert.fail(`the export (${got.length} bytes) differs from the level file (${want.length} bytes) at byte ${at}: ` +
      `got ${JSON.stringify(got.subarray(Math.max(0, at - 40), at + 40).toString())}, ` +
      `want ${JSON.stringify(want.slice(Math.max(0, at - 40), at + 40))}`);
  }
  console.log(`GET /api/v1/progress/export: ${got.length} bytes, as expected`);
  // A guest with nothing solved gets the header alone.
  const none = await fetchBytes('/api/v1/progress/export');
  assert.equal(none.toString(), 'Collection: sokod solutions\n');
});

test('a solution is the JSON it always was, byte for byte, its moves whole', async () => {
  const text = (await fetchBytes(`/api/v1/solutions/${fx.solution}`)).toString();
  const json = JSON.parse(text);
  assert.deepEqual(Object.keys(json.solution),
    ['id', 'level_id', 'user', 'moves', 'pushes', 'hints', 'hinted', 'rule', 'reverse', 'lurd', 'solved_at']);
  assert.equal(json.solution.lurd.length, fx.moves[0].length, 'the moves\' length');
  assert.ok(json.solution.lurd === fx.moves[0], 'the moves are the ones played');
  // Compact JSON as jansson writes it is JSON.stringify's.
  assert.ok(text === JSON.stringify(json), `the answer is compact JSON: ${text.slice(0, 200)}`);
  console.log(`GET /api/v1/solutions/${fx.solution}: ${text.length} bytes, as expected`);
});

test(`${UNREAD} clients that never read a large export hold a bounded memory; a slow one gets every byte`, async () => {
  const cookie = fx.player.cookieHeader();
  const want = await fetchBytes('/api/v1/progress/export', cookie);
  const { clients, grown } = await unreadGrowth('/api/v1/progress/export', cookie);
  try {
    assert.ok(grown * 1024 < UNREAD * BOUND + SLACK,
      `the server grew by ${grown} KiB for ${UNREAD} clients of an export of ${want.length} bytes that read nothing: ` +
      `more than ${UNREAD} × ${BOUND / 1024} KiB + ${SLACK >> 10} KiB`);
    const got = await clients[0].drain();
    assert.ok(got.equals(want), `the slow client got ${got.length} bytes, the fast one ${want.length}; equal: ${got.equals(want)}`);
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
  }
});

test(`${UNREAD} clients that never read a long solution hold a bounded memory; a slow one gets every byte`, async () => {
  const p = `/api/v1/solutions/${fx.solution}`;
  const want = await fetchBytes(p);
  const { clients, grown } = await unreadGrowth(p);
  try {
    assert.ok(grown * 1024 < UNREAD * BOUND + SLACK,
      `the server grew by ${grown} KiB for ${UNREAD} anonymous clients of a solution of ${want.length} bytes that read nothing: ` +
      `more than ${UNREAD} × ${BOUND / 1024} KiB + ${SLACK >> 10} KiB`);
    const got = await clients[0].drain();
    assert.ok(got.equals(want), `the slow client got ${got.length} bytes, the fast one ${want.length}; equal: ${got.equals(want)}`);
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
  }
});

test(`${UNREAD} admin clients that never read a collection's .sok export hold a bounded memory; a slow one gets every byte`, async () => {
  const p = `/api/v1/admin/collections/${fx.collection}/export?format=sok`;
  const cookie = fx.admin.cookieHeader();
  const want = await fetchBytes(p, cookie);
  // Its reference solutions, fewest moves first, in lines of 70 moves.
  const text = want.toString();
  const found = [...text.matchAll(/^Solution.*\n([lurdLURD\n]+)/gm)].map((m) => m[1]);
  assert.equal(found.length, fx.references.length, `reference solutions in the export of ${want.length} bytes`);
  const sorted = [...fx.references].sort((x, y) => x.length - y.length);
  found.forEach((lines, i) => {
    const rows = lines.split('\n').filter((l) => l !== '');
    assert.ok(rows.slice(0, -1).every((l) => l.length === 70), `reference ${i + 1}: its moves are cut in lines of 70`);
    assert.ok(rows.join('') === sorted[i], `reference ${i + 1}: its ${sorted[i].length} moves are in the export`);
  });
  const { clients, grown } = await unreadGrowth(p, cookie);
  try {
    assert.ok(grown * 1024 < UNREAD * BOUND + SLACK,
      `the server grew by ${grown} KiB for ${UNREAD} clients of an export of ${want.length} bytes that read nothing: ` +
      `more than ${UNREAD} × ${BOUND / 1024} KiB + ${SLACK >> 10} KiB`);
    const got = await clients[0].drain();
    assert.ok(got.equals(want), `the slow client got ${got.length} bytes, the fast one ${want.length}; equal: ${got.equals(want)}`);
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
  }
});
