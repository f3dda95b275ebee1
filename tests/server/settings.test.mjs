// A player's settings are kept on the server and follow the account to
// every device; their shape is checked and bad ones are refused whole.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { levelIds, show, startServer, stopCleanly } from './harness.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(() => stopCleanly(server));

const put = (c, settings) => c.req('PUT', '/api/v1/account/settings', { settings });

// Gives a client a guest session, as opening a game does in the browser.
async function guest(c) {
  const [level] = await levelIds(c);
  const r = await c.post(`/api/v1/levels/${level}/game`);
  assert.equal(r.status, 201, show(r));
  return c;
}

test('a visitor without a session has empty settings', async () => {
  const r = await server.client().get('/api/v1/account/settings');
  assert.equal(r.status, 200, show(r));
  assert.deepEqual(r.json, { settings: {} });
});

test('settings saved on one device are read on another after logging in', async () => {
  const phone = await guest(server.client());
  const mine = { theme: 'midnight', speed: 2, sound: true, pointMode: false, note: null };
  let r = await put(phone, mine);
  assert.equal(r.status, 200, show(r));
  assert.deepEqual(r.json.settings, mine);

  r = await phone.post('/api/v1/account/signup', { username: 'settler', password: 'a long password 1' });
  assert.ok(r.status === 200 || r.status === 201, show(r));
  r = await phone.get('/api/v1/account/settings');
  assert.deepEqual(r.json.settings, mine, 'signing up keeps the guest settings');

  const laptop = await guest(server.client());
  r = await put(laptop, { theme: 'classic' });
  assert.equal(r.status, 200, show(r));
  r = await laptop.post('/api/v1/account/login', { username: 'settler', password: 'a long password 1' });
  assert.equal(r.status, 200, show(r));
  r = await laptop.get('/api/v1/account/settings');
  assert.deepEqual(r.json.settings, mine, "the account's settings win over the laptop guest's");

  const changed = { ...mine, theme: 'contrast' };
  r = await put(laptop, changed);
  assert.equal(r.status, 200, show(r));
  r = await phone.get('/api/v1/account/settings');
  assert.deepEqual(r.json.settings, changed, 'a change on the laptop reaches the phone');
});

test('settings of the wrong shape are refused and change nothing', async () => {
  const c = await guest(server.client());
  const kept = { theme: 'garden' };
  assert.equal((await put(c, kept)).status, 200);
  const bad = [
    [{ settings: { theme: { nested: true } } }, 'invalid_value'],
    [{ settings: { theme: ['a'] } }, 'invalid_value'],
    [{ settings: { 'bad key!': 1 } }, 'invalid_value'],
    [{ settings: { theme: 'x'.repeat(257) } }, 'invalid_value'],
    [{ settings: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])) }, 'invalid_value'],
    [{ settings: 'midnight' }, 'wrong_type'],
    [{ settings: {}, extra: 1 }, 'unknown_field'],
    [{}, 'missing_field'],
  ];
  for (const [body, code] of bad) {
    const r = await c.req('PUT', '/api/v1/account/settings', body);
    assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${show(r)}`);
    assert.equal(r.json?.error?.code, code, `${JSON.stringify(body).slice(0, 80)}: ${show(r)}`);
  }
  const r = await c.get('/api/v1/account/settings');
  assert.deepEqual(r.json.settings, kept, 'refused settings left the saved ones alone');
});

test('settings are not changed by GET, nor from another origin, nor without JSON', async () => {
  const c = await guest(server.client());
  assert.equal((await put(c, { theme: 'retro' })).status, 200);
  let r = await c.req('PUT', '/api/v1/account/settings', { settings: { theme: 'x' } },
    { Origin: 'http://evil.example' });
  assert.equal(r.status, 403, show(r));
  r = await c.req('PUT', '/api/v1/account/settings', JSON.stringify({ settings: { theme: 'x' } }),
    { 'Content-Type': 'text/plain' });
  assert.equal(r.status, 415, show(r));
  r = await c.req('POST', '/api/v1/account/settings', { settings: { theme: 'x' } });
  assert.equal(r.status, 405, show(r));
  assert.match(r.headers.get('allow') ?? '', /PUT/);
  r = await c.get('/api/v1/account/settings');
  assert.deepEqual(r.json.settings, { theme: 'retro' });
});
