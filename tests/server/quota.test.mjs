// One storage quota per account: the database counts what each player
// stores (game logs, saved positions, solutions, settings) in the same
// transaction as the write, refuses a write past the limit with 403
// quota_exceeded and what is used and allowed, and loses nothing already
// stored. The count is checked against the tables themselves after a
// seeded walk of every kind of write and delete, a guest's joining an
// account included.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { levelIds, migrationsUpTo, show, sqlite, startServer } from './harness.mjs';

const servers = [];
after(async () => { for (const s of servers) await s.stop(); });

async function serve(args) {
  const s = await startServer({ args });
  servers.push(s);
  return s;
}

// The corridor level: the player walks right and back ('rl') without
// changing anything; 'rRR' solves it.
const walk = (n) => 'rl'.repeat(n / 2);

// What the tables hold for each player, counted as migration 0020 counts:
// a row's text and 32 bytes for the rest of it.
function recount(db) {
  const sql = `SELECT u.id, u.storage_bytes,
    coalesce((SELECT sum(length(l.steps) + length(l.request) + 32) FROM game_log l JOIN games g ON g.id = l.game_id WHERE g.user_id = u.id), 0) +
    coalesce((SELECT sum(length(s.lurd) + length(s.name) + 32) FROM snapshots s JOIN games g ON g.id = s.game_id WHERE g.user_id = u.id), 0) +
    coalesce((SELECT sum(length(s.lurd) + 32) FROM solutions s WHERE s.user_id = u.id), 0) +
    coalesce((SELECT sum(length(s.lurd) + 32) FROM submitted_solutions s WHERE s.user_id = u.id), 0) +
    coalesce((SELECT sum(c.bytes) FROM community_levels c WHERE c.author_id = u.id), 0) +
    coalesce((SELECT length(t.settings) + 32 FROM user_settings t WHERE t.user_id = u.id), 0)
    FROM users u ORDER BY u.id`;
  return sqlite(db, sql).split('\n').filter(Boolean).map((line) => line.split('|').map(Number));
}

test('a guest past its quota gets 403 quota_exceeded, and keeps what it had', async () => {
  const s = await serve(['--guest-storage-mb', '1']);
  const c = s.client();
  const level = (await levelIds(c))[0];
  const opened = await c.post(`/api/v1/levels/${level}/game`);
  assert.equal(opened.status, 201, show(opened));
  const game = opened.json.game.id;
  let seq = 0;
  let refused = null;
  let stored = 0;
  for (let i = 0; i < 40 && refused === null; i++) {
    const r = await c.post(`/api/v1/games/${game}/log`, { seq: seq + 1, steps: walk(60000) });
    if (r.status === 200) {
      seq++;
      stored += 60000;
    } else {
      refused = r;
    }
  }
  assert.ok(refused !== null, `a guest of 1 MiB stored ${stored} steps`);
  assert.equal(refused.status, 403, show(refused));
  assert.equal(refused.json.error.code, 'quota_exceeded');
  assert.equal(refused.json.quota.allowed, 1 << 20, show(refused));
  assert.ok(refused.json.quota.used <= 1 << 20 && refused.json.quota.used >= stored, show(refused));
  console.log(`a guest of 1 MiB stored ${stored} steps in ${seq} entries before ${show(refused).slice(0, 200)}`);
  // Nothing already stored is lost, and the refused entry left nothing.
  const g = await c.get(`/api/v1/games/${game}`);
  assert.equal(g.status, 200, show(g));
  assert.equal(g.json.game.seq, seq);
  assert.equal(Number(sqlite(s.db, `SELECT count(*) FROM game_log WHERE game_id = ${game}`)), seq);
  // The account page's figures.
  const me = await c.get('/api/v1/account');
  assert.deepEqual(me.json.user.storage, refused.json.quota);
  // A smaller write still fits, where there is room for it.
  const small = await c.post(`/api/v1/games/${game}/log`, { seq: seq + 1, steps: 'rl' });
  assert.equal(small.status, 200, `a two-step entry under the quota: ${show(small)}`);
});

