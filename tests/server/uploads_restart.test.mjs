// Uploads across a server's end: the cap on uploads counts those that
// wait (arriving, checking, waiting for an admin), not those imported; and
// uploads that a killed server left halfway are settled when it starts
// again, so that it takes new uploads and imports the old ones.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { BACKEND, show, sqlite, startServer, stopCleanly } from './harness.mjs';
import { ADMIN, ADMIN_PASSWORD, importUpload, startAdminServer } from './admin.mjs';

// The uploads one server keeps at once that are not imported (staging.c).
const MAX_UPLOADS = 64;

// A file of one level no other file of this test has: a room whose width
// and height come from n.
function levelFile(n) {
  const w = 6 + (n % 10);
  const h = 4 + Math.floor(n / 10);
  const rows = ['#'.repeat(w)];
  for (let y = 1; y < h - 1; y++) rows.push(`#${' '.repeat(w - 2)}#`);
  rows.push('#'.repeat(w));
  rows[1] = `#@$.${' '.repeat(w - 5)}#`;
  return `Collection: restart ${n}\n\n; Room ${n}\n${rows.join('\n')}\n`;
}

// Uploads file n in one request; resolves to the answer.
function uploadWhole(admin, n) {
  const bytes = Buffer.from(levelFile(n));
  return admin.post('/api/v1/admin/uploads', { filename: `restart${n}.sok`, size: bytes.length, data: bytes.toString('base64') });
}

// A test that fails midway leaves no server running.
const servers = [];
after(() => { for (const s of servers) s.proc.kill('SIGKILL'); });
async function adminServer() {
  const made = await startAdminServer();
  servers.push(made.server);
  return made;
}

