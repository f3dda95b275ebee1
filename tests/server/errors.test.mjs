// Bad input: each gets its status and error code, and the server keeps serving.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { levelIds, rawRequest, show, startServer, stopCleanly, tempDir } from './harness.mjs';

let server;
let ids;
let owner;
let game;
let staticDir;

before(async () => {
  const dir = tempDir();
  staticDir = path.join(dir, 'static');
  fs.mkdirSync(path.join(staticDir, 'js'), { recursive: true });
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>sokod</title>');
  fs.writeFileSync(path.join(staticDir, 'js', 'app.js'), 'export const x = 1;\n');
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the static folder\n');
  fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(staticDir, 'link.txt'));
  server = await startServer({ dir, args: ['--static', staticDir, '--max-body', '4096'] });
  ids = await levelIds(server.client());
  owner = server.client();
  game = (await owner.post(`/api/v1/levels/${ids[0]}/game`)).json.game;
});

after(() => stopCleanly(server));

// Checks an error answer: status, code, and the one error shape.
function expectError(r, status, code, what) {
  assert.equal(r.status, status, `${what}: ${show(r)}`);
  assert.ok(r.json && r.json.error, `${what}: the answer is {"error": ...}: ${show(r)}`);
  assert.equal(r.json.error.code, code, `${what}: ${show(r)}`);
  assert.equal(typeof r.json.error.message, 'string');
  assert.ok(r.json.error.message.length > 0);
}

async function stillServing() {
  const r = await server.client().get('/api/v1/collections');
  assert.equal(r.status, 200, `the server still serves: ${show(r)}`);
}

const log = () => `/api/v1/games/${game.id}/log`;

test('malformed JSON, wrong types, unknown and missing fields', async () => {
  const cases = [
    ['{"seq": 1, "steps": ', 400, 'bad_json', 'cut JSON'],
    ['[1, 2]', 400, 'bad_json', 'an array'],
    ['"text"', 400, 'bad_json', 'a string'],
    ['{"seq": 1, "seq": 2, "steps": "r"}', 400, 'bad_json', 'a repeated key'],
    [{ seq: '1', steps: 'r' }, 400, 'wrong_type', 'seq as a string'],
    [{ seq: 1.5, steps: 'r' }, 400, 'wrong_type', 'seq as a fraction'],
    [{ seq: 1, steps: ['r'] }, 400, 'wrong_type', 'steps as an array'],
    [{ seq: 1, restart: 'yes' }, 400, 'wrong_type', 'restart as a string'],
    [{ seq: 1, steps: 'r', speed: 2 }, 400, 'unknown_field', 'an unknown field'],
    [{ steps: 'r' }, 400, 'missing_field', 'no seq'],
    [{ seq: 1 }, 400, 'missing_field', 'no entry'],
    [{ seq: 1, steps: 'r', undo: 1 }, 400, 'invalid_value', 'two entries in one'],
    [{ seq: 0, steps: 'r' }, 400, 'invalid_value', 'seq 0'],
    [{ seq: 1, undo: 0 }, 400, 'invalid_value', 'undo 0'],
    [{ seq: 1, restart: false }, 400, 'invalid_value', 'restart false'],
    [{ seq: 1, steps: '' }, 400, 'invalid_steps', 'no steps'],
    [{ seq: 1, steps: 'rrx' }, 400, 'invalid_steps', 'a letter that is no step'],
    [{ seq: 1, steps: '3r' }, 400, 'invalid_steps', 'a run-length count'],
    [{ seq: 1, steps: 'r r' }, 400, 'invalid_steps', 'a blank'],
    [{ seq: 1, steps: 'rü' }, 400, 'invalid_steps', 'a non-ASCII letter'],
  ];
  for (const [body, status, code, what] of cases) {
    const r = await owner.post(log(), body);
    console.log(`${what}: ${r.status} ${r.json?.error?.code}`);
    expectError(r, status, code, what);
  }
  const r = await owner.post('/api/v1/account/login', { username: 'a', password: 1 });
  expectError(r, 400, 'wrong_type', 'a number as a password');
  const g = await owner.get(`/api/v1/games/${game.id}`);
  assert.equal(g.json.game.seq, 0, 'none of these changed the game');
  await stillServing();
});

test('steps into walls and blocked boxes are refused with the true state', async () => {
  let r = await owner.post(log(), { seq: 1, steps: 'l' });
  expectError(r, 422, 'step_refused', 'a step into a wall');
  assert.equal(r.json.game.seq, 0, show(r));
  assert.match(r.json.error.message, /step 1/);
  r = await owner.post(log(), { seq: 1, steps: 'rrrr' });
  expectError(r, 422, 'step_refused', 'a push into a wall after valid steps');
  assert.match(r.json.error.message, /step 4/);
  assert.equal(r.json.game.history, '', 'a refused batch applies nothing of itself');
  assert.deepEqual(r.json.game.player, { x: 1, y: 1 });
  r = await owner.post(log(), { seq: 1, steps: 'r' });
  assert.equal(r.status, 200, `the same seq works after a refusal: ${show(r)}`);
  await stillServing();
});

