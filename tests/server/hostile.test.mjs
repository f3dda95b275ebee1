// Hostile requests, one table: broken framing, huge headers, slow senders,
// oversized and truncated bodies, invalid UTF-8, JSON bombs, path
// traversal, SQL metacharacters in every string field, forged and expired
// session cookies, and cross-site writes. Each row states the status (and
// the error code where the answer is JSON); after every row the server
// still serves, and where a row must change nothing, a digest of the
// database is the same before and after.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { levelIds, show, sqlite, stopCleanly } from './harness.mjs';
import { startAdminServer, signedUpPlayer } from './admin.mjs';

const MAX_BODY = 8192;
const TIMEOUT_S = 2;

let server;
let admin;
let player;
let game;
let levels;
let host;

before(async () => {
  ({ server, admin } = await startAdminServer({
    args: ['--max-body', String(MAX_BODY), '--timeout', String(TIMEOUT_S), '--auth-per-minute', '10000'],
  }));
  host = `127.0.0.1:${server.port}`;
  levels = await levelIds(server.client());
  player = await signedUpPlayer(server, 'player');
  const opened = await player.post(`/api/v1/levels/${levels[1]}/game`);
  assert.equal(opened.status, 201, show(opened));
  game = opened.json.game;
});

after(() => stopCleanly(server));

// Everything a hostile request must not change.
function digest() {
  const tables = ['users', 'sessions', 'games', 'game_log', 'solutions', 'collections', 'levels', 'user_settings'];
  const have = new Set(sqlite(server.db, "SELECT name FROM sqlite_master WHERE type = 'table'").split('\n'));
  const sql = tables.filter((x) => have.has(x)).map((t) => `SELECT '${t}'; SELECT * FROM ${t} ORDER BY 1;`).join(' ');
  return crypto.createHash('sha256').update([...have].sort().join(',') + sqlite(server.db, sql)).digest('hex');
}

// Sends raw bytes (string or Buffer, or an array of [bytes, delay ms] for a
// trickle) and reads one answer. Resolves to {status, headers, text, json,
// closed, ms}: status null when the server closed without answering.
function raw(bytes, { wait = 20000 } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const sock = net.connect(server.port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (closed) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      const text = buf.toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      const headEnd = text.indexOf('\r\n\r\n');
      const headers = {};
      for (const line of text.slice(0, headEnd < 0 ? text.length : headEnd).split('\r\n').slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      const body = headEnd < 0 ? '' : buf.subarray(headEnd + 4).toString('utf8');
      let json;
      try { json = JSON.parse(body); } catch { json = undefined; }
      resolve({ status: m ? Number(m[1]) : null, headers, text: body, json, closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), wait);
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      const text = buf.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const len = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headEnd));
      if (len && buf.length - headEnd - 4 >= Number(len[1])) finish(false);
    });
    sock.on('close', () => finish(true));
    sock.on('error', () => finish(true));
    sock.on('connect', async () => {
      const parts = Array.isArray(bytes) ? bytes : [[bytes, 0]];
      for (const [chunk, delay] of parts) {
        if (delay) await new Promise((r) => setTimeout(r, delay));
        if (done || sock.destroyed) return;
        sock.write(chunk);
      }
    });
  });
}

// A whole request as bytes: method, target, headers (object), body.
function request(method, target, headers = {}, body) {
  const h = { Host: host, Connection: 'close', ...headers };
  if (body !== undefined && !('Content-Length' in h) && !('Transfer-Encoding' in h)) h['Content-Length'] = Buffer.byteLength(body);
  const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
  return body === undefined ? head : Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body)]);
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
const cookieOf = (client) => ({ Cookie: client.cookieHeader() });
const post = (p, body, headers = {}) => request('POST', p, { ...JSON_TYPE, ...headers }, typeof body === 'string' ? body : JSON.stringify(body));