async function signIn(server) {
  const admin = server.client();
  const r = await admin.post('/api/v1/account/login', { username: ADMIN, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200, show(r));
  return admin;
}

// Waits until `sql` on the database prints `want`; fails after 30 s with
// what it printed last.
async function until(db, sql, want, what) {
  let got = '';
  for (const t0 = Date.now(); Date.now() - t0 < 30000;) {
    got = sqlite(db, sql);
    if (got === want) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${what}: "${sql}" printed ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
}

test(`uploads imported do not count against the cap: ${MAX_UPLOADS + 8} in a row are taken`, async () => {
  const { server, admin } = await adminServer();
  for (let n = 0; n < MAX_UPLOADS + 8; n++) {
    let r = await uploadWhole(admin, n);
    assert.equal(r.status, 201, `upload ${n} of ${MAX_UPLOADS + 8}, each imported before the next: ${show(r)}`);
    assert.equal(r.json.upload.state, 'checked', `upload ${n}: ${show(r)}`);
    r = await importUpload(admin, r.json.upload.id);
    assert.ok(r.status === 200 || r.status === 201, `import of upload ${n}: ${show(r)}`);
  }
  // What is left of imported uploads (their reports) stays bounded.
  const kept = Number(sqlite(server.db, "SELECT count(*) FROM staged_uploads WHERE state = 'imported'"));
  assert.ok(kept <= MAX_UPLOADS, `imported uploads kept: ${kept}, more than ${MAX_UPLOADS}`);
  // Uploads that wait for an admin still count: past the cap, a clear 503.
  let refused = null;
  for (let n = 100; n < 100 + MAX_UPLOADS + 1 && refused === null; n++) {
    const r = await uploadWhole(admin, n);
    if (r.status !== 201) refused = { n, r };
  }
  assert.ok(refused !== null, `${MAX_UPLOADS + 1} uploads left waiting were all taken`);
  assert.equal(refused.r.status, 503, show(refused.r));
  assert.equal(refused.r.json.error.code, 'unavailable');
  assert.equal(refused.n, 100 + MAX_UPLOADS, `refused after ${refused.n - 100} waiting uploads, not ${MAX_UPLOADS}`);
  await stopCleanly(server);
});

test('a server killed during uploads settles them when it starts again, and takes new ones', async () => {
  const { server, admin } = await adminServer();
  const db = server.db;
  // One upload checked, one complete, one whose bytes still arrive.
  const sizes = [];
  const ids = [];
  for (let n = 0; n < 3; n++) {
    const bytes = Buffer.from(levelFile(n));
    sizes.push(bytes.length);
    const first = n === 2 ? bytes.subarray(0, 10) : bytes;
    const r = await admin.post('/api/v1/admin/uploads', { filename: `left${n}.sok`, size: bytes.length, data: first.toString('base64') });
    assert.equal(r.status, 201, show(r));
    ids.push(r.json.upload.id);
  }
  const [checking, complete, receiving] = ids;
  assert.equal((await server.kill9()).signal, 'SIGKILL');
  // The rows as a kill leaves them: a check its node began (a minute ago,
  // and eleven minutes ago on PostgreSQL, where other nodes may be
  // checking) and one whose last byte came in before its check began.
  const began = Math.floor(Date.now() / 1000) - (BACKEND === 'postgresql' ? 660 : 60);
  sqlite(db, `UPDATE staged_uploads SET state = 'checking', report = NULL, used_at = ${began} WHERE id = ${checking}`);
  sqlite(db, `UPDATE staged_uploads SET state = 'complete', report = NULL WHERE id = ${complete}`);

  const again = await startServer({ dir: server.dir, db, args: ['--solver-seconds', '0'] });
  servers.push(again);
  // The start-up checks them again, with no request asking.
  await until(db, `SELECT state FROM staged_uploads WHERE id IN (${checking}, ${complete}) ORDER BY id`, 'checked\nchecked',
    'the uploads left being checked or complete are checked after the restart');
  assert.match(again.stderr(), /checking 2 uploads that a stopped server left unchecked/);
  const a = await signIn(again);
  for (const id of [checking, complete]) {
    const r = await importUpload(a, id);
    assert.ok(r.status === 200 || r.status === 201, `import of upload ${id} left by the kill: ${show(r)}`);
  }
  // The upload still arriving goes on where it stopped.
  const rest = Buffer.from(levelFile(2)).subarray(10);
  let r = await a.post(`/api/v1/admin/uploads/${receiving}/parts`, { offset: 10, data: rest.toString('base64') });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.upload.state, 'checked', show(r));
  assert.equal(r.json.upload.received, sizes[2]);
  // And new uploads are taken.
  r = await uploadWhole(a, 7);
  assert.equal(r.status, 201, show(r));
  assert.equal(r.json.upload.state, 'checked', show(r));
  await stopCleanly(again);
});

test('an upload whose check never began is checked when an admin looks at it', async () => {
  const { server, admin } = await adminServer();
  const r0 = await uploadWhole(admin, 3);
  assert.equal(r0.status, 201, show(r0));
  const id = r0.json.upload.id;
  // What a node that stopped between the last byte and the check leaves,
  // while this node goes on serving.
  sqlite(server.db, `UPDATE staged_uploads SET state = 'complete', report = NULL WHERE id = ${id}`);
  const r = await admin.get(`/api/v1/admin/uploads/${id}`);
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.upload.state, 'checked', `the upload after an admin's look: ${show(r)}`);
  assert.equal(r.json.upload.report.levels.length, 1, show(r));
  await stopCleanly(server);
});

test('a first part longer than the declared size is refused and stores nothing', async () => {
  const { server, admin } = await adminServer();
  const before = sqlite(server.db, 'SELECT count(*) FROM staged_uploads');
  const r = await admin.post('/api/v1/admin/uploads', { filename: 'long.sok', size: 4, data: Buffer.from('#####').toString('base64') });
  assert.equal(r.status, 409, show(r));
  assert.equal(r.json.error.code, 'upload_incomplete');
  assert.equal(sqlite(server.db, 'SELECT count(*) FROM staged_uploads'), before, 'a refused upload left a row');
  await stopCleanly(server);
});
