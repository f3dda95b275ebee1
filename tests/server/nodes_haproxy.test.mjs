// Three sokod nodes on one PostgreSQL database behind HAProxy, with the
// checked-in deploy/haproxy.cfg, no sticky sessions: a player's game
// resumes on any node, undo history and all; a race room's players, each
// request on whichever node, get one set of results; and when one node is
// killed with -9 while players step, they carry on through HAProxy, no
// entry a player was told of is lost, and every game's log replays to what
// the database says of it. On SQLite there is nothing to test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  BACKEND, Client, SOURCE, freshPgDatabase, gameOf, levelIds, openGame, show, sqlite, startServer, stopCleanly,
} from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only';

let db;
const nodes = [];
let proxy;
let front;
let proxyLog = '';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Resolves once HAProxy answers /readyz through a node, n times in a row
// (round robin: each node in turn).
async function waitForProxy(n) {
  let ok = 0;
  for (let i = 0; i < 300 && ok < n; i++) {
    try {
      const r = await fetch(`${front}/readyz`);
      ok = r.status === 200 ? ok + 1 : 0;
    } catch {
      ok = 0;
    }
    if (ok < n) await sleep(100);
  }
  if (ok < n) throw new Error(`HAProxy did not answer /readyz; its output:\n${proxyLog}`);
}

