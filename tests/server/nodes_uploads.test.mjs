// Two sokod nodes on one PostgreSQL database: an admin's upload reaches
// them in turn, as a load balancer without sticky sessions sends it. The
// parts of one file go to node A and node B alternately and the file is
// whole and checked; a part out of order is refused by either node with
// where to go on; either node shows the upload, with the solver's verdicts
// of the node that checked it; asked of both nodes at once, the import
// happens once; an upload discarded through one node is gone on the other.
// On SQLite (one process per database) there is nothing to test.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BACKEND, Client, SHARED, show, sqlite, startServer, stopCleanly } from './harness.mjs';
import { importUpload, startAdminServer } from './admin.mjs';

const skip = BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only';
const MICROBAN = path.join(SHARED, 'levels', 'solutions', 'Microban_155.with-solutions.sok');
const PART = 4000;
const ARGS = ['--max-upload', '400000', '--max-body', '16384'];

let a;
let b;
let db;
let onA;
let onB;

before(async () => {
  if (skip) return;
  const started = await startAdminServer({ args: ARGS });
  a = started.server;
  onA = started.admin;
  db = a.db;
  b = await startServer({ db, args: ['--solver-seconds', '5', ...ARGS] });
  onB = new Client(b.url);
  onB.cookies = new Map(onA.cookies);
});

after(async () => {
  if (skip) return;
  await stopCleanly(a, 'node A should stop cleanly');
  await stopCleanly(b, 'node B should stop cleanly');
});

// Sends the bytes in parts of PART bytes, part k to clients[k % 2], after
// starting the upload on clients[0]. Resolves to the last answer, with .id.
async function uploadAlternately(clients, filename, bytes) {
  let r = await clients[0].post('/api/v1/admin/uploads', { filename, size: bytes.length });
  assert.equal(r.status, 201, `starting ${filename}: ${show(r)}`);
  const id = r.json.upload.id;
  for (let offset = 0, k = 0; offset < bytes.length; offset += PART, k++) {
    const node = clients[k % 2] === onA ? 'A' : 'B';
    const data = bytes.subarray(offset, offset + PART).toString('base64');
    r = await clients[k % 2].post(`/api/v1/admin/uploads/${id}/parts`, { offset, data });
    assert.equal(r.status, 200, `part ${k + 1} of ${filename} at ${offset}, sent to node ${node}: ${show(r)}`);
    assert.equal(r.json.upload.received, Math.min(offset + PART, bytes.length), `node ${node} counts the bytes of both nodes`);
  }
  r.id = id;
  return r;
}

test('the parts of one upload sent to two nodes in turn make one checked file', { skip }, async () => {
  const bytes = fs.readFileSync(MICROBAN);
  let r = await onA.post('/api/v1/admin/uploads', { filename: 'microban.sok', size: bytes.length });
  assert.equal(r.status, 201, show(r));
  const id = r.json.upload.id;
  const first = bytes.subarray(0, PART).toString('base64');
  r = await onA.post(`/api/v1/admin/uploads/${id}/parts`, { offset: 0, data: first });
  assert.equal(r.status, 200, show(r));
  // The same part again, through node B: it does not continue the file.
  r = await onB.post(`/api/v1/admin/uploads/${id}/parts`, { offset: 0, data: first });
  assert.equal(r.status, 409, `a part repeated on node B: ${show(r)}`);
  assert.equal(r.json.error.code, 'upload_incomplete');
  assert.match(r.json.error.message, new RegExp(`next part starts at offset ${PART}`));
  // The nodes take turns, and the last part reaches node A, whose solver
  // is off (node B's would search the 155 levels before the next test's).
  const parts = Math.ceil(bytes.length / PART);
  for (let offset = PART, k = 1; offset < bytes.length; offset += PART, k++) {
    const onNodeA = (parts - 1 - k) % 2 === 0;
    r = await (onNodeA ? onA : onB).post(`/api/v1/admin/uploads/${id}/parts`, { offset, data: bytes.subarray(offset, offset + PART).toString('base64') });
    assert.equal(r.status, 200, `part ${k + 1} at ${offset} on node ${onNodeA ? 'A' : 'B'}: ${show(r)}`);
  }
  assert.equal(r.json.upload.state, 'checked', show(r));
  assert.deepEqual(r.json.upload.report.summary, { levels: 155, valid: 155, invalid: 0, duplicates: 0 },
    'the file put together from both nodes\' parts is the whole file');
  const seen = await onA.get(`/api/v1/admin/uploads/${id}`);
  assert.equal(seen.status, 200, show(seen));
  assert.deepEqual(seen.json.upload.report, r.json.upload.report, 'both nodes show the same report');
  for (const client of [onA, onB]) {
    const list = await client.get('/api/v1/admin/uploads');
    assert.equal(list.status, 200, show(list));
    assert.deepEqual(list.json.uploads.map((u) => [u.id, u.state]), [[id, 'checked']]);
  }

  // Asked of both nodes at once, the upload is imported once.
  const [ia, ib] = await Promise.all([
    importUpload(onA, id, { collection: 'Microban' }),
    importUpload(onB, id, { collection: 'Microban' }),
  ]);
  const statuses = [ia.status, ib.status].sort().join(' ');
  assert.equal(statuses, '201 409', `node A: ${show(ia)}; node B: ${show(ib)}`);
  const refused = ia.status === 409 ? ia : ib;
  assert.equal(refused.json.error.code, 'already_imported', show(refused));
  const done = ia.status === 201 ? ia : ib;
  assert.equal(done.json.import.imported, 155, show(done));
  assert.equal(sqlite(db, "SELECT count(*) FROM levels l JOIN collections c ON c.id = l.collection_id WHERE c.name = 'Microban'"), '155');
  const after = await onB.get(`/api/v1/admin/uploads/${id}?levels=1`);
  assert.equal(after.json.upload.state, 'imported', show(after));
  assert.equal(after.json.upload.collection_id, done.json.import.collection_id);
  assert.ok(after.json.upload.report.levels.every((l) => l.imported_id > 0), 'the report names each imported level on every node');
  assert.equal(sqlite(db, `SELECT count(*) FROM staged_upload_parts WHERE upload_id = ${id}`), '0', 'an imported upload\'s bytes are deleted');
});

