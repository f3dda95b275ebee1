// What all guests together store is bounded (--all-guests-storage-mb):
// however many guests an address or many addresses make, each within its
// own quota, the sweeper's thread counts them every few seconds and, past
// the bound, sets the guests' limit to 0. Guests then store nothing more
// (403 quota_exceeded, "guests_full"), lose nothing they had, and accounts
// go on; once room is made, guests store again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { levelIds, show, startServer } from './harness.mjs';

let server, level;
before(async () => {
  // A count each second; many requests from one address.
  server = await startServer({
    args: ['--all-guests-storage-mb', '1', '--sweep-interval', '1', '--cost-per-second', '1000000'],
  });
  level = (await levelIds(server.client()))[0];
});
after(async () => { await server?.stop(); });

// On the corridor level, walking right and back changes nothing: a saved
// position of 50,000 such steps holds about 50 KB.
const line = 'rl'.repeat(25000);

async function guestWithGame() {
  const c = server.client();
  const r = await c.post(`/api/v1/levels/${level}/game`);
  assert.equal(r.status, 201, show(r));
  return { c, game: r.json.game.id };
}

async function save(g, n) {
  const ids = [];
  for (let i = 0; i < n; i++) {
    const r = await g.c.post(`/api/v1/games/${g.game}/snapshots`, { name: `p${i}`, lurd: line });
    assert.equal(r.status, 201, `saved position ${i}: ${show(r)}`);
    ids.push(r.json.snapshot.id);
  }
  return ids;
}

// Polls a step of g until fn(answer) holds, for at most 15 s.
async function stepUntil(g, fn, what) {
  const deadline = Date.now() + 15000;
  let r;
  do {
    const game = await g.c.get(`/api/v1/games/${g.game}`);
    r = await g.c.post(`/api/v1/games/${g.game}/log`, { seq: game.json.game.seq + 1, steps: 'rl' });
    if (fn(r)) return r;
    await new Promise((resolve) => setTimeout(resolve, 200));
  } while (Date.now() < deadline);
  assert.fail(`${what}: the last step's answer was ${show(r)}; the server's log:\n${server.stderr().slice(-1500)}`);
}

test('past the bound of all guests, guests store nothing more and accounts go on', async () => {
  const first = await guestWithGame();
  const second = await guestWithGame();
  // Each guest is far below its own 16 MiB; together they pass 1 MiB.
  await save(first, 12);
  const made = await save(second, 12);
  const refused = await stepUntil(first, (r) => r.status !== 200, 'a guest\'s step once guests store more than 1 MiB');
  assert.equal(refused.status, 403, show(refused));
  assert.equal(refused.json.error.code, 'quota_exceeded', show(refused));
  assert.equal(refused.json.quota.allowed, 0, show(refused));
  assert.equal(refused.json.quota.guests_full, true, show(refused));
  assert.match(refused.json.error.message, /guests' storage on this server is full/);
  assert.match(server.stderr(), /guests store \d+ bytes, 1048576 allowed to all of them/);

  const metrics = await server.client().get('/metrics');
  const counted = Number(/^sokod_guests_storage_bytes (\d+)$/m.exec(metrics.text)?.[1]);
  assert.ok(counted > 1 << 20, `/metrics counts what guests store: ${metrics.text.slice(0, 400)}`);

  // Nothing a guest had is lost.
  const kept = await first.c.get(`/api/v1/games/${first.game}/snapshots`);
  assert.equal(kept.json.snapshots.length, 12, show(kept));

  // A new guest plays nothing into the database either.
  const third = await guestWithGame();
  const r = await third.c.post(`/api/v1/games/${third.game}/log`, { seq: 1, steps: 'r' });
  assert.equal(r.status, 403, `a new guest's first step: ${show(r)}`);

  // An account is not a guest: it stores as before.
  const account = server.client();
  const signed = await account.post('/api/v1/account/signup', { username: 'keeps_playing', password: 'a good password' });
  assert.equal(signed.status, 201, show(signed));
  const opened = await account.post(`/api/v1/levels/${level}/game`);
  assert.equal(opened.status, 201, show(opened));
  const step = await account.post(`/api/v1/games/${opened.json.game.id}/log`, { seq: 1, steps: 'r' });
  assert.equal(step.status, 200, `an account's step while guests are full: ${show(step)}`);

  // Room made: the guests store again after the next count.
  for (const id of made) {
    const d = await second.c.req('DELETE', `/api/v1/games/${second.game}/snapshots/${id}`);
    assert.equal(d.status, 200, show(d));
  }
  await stepUntil(first, (a) => a.status === 200, 'a guest\'s step once guests store less than 1 MiB again');
  assert.match(server.stderr(), /below the 1048576 allowed to all of them: they store again/);
});
