// Players' own levels: a signed-in player publishes a level from the
// editor to the community collection; the server refuses what is no level,
// too large, a copy (turned or mirrored) of any level of the library, or
// unsolvable, and the author's levels of a day past the limit; a level is
// listed under its author with its likes (one per player); players report
// levels, admins read the reports, hide and delete levels and block authors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mirror, rotate, signedUpPlayer, startAdminServer } from './admin.mjs';
import { levelIds, show, sqlite } from './harness.mjs';

const PER_DAY = 3;
let server, admin, ids;
before(async () => {
  // Every client here is one address: the cost limiter (route_costs) would
  // refuse the publishes, each charged as a search.
  ({ server, admin } = await startAdminServer({ args: ['--cost-per-second', '100000', '--community-per-day', String(PER_DAY)] }));
  ids = await levelIds(server.client());
});
after(async () => { await server.stop(); });

// A corridor of its own for each n (>= 3): the player pushes one box n
// squares right onto its goal.
const corridor = (n) => ['#'.repeat(n + 5), `#@$${' '.repeat(n)}.#`, '#'.repeat(n + 5)];
// Two boxes on two rows: solvable, and no rotation of a corridor.
const TWO_ROWS = ['########', '#@ $  .#', '#  $  .#', '########'];

const publish = (client, rows, title = '') => client.post('/api/v1/community/levels', { board: rows.join('\n'), title });
const userId = async (client) => (await client.get('/api/v1/account')).json.user.id;
const listed = async (client, query = '') => (await client.get(`/api/v1/community/levels${query}`)).json.levels;

test('a published level is listed under its author and plays as any other level', async () => {
  const adam = await signedUpPlayer(server, 'adam');
  const used = (await adam.get('/api/v1/account')).json.user.storage.used;
  let r = await publish(adam, TWO_ROWS, '  Two rows  ');
  assert.equal(r.status, 201, show(r));
  const level = r.json.level;
  assert.deepEqual([level.title, level.author, level.author_id, level.width, level.height, level.boxes, level.likes, level.difficulty],
    ['Two rows', 'adam', await userId(adam), 8, 4, 2, 0, null], show(r));

  // In the community collection, found by its source, and in the listing.
  const collections = (await adam.get('/api/v1/collections')).json.collections;
  const community = collections.find((c) => c.source === 'community');
  assert.ok(community, `a community collection among ${JSON.stringify(collections.map((c) => c.source))}`);
  assert.equal(level.collection_id, community.id);
  const inCollection = (await adam.get(`/api/v1/collections/${community.id}`)).json.levels.map((l) => l.id);
  assert.deepEqual(inCollection, [level.id]);
  assert.deepEqual((await listed(server.client())).map((l) => [l.id, l.author]), [[level.id, 'adam']]);

  // The level's page names its author; the solver's line stays private,
  // but gives the best known counts.
  r = await server.client().get(`/api/v1/levels/${level.id}`);
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.level.community?.author, 'adam', show(r));
  assert.ok(r.json.level.best_known && r.json.level.best_known.pushes === 6, `best known from the solver: ${show(r)}`);
  assert.ok(!/[lurd]{6,}/i.test(JSON.stringify(r.json.level.best_known)) && !r.text.includes('"lurd"'), `no line shown: ${r.text}`);
  r = await admin.get(`/api/v1/admin/levels/${level.id}`);
  assert.equal(r.json.level.reference_solutions, 1, `the admin sees the solver's solution: ${show(r)}`);

  // The level counts against its author's quota: its board, title and a row.
  const stored = (await adam.get('/api/v1/account')).json.user.storage.used;
  const bytes = Number(sqlite(server.db, `SELECT length(board) + length(title) + 32 FROM levels WHERE id = ${level.id}`));
  assert.equal(stored - used, bytes, 'the author stores the level\'s bytes');

  // Played as any level: opened and solved, which the listing then shows.
  const game = (await adam.post(`/api/v1/levels/${level.id}/game`)).json.game;
  r = await adam.post(`/api/v1/games/${game.id}/log`, { seq: game.seq + 1, steps: 'drRRRllluRRR' });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.game.solved, true, show(r));
  const mine = await listed(adam, `?author=${level.author_id}`);
  assert.deepEqual(mine.map((l) => [l.id, l.solved]), [[level.id, true]]);
});

