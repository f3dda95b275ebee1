// The security matrix: every route of server/endpoints.c (read from the
// source, so that a route added without an entry here fails) called by
// nobody, a guest, the owner of a game, another user and an admin. Nobody
// reads or changes another user's game, admins included; only admins
// administer; a refused call changes nothing in the database.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { SOURCE, levelIds, show, sqlite, stopCleanly } from './harness.mjs';
import { startAdminServer, signedUpPlayer } from './admin.mjs';

// How each route is guarded:
//  public  anyone, with or without a session, gets an answer (no 401/403)
//  self    acts on the caller's own account or session only (no id to aim elsewhere)
//  game    {id} is a game: only its owner gets it; others get 404 game_not_found
//  admin   401 for nobody and guests, 403 for players, allowed for admins
//  room    {id} is a race room: anyone with its link reads and follows it; a
//          seat is the caller's own, the host alone starts the race, and race
//          games are games like any other (tests/server/rooms.test.mjs)
//  watch   {id} is a player: anyone watches an account that lets others watch
//          (its game now, its entries live); nobody watches one that opted out
//          nor a guest (tests/server/watch.test.mjs)
//  address by the client's address, whatever the session: --metrics-allow
//          (tests/server/metrics.test.mjs)
// A body (for writes) and a query are given where the route needs them.
let snapshotId = 0;
const MATRIX = {
  'GET /api/v1/account': { kind: 'self' },
  'POST /api/v1/account/signup': { kind: 'self', ends: true, body: () => ({ username: `m${crypto.randomBytes(4).toString('hex')}`, password: 'a matrix password' }) },
  'POST /api/v1/account/login': { kind: 'self', ends: true, body: () => ({ username: 'nobody-here', password: 'wrong password' }) },
  'POST /api/v1/account/logout': { kind: 'self', ends: true },
  'POST /api/v1/account/logout-all': { kind: 'self', ends: true },
  'POST /api/v1/account/password': { kind: 'self', body: () => ({ current_password: 'not the password', new_password: 'a new password' }) },
  'GET /api/v1/account/settings': { kind: 'self' },
  'PUT /api/v1/account/settings': { kind: 'self', body: () => ({ settings: {} }) },
  'GET /api/v1/collections': { kind: 'public' },
  'GET /api/v1/collections/{id}': { kind: 'public' },
  'GET /api/v1/levels/{id}': { kind: 'public' },
  'GET /api/v1/daily': { kind: 'public' },
  // After GET /api/v1/daily in the route table, so today's puzzle exists.
  'GET /api/v1/daily/leaderboard': { kind: 'public' },
  'GET /api/v1/daily/streak': { kind: 'public' },
  'GET /api/v1/levels/{id}/leaderboard': { kind: 'public' },
  'GET /api/v1/levels/{id}/submitted': { kind: 'public' },
  // A submission is the caller's own (an account's: guests get 401); the
  // line here solves nothing.
  'POST /api/v1/levels/{id}/solutions': { kind: 'self', body: () => ({ lurd: 'u' }) },
  // The caller's own solution only: another's answers 404, as none does.
  'POST /api/v1/solutions/{id}/optimise': { kind: 'self', body: () => ({}) },
  'GET /api/v1/account/stats': { kind: 'self' },
  // An account's solutions are public, a guest's its own; none exists here.
  'GET /api/v1/solutions/{id}': { kind: 'self' },
  'POST /api/v1/levels/{id}/game': { kind: 'self' },
  'GET /api/v1/games/{id}': { kind: 'game' },
  'POST /api/v1/games/{id}/log': { kind: 'game', body: (g) => ({ seq: g.seq + 1, steps: 'u' }) },
  'POST /api/v1/games/{id}/walk': { kind: 'game', body: (g) => ({ seq: g.seq + 1, x: 1, y: 1 }) },
  'POST /api/v1/games/{id}/push': { kind: 'game', body: (g) => ({ seq: g.seq + 1, box: { x: 3, y: 3 }, to: { x: 4, y: 3 } }) },
  'GET /api/v1/games/{id}/reach': { kind: 'game', query: '?x=3&y=3' },
  'POST /api/v1/games/{id}/hint': { kind: 'game', body: () => ({}) },
  'GET /api/v1/games/{id}/snapshots': { kind: 'game' },
  // The owner's saved position names the one the two routes below use.
  'POST /api/v1/games/{id}/snapshots': { kind: 'game', body: () => ({ name: 'matrix' }), owned: (r) => { snapshotId = r.json.snapshot.id; } },
  'GET /api/v1/games/{id}/snapshots/{id}': { kind: 'game', path: (id) => `/api/v1/games/${id}/snapshots/${snapshotId}` },
  'DELETE /api/v1/games/{id}/snapshots/{id}': { kind: 'game', body: () => ({}), path: (id) => `/api/v1/games/${id}/snapshots/${snapshotId}` },
  'GET /api/v1/progress': { kind: 'self' },
  'GET /api/v1/events': { kind: 'game', query: '?game={id}', stream: true },
  'GET /api/v1/progress/export': { kind: 'self' },
  'GET /api/v1/rooms': { kind: 'public' },
  'POST /api/v1/rooms': { kind: 'room' },
  'GET /api/v1/rooms/{id}': { kind: 'room' },
  'POST /api/v1/rooms/{id}/join': { kind: 'room' },
  'POST /api/v1/rooms/{id}/leave': { kind: 'room' },
  'POST /api/v1/rooms/{id}/start': { kind: 'room' },
  'POST /api/v1/rooms/{id}/rematch': { kind: 'room' },
  'GET /api/v1/watch/{id}': { kind: 'watch' },
  // Players' own levels: publishing, liking and reporting are an account's
  // own acts (guests get 401); {id} here is no published level (404). The
  // board sent is no level at all (422).
  'POST /api/v1/community/levels': { kind: 'self', body: () => ({ board: '#' }) },
  'GET /api/v1/community/levels': { kind: 'public' },
  'PUT /api/v1/community/levels/{id}/like': { kind: 'self', body: () => ({ liked: true }) },
  'POST /api/v1/community/levels/{id}/reports': { kind: 'self', body: () => ({ reason: 'matrix' }) },
  'GET /core.wasm': { kind: 'public' },
  'GET /healthz': { kind: 'public' },
  'GET /readyz': { kind: 'public' },
  'GET /metrics': { kind: 'address' },
  'GET /...': { kind: 'public', path: '/' },
  // The library by difficulty and the next level: anyone; the solved
  // state and the rating are the caller's own.
  'GET /api/v1/levels': { kind: 'public' },
  'GET /api/v1/levels/next': { kind: 'public' },
};
const ADMIN_PREFIX = '/api/v1/admin/';