test('saved positions count against the quota, and deleting one makes room', async () => {
  const s = await serve(['--user-storage-mb', '1']);
  const c = s.client();
  assert.equal((await c.post('/api/v1/account/signup', { username: 'saver', password: 'a saver password' })).status, 201);
  const level = (await levelIds(c))[0];
  const game = (await c.post(`/api/v1/levels/${level}/game`)).json.game.id;
  let r = await c.post(`/api/v1/games/${game}/log`, { seq: 1, steps: walk(49990) });
  assert.equal(r.status, 200, show(r));
  const saved = [];
  let refused = null;
  for (let i = 0; i < 40 && refused === null; i++) {
    r = await c.post(`/api/v1/games/${game}/snapshots`, { name: `s${i}` });
    if (r.status === 201) saved.push(r.json.snapshot.id);
    else refused = r;
  }
  assert.ok(refused !== null && saved.length > 5, `saved ${saved.length} positions of 50,000 steps in 1 MiB`);
  assert.equal(refused.status, 403, show(refused));
  assert.equal(refused.json.error.code, 'quota_exceeded');
  assert.equal(refused.json.quota.allowed, 1 << 20);
  r = await c.req('DELETE', `/api/v1/games/${game}/snapshots/${saved[0]}`, {});
  assert.equal(r.status, 200, show(r));
  r = await c.post(`/api/v1/games/${game}/snapshots`, { name: 'again' });
  assert.equal(r.status, 201, `a position saved once another was deleted: ${show(r)}`);
});

test('the count matches the tables after a seeded walk of writes and deletes', async () => {
  const s = await serve(['--user-storage-mb', '64', '--guest-storage-mb', '64']);
  const levels = await levelIds(s.client());
  let seed = 20261128;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const players = [];
  for (let p = 0; p < 3; p++) {
    const c = s.client();
    const game = (await c.post(`/api/v1/levels/${levels[0]}/game`)).json.game;
    players.push({ c, game: game.id, seq: game.seq, snaps: [] });
  }
  let ops = 0;
  for (let i = 0; i < 120; i++) {
    const p = players[rand(players.length)];
    const kind = rand(7);
    let r;
    if (kind <= 1) {
      r = await p.c.post(`/api/v1/games/${p.game}/log`, { seq: p.seq + 1, steps: walk(2 * (1 + rand(500))) });
    } else if (kind === 2) {
      r = await p.c.post(`/api/v1/games/${p.game}/log`, { seq: p.seq + 1, kind: 'undo', count: 1 });
    } else if (kind === 3) {
      r = await p.c.post(`/api/v1/games/${p.game}/snapshots`, { name: `n${i}` });
      if (r.status === 201) p.snaps.push(r.json.snapshot.id);
    } else if (kind === 4 && p.snaps.length > 0) {
      r = await p.c.req('DELETE', `/api/v1/games/${p.game}/snapshots/${p.snaps.pop()}`, {});
    } else if (kind === 5) {
      r = await p.c.req('PUT', '/api/v1/account/settings', { settings: { theme: 'x'.repeat(rand(200)) } });
    } else {
      // Solve, and start again from a restart.
      r = await p.c.post(`/api/v1/games/${p.game}/log`, { seq: p.seq + 1, kind: 'restart' });
      if (r.status === 200) {
        p.seq++;
        r = await p.c.post(`/api/v1/games/${p.game}/log`, { seq: p.seq + 1, steps: `${walk(2 * rand(50))}rRR` });
      }
    }
    if (r && r.status === 200 && r.json?.game?.seq !== undefined) p.seq = r.json.game.seq;
    if (r) ops++;
  }
  // Guests join accounts: one by signing up (it becomes the account), one
  // by logging in to an account that played too (its games and solutions
  // change hands).
  const joined = await players[0].c.post('/api/v1/account/signup', { username: 'joiner', password: 'a joining password' });
  assert.equal(joined.status, 201, show(joined));
  const owner = s.client();
  assert.equal((await owner.post('/api/v1/account/signup', { username: 'owner', password: 'an owner password' })).status, 201);
  const owned = (await owner.post(`/api/v1/levels/${levels[1]}/game`)).json.game.id;
  assert.equal((await owner.post(`/api/v1/games/${owned}/log`, { seq: 1, steps: 'rrll' })).status, 200);
  const guestGames = Number(sqlite(s.db, 'SELECT count(*) FROM games WHERE user_id = (SELECT user_id FROM games WHERE id = ' + players[1].game + ')'));
  const login = await players[1].c.post('/api/v1/account/login', { username: 'owner', password: 'an owner password' });
  assert.equal(login.status, 200, show(login));
  const ownerId = (await owner.get('/api/v1/account')).json.user.id;
  assert.equal(Number(sqlite(s.db, `SELECT user_id FROM games WHERE id = ${players[1].game}`)), ownerId,
    `the guest's game (one of ${guestGames}) joined the account it logged in to`);
  const rows = recount(s.db);
  const wrong = rows.filter(([, counted, actual]) => counted !== actual).map(([id, counted, actual]) => `user ${id}: counted ${counted}, tables hold ${actual}`);
  console.log(`${ops} writes and deletes by ${players.length} players; ${rows.length} users checked`);
  assert.ok(rows.some(([, counted]) => counted > 0), 'the walk stored something');
  assert.deepEqual(wrong, [], 'users.storage_bytes against the tables');
});