test('what is no level, or too large, is refused with the reason', async () => {
  const bo = await signedUpPlayer(server, 'bob');
  const big = ['#'.repeat(41), `#@$.${' '.repeat(36)}#`, '#'.repeat(41)];
  const cases = [
    [['#####', '#@$ #', '#####'], 'invalid_level', /goal/],
    [['#####', '#@$.', '#####'], 'invalid_level', /./],
    [big, 'invalid_level', /41 by 3 with 1 boxes; a published level is at most 40 by 40/],
  ];
  for (const [rows, code, message] of cases) {
    const r = await publish(bo, rows);
    assert.equal(r.status, 422, `${rows.join('|')}: ${show(r)}`);
    assert.equal(r.json.error.code, code, show(r));
    assert.match(r.json.error.message, message, show(r));
  }
  const r = await bo.post('/api/v1/community/levels', { board: TWO_ROWS.join('\n'), title: 'x'.repeat(101) });
  assert.equal(r.status, 400, `a title too long: ${show(r)}`);
  assert.deepEqual(await listed(bo, `?author=${await userId(bo)}`), [], 'nothing of bo was published');
});

test('a copy of a level of the library, turned or mirrored, is refused', async () => {
  const cy = await signedUpPlayer(server, 'cyd');
  // A bundled level of the test collection, turned a quarter.
  const room = (await cy.get(`/api/v1/levels/${ids[1]}`)).json.level.rows;
  let r = await publish(cy, rotate(room));
  assert.equal(r.status, 409, `the room turned: ${show(r)}`);
  assert.equal(r.json.error.code, 'duplicate_level');
  assert.match(r.json.error.message, new RegExp(`level ${ids[1]}\\b`), show(r));
  // A level published before, mirrored and turned twice.
  r = await publish(cy, corridor(4));
  assert.equal(r.status, 201, show(r));
  for (const rows of [mirror(corridor(4)), rotate(rotate(corridor(4))), rotate(mirror(corridor(4)))]) {
    r = await publish(cy, rows);
    assert.equal(r.status, 409, `${rows.join('|')}: ${show(r)}`);
    assert.equal(r.json.error.code, 'duplicate_level');
  }
  // Two publishes of one level that both pass the check (on two nodes at
  // once): the published levels' own index on the hash refuses the second.
  // Here the first's level no longer shows its hash to the check.
  const first = (await publish(cy, corridor(5))).json.level;
  sqlite(server.db, `UPDATE levels SET canonical_hash = 'elsewhere' WHERE id = ${first.id}`);
  const levels = sqlite(server.db, 'SELECT count(*) FROM levels');
  r = await publish(cy, mirror(corridor(5)));
  assert.equal(r.status, 409, show(r));
  assert.match(r.json.error.message, /published a moment ago/, show(r));
  assert.equal(sqlite(server.db, 'SELECT count(*) FROM levels'), levels, 'the second level was not kept');
});

test('a level the solver cannot solve is refused, and stores nothing', async () => {
  const di = await signedUpPlayer(server, 'dina');
  const before = sqlite(server.db, 'SELECT count(*) FROM levels');
  // The box stands against the far wall: no push ever brings it back.
  const r = await publish(di, ['#######', '#@  .$#', '#######']);
  assert.equal(r.status, 422, show(r));
  assert.equal(r.json.error.code, 'level_unsolvable');
  assert.equal(sqlite(server.db, 'SELECT count(*) FROM levels'), before, 'no level was added');
});