// ---- The rows --------------------------------------------------------------------------------
// name, make() -> bytes (rows are built late: they need the server's port and
// the player's cookie), expect: status (or null: closed without answer;
// an array: any of these, where the protocol allows either), code: error
// code of the JSON answer, same: the database must not change.
function rows() {
  const R = [];
  const add = (name, make, expect, code, opts = {}) => R.push({ name, make, expect, code, same: opts.same ?? true, ...opts });
  const me = cookieOf(player);
  const log = `/api/v1/games/${game.id}/log`;

  // Broken framing.
  add('a request line of garbage', () => 'HELLO THERE\r\n\r\n', 400);
  add('no HTTP version', () => 'GET /\r\n\r\n', [400, null]);
  add('HTTP/9.9', () => `GET / HTTP/9.9\r\nHost: ${host}\r\n\r\n`, [400, 505]);
  add('HTTP/1.1 without Host', () => 'GET /api/v1/collections HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'bad_request');
  add('a header without a colon', () => `GET / HTTP/1.1\r\nHost: ${host}\r\nno colon here\r\n\r\n`, 400);
  // libmicrohttpd 0.9.75 ends a header value at a NUL byte, shows sokod only
  // what comes before and reports that length: such a request cannot be
  // told apart and is served. Browsers never send one (fetch refuses such
  // values), so a cross-site write cannot hide another host behind a NUL.
  add('a header with a NUL byte', () => `GET / HTTP/1.1\r\nHost: ${host}\r\nX-A: a\u0000b\r\nConnection: close\r\n\r\n`, [200, 400]);
  // Other control characters in a value are refused.
  add('a header value with an escape character', () => `GET / HTTP/1.1\r\nHost: ${host}\r\nX-A: a\u001bb\r\nConnection: close\r\n\r\n`, 400, 'bad_request');
  add('a header value with a DEL', () => `GET / HTTP/1.1\r\nHost: ${host}\r\nX-A: a\u007fb\r\nConnection: close\r\n\r\n`, 400, 'bad_request');
  add('a header value with a tab (allowed)', () => `GET /api/v1/collections HTTP/1.1\r\nHost: ${host}\r\nX-A: a\tb\r\nConnection: close\r\n\r\n`, 200);
  add('a space before the colon', () => `GET / HTTP/1.1\r\nHost : ${host}\r\n\r\n`, 400);
  add('a folded header line', () => `GET / HTTP/1.1\r\nHost: ${host}\r\nX-A: a\r\n  b\r\nConnection: close\r\n\r\n`, [200, 400]);
  add('a negative Content-Length', () => request('POST', log, { ...JSON_TYPE, ...me, 'Content-Length': '-5' }, '{}'), 400);
  add('a Content-Length of letters', () => request('POST', log, { ...JSON_TYPE, ...me, 'Content-Length': 'ten' }, '{}'), 400);
  add('a Content-Length beyond 64 bits', () => request('POST', log, { ...JSON_TYPE, ...me, 'Content-Length': '99999999999999999999999' }), [400, 413]);
  add('two different Content-Lengths', () => `POST ${log} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 40\r\nConnection: close\r\n\r\n{}`, 400);
  add('chunked with a bad chunk size', () => request('POST', log, { ...JSON_TYPE, ...me, 'Transfer-Encoding': 'chunked' }, 'zz\r\n{}\r\n0\r\n\r\n'), [400, null]);
  add('chunked and Content-Length at once', () => request('POST', log, { ...JSON_TYPE, ...me, 'Transfer-Encoding': 'chunked', 'Content-Length': '5' }, '2\r\n{}\r\n0\r\n\r\n'), 400, 'bad_request');
  add('a Host of another site (DNS rebinding)', () => request('GET', '/api/v1/collections', { Host: `rebind.example:${server.port}` }), 421, 'misdirected');
  add('an unknown transfer coding', () => request('POST', log, { ...JSON_TYPE, ...me, 'Transfer-Encoding': 'gzip' }, '{}'), 501, 'not_implemented');
  add('a lower-case method', () => request('get', '/api/v1/collections'), [400, 404, 405, 501]);
  add('a 300-letter method', () => request('X'.repeat(300), '/api/v1/collections'), [400, 405, 501]);
  add('an absolute URI elsewhere', () => request('GET', 'http://evil.example/etc/passwd'), [400, 404]);
  add('an asterisk target on GET', () => request('GET', '*'), [400, 404]);
  add('CONNECT to another host', () => `CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n`, 421, 'misdirected');
  add('TRACE', () => request('TRACE', '/api/v1/collections'), [404, 405, 501]);
  add('bare LF line ends', () => `GET /api/v1/collections HTTP/1.1\nHost: ${host}\nConnection: close\n\n`, [200, 400]);
  add('a body on a GET', () => request('GET', '/api/v1/collections', { 'Content-Length': '5' }, 'xxxxx'), [200, 400]);
  add('a target without a slash', () => request('GET', 'api/v1/collections'), [400, 404]);

  // Huge headers and lines (sokod gives a connection 16 KiB).
  add('one 20 KiB header', () => request('GET', '/api/v1/collections', { 'X-Big': 'a'.repeat(20000) }), [400, 413, 431]);
  add('a 20 KiB URL', () => request('GET', `/api/v1/collections?q=${'a'.repeat(20000)}`), [400, 413, 414]);
  add('2,000 small headers', () => request('GET', '/api/v1/collections', Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`X-H${i}`, 'v']))), [400, 413, 431]);
  add('a 20 KiB cookie', () => request('GET', '/api/v1/account', { Cookie: `sokod_session=${'A'.repeat(20000)}` }), [400, 413, 431]);
  add('a 20 KiB header name', () => `GET / HTTP/1.1\r\nHost: ${host}\r\n${'N'.repeat(20000)}: v\r\n\r\n`, [400, 413, 431]);

  // Oversized and truncated bodies.
  add('Content-Length beyond --max-body', () => request('POST', log, { ...JSON_TYPE, ...me, 'Content-Length': String(MAX_BODY + 1) }), 413, 'body_too_large');
  add('a body beyond --max-body, chunked', () => {
    const chunk = 'a'.repeat(4096);
    const n = Math.ceil((MAX_BODY + 1) / 4096);
    const body = `${Array.from({ length: n }, () => `1000\r\n${chunk}\r\n`).join('')}0\r\n\r\n`;
    return request('POST', log, { ...JSON_TYPE, ...me, 'Transfer-Encoding': 'chunked' }, body);
  }, 413, 'body_too_large');
  add('a body cut short (the client leaves)', () => [[request('POST', log, { ...JSON_TYPE, ...me, 'Content-Length': '100' }), 0], [Buffer.from('{"seq": 1, "st'), 0], [Buffer.alloc(0), 50]], null, undefined, { closeAfterSend: true });
  add('a body longer than its Content-Length', () => request('POST', log, { ...JSON_TYPE, ...me, 'Content-Length': '3' }, '{"seq":1,"steps":"u"}'), 400, 'bad_json');
  add('Expect: 100-continue beyond the cap', () => request('POST', log, { ...JSON_TYPE, ...me, Expect: '100-continue', 'Content-Length': String(MAX_BODY * 4) }), 413, 'body_too_large');

  // Slow senders: dropped after the idle timeout, without answering.
  add('headers trickled a byte at a time, stalled', () => [[`GET / HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `, 0], ...Array.from({ length: 3 }, () => ['a', 300])], null, undefined, { slow: true });
  add('a declared body never sent', () => request('POST', log, { ...JSON_TYPE, ...me, 'Content-Length': '50' }), null, undefined, { slow: true });
  add('half a body, then silence', () => [[request('POST', log, { ...JSON_TYPE, ...me, 'Content-Length': '50' }), 0], ['{"seq":1', 100]], null, undefined, { slow: true });
  add('a connection that sends nothing', () => [[Buffer.alloc(0), 0]], null, undefined, { slow: true });

  // Invalid UTF-8.
  add('invalid UTF-8 in a JSON string', () => Buffer.concat([Buffer.from(request('POST', '/api/v1/account/login', { ...JSON_TYPE, 'Content-Length': '40' })), Buffer.from('{"username":"\xff\xfe","password":"x"}'.padEnd(40, ' '), 'latin1')]), 400, 'bad_json');
  add('an overlong UTF-8 slash in a JSON string', () => Buffer.concat([Buffer.from(request('POST', '/api/v1/account/login', { ...JSON_TYPE, 'Content-Length': '40' })), Buffer.from('{"username":"\xc0\xaf","password":"x"}'.padEnd(40, ' '), 'latin1')]), 400, 'bad_json');
  add('a lone surrogate escape', () => post('/api/v1/account/signup', '{"username":"ab\\ud800c","password":"a long password"}'), [400], 'bad_json');
  add('a NUL escape in a name', () => post('/api/v1/account/signup', '{"username":"ab\\u0000cd","password":"a long password"}'), 400, 'bad_json');
  add('invalid UTF-8 in the path', () => request('GET', '/api/v1/collections/%ff%fe'), 404);
  add('invalid UTF-8 in a static path', () => request('GET', '/%ff%c0%af.js'), [400, 404]);
  add('invalid UTF-8 in a header', () => Buffer.from(`GET /api/v1/collections HTTP/1.1\r\nHost: ${host}\r\nX-A: \xff\xfe\r\nConnection: close\r\n\r\n`, 'latin1'), 200, undefined);
  add('invalid UTF-8 in a settings value', () => {
    const body = Buffer.from('{"settings":{"theme":"\xff"}}', 'latin1');
    return Buffer.concat([Buffer.from(request('PUT', '/api/v1/account/settings', { ...JSON_TYPE, ...me, 'Content-Length': String(body.length) })), body]);
  }, 400, 'bad_json');
  add('invalid UTF-8 in a query', () => request('GET', `/api/v1/games/${game.id}/reach?x=%ff&y=1`, me), 400, 'invalid_value');

  // JSON bombs.
  add('nesting 100,000 deep', () => request('POST', log, { ...JSON_TYPE, ...me, 'Content-Length': String(MAX_BODY) }, '['.repeat(MAX_BODY)), 400, 'bad_json');
  add('nesting 4,000 deep inside an object', () => post(log, `{"seq":${'['.repeat(4000)}1${']'.repeat(4000)}}`, me), 400, 'bad_json');
  add('nesting 1,000 deep in a known field', () => post(log, `{"seq":1,"steps":${'['.repeat(1000)}${']'.repeat(1000)}}`, me), 400, 'wrong_type');
  add('a huge array as the body', () => post(log, `[${Array(4000).fill(0).join(',')}]`, me), 400, 'bad_json');
  add('a huge array in a field', () => post(log, `{"seq":1,"steps":[${Array(3500).fill(0).join(',')}]}`, me), 400, 'wrong_type');
  add('2,000 unknown keys', () => post(log, `{${Array.from({ length: 600 }, (_, i) => `"k${i}":1`).join(',')}}`, me), 400, 'unknown_field');
  add('a repeated key', () => post(log, '{"seq":1,"seq":2,"steps":"u"}', me), 400, 'bad_json');
  add('a number beyond 64 bits', () => post(log, '{"seq":999999999999999999999999,"steps":"u"}', me), 400, 'bad_json');
  add('1e999', () => post(log, '{"seq":1e999,"steps":"u"}', me), 400, 'bad_json');
  add('a negative seq', () => post(log, '{"seq":-1,"steps":"u"}', me), [400, 409]);
  add('seq at INT64_MAX', () => post(log, '{"seq":9223372036854775807,"steps":"u"}', me), [400, 409]);
  add('a 7 KiB step string of one letter', () => post(log, { seq: 1, steps: 'u'.repeat(7000) }, me), 422, 'step_refused');
  add('a long run-length count', () => post(log, { seq: 1, steps: '99999999999999999999u' }, me), [400, 422]);
  add('an empty object for a game entry', () => post(log, {}, me), 400, 'missing_field');
  add('trailing garbage after JSON', () => post(log, '{"seq":1,"steps":"u"} xyz', me), 400, 'bad_json');
  add('a BOM before the JSON', () => post(log, '\ufeff{"seq":1,"steps":"u"}', me), 400, 'bad_json');

  // Path traversal on static files.
  for (const [p, statuses] of [
    ['/../etc/passwd', [400, 404]], ['/%2e%2e/etc/passwd', [400, 404]], ['/%2E%2E/%2E%2E/etc/passwd', [400, 404]],
    ['/js/..%2f..%2f..%2fetc/passwd', [400, 404]], ['/..%5c..%5cetc%5cpasswd', [400, 404]], ['/%252e%252e/etc/passwd', [400, 404]],
    ['/.git/config', [400, 404]], ['/js/../../server/main.c', [400, 404]], ['/%c0%ae%c0%ae/etc/passwd', [400, 404]],
    ['/index.html%00.js', [400]], ['/js/main.js%00', [400]], ['//etc/passwd', [400, 404]], ['/./index.html', [400, 404]],
    ['/js/.%2e/.%2e/.%2e/etc/passwd', [400, 404]], ['/..;/etc/passwd', [400, 404]], [`/${'a/'.repeat(2000)}x`, [400, 404, 414]],
    ['/proc/self/environ', [404]], ['/core.wasm/../../etc/passwd', [400, 404]],
  ]) {
    add(`static ${p.slice(0, 40)}`, () => request('GET', p), statuses, undefined, { noSecrets: true });
  }

  // SQL metacharacters in every string field of every JSON endpoint: each
  // is taken as text, refused by its rules, or stored as it is.
  const nasty = ["' OR '1'='1", "'; DROP TABLE users; --", 'x"); DELETE FROM games; --', '%_\\', "admin'--", '1; ATTACH DATABASE \'/tmp/x\' AS x'];
  for (const s of nasty) {
    add(`sign-up name ${s}`, () => post('/api/v1/account/signup', { username: s, password: 'a long password' }), 400, 'invalid_value');
    add(`log-in name ${s}`, () => post('/api/v1/account/login', { username: s, password: s }), 401, 'bad_credentials');
    add(`password change ${s}`, () => post('/api/v1/account/password', { current_password: s, new_password: `${s} and more` }, me), 401, 'bad_credentials');
    add(`steps ${s}`, () => post(log, { seq: 1, steps: s }, me), 400, 'invalid_steps');
    add(`settings key ${s}`, () => request('PUT', '/api/v1/account/settings', { ...JSON_TYPE, ...me }, JSON.stringify({ settings: { [s]: 1 } })), 400, 'invalid_value');
    add(`upload file name ${s}`, () => post('/api/v1/admin/uploads', { filename: s, size: 10 }, cookieOf(admin)), [201, 400], undefined, { same: false, cleanupUpload: true });
    add(`upload format ${s}`, () => post('/api/v1/admin/uploads', { filename: 'a.sok', size: 10, format: s }, cookieOf(admin)), 400, 'invalid_value');
    add(`collection name, description and author ${s}`, () => request('PATCH', '/api/v1/admin/collections/1', { ...JSON_TYPE, ...cookieOf(admin) }, JSON.stringify({ name: `${s} (renamed)`, description: s, author: s })), 200, undefined,
      { same: false, then: async () => assert.equal(sqlite(server.db, 'SELECT name FROM collections WHERE id = 1'), `${s} (renamed)`) });
    add(`collection name ${s} in a query`, () => request('GET', `/api/v1/collections?name=${encodeURIComponent(s)}`), 200);
  }
  add('a settings value with SQL in it is stored as it is', () => request('PUT', '/api/v1/account/settings', { ...JSON_TYPE, ...me }, JSON.stringify({ settings: { theme: nasty[1] } })), 200, undefined,
    { same: false, then: async () => assert.equal((await raw(request('GET', '/api/v1/account/settings', me))).json.settings.theme, nasty[1]) });
  add('a level title with SQL in it is stored as it is', () => request('PATCH', '/api/v1/admin/levels/1', { ...JSON_TYPE, ...cookieOf(admin) }, JSON.stringify({ title: nasty[2] })), 200, undefined,
    { same: false, then: async () => assert.equal(sqlite(server.db, 'SELECT title FROM levels WHERE id = 1'), nasty[2]) });

  // Forged and expired session cookies: nobody, whatever the cookie.
  const forged = [
    ['a random token', crypto.randomBytes(32).toString('base64url')],
    ['a short token', 'abc'],
    ['a token of 33 bytes', crypto.randomBytes(33).toString('base64url')],
    ['a token with padding', `${crypto.randomBytes(32).toString('base64')}`],
    ['a token of quotes and semicolons', '"\';--'],
    ['an empty token', ''],
  ];
  for (const [what, value] of forged) {
    add(`a game entry with ${what}`, () => post(log, { seq: 1, steps: 'u' }, { Cookie: `sokod_session=${value}` }), 401, 'no_session');
  }
  add('the cookie of a logged-out session', () => post(log, { seq: 1, steps: 'u' }, { Cookie: `sokod_session=${deadCookie}` }), 401, 'no_session');
  add('the cookie of an expired session', () => post(log, { seq: 1, steps: 'u' }, { Cookie: `sokod_session=${expiredCookie}` }), 401, 'no_session');
  add('two session cookies, the first forged', () => post(log, { seq: 1, steps: 'u' }, { Cookie: `sokod_session=${forged[0][1]}; sokod_session=${player.cookies.get('sokod_session')}` }), [401, 200], undefined, { same: false });
  add('a game of the player with another user\'s cookie', () => post(log, { seq: 1, steps: 'u' }, cookieOf(admin)), 404, 'game_not_found');

  // Cross-site writes.
  add('a write from another origin', () => post(log, { seq: 1, steps: 'u' }, { ...me, Origin: 'http://evil.example' }), 403, 'forbidden_origin');
  add('a write from Origin null', () => post(log, { seq: 1, steps: 'u' }, { ...me, Origin: 'null' }), 403, 'forbidden_origin');
  add('a write from this host over https', () => post(log, { seq: 1, steps: 'u' }, { ...me, Origin: `https://${host}` }), 403, 'forbidden_origin');
  add('a write from a look-alike host', () => post(log, { seq: 1, steps: 'u' }, { ...me, Origin: `http://${host}.evil.example` }), 403, 'forbidden_origin');
  add('log out everywhere from another origin', () => post('/api/v1/account/logout-all', {}, { ...me, Origin: 'http://evil.example' }), 403, 'forbidden_origin');
  add('a password change from another origin', () => post('/api/v1/account/password', { current_password: 'a password of a player', new_password: 'owned by evil' }, { ...me, Origin: 'http://evil.example' }), 403, 'forbidden_origin');
  add('an admin delete from another origin', () => request('DELETE', '/api/v1/admin/collections/1', { ...JSON_TYPE, ...cookieOf(admin), Origin: 'http://evil.example' }), 403, 'forbidden_origin');
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/json-patch+json', 'text/json']) {
    add(`a write sent as ${type}`, () => request('POST', log, { ...me, 'Content-Type': type }, JSON.stringify({ seq: 1, steps: 'u' })), 415, 'unsupported_media_type');
  }
  add('a write without Content-Type', () => request('POST', log, me, JSON.stringify({ seq: 1, steps: 'u' })), 415, 'unsupported_media_type');
  add('a log-out by GET', () => request('GET', '/api/v1/account/logout', me), 405, 'method_not_allowed');
  add('a game entry by GET with a query', () => request('GET', `${log}?seq=1&steps=u`, me), 405, 'method_not_allowed');
  return R;
}

