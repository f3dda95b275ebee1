// Who may use the admin API: every admin route (listed by the server from
// its routing table, checked against the table's source) refuses nobody
// and guests with 401 and accounts without the right with 403; `sokod
// admin` creates admins (password on standard input, never an argument),
// grants and revokes the right, and the audit log records it all.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { SOURCE, runSokod, show, stopCleanly } from './harness.mjs';
import { ADMIN, startAdminServer, signedUpPlayer } from './admin.mjs';

let server;
let admin;

before(async () => {
  ({ server, admin } = await startAdminServer());
});

after(() => stopCleanly(server));

// The admin routes as the routing table's source writes them.
function routesInSource() {
  const text = fs.readFileSync(path.join(SOURCE, 'server', 'endpoints.c'), 'utf8');
  const found = [];
  for (const m of text.matchAll(/\{HTTP_(GET|POST|PUT|PATCH|DELETE), "(\/api\/v1\/admin[^"]*)"/g)) {
    found.push(`${m[1]} ${m[2]}`);
  }
  return found;
}

// Sends a request to a route with {id} made 1, and a JSON body for writes.
function call(client, route) {
  const p = route.path.replaceAll('{id}', '1');
  return client.req(route.method, p, route.method === 'GET' ? undefined : {});
}

test('the server lists every admin route of its routing table', async () => {
  const r = await admin.get('/api/v1/admin/routes');
  assert.equal(r.status, 200, show(r));
  const listed = r.json.routes.map((x) => `${x.method} ${x.path}`);
  const source = routesInSource();
  console.log(`admin routes listed by the server: ${listed.length}; in server/endpoints.c: ${source.length}`);
  assert.ok(source.length >= 15, `the source has the admin routes: ${source.join(', ')}`);
  assert.deepEqual([...listed].sort(), [...source].sort());
});

test('every admin route answers 401 to nobody and to guests, 403 to players, and neither to the admin', async () => {
  const routes = (await admin.get('/api/v1/admin/routes')).json.routes;
  const nobody = server.client();
  const guest = server.client();
  const opened = await guest.post('/api/v1/levels/1/game');
  assert.equal(opened.status, 201, `a guest session: ${show(opened)}`);
  const player = await signedUpPlayer(server, 'player1');
  for (const route of routes) {
    const what = `${route.method} ${route.path}`;
    let r = await call(nobody, route);
    assert.equal(r.status, 401, `${what} without a session: ${show(r)}`);
    assert.equal(r.json.error.code, 'sign_in_required', what);
    r = await call(guest, route);
    assert.equal(r.status, 401, `${what} as a guest: ${show(r)}`);
    r = await call(player, route);
    assert.equal(r.status, 403, `${what} as a player: ${show(r)}`);
    assert.equal(r.json.error.code, 'admin_required', what);
    r = await call(admin, route);
    assert.ok(r.status !== 401 && r.status !== 403, `${what} as the admin: ${show(r)}`);
  }
  console.log(`checked ${routes.length} admin routes with four callers each`);
});

test('who am I says whether the account is an admin', async () => {
  assert.equal((await admin.get('/api/v1/account')).json.user.admin, true);
  const player = await signedUpPlayer(server, 'player2');
  assert.equal((await player.get('/api/v1/account')).json.user.admin, false);
});

test('sokod admin grants and revokes the right, refuses bad input, and the audit log tells who did what', async () => {
  const player = await signedUpPlayer(server, 'helper');
  assert.equal((await player.get('/api/v1/admin/audit')).status, 403);

  let r = runSokod(['admin', 'grant', 'helper', '--db', server.db]);
  assert.equal(r.status, 0, r.stderr);
  let a = await player.get('/api/v1/admin/audit');
  assert.equal(a.status, 200, `the right works at once, with the same session: ${show(a)}`);

  r = runSokod(['admin', 'revoke', 'helper', '--db', server.db]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal((await player.get('/api/v1/admin/audit')).status, 403, 'revoked');

  r = runSokod(['admin', 'grant', 'nobody-here', '--db', server.db]);
  assert.equal(r.status, 1, 'no such account');
  assert.match(r.stderr, /no account named 'nobody-here'/);
  r = runSokod(['admin', 'create', 'helper', '--db', server.db], { input: 'another password\n' });
  assert.equal(r.status, 1, 'the name is taken');
  assert.match(r.stderr, /taken/);
  r = runSokod(['admin', 'create', 'shorty', '--db', server.db], { input: 'short\n' });
  assert.equal(r.status, 1, 'a password too short');
  r = runSokod(['admin', 'create', 'argpass', 'secret-password', '--db', server.db]);
  assert.equal(r.status, 2, 'a password is never an argument');
  r = runSokod(['admin', 'create', 'nopass', '--db', server.db], { input: '' });
  assert.equal(r.status, 1, 'no password on standard input');
  r = runSokod(['admin', 'create', 'second', '--db', server.db], { input: 'second admin password\r\n' });
  assert.equal(r.status, 0, r.stderr);
  const second = server.client();
  const login = await second.post('/api/v1/account/login', { username: 'second', password: 'second admin password' });
  assert.equal(login.status, 200, `the password is the line without its line end: ${show(login)}`);
  assert.equal(login.json.user.admin, true);

  a = await admin.get('/api/v1/admin/audit?limit=1000');
  assert.equal(a.status, 200, show(a));
  const actions = a.json.entries.map((e) => `${e.action} ${e.target}`);
  console.log(`audit log:\n  ${actions.join('\n  ')}`);
  for (const expected of [`admin.create user ${ADMIN}`, 'admin.grant user helper', 'admin.revoke user helper', 'admin.create user second']) {
    assert.ok(actions.includes(expected), `the audit log has "${expected}"`);
  }
  assert.ok(!actions.some((x) => x.includes('nobody-here') || x.includes('shorty')), 'refused commands leave no entry');
  const grant = a.json.entries.find((e) => e.action === 'admin.grant');
  assert.match(grant.actor, /^command line/);
  assert.equal(grant.user_id, null);
  assert.match(grant.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(typeof grant.details.user_id, 'number');
  const ids = a.json.entries.map((e) => e.id);
  assert.deepEqual(ids, [...ids].sort((x, y) => y - x), 'newest first');

  // Paging: one entry at a time, following next_before.
  const first = await admin.get('/api/v1/admin/audit?limit=1');
  assert.equal(first.json.entries.length, 1);
  const next = await admin.get(`/api/v1/admin/audit?limit=1&before=${first.json.next_before}`);
  assert.equal(next.json.entries[0].id, ids[1]);
  assert.equal((await admin.get('/api/v1/admin/audit?limit=0')).status, 400);
});
