// The server's one clock: with SOKOD_TEST_NOW set, every time sokod keeps
// or shows (accounts made on the command line, settings, uploads,
// collections, the audit log) is on that clock, not the system's.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runSokod, show, sokodEnv, sqlite, startServer, stopCleanly, tempDir } from './harness.mjs';
import { ADMIN, ADMIN_PASSWORD, importUpload, upload } from './admin.mjs';

// 2033-05-18, years away from any machine's clock.
const NOW = 2_000_000_000;
// Seconds the test may take between the server's start and its last step.
const SLACK = 600;

const FILE = ['Collection: Clocked', '', '; Wide hall', '#########', '#@ $    #', '#      .#', '#########', ''].join('\n');

let server;
let admin;
let db;
let adminCreated;

// Unix seconds of an ISO time the API answers with.
function seconds(iso) {
  return Date.parse(iso) / 1000;
}

function assertOnTestClock(what, unixSeconds) {
  assert.ok(unixSeconds >= NOW && unixSeconds <= NOW + SLACK,
    `${what} is on the test clock (${NOW}), not the system's: ${unixSeconds}`);
}

before(async () => {
  const dir = tempDir('sokod-clock-');
  db = path.join(dir, 'data', 'sokod.db');
  const env = { SOKOD_TEST_NOW: String(NOW) };
  const made = runSokod(['admin', 'create', ADMIN, '--db', db], {
    input: `${ADMIN_PASSWORD}\n`, env: sokodEnv(env),
  });
  assert.equal(made.status, 0, `sokod admin create: ${made.stdout}${made.stderr}`);
  server = await startServer({ dir, db, env, args: ['--solver-seconds', '0'] });
  admin = server.client();
  const login = await admin.post('/api/v1/account/login', { username: ADMIN, password: ADMIN_PASSWORD });
  assert.equal(login.status, 200, show(login));
  adminCreated = seconds(login.json.user.created_at);
});

after(() => stopCleanly(server));

test('an account made on the command line is on the test clock', () => {
  assertOnTestClock('the account made by sokod admin create', adminCreated);
});

test('settings are stored with the test clock', async () => {
  const r = await admin.req('PUT', '/api/v1/account/settings', { settings: { theme: 'midnight' } });
  assert.equal(r.status, 200, show(r));
  assertOnTestClock('user_settings.updated_at', Number(sqlite(db, 'SELECT max(updated_at) FROM user_settings')));
});

test('uploads, collections and the audit log are on the test clock', async () => {
  const r = await upload(admin, 'clocked.sok', Buffer.from(FILE));
  assertOnTestClock('the upload', seconds(r.json.upload.created_at));
  const imp = await importUpload(admin, r.id);
  assert.equal(imp.status, 201, show(imp));
  const id = imp.json.import.collection_id;
  const listed = (await admin.get('/api/v1/admin/collections')).json.collections;
  for (const c of listed) assertOnTestClock(`collection ${c.name}`, seconds(c.created_at));
  assert.ok(listed.some((c) => c.id === id), 'the imported collection is listed');
  const audit = await admin.get('/api/v1/admin/audit');
  assert.equal(audit.status, 200, show(audit));
  assert.ok(audit.json.entries.length > 0, show(audit));
  for (const e of audit.json.entries) assertOnTestClock(`audit entry ${e.action}`, seconds(e.at));
});
