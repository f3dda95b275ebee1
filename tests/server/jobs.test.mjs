// Background work as jobs in the database: an upload's check and the
// solver's verdicts on its levels are rows of the jobs table, leased to
// the node that runs them, so that a node killed midway leaves them to
// the others. On PostgreSQL, two nodes share a database: node A is killed
// (SIGKILL) while its solver searches an uploaded level, and node B takes
// the job once A's lease runs out and writes the verdict. On SQLite (one
// process per database), the server started again after the kill finishes
// it; an upload whose check a killed node left is checked again by the
// next node that looks. A job that fails every time (an upload whose stored bytes are
// broken) ends failed with its reason after a bounded number of tries.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { BACKEND, SHARED, SQL, show, sqlite, startServer, stopCleanly } from './harness.mjs';
import { ADMIN, ADMIN_PASSWORD, startAdminServer, upload } from './admin.mjs';

// The tries of a job before it fails for good (library/jobs.h).
const MAX_ATTEMPTS = 3;

// A level the solver searches for long: the last of Sasquatch, read from
// the shared collections (never copied into the repository).
function hardLevel() {
  const text = fs.readFileSync(path.join(SHARED, 'levels', 'Sasquatch_50.xsb'), 'utf8');
  const at = text.indexOf('\n; 50\n');
  assert.ok(at >= 0, 'Sasquatch_50.xsb holds its level 50');
  return `; Particle Theory\n${text.slice(at + 6).split('\n').filter((l) => l.includes('#')).join('\n')}\n`;
}

// A test that fails midway leaves no server running.
const servers = [];
after(() => { for (const s of servers) if (s.proc.exitCode === null) s.proc.kill('SIGKILL'); });