test('bodies over the cap are refused with 413, declared or streamed', async () => {
  const big = JSON.stringify({ seq: 1, steps: 'r'.repeat(5000) });
  let r = await owner.post(log(), big);
  expectError(r, 413, 'body_too_large', 'a declared length over the cap');

  // A chunked body has no length up front: the cap applies while reading.
  r = await new Promise((resolve, reject) => {
    const u = new URL(server.url);
    const sock = net.connect(Number(u.port), u.hostname, () => {
      sock.write(`POST ${log()} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\n` +
        `Cookie: ${owner.cookieHeader()}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`);
      for (let i = 0; i < 10; i++) sock.write(`3e8\r\n${'r'.repeat(1000)}\r\n`);
      sock.write('0\r\n\r\n');
    });
    let text = '';
    sock.setEncoding('utf8');
    sock.on('data', (d) => { text += d; });
    sock.on('end', () => resolve(text));
    sock.on('error', reject);
  });
  assert.match(r, /^HTTP\/1\.1 413 /, r);
  assert.match(r, /"code":"body_too_large"/, r);
  await stillServing();
});

test('a known path with another method gets 405 and Allow from the table; unknown paths 404', async () => {
  let r = await owner.req('DELETE', `/api/v1/games/${game.id}`);
  expectError(r, 405, 'method_not_allowed', 'DELETE on a game');
  assert.equal(r.headers.get('allow'), 'GET, HEAD');
  r = await owner.get('/api/v1/account/signup');
  expectError(r, 405, 'method_not_allowed', 'GET on sign-up');
  assert.equal(r.headers.get('allow'), 'POST');
  r = await owner.req('PUT', '/index.html', '{}');
  expectError(r, 405, 'method_not_allowed', 'PUT on a static file');
  r = await owner.get('/api/v1/nothing');
  expectError(r, 404, 'not_found', 'an unknown route');
  r = await owner.post('/api/v1/nothing', {});
  expectError(r, 404, 'not_found', 'POST to an unknown route');
  r = await owner.get('/api/v1/games/abc');
  expectError(r, 404, 'not_found', 'an id that is not a number');
  r = await owner.get('/api/v1/levels/999999');
  expectError(r, 404, 'level_not_found', 'a level that does not exist');
  r = await owner.get('/api/v1/collections/999999');
  expectError(r, 404, 'collection_not_found', 'a collection that does not exist');
  r = await owner.post('/api/v1/levels/999999/game', {});
  expectError(r, 404, 'level_not_found', 'a game on a level that does not exist');
  await stillServing();
});

test('a missing or foreign session cannot touch a game', async () => {
  const nobody = server.client();
  let r = await nobody.get(`/api/v1/games/${game.id}`);
  expectError(r, 401, 'no_session', 'no cookie');
  r = await nobody.post(log(), { seq: 5, steps: 'r' });
  expectError(r, 401, 'no_session', 'no cookie, writing');
  nobody.cookies.set('sokod_session', 'not-a-token');
  r = await nobody.get(`/api/v1/games/${game.id}`);
  expectError(r, 401, 'no_session', 'a made-up cookie');
  nobody.cookies.set('sokod_session', 'A'.repeat(43));
  r = await nobody.get(`/api/v1/games/${game.id}/reach?x=3&y=1`);
  expectError(r, 401, 'no_session', 'a well-formed unknown token');

  const stranger = server.client();
  await stranger.post(`/api/v1/levels/${ids[1]}/game`);
  r = await stranger.get(`/api/v1/games/${game.id}`);
  expectError(r, 404, 'game_not_found', 'another user\'s game');
  r = await stranger.post(log(), { seq: 2, steps: 'l' });
  expectError(r, 404, 'game_not_found', 'writing to another user\'s game');
  r = await stranger.post(`/api/v1/games/${game.id}/walk`, { seq: 2, x: 1, y: 1 });
  expectError(r, 404, 'game_not_found', 'walking in another user\'s game');
  const mine = await owner.get(`/api/v1/games/${game.id}`);
  assert.equal(mine.json.game.seq, 1, 'the owner\'s game is untouched');
});