test('an author publishes so many levels a day, guests none', async () => {
  const guest = server.client();
  assert.ok((await guest.post(`/api/v1/levels/${ids[0]}/game`)).status < 300);
  let r = await publish(guest, corridor(20));
  assert.equal(r.status, 401, show(r));
  assert.equal(r.json.error.code, 'sign_in_required');

  const ed = await signedUpPlayer(server, 'eddy');
  for (let i = 0; i < PER_DAY; i++) {
    r = await publish(ed, corridor(10 + i), `corridor ${i}`);
    assert.equal(r.status, 201, `level ${i + 1} of ${PER_DAY}: ${show(r)}`);
  }
  r = await publish(ed, corridor(10 + PER_DAY));
  assert.equal(r.status, 429, show(r));
  assert.equal(r.json.error.code, 'rate_limited');
  assert.ok(Number(r.headers.get('retry-after')) > 0, 'with Retry-After');
  const mine = await listed(ed, `?author=${await userId(ed)}`);
  assert.deepEqual(mine.map((l) => l.title), ['corridor 2', 'corridor 1', 'corridor 0'], 'newest first, theirs only');
});

test('a player likes a level once, and may take the like back', async () => {
  const fay = await signedUpPlayer(server, 'faye');
  const gus = await signedUpPlayer(server, 'gust');
  const level = (await publish(fay, corridor(30))).json.level;
  const like = (client, liked) => client.req('PUT', `/api/v1/community/levels/${level.id}/like`, { liked });
  let r = await like(gus, true);
  assert.equal(r.status, 200, show(r));
  assert.deepEqual([r.json.level.likes, r.json.level.liked, r.json.level.changed], [1, true, true]);
  r = await like(gus, true);
  assert.deepEqual([r.json.level.likes, r.json.level.liked, r.json.level.changed], [1, true, false], `twice is once: ${show(r)}`);
  r = await like(fay, true);
  assert.equal(r.json.level.likes, 2, show(r));
  r = await like(gus, false);
  assert.deepEqual([r.json.level.likes, r.json.level.liked], [1, false], show(r));
  const seen = (await listed(fay)).find((l) => l.id === level.id);
  assert.deepEqual([seen.likes, seen.liked], [1, true], 'the listing shows the like of the one who asks');
  r = await like(server.client(), true);
  assert.equal(r.status, 401, `nobody likes: ${show(r)}`);
  r = await gus.req('PUT', `/api/v1/community/levels/${ids[0]}/like`, { liked: true });
  assert.equal(r.status, 404, `a level nobody published: ${show(r)}`);
});

