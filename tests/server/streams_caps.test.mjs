// Live streams and connections are capped per client address and overall,
// so one client cannot hold every connection: past its own cap a client
// gets 429 with Retry-After, past the server's stream cap everyone gets
// 503 with Retry-After, and ordinary requests from another address are
// still answered. Different loopback addresses (127.0.0.2 ...) play the
// other clients. The caps are set low by environment variable, so that an
// older sokod without them starts too and fails on what it answers.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { runSokod, show, startServer, stopCleanly, tempDir } from './harness.mjs';

const PER_ADDRESS = 20;
const MAX_STREAMS = 50;
const CONNECTIONS_PER_ADDRESS = 30;

let server;
let watched; // the id of a player anyone may watch

before(async () => {
  server = await startServer({
    args: ['--heartbeat', '1'],
    env: {
      SOKOD_STREAMS_PER_ADDRESS: String(PER_ADDRESS),
      SOKOD_MAX_STREAMS: String(MAX_STREAMS),
      SOKOD_CONNECTIONS_PER_ADDRESS: String(CONNECTIONS_PER_ADDRESS),
      SOKOD_MAX_CONNECTIONS: '400',
    },
  });
  const alice = server.client();
  const name = `p${crypto.randomBytes(4).toString('hex')}`;
  const r = await alice.post('/api/v1/account/signup', { username: name, password: 'a watched password' });
  assert.equal(r.status, 201, show(r));
  watched = (await alice.get('/api/v1/account')).json.user.id;
});

after(() => stopCleanly(server));

// Opens GET /api/v1/events?watch=... from `from` on a connection of its
// own; resolves to {status, headers, text, close} once the answer's
// headers (and, for a refusal, its body) came.
function stream(from) {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.get({
      host: u.hostname, port: u.port, localAddress: from, agent: false,
      path: `/api/v1/events?watch=${watched}`, headers: { Accept: 'text/event-stream' },
    }, (res) => {
      const out = { status: res.statusCode, headers: res.headers, text: '', close: () => req.destroy() };
      res.setEncoding('utf8');
      if (res.statusCode === 200) {
        res.once('data', () => resolve(out)); // the "ready" event
        res.on('error', () => {});
        return;
      }
      res.on('data', (d) => { out.text += d; });
      res.on('end', () => { out.json = JSON.parse(out.text); resolve(out); });
    });
    req.on('error', reject);
  });
}

// An ordinary request from `from`; resolves to {status, ms}.
function ordinary(from) {
  const u = new URL(server.url);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get({ host: u.hostname, port: u.port, localAddress: from, agent: false, path: '/api/v1/collections' }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
  });
}

const statuses = (list) => list.map((s) => s.status).join(',');

test('one address gets its streams up to its cap, then 429 with Retry-After; others are answered', async () => {
  const opened = [];
  for (let i = 0; i < PER_ADDRESS + 5; i++) opened.push(await stream('127.0.0.1'));
  const ok = opened.filter((s) => s.status === 200);
  const refused = opened.filter((s) => s.status !== 200);
  assert.equal(ok.length, PER_ADDRESS, `streams answered 200 of ${opened.length} opened from one address (statuses ${statuses(opened)})`);
  for (const r of refused) {
    assert.equal(r.status, 429, r.text);
    assert.equal(r.json.error.code, 'rate_limited', r.text);
    assert.ok(Number(r.headers['retry-after']) >= 1, `Retry-After: ${r.headers['retry-after']}`);
  }
  const other = await ordinary('127.0.0.2');
  assert.equal(other.status, 200, 'an ordinary request from another address');
  // A stream given back makes room for one more.
  ok[0].close();
  let again;
  for (let i = 0; i < 100; i++) {
    again = await stream('127.0.0.1');
    if (again.status === 200) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(again.status, 200, `a stream after one was closed: ${again.text}`);
  ok[0] = again;
  for (const s of ok) s.close();
});

test('past the server\'s stream cap every client gets 503 with Retry-After, and ordinary requests still pass', async () => {
  // The first test's streams end once a heartbeat finds them closed: until
  // then a refusal only means the server still counts them.
  const held = [];
  const froms = ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'];
  for (let n = 0; held.length < MAX_STREAMS && n < 400; n++) {
    const s = await stream(froms[held.length % froms.length]);
    if (s.status === 200) held.push(s);
    else await new Promise((r) => setTimeout(r, 50));
  }
  const refused = [];
  for (let n = 0; n < 10; n++) {
    const s = await stream(froms[n % froms.length]);
    (s.status === 200 ? held : refused).push(s);
  }
  assert.equal(held.length, MAX_STREAMS, `streams open at once from four addresses (refused: ${statuses(refused)})`);
  for (const r of refused) {
    assert.equal(r.status, 503, r.text);
    assert.equal(r.json.error.code, 'unavailable', r.text);
    assert.ok(Number(r.headers['retry-after']) >= 1, `Retry-After: ${r.headers['retry-after']}`);
  }
  const other = await ordinary('127.0.0.7');
  assert.equal(other.status, 200, 'an ordinary request while the streams are full');
  for (const s of held) s.close();
});

// Opens a TCP connection from `from`; resolves to {socket, closedSoon}
// where closedSoon says whether the server closed it within `ms`.
function connect(from, ms = 500) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: server.port, localAddress: from });
    socket.on('error', () => {});
    socket.once('connect', () => {
      let closed = false;
      socket.once('close', () => { closed = true; });
      setTimeout(() => resolve({ socket, closed: () => closed }), ms);
    });
    socket.once('error', reject);
  });
}

test('connections from one address past its cap are closed; other addresses still connect', async () => {
  const open = [];
  for (let i = 0; i < CONNECTIONS_PER_ADDRESS; i++) {
    const s = await connect('127.0.0.8', 0);
    open.push(s);
  }
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(open.filter((s) => s.closed()).length, 0, 'connections within the cap stay open');
  const extra = [];
  for (let i = 0; i < 5; i++) extra.push(await connect('127.0.0.8', 1000));
  assert.equal(extra.filter((s) => s.closed()).length, 5, 'connections past the cap are closed by the server');
  const other = await ordinary('127.0.0.9');
  assert.equal(other.status, 200, 'an ordinary request from another address');
  // Closing some gives their places back.
  for (const s of open.splice(0, 5)) s.socket.destroy();
  await new Promise((r) => setTimeout(r, 300));
  const later = await connect('127.0.0.8', 500);
  assert.equal(later.closed(), false, 'a connection once places were given back');
  later.socket.destroy();
  for (const s of open) s.socket.destroy();
});

test('a stream cap that leaves no connection for other requests is refused at start', () => {
  const dir = tempDir();
  const r = runSokod(['serve', '--port', '0', '--db', `${dir}/sokod.db`, '--max-connections', '100', '--max-streams', '100']);
  assert.notEqual(r.status, 0, 'sokod did not start');
  assert.match(r.stderr, /--max-streams \(100\) must be below --max-connections \(100\)/);
});
