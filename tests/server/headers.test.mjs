// Security headers on every kind of answer (static file, core.wasm, API,
// JSON error, 405, 304, a step, an event stream): pages and files carry the
// client's policy, data answers (JSON, event streams) the few headers data
// needs; and a client that needs nothing the policy refuses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import http from 'node:http';
import { SOURCE, levelIds, openGame, rawRequest, show, startServer, stopCleanly } from './harness.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(() => stopCleanly(server));

// The directives of a Content-Security-Policy value: name -> [sources].
function directives(csp) {
  const out = new Map();
  for (const part of csp.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}

const header = (r, name) => r.headers[name.toLowerCase()] ?? r.headers.get?.(name) ?? undefined;

// A data answer's Content-Type: JSON or an event stream.
const isData = (r) => /^(application\/json|text\/event-stream)(;|$)/.test(header(r, 'Content-Type') ?? '');

// What a data answer carries: a policy that allows nothing and no framing,
// nosniff, no reading from other origins; and none of the headers that
// concern documents (a referrer, framing by old browsers, the opener).
function checkDataHeaders(r, what) {
  const h = (name) => header(r, name);
  const csp = h('Content-Security-Policy');
  assert.ok(csp, `${what}: a Content-Security-Policy (${show(r)})`);
  const d = directives(csp);
  assert.deepEqual([...d.keys()].sort(), ['default-src', 'frame-ancestors'], `${what}: the directives of ${csp}`);
  assert.deepEqual(d.get('default-src'), ["'none'"], `${what}: default-src in ${csp}`);
  assert.deepEqual(d.get('frame-ancestors'), ["'none'"], `${what}: frame-ancestors in ${csp}`);
  assert.equal(h('X-Content-Type-Options'), 'nosniff', what);
  assert.equal(h('Cross-Origin-Resource-Policy'), 'same-origin', what);
  for (const name of ['Referrer-Policy', 'X-Frame-Options', 'Cross-Origin-Opener-Policy']) {
    assert.equal(h(name), undefined, `${what}: a data answer carries no ${name}`);
  }
}

function checkHeaders(r, what) {
  if (isData(r)) {
    checkDataHeaders(r, what);
    return;
  }
  const h = (name) => header(r, name);
  const csp = h('Content-Security-Policy');
  assert.ok(csp, `${what}: a Content-Security-Policy (${show(r)})`);
  const d = directives(csp);
  assert.deepEqual(d.get('default-src'), ["'none'"], `${what}: default-src in ${csp}`);
  assert.deepEqual(d.get('script-src'), ["'self'", "'wasm-unsafe-eval'"], `${what}: script-src in ${csp}`);
  assert.deepEqual(d.get('frame-ancestors'), ["'none'"], `${what}: frame-ancestors in ${csp}`);
  for (const [name, sources] of d) {
    for (const s of sources) {
      assert.ok(["'self'", "'none'", "'wasm-unsafe-eval'"].includes(s),
        `${what}: ${name} allows only this origin, not ${s} (${csp})`);
    }
  }
  assert.equal(h('X-Content-Type-Options'), 'nosniff', what);
  assert.equal(h('X-Frame-Options'), 'DENY', what);
  assert.ok(/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/.test(h('Referrer-Policy') ?? ''),
    `${what}: Referrer-Policy is ${h('Referrer-Policy')}`);
  assert.equal(h('Cross-Origin-Opener-Policy'), 'same-origin', what);
  assert.equal(h('Cross-Origin-Resource-Policy'), 'same-origin', what);
}

// The headers of an event stream's answer; the stream is then closed.
function streamHeaders(base, p, cookie) {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: p,
      headers: { Accept: 'text/event-stream', Cookie: cookie } }, (res) => {
      resolve({ status: res.statusCode, headers: res.headers, text: '' });
      req.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

test('pages carry the client\'s policy, API answers the few headers data needs', async () => {
  const base = server.url;
  const kinds = [];
  const index = await rawRequest(base, 'GET', '/');
  assert.equal(index.status, 200, show(index));
  kinds.push(['the client page', index]);
  const js = await rawRequest(base, 'GET', '/js/main.js');
  assert.equal(js.status, 200);
  kinds.push(['a module', js]);
  const wasm = await rawRequest(base, 'GET', '/core.wasm');
  assert.equal(wasm.status, 200);
  kinds.push(['core.wasm', wasm]);
  const again = await rawRequest(base, 'GET', '/js/main.js', { 'If-None-Match': js.headers.etag });
  assert.equal(again.status, 304, 'a revalidation with the etag');
  kinds.push(['a 304', again]);
  const api = await rawRequest(base, 'GET', '/api/v1/collections');
  assert.equal(api.status, 200);
  kinds.push(['an API answer', api]);
  const missing = await rawRequest(base, 'GET', '/api/v1/nothing-here');
  assert.equal(missing.status, 404);
  kinds.push(['a JSON 404', missing]);
  const nofile = await rawRequest(base, 'GET', '/no-such-file.js');
  assert.equal(nofile.status, 404);
  kinds.push(['a missing file', nofile]);
  const wrong = await rawRequest(base, 'DELETE', '/api/v1/collections', { 'Content-Type': 'application/json' });
  assert.equal(wrong.status, 405);
  kinds.push(['a 405', wrong]);
  const write = await rawRequest(base, 'POST', '/api/v1/account/logout', { 'Content-Type': 'text/plain' }, '{}');
  assert.equal(write.status, 415);
  kinds.push(['a 415', write]);
  const bad = await rawRequest(base, 'GET', '/%2e%2e/etc/passwd');
  assert.ok(bad.status === 400 || bad.status === 404, show(bad));
  kinds.push(['a refused path', bad]);
  const head = await rawRequest(base, 'HEAD', '/');
  kinds.push(['a HEAD', head]);
  const player = server.client();
  const game = await openGame(player, (await levelIds(player))[0]);
  const step = await player.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'r' });
  assert.equal(step.status, 200, show(step));
  kinds.push(['a step', step]);
  const stream = await streamHeaders(base, `/api/v1/events?game=${game.id}`, player.cookieHeader());
  assert.equal(stream.status, 200, show(stream));
  kinds.push(['an event stream', stream]);
  for (const [what, r] of kinds) checkHeaders(r, `${what} (${r.status})`);
  // Which are data answers, each with its few headers, and which pages.
  const data = kinds.filter(([, r]) => isData(r)).map(([what]) => what);
  assert.deepEqual(data, ['an API answer', 'a JSON 404', 'a missing file', 'a 405', 'a 415', 'a refused path',
    'a step', 'an event stream'],
    'the answers read as data (JSON, even the errors of files, and streams)');
  console.log(`checked ${kinds.length} kinds of answer; policy: ${index.headers['content-security-policy']}`);
});