test('a database from before the quota keeps all it holds, and counts it', async () => {
  // Version 19: a guest with a game, a saved position and a solution, and
  // an account with options, written by the API of that sokod (the
  // solution by SQL, below).
  const old = await startServer({ args: ['--migrations', migrationsUpTo(19)] });
  const { dir, db, levels } = old;
  try {
    const guest = old.client();
    const level = (await levelIds(guest))[0];
    const game = (await guest.post(`/api/v1/levels/${level}/game`)).json.game.id;
    let r = await guest.post(`/api/v1/games/${game}/log`, { seq: 1, steps: walk(2000) });
    assert.equal(r.status, 200, show(r));
    r = await guest.post(`/api/v1/games/${game}/snapshots`, { name: 'before the push', lurd: walk(500) });
    assert.equal(r.status, 201, show(r));
    const account = old.client();
    r = await account.post('/api/v1/account/signup', { username: 'older', password: 'a password from before' });
    assert.equal(r.status, 201, show(r));
    r = await account.req('PUT', '/api/v1/account/settings', { settings: { theme: 'midnight', note: 'x'.repeat(200) } });
    assert.equal(r.status, 200, show(r));
  } finally {
    await old.stop();
  }
  // The solution as that sokod stored it (today's writes columns that
  // version 19 lacks): its line, not yet hashed.
  sqlite(db, `INSERT INTO solutions (user_id, level_id, game_id, moves, pushes, lurd, solved_at)
    SELECT user_id, level_id, id, 2003, 2, '${walk(2000)}rRR', 1764000000 FROM games`);
  const tables = ['game_log', 'snapshots', 'solutions', 'user_settings', 'games'];
  const rows = () => tables.map((t) => `${t}: ${sqlite(db, `SELECT count(*) FROM ${t}`)}`).join(', ');
  const before = rows();
  const again = await startServer({ dir, db, levels });
  servers.push(again);
  assert.match(again.stderr(), /applied migration 0020_/);
  assert.equal(rows(), before, 'every row is kept');
  const counted = recount(db);
  assert.ok(counted.length >= 2 && counted.some(([, used]) => used > 4000), `what is counted: ${JSON.stringify(counted)}`);
  for (const [id, used, want] of counted) assert.equal(used, want, `player ${id}: counted ${used}, the tables hold ${want}`);
});