// "METHOD pattern" of every route in the table of server/endpoints.c.
function routesInSource() {
  const text = fs.readFileSync(path.join(SOURCE, 'server', 'endpoints.c'), 'utf8');
  const table = text.slice(text.indexOf('endpoints_table[] = {'), text.indexOf('};', text.indexOf('endpoints_table[] = {')));
  const out = [];
  for (const m of table.matchAll(/\{HTTP_(GET|POST|PUT|PATCH|DELETE),\s*(?:"([^"]*)"|ROUTES_CATCH_ALL)/g)) {
    out.push(`${m[1]} ${m[2] ?? '/...'}`);
  }
  return out;
}

let server;
let admin;
let owner;
let other;
let levels;
let game;

before(async () => {
  // Every caller here is one address: the cost limiter (tested in
  // route_costs) would refuse the heavier routes called by each of them.
  ({ server, admin } = await startAdminServer({ args: ['--auth-per-minute', '10000', '--cost-per-second', '1000000'] }));
  levels = await levelIds(server.client());
  owner = await signedUpPlayer(server, 'owner');
  other = await signedUpPlayer(server, 'other');
  const opened = await owner.post(`/api/v1/levels/${levels[1]}/game`);
  assert.equal(opened.status, 201, show(opened));
  game = opened.json.game;
  // A game of the admin and of the other player too, so that they have sessions and games of their own.
  assert.ok((await admin.post(`/api/v1/levels/${levels[1]}/game`)).status < 300);
  assert.ok((await other.post(`/api/v1/levels/${levels[1]}/game`)).status < 300);
  const step = await owner.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'u' });
  assert.equal(step.status, 200, show(step));
  game = step.json.game;
});

after(() => stopCleanly(server));