// The files of the client hold nothing that the policy would block: no
// inline script, no event handler attribute, no style attribute, no
// javascript: or data: URL in markup.
test('the client has no inline script, inline style or data: URL that the policy would refuse', () => {
  const root = path.join(SOURCE, 'static');
  const found = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(html|js|mjs)$/.test(e.name)) {
        const text = fs.readFileSync(p, 'utf8');
        const rel = path.relative(root, p);
        const rules = [
          [/<script(?![^>]*\bsrc=)[^>]*>/gi, 'an inline <script>'],
          [/<[a-z][^>]*\son[a-z]+\s*=\s*["']/gi, 'an event handler attribute'],
          [/<[a-z][^>]*\sstyle\s*=\s*["']/gi, 'a style attribute'],
          [/<style[\s>]/gi, 'a <style> element'],
          [/(?:href|src)\s*=\s*["'](?:data|javascript):/gi, 'a data: or javascript: URL'],
          [/\bnew Function\s*\(|\beval\s*\(/g, 'code evaluated from a string'],
        ];
        for (const [re, what] of rules) {
          for (const m of text.matchAll(re)) found.push(`${rel}: ${what}: ${m[0].slice(0, 80)}`);
        }
      }
    }
  };
  walk(root);
  assert.deepEqual(found, [], 'the Content-Security-Policy would block these');
});