test('state-changing requests need JSON and, when an Origin is sent, this origin', async () => {
  let r = await owner.post(log(), JSON.stringify({ seq: 2, steps: 'l' }), { 'Content-Type': 'text/plain' });
  expectError(r, 415, 'unsupported_media_type', 'text/plain');
  r = await owner.post(log(), 'seq=2&steps=l', { 'Content-Type': 'application/x-www-form-urlencoded' });
  expectError(r, 415, 'unsupported_media_type', 'a form');
  r = await owner.post(log(), { seq: 2, steps: 'l' }, { Origin: 'http://evil.example' });
  expectError(r, 403, 'forbidden_origin', 'a foreign Origin');
  r = await owner.post(log(), { seq: 2, steps: 'l' }, { Origin: 'null' });
  expectError(r, 403, 'forbidden_origin', 'Origin null');
  r = await owner.post(log(), { seq: 2, steps: 'l' }, { Origin: `https://127.0.0.1:${server.port}` });
  expectError(r, 403, 'forbidden_origin', 'the same host over another scheme');
  const g = await owner.get(`/api/v1/games/${game.id}`);
  assert.equal(g.json.game.seq, 1, 'no refused request changed the game');
  r = await owner.post(log(), { seq: 2, steps: 'l' }, { Origin: `http://127.0.0.1:${server.port}`, 'Content-Type': 'application/json; charset=utf-8' });
  assert.equal(r.status, 200, `the same origin with a charset is fine: ${show(r)}`);
  r = await owner.post('/api/v1/account/signup', JSON.stringify({ username: 'mallory', password: 'long enough' }), { 'Content-Type': 'text/plain' });
  expectError(r, 415, 'unsupported_media_type', 'sign-up as text');
  r = await owner.get('/api/v1/account');
  assert.equal(r.json.user.guest, true, 'the refused sign-up did nothing');
  await stillServing();
});

test('static files: types, index.html, and no way out of the folder', async () => {
  let r = await rawRequest(server.url, 'GET', '/');
  assert.equal(r.status, 200, show(r));
  assert.match(r.headers['content-type'], /^text\/html/);
  assert.match(r.text, /<title>sokod/);
  r = await rawRequest(server.url, 'GET', '/js/app.js');
  assert.equal(r.status, 200, show(r));
  assert.match(r.headers['content-type'], /^text\/javascript/);
  r = await rawRequest(server.url, 'GET', '/core.wasm');
  assert.equal(r.status, 200, show(r));
  assert.equal(r.headers['content-type'], 'application/wasm');
  assert.equal(r.text.slice(1, 4), 'asm');
  r = await rawRequest(server.url, 'GET', '/missing.js');
  expectError(r, 404, 'not_found', 'a missing file');

  const attempts = ['/../secret.txt', '/js/../../secret.txt', '/%2e%2e/secret.txt', '/js/%2E%2E/%2e%2e/secret.txt',
    '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt', '/js/..\\..\\secret.txt', '/.hidden', '/js/%00/../../secret.txt'];
  for (const p of attempts) {
    r = await rawRequest(server.url, 'GET', p);
    console.log(`GET ${p}: ${r.status} ${r.json?.error?.code}`);
    assert.ok(r.status === 400 || r.status === 404, `${p}: ${show(r)}`);
    assert.ok(!r.text.includes('outside the static folder'), `${p} leaked the file`);
    assert.ok(r.json?.error?.code === 'bad_path' || r.json?.error?.code === 'not_found', `${p}: ${show(r)}`);
  }
  r = await rawRequest(server.url, 'GET', '/link.txt');
  expectError(r, 404, 'not_found', 'a symlink that leads out of the folder');

  // A browser's navigation to a missing page gets the folder's 404.html,
  // still as a 404; a script or a tool gets the JSON error, as do paths
  // under /api/ whoever asks.
  const html = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
  r = await rawRequest(server.url, 'GET', '/no/such/page', html);
  expectError(r, 404, 'not_found', 'a page asked for before the folder has a 404.html');
  fs.writeFileSync(path.join(staticDir, '404.html'), '<!doctype html><title>Not found · sokod</title><h1>Nothing here</h1>');
  r = await rawRequest(server.url, 'GET', '/no/such/page', html);
  assert.equal(r.status, 404, show(r));
  assert.match(r.headers['content-type'], /^text\/html/, show(r));
  assert.match(r.text, /<h1>Nothing here<\/h1>/, 'the folder\'s 404.html');
  r = await rawRequest(server.url, 'GET', '/missing.js');
  expectError(r, 404, 'not_found', 'a missing file asked for without text/html');
  r = await rawRequest(server.url, 'GET', '/api/v1/nothing-here', html);
  expectError(r, 404, 'not_found', 'an unknown API path, even from a browser');
  r = await rawRequest(server.url, 'GET', '/%2e%2e/secret.txt');
  expectError(r, 400, 'bad_path', 'an encoded ..');
  await stillServing();
});

test('broken HTTP and abandoned connections do not stop the server', async () => {
  await new Promise((resolve) => {
    const u = new URL(server.url);
    const sock = net.connect(Number(u.port), u.hostname, () => {
      sock.write('GARBAGE\r\n\r\n');
    });
    sock.on('data', () => {});
    sock.on('close', resolve);
    sock.on('error', resolve);
  });
  await new Promise((resolve) => {
    const u = new URL(server.url);
    const sock = net.connect(Number(u.port), u.hostname, () => {
      sock.write(`POST ${log()} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"seq":`);
      setTimeout(() => { sock.destroy(); resolve(); }, 50);
    });
    sock.on('error', resolve);
  });
  await stillServing();
  const g = await owner.get(`/api/v1/games/${game.id}`);
  assert.equal(g.json.game.seq, 2, 'a half-sent entry was not applied');
});