// A digest of what no refused call may change: games, logs, solutions,
// the library, settings and accounts (sessions aside).
function digest() {
  const tables = ['games', 'game_log', 'solutions', 'collections', 'levels', 'snapshots'];
  const sql = tables.map((t) => `SELECT '${t}'; SELECT * FROM ${t} ORDER BY 1, 2;`).join(' ') +
    ' SELECT id, username, password_hash, guest FROM users WHERE guest = 0 ORDER BY id;';
  return crypto.createHash('sha256').update(sqlite(server.db, sql)).digest('hex');
}

function pathFor(pattern, entry, id) {
  const p = typeof entry.path === 'function' ? entry.path(id) : entry.path ?? pattern.replaceAll('{id}', String(id));
  return p + (entry.query ?? '').replaceAll('{id}', String(id));
}

// The status of a stream's answer, without waiting for its end.
async function streamStatus(client, p) {
  const ctl = new AbortController();
  const res = await fetch(client.base + p, { headers: { Cookie: client.cookieHeader() }, signal: ctl.signal });
  ctl.abort();
  return { status: res.status, text: '' };
}

async function freshGuest() {
  const g = server.client();
  const r = await g.post(`/api/v1/levels/${levels[0]}/game`);
  assert.ok(r.status === 201 || r.status === 200, show(r));
  return g;
}

test('every route of server/endpoints.c has an entry in the matrix', () => {
  const routes = routesInSource();
  assert.ok(routes.length >= 30, `read the routing table: ${routes.join(', ')}`);
  const missing = routes.filter((r) => !(r in MATRIX) && !r.split(' ')[1].startsWith(ADMIN_PREFIX));
  assert.deepEqual(missing, [], 'routes without an entry in MATRIX of tests/server/access.test.mjs: add one saying who may call them');
  const stale = Object.keys(MATRIX).filter((k) => !routes.includes(k));
  assert.deepEqual(stale, [], 'entries of MATRIX for routes no longer in server/endpoints.c');
});

test('nobody but the owner reads or changes a game, admins included', async () => {
  const routes = routesInSource().filter((r) => MATRIX[r]?.kind === 'game');
  const guest = await freshGuest();
  const nobody = server.client();
  let calls = 0;
  for (const route of routes) {
    const [method, pattern] = route.split(' ');
    const entry = MATRIX[route];
    for (const [who, caller] of [['nobody', nobody], ['a guest', guest], ['another player', other], ['an admin', admin]]) {
      const before = digest();
      const body = method === 'GET' ? undefined : entry.body(game);
      const r = await caller.req(method, pathFor(pattern, entry, game.id), body);
      calls++;
      if (who === 'nobody') {
        assert.equal(r.status, 401, `${route} as ${who}: ${show(r)}`);
      } else {
        assert.equal(r.status, 404, `${route} as ${who}: ${show(r)}`);
        assert.equal(r.json?.error?.code, 'game_not_found', `${route} as ${who}: ${show(r)}`);
        assert.ok(!/"rows"|"history"/.test(r.text), `${route} as ${who} shows nothing of the game: ${show(r)}`);
      }
      assert.equal(digest(), before, `${route} as ${who} changed the database`);
    }
    // The owner is served.
    const fresh = (await owner.get(`/api/v1/games/${game.id}`)).json.game;
    const body = method === 'GET' ? undefined : entry.body(fresh);
    const r = entry.stream ? await streamStatus(owner, pathFor(pattern, entry, game.id))
      : await owner.req(method, pathFor(pattern, entry, game.id), body);
    assert.ok(r.status === 200 || r.status === 201 || r.status === 422, `${route} as the owner: ${show(r)}`);
    entry.owned?.(r);
    calls++;
  }
  console.log(`${routes.length} game routes, ${calls} calls`);
});

