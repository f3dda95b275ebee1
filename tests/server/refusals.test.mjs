// Requests that sokod refuses before any handler runs, each an attack on a
// public server: a Host naming another server (DNS rebinding), a body framed
// by both Content-Length and Transfer-Encoding (request smuggling behind a
// proxy), and a FIFO in the static folder (whose open() would block an
// HTTP thread until a writer came).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { SOURCE, show, startServer, stopCleanly, tempDir } from './harness.mjs';

// Sends raw bytes on one connection and collects everything the server
// sends until it closes the connection or `wait` ms pass. Resolves to
// {text, closed}: closed is true when the server closed it.
function exchange(port, bytes, wait) {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    const finish = (closed) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve({ text, closed });
    };
    const timer = setTimeout(() => finish(false), wait);
    sock.setEncoding('latin1');
    sock.on('data', (d) => { text += d; });
    sock.on('end', () => finish(true));
    sock.on('error', () => finish(true));
    sock.on('connect', () => sock.write(bytes));
  });
}

// One GET with a given Host header; resolves to {status, json}.
async function getWithHost(port, host, target = '/api/v1/collections') {
  const head = host === null ? '' : `Host: ${host}\r\n`;
  const { text } = await exchange(port, `GET ${target} HTTP/1.1\r\n${head}Connection: close\r\n\r\n`, 20000);
  const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  let json;
  try { json = JSON.parse(body); } catch { json = undefined; }
  return { status: m ? Number(m[1]) : null, json, text };
}

test('a Host that is not one of the server\'s names gets 421 on a loopback address', async () => {
  const server = await startServer();
  try {
    const p = server.port;
    const refused = await getWithHost(p, `rebind.example:${p}`);
    assert.equal(refused.status, 421, `Host rebind.example: ${refused.text.slice(0, 300)}`);
    assert.equal(refused.json?.error?.code, 'misdirected');
    for (const host of [`localhost:${p}`, 'LOCALHOST', `localhost.:${p}`, `app.localhost:${p}`, `127.0.0.1:${p}`, `[::1]:${p}`, '192.0.2.7']) {
      const r = await getWithHost(p, host);
      assert.equal(r.status, 200, `Host ${host}: ${r.text.slice(0, 300)}`);
    }
    for (const host of ['localhost.rebind.example', 'evil-localhost', '[::1', '[not-an-address]']) {
      const r = await getWithHost(p, host);
      assert.equal(r.status, 421, `Host ${host}: ${r.text.slice(0, 300)}`);
    }
    // HTTP/1.0 may leave Host out (a load balancer's health check often does).
    const { text } = await exchange(p, 'GET /api/v1/collections HTTP/1.0\r\n\r\n', 20000);
    assert.match(text, /^HTTP\/1\.[01] 200/, text.slice(0, 300));
  } finally {
    await stopCleanly(server);
  }
});

test('--origin names the hosts served; addresses are still served for health checks', async () => {
  const server = await startServer({ args: ['--address', '0.0.0.0', '--origin', 'https://Sokoban.example.org,http://play.example:8080'] });
  try {
    const p = server.port;
    for (const host of ['sokoban.example.org', 'SOKOBAN.example.org:443', 'play.example:8080', `127.0.0.1:${p}`]) {
      const r = await getWithHost(p, host);
      assert.equal(r.status, 200, `Host ${host}: ${r.text.slice(0, 300)}`);
    }
    // Bound to every address, the loopback names are not the server's own.
    for (const host of ['localhost', 'rebind.example', 'example.org']) {
      const r = await getWithHost(p, host);
      assert.equal(r.status, 421, `Host ${host}: ${r.text.slice(0, 300)}`);
    }
    assert.doesNotMatch(server.stderr(), /DNS rebinding/);
  } finally {
    await server.stop();
  }
});

test('bound beyond loopback with no --origin, sokod warns at start and serves every Host', async () => {
  const server = await startServer({ args: ['--address', '0.0.0.0'] });
  try {
    assert.match(server.stderr(), /no --origin: every Host is answered/);
    const r = await getWithHost(server.port, 'anything.example');
    assert.equal(r.status, 200, r.text.slice(0, 300));
  } finally {
    await server.stop();
  }
});

test('a malformed --origin stops sokod at start with a message', async () => {
  const r = spawnSync(process.env.SOKOD_BIN, ['serve', '--port', '0', '--db', path.join(tempDir(), 'x.db'), '--origin', 'sokoban.example.org'], { encoding: 'utf8', timeout: 30000 });
  assert.notEqual(r.status, 0, r.stderr);
  assert.match(r.stderr, /--origin takes/);
});

test('Content-Length beside Transfer-Encoding gets 400 and the connection is closed', async () => {
  // A long idle timeout, so that a closed connection is the server's choice.
  const server = await startServer({ args: ['--timeout', '120'] });
  try {
    const host = `127.0.0.1:${server.port}`;
    // Read as chunked, the body ends at "0"; read by its Content-Length, the
    // rest is a second request that a proxy in front would not have seen.
    const hidden = `GET /api/v1/collections HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    const body = `0\r\n\r\n${hidden}`;
    const req = `POST /api/v1/account/login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n\r\n${body}`;
    const { text, closed } = await exchange(server.port, req, 20000);
    const answers = text.match(/HTTP\/1\.1 \d{3}/g) ?? [];
    assert.deepEqual(answers, ['HTTP/1.1 400'], `answers: ${text.slice(0, 600)}`);
    assert.match(text, /"code":"bad_request"/);
    assert.match(text, /\r\nConnection: close\r\n/i);
    assert.ok(closed, 'the server kept the connection open');
    // The server still serves.
    const after = await server.client().get('/api/v1/collections');
    assert.equal(after.status, 200, show(after));
  } finally {
    await server.stop();
  }
});

test('a FIFO in the static folder is answered 404 without blocking a thread', async (t) => {
  const dir = tempDir();
  const staticDir = path.join(dir, 'static');
  fs.cpSync(path.join(SOURCE, 'static'), staticDir, { recursive: true });
  const fifo = path.join(staticDir, 'stuck.js');
  const made = spawnSync('mkfifo', [fifo]);
  if (made.status !== 0) {
    t.skip('mkfifo is not available');
    return;
  }
  fs.symlinkSync('/dev/zero', path.join(staticDir, 'zero.txt'));
  // Two HTTP threads, so that a handful of blocked opens would stop the server.
  const server = await startServer({ dir, args: ['--static', staticDir, '--threads', '2'] });
  try {
    const host = `127.0.0.1:${server.port}`;
    const gets = [];
    for (let i = 0; i < 8; i++) {
      gets.push(exchange(server.port, `GET /stuck.js HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 15000));
    }
    gets.push(exchange(server.port, `GET /zero.txt HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 15000));
    const answers = await Promise.all(gets);
    for (const [i, a] of answers.entries()) {
      assert.match(a.text, /^HTTP\/1\.1 404/, `GET ${i < 8 ? '/stuck.js (a FIFO)' : '/zero.txt (a device)'} #${i}: ${a.text.slice(0, 200) || 'no answer in 15 s'}`);
    }
    const page = await server.client().get('/');
    assert.equal(page.status, 200, show(page));
  } finally {
    // Let any open() still waiting on the FIFO go, so the server can stop.
    try { fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); } catch { /* no reader: nothing waits */ }
    await server.stop();
  }
});