before(async () => {
  if (skip) return;
  db = freshPgDatabase();
  const args = ['--trusted-proxies', '127.0.0.1'];
  // The first node migrates and imports; the others find it done.
  nodes.push(await startServer({ db, args }));
  nodes.push(...await Promise.all([startServer({ db, args }), startServer({ db, args })]));
  const port = await freePort();
  front = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    SOKOD_HAPROXY_BIND: `127.0.0.1:${port}`,
    SOKOD_NODE_A: `127.0.0.1:${nodes[0].port}`,
    SOKOD_NODE_B: `127.0.0.1:${nodes[1].port}`,
    SOKOD_NODE_C: `127.0.0.1:${nodes[2].port}`,
  };
  proxy = spawn('haproxy', ['-db', '-f', path.join(SOURCE, 'deploy', 'haproxy.cfg')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  proxy.stdout.on('data', (d) => { proxyLog += d; });
  proxy.stderr.on('data', (d) => { proxyLog += d; });
  proxy.on('exit', (code, signal) => { proxyLog += `\n(haproxy ended: ${code ?? signal})`; });
  await waitForProxy(6);
});

after(async () => {
  if (skip) return;
  proxy?.kill();
  for (const node of nodes) {
    if (node.proc.exitCode === null && node.proc.signalCode === null) await stopCleanly(node, 'a node should stop cleanly');
  }
});

// A client of node `server` with the cookies of `client` (the same player).
function samePlayerOn(url, client) {
  const c = new Client(url);
  c.cookies = new Map(client.cookies);
  return c;
}

test('a game played through HAProxy resumes on any node, undo history and all', { skip }, async () => {
  const player = new Client(front);
  const r = await player.post('/api/v1/account/signup', { username: 'roamer', password: 'a password that roams' });
  assert.ok(r.status === 200 || r.status === 201, show(r));
  const ids = await levelIds(player);
  const game = await openGame(player, ids[1]);
  // Round robin: the entries land on every node in turn.
  const entries = [{ steps: 'u' }, { steps: 'd' }, { steps: 'r' }, { undo: 1 }];
  let seq = 0;
  for (const e of entries) {
    const answer = await player.post(`/api/v1/games/${game.id}/log`, { seq: ++seq, ...e });
    assert.equal(answer.status, 200, `entry ${seq} (${JSON.stringify(e)}): ${show(answer)}`);
  }
  const seen = await Promise.all(nodes.map((n) => gameOf(samePlayerOn(n.url, player), game.id)));
  for (let i = 0; i < seen.length; i++) {
    assert.equal(seen[i].seq, entries.length, `node ${'ABC'[i]} knows every entry`);
    assert.deepEqual(seen[i].rows, seen[0].rows, `node ${'ABC'[i]} shows the same position`);
    assert.equal(seen[i].history, seen[0].history, `node ${'ABC'[i]} has the same history`);
    assert.equal(seen[i].redo_available, seen[0].redo_available, `node ${'ABC'[i]} can redo the undone push`);
  }
  assert.equal(seen[2].redo_available, 1, `node C can redo the undone step: ${JSON.stringify(seen[2])}`);
});

test('a race room played through HAProxy, its players on any node, ends with one set of results', { skip }, async () => {
  const host = new Client(front), guest = new Client(front);
  const ids = await levelIds(host);
  const made = await host.post('/api/v1/rooms', { level: 'chosen', level_id: ids[0] });
  assert.equal(made.status, 201, show(made));
  const id = made.json.room.id, hostId = made.json.you.user_id;
  const joined = await guest.post(`/api/v1/rooms/${id}/join`);
  assert.equal(joined.status, 200, show(joined));
  const guestId = joined.json.you.user_id;
  const started = await host.post(`/api/v1/rooms/${id}/start`);
  assert.equal(started.status, 200, show(started));
  const room = started.json.room;
  const gameOfUser = (u) => room.players.find((p) => p.user_id === u).game_id;
  await sleep(room.starts_in_ms + 250);
  // The Corridor (rRR), each entry through whichever node HAProxy picks.
  for (const [c, u, seq, steps] of [[guest, guestId, 1, 'r'], [host, hostId, 1, 'rR'], [host, hostId, 2, 'R'],
    [guest, guestId, 2, 'RR']]) {
    const r = await c.post(`/api/v1/games/${gameOfUser(u)}/log`, { seq, steps });
    assert.equal(r.status, 200, `entry ${seq} '${steps}' of user ${u}: ${show(r)}`);
  }
  const places = (r) => r.players.map((p) => [p.user_id, p.place]);
  let shown = [];
  for (let i = 0; i < 100; i++) {
    shown = await Promise.all(nodes.map(async (n) => (await samePlayerOn(n.url, host).get(`/api/v1/rooms/${id}`)).json.room));
    if (shown.every((r) => r.state === 'finished')) break;
    await sleep(100);
  }
  for (let i = 0; i < shown.length; i++) {
    assert.equal(shown[i].state, 'finished', `node ${'ABC'[i]} shows the race over: ${JSON.stringify(shown[i])}`);
    assert.deepEqual(places(shown[i]), [[hostId, 1], [guestId, 2]], `node ${'ABC'[i]} shows the same places`);
  }
});

// Sends one entry through HAProxy until it is answered 200 (or refused as
// a step, which it never is here); a dead node's answers are retried.
async function sendUntilAnswered(c, gameId, body) {
  let last = '';
  for (let attempt = 0; attempt < 40; attempt++) {
    try {
      const r = await c.post(`/api/v1/games/${gameId}/log`, body);
      if (r.status === 200) return r;
      if (r.status !== 502 && r.status !== 503 && r.status !== 504 && r.status !== 500) {
        throw new Error(`entry ${body.seq} of game ${gameId}: ${show(r)}`);
      }
      last = show(r);
    } catch (e) {
      if (e.message.startsWith('entry ')) throw e;
      last = e.message;
    }
    await sleep(100);
  }
  throw new Error(`entry ${body.seq} of game ${gameId} never answered: ${last}`);
}

test('kill -9 of a node while players step: they carry on, and no told entry is lost', { skip }, async () => {
  const PLAYERS = 6;
  const ENTRIES = 40;
  const setup = new Client(front);
  const ids = await levelIds(setup);
  const players = [];
  for (let i = 0; i < PLAYERS; i++) {
    const c = new Client(front);
    const game = await openGame(c, ids[1]);
    players.push({ c, id: game.id, told: 0 });
  }
  const victim = nodes[1];
  const stepping = players.map(async (p) => {
    for (let seq = 1; seq <= ENTRIES; seq++) {
      const r = await sendUntilAnswered(p.c, p.id, { seq, steps: seq % 2 ? 'ud' : 'du' });
      assert.equal(r.json.game.seq, seq, show(r));
      p.told = seq;
    }
  });
  await sleep(800);
  victim.proc.kill('SIGKILL');
  await victim.exited;
  console.log(`node B killed with entries told so far: ${players.map((p) => p.told).join(' ')}`);
  await Promise.all(stepping);
  for (const p of players) {
    const stored = sqlite(db, `SELECT seq, (SELECT count(*) FROM game_log WHERE game_id = ${p.id}) FROM games WHERE id = ${p.id}`);
    assert.equal(stored, `${ENTRIES}|${ENTRIES}`, `game ${p.id}: every told entry is in the database once`);
  }
  // A node that never held these games in memory replays each log from
  // the database: its position must be what the database says.
  const fresh = await startServer({ db, args: ['--trusted-proxies', '127.0.0.1'] });
  nodes.push(fresh);
  for (const p of players) {
    const g = await gameOf(samePlayerOn(fresh.url, p.c), p.id);
    const row = sqlite(db, `SELECT seq, moves, pushes, solved FROM games WHERE id = ${p.id}`);
    assert.equal(`${g.seq}|${g.moves}|${g.pushes}|${g.solved ? 1 : 0}`, row, `game ${p.id}: the replayed log and the stored game agree`);
  }
});

// HAProxy forwards a chunked answer's data with MSG_MORE while the answer
// goes on, and the kernel then holds a small write for up to 200 ms: a
// live stream's events, each a few hundred bytes, reached spectators 110
// ms late on median through the checked-in file (bench_spectators_nodes.sh)
// against 0.1 ms with the option. Read from the file, as the delay is a
// time a test must not wait on.
test('deploy/haproxy.cfg sends live events on at once (option http-no-delay in defaults)', () => {
  const file = path.join(SOURCE, 'deploy', 'haproxy.cfg');
  const lines = readFileSync(file, 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim());
  const start = lines.indexOf('defaults');
  assert.ok(start >= 0, `${file} has no defaults section`);
  const end = lines.findIndex((l, i) => i > start && /^(global|defaults|frontend|backend|listen)\b/.test(l));
  const defaults = lines.slice(start, end < 0 ? lines.length : end);
  assert.ok(defaults.includes('option http-no-delay'),
    `${file}'s defaults section lacks "option http-no-delay"; it holds:\n${defaults.filter(Boolean).join('\n')}`);
});