test('only admins administer; refused admin calls change nothing', async () => {
  const routes = routesInSource().filter((r) => r.split(' ')[1].startsWith(ADMIN_PREFIX));
  assert.ok(routes.length >= 15, routes.join(', '));
  const guest = await freshGuest();
  const nobody = server.client();
  for (const route of routes) {
    const [method, pattern] = route.split(' ');
    const body = method === 'GET' ? undefined : {};
    for (const [who, caller, status, code] of [
      ['nobody', nobody, 401, 'sign_in_required'], ['a guest', guest, 401, 'sign_in_required'],
      ['a player', owner, 403, 'admin_required'], ['another player', other, 403, 'admin_required']]) {
      const before = digest();
      const r = await caller.req(method, pattern.replaceAll('{id}', '1'), body);
      assert.equal(r.status, status, `${route} as ${who}: ${show(r)}`);
      assert.equal(r.json?.error?.code, code, `${route} as ${who}: ${show(r)}`);
      assert.equal(digest(), before, `${route} as ${who} changed the database`);
    }
    // The admin passes the guard (on an id that does not exist, so that nothing is deleted).
    const r = await admin.req(method, pattern.replaceAll('{id}', '999999'), body);
    assert.ok(r.status !== 401 && r.status !== 403 && r.status < 500, `${route} as the admin: ${show(r)}`);
  }
  console.log(`${routes.length} admin routes, 5 callers each`);
});

test('public and own-account routes answer every caller without reaching other users', async () => {
  const routes = routesInSource().filter((r) => ['public', 'self'].includes(MATRIX[r]?.kind));
  const shared = await signedUpPlayer(server, 'bystander');
  for (const route of routes) {
    const [method, pattern] = route.split(' ');
    const entry = MATRIX[route];
    const id = pattern.startsWith('/api/v1/collections/') ? 1 : levels[0];
    // Fresh callers for the routes that end sessions.
    const player = entry.ends ? await signedUpPlayer(server, `p${crypto.randomBytes(4).toString('hex')}`) : shared;
    const callers = [['nobody', server.client()], ['a guest', await freshGuest()], ['a player', player]];
    for (const [who, caller] of callers) {
      const before = sqlite(server.db, `SELECT seq FROM games WHERE id = ${game.id}`);
      const body = method === 'GET' ? undefined : (entry.body ? entry.body() : {});
      const r = await caller.req(method, pathFor(pattern, entry, id), body);
      assert.ok(r.status < 500 && r.status !== 403, `${route} as ${who}: ${show(r)}`);
      if (entry.kind === 'public') assert.ok(r.status < 400, `${route} as ${who}: ${show(r)}`);
      assert.ok(!r.text.includes('"owner"') || route.includes('signup'), `${route} as ${who} names no other account: ${show(r)}`);
      assert.equal(sqlite(server.db, `SELECT seq FROM games WHERE id = ${game.id}`), before,
        `${route} as ${who} changed the owner's game`);
    }
  }
  // The owner's game is still the owner's and as it was.
  const r = await owner.get(`/api/v1/games/${game.id}`);
  assert.equal(r.status, 200, show(r));
});

test('a player is watched by anyone while they allow it, by nobody once they opt out; a guest never', async () => {
  const routes = routesInSource().filter((r) => MATRIX[r]?.kind === 'watch');
  assert.ok(routes.length >= 1, routes.join(', '));
  const ownerId = (await owner.get('/api/v1/account')).json.user.id;
  const guest = await freshGuest();
  const guestId = (await guest.get('/api/v1/account')).json.user.id;
  const callers = [['nobody', server.client()], ['a guest', guest], ['another player', other], ['an admin', admin]];
  const settings = (watchable) => owner.req('PUT', '/api/v1/account/settings', { settings: { watchable } });
  for (const route of routes) {
    const [method, pattern] = route.split(' ');
    for (const [who, caller] of callers) {
      const before = digest();
      let r = await caller.req(method, pattern.replaceAll('{id}', String(ownerId)));
      assert.equal(r.status, 200, `${route} of a watchable player as ${who}: ${show(r)}`);
      r = await caller.req(method, pattern.replaceAll('{id}', String(guestId)));
      assert.equal(r.status, 403, `${route} of a guest as ${who}: ${show(r)}`);
      assert.equal(r.json?.error?.code, 'not_watchable', `${route} of a guest as ${who}: ${show(r)}`);
      assert.equal(digest(), before, `${route} as ${who} changed the database`);
    }
    assert.equal((await settings(false)).status, 200);
    for (const [who, caller] of [...callers, ['the player', owner]]) {
      const r = await caller.req(method, pattern.replaceAll('{id}', String(ownerId)));
      assert.equal(r.status, 403, `${route} of a player who opted out as ${who}: ${show(r)}`);
      assert.ok(!/"rows"|"history"/.test(r.text), `${route} as ${who} shows nothing of the game: ${show(r)}`);
    }
    assert.equal((await settings(true)).status, 200);
  }
});