test('players report levels, within a bound, and admins read the reports', async () => {
  const hal = await signedUpPlayer(server, 'hale');
  const ivy = await signedUpPlayer(server, 'ivy');
  const level = (await publish(hal, corridor(31), 'reported')).json.level;
  const report = (client, reason, id = level.id) => client.post(`/api/v1/community/levels/${id}/reports`, { reason });
  let r = await report(ivy, 'a copy of a level of a book');
  assert.equal(r.status, 201, show(r));
  r = await report(ivy, 'again');
  assert.deepEqual([r.status, r.json.created], [200, false], `one report per level: ${show(r)}`);
  r = await report(ivy, '');
  assert.equal(r.status, 400, show(r));

  r = await admin.get('/api/v1/admin/community');
  assert.equal(r.status, 200, show(r));
  const mine = r.json.reports.filter((x) => x.level_id === level.id);
  assert.deepEqual(mine.map((x) => [x.reporter, x.author, x.reason, x.level_title]),
    [['ivy', 'hale', 'a copy of a level of a book', 'reported']], show(r));
  assert.equal(r.json.levels.find((l) => l.id === level.id)?.reports, 1);

  // The day's reports of a player are bounded: ivy made 19 more (written
  // here, on levels written for the purpose), then one too many.
  const ivyId = await userId(ivy);
  const now = Math.floor(Date.now() / 1000);
  sqlite(server.db, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
    INSERT INTO levels (collection_id, position, board, width, height, boxes, canonical_hash, created_at)
    SELECT ${level.collection_id}, 1000 + i, '#', 1, 1, 1, 'filler' || i, ${now} FROM n`);
  sqlite(server.db, `INSERT INTO community_levels (level_id, author_id, canonical_hash, bytes, published_at)
    SELECT id, ${level.author_id}, canonical_hash, 0, ${now} FROM levels WHERE canonical_hash LIKE 'filler%'`);
  sqlite(server.db, `INSERT INTO community_reports (level_id, user_id, reason, created_at)
    SELECT id, ${ivyId}, 'r', ${now} FROM levels WHERE canonical_hash LIKE 'filler%' ORDER BY id LIMIT 19`);
  const spare = Number(sqlite(server.db, "SELECT max(id) FROM levels WHERE canonical_hash LIKE 'filler%'"));
  assert.equal(sqlite(server.db, `SELECT count(*) FROM community_reports WHERE user_id = ${ivyId}`), '20', 'ivy made 20 reports');
  r = await report(ivy, 'one too many', spare);
  assert.equal(r.status, 429, show(r));
  assert.equal(r.json.error.code, 'rate_limited');
});

test('admins hide and delete levels and block authors', async () => {
  const jo = await signedUpPlayer(server, 'joan');
  const joId = await userId(jo);
  const hidden = (await publish(jo, corridor(32), 'to hide')).json.level;
  const deleted = (await publish(jo, corridor(33), 'to delete')).json.level;
  let r = await admin.req('PATCH', `/api/v1/admin/levels/${hidden.id}`, { hidden: true });
  assert.equal(r.status, 200, show(r));
  r = await admin.req('DELETE', `/api/v1/admin/levels/${deleted.id}`, {});
  assert.equal(r.status, 200, show(r));
  const seen = (await listed(jo, `?author=${joId}`)).map((l) => l.id);
  assert.deepEqual(seen, [], 'neither is listed to players');
  r = await jo.req('PUT', `/api/v1/community/levels/${hidden.id}/like`, { liked: true });
  assert.equal(r.status, 404, `a hidden level is not liked: ${show(r)}`);
  const forAdmins = (await admin.get('/api/v1/admin/community')).json.levels.filter((l) => l.author_id === joId);
  assert.deepEqual(forAdmins.map((l) => [l.title, l.hidden]), [['to delete', true], ['to hide', true]]);
  // Published again, a hidden or deleted level is still a copy.
  r = await publish(jo, mirror(corridor(33)));
  assert.equal(r.json?.error?.code, 'duplicate_level', show(r));

  r = await admin.req('PUT', `/api/v1/admin/community/authors/${joId}`, { blocked: true, reason: 'copies' });
  assert.equal(r.status, 200, show(r));
  assert.deepEqual([r.json.blocked, r.json.changed], [true, true]);
  r = await publish(jo, corridor(34));
  assert.equal(r.status, 403, show(r));
  assert.equal(r.json.error.code, 'author_blocked');
  const blocked = (await admin.get('/api/v1/admin/community')).json.blocked;
  assert.deepEqual(blocked.map((b) => [b.username, b.reason]), [['joan', 'copies']]);
  r = await admin.req('PUT', `/api/v1/admin/community/authors/${joId}`, { blocked: false });
  assert.deepEqual([r.status, r.json.changed], [200, true], show(r));
  r = await publish(jo, corridor(34));
  assert.equal(r.status, 201, `unblocked, jo publishes again: ${show(r)}`);
  const audit = (await admin.get('/api/v1/admin/audit?limit=10')).json;
  assert.ok(JSON.stringify(audit).includes('community.block') && JSON.stringify(audit).includes('community.unblock'), `the audit log: ${JSON.stringify(audit).slice(0, 500)}`);
  r = await jo.req('PUT', `/api/v1/admin/community/authors/${joId}`, { blocked: false });
  assert.equal(r.status, 403, `players block nobody: ${show(r)}`);
});