async function signIn(server) {
  const admin = server.client();
  const r = await admin.post('/api/v1/account/login', { username: ADMIN, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200, show(r));
  return admin;
}

// Calls fn every 100 ms until it returns something; fails after `seconds`
// with what it returned last, described by what(last).
async function waitFor(seconds, fn, what) {
  let last;
  for (const t0 = Date.now(); Date.now() - t0 < seconds * 1000;) {
    last = await fn();
    if (last?.done) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`waited ${seconds} s for ${what(last)}`);
}

// The upload's level 0 and its solver's status, as `admin` sees them.
async function levelStatus(admin, id) {
  const r = await admin.get(`/api/v1/admin/uploads/${id}`);
  assert.equal(r.status, 200, show(r));
  const level = r.json.upload.report?.levels?.[0];
  return { upload: r.json.upload, status: level?.solver?.status ?? null };
}

test('a level whose solver node is killed midway gets its verdict from another node', async () => {
  // Node A searches for ten minutes: the level is still running when killed.
  const { server: a, admin: onA } = await startAdminServer({ args: ['--solver-seconds', '600'] });
  servers.push(a);
  // On PostgreSQL, node B runs beside node A on its database.
  const startB = () => startServer({ db: a.db, dir: BACKEND === 'postgresql' ? undefined : a.dir, args: ['--solver-seconds', '2'] });
  const early = BACKEND === 'postgresql' ? await startB() : null;
  if (early) servers.push(early);
  const r = await upload(onA, 'particle.sok', Buffer.from(hardLevel()));
  const id = r.id;
  assert.equal(r.json.upload.solver?.total, 1, `the level waits for the solver: ${show(r)}`);
  const seen = await waitFor(60, async () => {
    const s = await levelStatus(onA, id);
    return { ...s, done: s.status !== 'pending' };
  }, (s) => `node A's solver to take the level (it says ${s?.status})`);
  assert.equal(seen.status, 'running', `node A searches the level when it is killed: ${JSON.stringify(seen.upload.solver)}`);
  await a.kill9();
  const killedAt = Date.now();

  // Node B: another node on the database (PostgreSQL), or the same
  // database started again (SQLite). Its solver gives up sooner.
  const b = early ?? await startB();
  if (!early) servers.push(b);
  const onB = await signIn(b);
  const verdicts = ['solvable', 'unsolvable', 'unknown'];
  const done = await waitFor(90, async () => {
    const s = await levelStatus(onB, id);
    return { ...s, done: verdicts.includes(s.status) };
  }, (s) => `node B (${BACKEND}) to finish the level node A left; it stays ${JSON.stringify(s?.upload?.solver)} with status ${s?.status}; jobs: ${sqlite(a.db, 'SELECT kind, state, node, attempts, error FROM jobs')}`);
  console.log(`${BACKEND}: the verdict (${done.status}) came ${Date.now() - killedAt} ms after node A was killed`);
  assert.equal(done.upload.solver.done, 1, `the upload counts its level done: ${JSON.stringify(done.upload.solver)}`);
  assert.equal(sqlite(a.db, 'SELECT count(*) FROM jobs'), '0', 'the job done is deleted');
  await stopCleanly(b, 'node B should stop cleanly');
});

test('an upload a killed node was checking is checked by the next node that looks', async () => {
  const { server, admin } = await startAdminServer();
  servers.push(server);
  const r = await upload(admin, 'room.sok', Buffer.from('; Room\n#######\n#@$  .#\n#######\n'));
  const id = r.id;
  // What a node killed during the check leaves: the upload "checking",
  // no report, and its job leased to a node that renews it no more.
  const past = Date.now() - 60000;
  sqlite(server.db, `${SQL.foreignKeysOn}UPDATE staged_uploads SET state = 'checking', report = NULL WHERE id = ${id};
    INSERT INTO jobs (kind, upload_id, state, node, lease_until, attempts, created_at)
    VALUES ('upload_check', ${id}, 'running', 'gone/1.0', ${past}, 1, ${past})`);
  const t0 = Date.now();
  const done = await waitFor(60, async () => {
    const u = (await admin.get(`/api/v1/admin/uploads/${id}?levels=0`)).json.upload;
    return { u, done: u.state === 'checked' };
  }, (last) => `the upload to be checked again; it is ${JSON.stringify(last?.u?.state)}; jobs: ${sqlite(server.db, 'SELECT kind, state, node, attempts, error FROM jobs')}`);
  console.log(`checked again ${Date.now() - t0} ms after its node was left for gone`);
  assert.equal(done.u.report?.summary?.valid, 1, `the report is back, its one level valid: ${JSON.stringify(done.u.report)}`);
  assert.equal(sqlite(server.db, `SELECT count(*) FROM jobs WHERE upload_id = ${id}`), '0', 'the job done is deleted');
  await stopCleanly(server);
});

test(`a job that fails every time ends failed with its reason after ${MAX_ATTEMPTS} tries`, async () => {
  const { server, admin } = await startAdminServer();
  servers.push(server);
  const bytes = Buffer.from('; Room\n#######\n#@$  .#\n#######\n');
  let r = await admin.post('/api/v1/admin/uploads', { filename: 'broken.sok', size: bytes.length, data: bytes.subarray(0, 10).toString('base64') });
  assert.equal(r.status, 201, show(r));
  const id = r.json.upload.id;
  // The stored first part no longer starts the file: its bytes cannot be
  // put together again, however often the check runs.
  sqlite(server.db, `UPDATE staged_upload_parts SET at = 1 WHERE upload_id = ${id}`);
  r = await admin.post(`/api/v1/admin/uploads/${id}/parts`, { offset: 10, data: bytes.subarray(10).toString('base64') });
  assert.equal(r.status, 500, `the check of a broken upload fails: ${show(r)}`);
  const row = () => sqlite(server.db, `SELECT kind, state, attempts, error FROM jobs WHERE upload_id = ${id}`);
  const failed = await waitFor(60, () => {
    const got = row();
    return { got, done: got.split('|')[1] === 'failed' };
  }, (last) => `the upload's check job to fail for good; jobs: ${JSON.stringify(last?.got)}`);
  const [kind, , attempts, error] = failed.got.split('|');
  assert.equal(kind, 'upload_check');
  assert.equal(Number(attempts), MAX_ATTEMPTS, `tried ${MAX_ATTEMPTS} times, then no more: ${failed.got}`);
  assert.match(error, /bytes could not be read/, `the job says why it failed: ${failed.got}`);
  // Failed for good: no node takes it again.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  assert.equal(row(), failed.got, 'a job failed for good stays as it is');
  await stopCleanly(server);
});
