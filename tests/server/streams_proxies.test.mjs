// Behind a reverse proxy listed in --trusted-proxies, each client is the
// right-most hop of X-Forwarded-For that is not a listed proxy, and every
// limit per address counts that client: two clients behind the proxy get
// a budget each. The same headers from an address that is not listed are
// ignored, and X-Forwarded-Proto from it does not make cookies Secure.
// Here 127.0.0.1 (and 10.9.0.0/16, as a second hop) are the proxies and
// 127.0.0.2 and 127.0.0.3 clients that send the headers themselves. The list is given by
// environment variable, so an older sokod without it starts too and fails
// on what it answers.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { rawRequest, runSokod, startServer, stopCleanly, tempDir } from './harness.mjs';

const PER_MINUTE = 3; // log-ins per address (--auth-per-minute)
const STREAMS = 2; // live streams per address (--streams-per-address)
const CONNECTIONS = 8; // connections per address (--connections-per-address)

let server;

before(async () => {
  server = await startServer({
    env: {
      SOKOD_TRUSTED_PROXIES: '127.0.0.1, 10.9.0.0/16',
      SOKOD_AUTH_PER_MINUTE: String(PER_MINUTE),
      SOKOD_STREAMS_PER_ADDRESS: String(STREAMS),
      SOKOD_CONNECTIONS_PER_ADDRESS: String(CONNECTIONS),
    },
  });
});

after(() => stopCleanly(server));

// A JSON request from the local address `from` with `headers`; resolves
// to {status, headers, json, text}.
function request(from, method, path, body, headers = {}) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const h = { ...headers };
  if (payload !== undefined) h['Content-Type'] = 'application/json';
  return rawRequest(server.url, method, path, h, payload, { localAddress: from, agent: false });
}

// Tries to log in as nobody with a wrong password: 401 while the address
// has attempts left, then 429.
const login = (from, headers) => request(from, 'POST', '/api/v1/account/login',
  { username: `nobody${crypto.randomBytes(3).toString('hex')}`, password: 'not the password' }, headers);

async function statusesOf(from, headers, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push((await login(from, headers)).status);
  return out;
}

test('clients behind a listed proxy each get their own budget', async () => {
  const a = await statusesOf('127.0.0.1', { 'X-Forwarded-For': '198.51.100.1' }, PER_MINUTE + 1);
  assert.deepEqual(a, [...Array(PER_MINUTE).fill(401), 429], 'client A behind the proxy');
  // Another client behind the same proxy, reached through a second listed
  // hop (the right-most hop is the nearer proxy) and with a made-up hop on
  // the left that the client wrote itself.
  const b = await statusesOf('127.0.0.1', { 'X-Forwarded-For': '203.0.113.9, 198.51.100.2, 10.9.4.4' }, PER_MINUTE + 1);
  assert.deepEqual(b, [...Array(PER_MINUTE).fill(401), 429], 'client B behind two proxies');
  // Client A's own budget is still spent, whatever it writes on the left.
  const a2 = await login('127.0.0.1', { 'X-Forwarded-For': '192.0.2.77, 198.51.100.1' });
  assert.equal(a2.status, 429, 'client A again, with a made-up hop before its own');
  // Two addresses of one IPv6 /64 are one client.
  const v6a = await statusesOf('127.0.0.1', { 'X-Forwarded-For': '2001:db8:1:2::a' }, PER_MINUTE);
  assert.deepEqual(v6a, Array(PER_MINUTE).fill(401), 'an IPv6 client');
  const v6b = await login('127.0.0.1', { 'X-Forwarded-For': '[2001:db8:1:2::b]:5000' });
  assert.equal(v6b.status, 429, 'another address of the same /64');
  const v6c = await login('127.0.0.1', { 'X-Forwarded-For': '2001:db8:1:3::a' });
  assert.equal(v6c.status, 401, 'an address of another /64');
});

test('X-Forwarded-For from an address that is not listed is ignored', async () => {
  const spoofed = [];
  for (let i = 0; i < PER_MINUTE + 1; i++) {
    spoofed.push((await login('127.0.0.2', { 'X-Forwarded-For': `198.51.100.${100 + i}` })).status);
  }
  assert.deepEqual(spoofed, [...Array(PER_MINUTE).fill(401), 429],
    'a client that names another address in each request is still counted by its own');
});

