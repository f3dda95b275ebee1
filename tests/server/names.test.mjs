// What names say: a new username starts and ends with a letter or a digit
// (older accounts keep theirs), and a refusal to watch says the same for
// every player who cannot be watched, naming nobody.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(() => stopCleanly(server));

const PASSWORD = 'a long password 1';
const signup = (c, username) => c.post('/api/v1/account/signup', { username, password: PASSWORD });

test('a new username has a letter or a digit at both ends', async () => {
  for (const name of ['root.', '---', '.alice', 'bob-', '_x_', 'a..']) {
    const r = await signup(server.client(), name);
    assert.equal(r.status, 400, `${name}: ${show(r)}`);
    assert.equal(r.json?.error?.code, 'invalid_value', `${name}: ${show(r)}`);
    assert.match(r.json.error.message, /starts and ends with a letter or a digit/, `${name}: ${show(r)}`);
  }
  for (const name of ['r00t', 'a.b', 'x-_-y', 'Zed_9']) {
    const r = await signup(server.client(), name);
    assert.equal(r.status, 201, `${name}: ${show(r)}`);
  }
  assert.equal(sqlite(server.db, "SELECT count(*) FROM users WHERE username IN ('root.', '---')"), '0');
});

test('an account named under the older rule still logs in', async () => {
  let r = await signup(server.client(), 'oldtimer');
  assert.equal(r.status, 201, show(r));
  // As an older sokod let it be named.
  sqlite(server.db, "UPDATE users SET username = 'oldtimer.' WHERE username = 'oldtimer'");
  r = await server.client().post('/api/v1/account/login', { username: 'oldtimer.', password: PASSWORD });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.user.username, 'oldtimer.');
});

test('watching is refused in the same words for a guest and for an opt-out, naming nobody', async () => {
  const [level] = await levelIds(server.client());
  const guest = server.client();
  assert.equal((await guest.post(`/api/v1/levels/${level}/game`)).status, 201);
  const guestId = (await guest.get('/api/v1/account')).json.user.id;
  const shy = server.client();
  let r = await signup(shy, 'shyplayer');
  assert.equal(r.status, 201, show(r));
  const shyId = r.json.user.id;
  r = await shy.req('PUT', '/api/v1/account/settings', { settings: { watchable: false } });
  assert.equal(r.status, 200, show(r));

  const watcher = server.client();
  const asGuest = await watcher.get(`/api/v1/watch/${guestId}`);
  const asShy = await watcher.get(`/api/v1/watch/${shyId}`);
  for (const a of [asGuest, asShy]) {
    assert.equal(a.status, 403, show(a));
    assert.equal(a.json?.error?.code, 'not_watchable', show(a));
  }
  assert.equal(asGuest.json.error.message, asShy.json.error.message,
    `guest: ${show(asGuest)}; opt-out: ${show(asShy)}`);
  assert.doesNotMatch(asShy.text, /shyplayer/, 'the refusal does not name the player');
  assert.doesNotMatch(asGuest.text, /guest/i, 'the refusal does not say the player is a guest');
});