test('an upload checked on one node shows its solver verdicts on the other, and is discarded through either', { skip }, async () => {
  // Two small levels: node B (the solver's on) checks the file, since its
  // last part reaches B, and searches both.
  const text = '; Corridor\n#######\n#@ $ .#\n#######\n\n; Turn\n#####\n#@  #\n# $ #\n#  .#\n#####\n';
  const bytes = Buffer.concat([Buffer.from(text), Buffer.alloc(2 * PART + 1 - text.length, '\n')]);
  const r = await uploadAlternately([onB, onA], 'two.sok', bytes);
  assert.equal(r.json.upload.state, 'checked', show(r));
  let seen;
  for (let i = 0; i < 100; i++) {
    seen = await onA.get(`/api/v1/admin/uploads/${r.id}`);
    if (seen.json.upload.solver?.done === 2) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  assert.deepEqual([seen.json.upload.solver?.done, seen.json.upload.solver?.total], [2, 2], `node A (solver off) shows node B's progress: ${show(seen)}\nnode B:\n${b.stderr()}`);
  assert.deepEqual(seen.json.upload.report.levels.map((l) => l.solver.status), ['solvable', 'solvable'], show(seen));
  const gone = await onA.req('DELETE', `/api/v1/admin/uploads/${r.id}`, {});
  assert.equal(gone.status, 200, show(gone));
  const missing = await onB.get(`/api/v1/admin/uploads/${r.id}`);
  assert.equal(missing.status, 404, `discarded through node A, asked of node B: ${show(missing)}`);
  assert.equal(missing.json.error.code, 'upload_not_found');
});

test('a level and a collection an admin renames through one node are served renamed by the other', { skip }, async () => {
  // No node keeps levels or collections in memory: each request reads them.
  const player = b.client();
  const collections = (await player.get('/api/v1/collections')).json.collections;
  const col = collections.find((c) => c.name === 'sokod tests');
  assert.ok(col, `node B lists the test levels: ${JSON.stringify(collections.map((c) => c.name))}`);
  const level = (await player.get(`/api/v1/collections/${col.id}`)).json.levels[0];
  let r = await onA.req('PATCH', `/api/v1/admin/levels/${level.id}`, { title: 'Renamed through node A' });
  assert.equal(r.status, 200, show(r));
  r = await onA.req('PATCH', `/api/v1/admin/collections/${col.id}`, { name: 'Renamed tests' });
  assert.equal(r.status, 200, show(r));
  const seen = await player.get(`/api/v1/levels/${level.id}`);
  assert.equal(seen.json.level.title, 'Renamed through node A', `node B: ${show(seen)}`);
  const listed = (await player.get('/api/v1/collections')).json.collections.map((c) => c.name);
  assert.ok(listed.includes('Renamed tests') && !listed.includes('sokod tests'), `node B lists: ${JSON.stringify(listed)}`);
});

test('an upload whose check a stopped node left midway can be discarded through another', { skip }, async () => {
  const r = await onA.post('/api/v1/admin/uploads', { filename: 'stuck.sok', size: 10 });
  assert.equal(r.status, 201, show(r));
  const id = r.json.upload.id;
  // As a node leaves it when it stops during the check: "checking", since
  // the moment the check began.
  sqlite(db, `UPDATE staged_uploads SET state = 'checking', received = 10, used_at = used_at - 60 WHERE id = ${id}`);
  let gone = await onB.req('DELETE', `/api/v1/admin/uploads/${id}`, {});
  assert.equal(gone.status, 409, `a check begun a minute ago may still be running: ${show(gone)}`);
  assert.equal(gone.json.error.code, 'upload_incomplete');
  const seen = await onB.get(`/api/v1/admin/uploads/${id}`);
  assert.equal(seen.json.upload.state, 'checking', show(seen));
  sqlite(db, `UPDATE staged_uploads SET used_at = used_at - 600 WHERE id = ${id}`);
  gone = await onB.req('DELETE', `/api/v1/admin/uploads/${id}`, {});
  assert.equal(gone.status, 200, `a check begun eleven minutes ago is one whose node stopped: ${show(gone)}`);
  assert.equal(sqlite(db, `SELECT count(*) FROM staged_uploads WHERE id = ${id}`), '0');
});