test('only a listed proxy makes cookies Secure with X-Forwarded-Proto', async () => {
  const signup = (from, headers) => request(from, 'POST', '/api/v1/account/signup',
    { username: `p${crypto.randomBytes(4).toString('hex')}`, password: 'a long enough password' },
    { 'X-Forwarded-Proto': 'https', ...headers });
  const direct = await signup('127.0.0.3', {});
  assert.equal(direct.status, 201, direct.text);
  const cookies = direct.headers['set-cookie'] ?? [];
  assert.ok(cookies.length > 0, 'the sign-up sets a cookie');
  for (const c of cookies) assert.doesNotMatch(c, /;\s*Secure/i, `from an address that is not listed: ${c}`);
  const proxied = await signup('127.0.0.1', { 'X-Forwarded-For': '198.51.100.50' });
  assert.equal(proxied.status, 201, proxied.text);
  for (const c of proxied.headers['set-cookie'] ?? []) assert.match(c, /;\s*Secure/i, `from the proxy: ${c}`);
});

// Opens a live stream watching `user` from `from` with `headers`; resolves
// to {status, close} once its first bytes came.
function stream(from, user, headers) {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.get({
      host: u.hostname, port: u.port, localAddress: from, agent: false,
      path: `/api/v1/events?watch=${user}`, headers,
    }, (res) => {
      res.on('error', () => {});
      res.once('data', () => resolve({ status: res.statusCode, close: () => req.destroy() }));
    });
    req.on('error', reject);
  });
}

test('live streams are capped per client behind a listed proxy, and the proxy\'s connections are not', async () => {
  const name = `p${crypto.randomBytes(4).toString('hex')}`;
  const made = await request('127.0.0.1', 'POST', '/api/v1/account/signup', { username: name, password: 'a watched password' },
    { 'X-Forwarded-For': '198.51.100.200' });
  assert.equal(made.status, 201, made.text);
  const me = await request('127.0.0.1', 'GET', '/api/v1/account', undefined, { Cookie: made.headers['set-cookie'][0].split(';')[0] });
  const user = me.json.user.id;
  // Six clients behind the proxy, each up to its cap and one more: more
  // connections from the proxy than one address may hold.
  const held = [];
  const answers = [];
  for (let i = 0; i < 6; i++) {
    const statuses = [];
    for (let j = 0; j <= STREAMS; j++) {
      const s = await stream('127.0.0.1', user, { 'X-Forwarded-For': `198.51.100.${10 + i}` });
      statuses.push(s.status);
      if (s.status === 200) held.push(s);
      else s.close();
    }
    answers.push(statuses.join(','));
  }
  const expected = [...Array(STREAMS).fill(200), 429].join(',');
  assert.deepEqual(answers, Array(6).fill(expected), 'each client behind the proxy: its streams, then 429');
  assert.ok(held.length > CONNECTIONS, `${held.length} streams held through the proxy, more than ${CONNECTIONS} connections`);
  // A client that names others in X-Forwarded-For, from an address that is
  // not listed, is one client.
  const spoofed = [];
  for (let j = 0; j <= STREAMS; j++) {
    const s = await stream('127.0.0.2', user, { 'X-Forwarded-For': `198.51.100.${100 + j}` });
    spoofed.push(s.status);
    if (s.status === 200) held.push(s);
    else s.close();
  }
  assert.deepEqual(spoofed, [...Array(STREAMS).fill(200), 429], 'streams from an address that is not listed');
  for (const s of held) s.close();
});

test('a --trusted-proxies entry that is no address or network is refused at start', () => {
  for (const list of ['10.0.0.0/33', 'proxy.example', '10.0.0.1,', '::1/129']) {
    const r = runSokod(['serve', '--port', '0', '--db', `${tempDir()}/sokod.db`, '--trusted-proxies', list]);
    assert.notEqual(r.status, 0, `sokod did not start with --trusted-proxies ${list}`);
    assert.match(r.stderr, /invalid value .* for --trusted-proxies/, r.stderr);
  }
});