let deadCookie;
let expiredCookie;

test('hostile requests get their status, the server stays up, and nothing changes that must not', async () => {
  // A session that was logged out, and one that expired.
  const dead = await signedUpPlayer(server, 'leaver');
  deadCookie = dead.cookies.get('sokod_session');
  assert.equal((await dead.post('/api/v1/account/logout', {})).status, 200);
  const old = await signedUpPlayer(server, 'oldtimer');
  expiredCookie = old.cookies.get('sokod_session');
  const oldId = (await old.get('/api/v1/account')).json.user.id;
  sqlite(server.db, `UPDATE sessions SET expires_at = 1 WHERE user_id = ${oldId}`);

  const table = rows();
  assert.ok(table.length >= 100, `at least 100 rows (${table.length})`);
  const me = cookieOf(player);
  const failures = [];
  // The slow rows run together, beside the others, so that the test waits
  // for the idle timeout once.
  const slow = table.filter((r) => r.slow).map(async (row) => {
    const r = await raw(row.make(), { wait: (TIMEOUT_S + 10) * 1000 });
    if (!r.closed) failures.push(`${row.name}: the server kept the connection past ${TIMEOUT_S + 10} s`);
    else if (r.status !== null) failures.push(`${row.name}: answered ${r.status} instead of closing`);
    return r;
  });
  // The digest after one row is the one before the next: one read per row.
  let current = digest();
  for (const row of table.filter((r) => !r.slow)) {
    const before = current;
    const r = await raw(row.make());
    const expected = Array.isArray(row.expect) ? row.expect : [row.expect];
    const what = `${row.name}: got ${r.status === null ? (r.closed ? 'a closed connection' : 'no answer') : r.status} ${r.text.slice(0, 200)}`;
    if (!expected.includes(r.status)) failures.push(`${what}; expected ${expected.join(' or ')}`);
    else if (row.code && r.json?.error?.code !== row.code) failures.push(`${what}; expected the code ${row.code}`);
    if (row.noSecrets && /root:|sokod_session|#include/.test(r.text)) failures.push(`${row.name}: leaked a file`);
    current = digest();
    if (row.same && current !== before) failures.push(`${row.name}: the database changed`);
    if (row.then) {
      try { await row.then(); } catch (e) { failures.push(`${row.name}: ${e.message}`); }
    }
    // On a connection of its own: the idle timeout is short, and a kept-alive
    // one may be closed by the server just as the client reuses it.
    const alive = await raw(request('GET', '/api/v1/account', me));
    if (alive.status !== 200 || alive.json?.user?.username !== 'player') {
      failures.push(`${row.name}: the server no longer serves the player: ${show(alive)}`);
    }
  }
  const slowAnswers = await Promise.all(slow);
  console.log(`${table.length} rows; slow senders dropped after ${slowAnswers.map((r) => r.ms).join(', ')} ms`);
  for (const f of failures) console.log(`FAILED ${f}`);
  assert.deepEqual(failures, [], `${failures.length} of ${table.length} rows failed`);
  // Every row's game entry was refused: the player's game is untouched.
  const g = await raw(request('GET', `/api/v1/games/${game.id}`, me));
  assert.equal(g.json.game.seq, 0, `the player's game took no entry: ${show(g)}`);
  assert.equal(sqlite(server.db, 'PRAGMA integrity_check'), 'ok');
});
