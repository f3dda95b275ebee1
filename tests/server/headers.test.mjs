// Security headers on every kind of answer (static file, core.wasm, API,
// JSON error, 405, 304), and a client that needs nothing the policy refuses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { SOURCE, rawRequest, show, startServer, stopCleanly } from './harness.mjs';

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

function checkHeaders(r, what) {
  const h = (name) => r.headers[name.toLowerCase()] ?? r.headers.get?.(name);
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
}

test('static files, core.wasm, API answers, errors and 304 all carry the security headers', async () => {
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
  for (const [what, r] of kinds) checkHeaders(r, `${what} (${r.status})`);
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
