// The background solvability check: each valid level of a checked upload
// is given to the solver with a time limit, off the HTTP threads; the
// upload shows its progress, each level comes out solvable (with pushes),
// unsolvable or unknown, and imported levels keep the verdict.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { show, stopCleanly } from './harness.mjs';
import { importUpload, startAdminServer, upload } from './admin.mjs';

const FILE = [
  '; Easy', '#########', '#@ $   .#', '#########', '',
  // The box stands in a corner off its goal: it can never move.
  '; Stuck', '#######', '#$ @ .#', '#######', '',
  '; Broken', '#####', '#@$ #', '#####', '',
].join('\n');

let server;
let admin;

before(async () => {
  ({ server, admin } = await startAdminServer({ args: ['--solver-seconds', '20'] }));
});

after(() => stopCleanly(server));

async function waitFor(what, fn) {
  const until = Date.now() + 60000;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > until) throw new Error(`waited 60 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('each valid level is checked for solvability in the background, with progress, and imported levels keep the verdict', async () => {
  const r = await upload(admin, 'solvable.sok', Buffer.from(FILE));
  const first = r.json.upload;
  assert.equal(first.solver.total, 2, 'the two valid levels wait for the solver');
  assert.ok(first.solver.done <= 2);
  assert.equal(first.report.levels[2].solver, null, 'an invalid level is not given to the solver');

  const imp = await importUpload(admin, r.id, { collection: 'Solver' });
  assert.equal(imp.status, 201, show(imp));
  const done = await waitFor('the solver', async () => {
    const u = (await admin.get(`/api/v1/admin/uploads/${r.id}`)).json.upload;
    return u.solver.done === 2 ? u : null;
  });
  const [easy, stuck] = done.report.levels;
  console.log(`solver: ${JSON.stringify(easy.solver)} ${JSON.stringify(stuck.solver)}`);
  assert.equal(easy.solver.status, 'solvable');
  assert.equal(stuck.solver.status, 'unsolvable');
  assert.ok(easy.solver.seconds >= 0);
  assert.deepEqual([easy.solver.moves, easy.solver.pushes], [5, 4], 'one step, then four pushes along the corridor');

  // The verdict reaches the library, whether the import came before or after it.
  const levels = await waitFor('the verdicts in the library', async () => {
    const c = (await admin.get(`/api/v1/admin/collections/${imp.json.import.collection_id}`)).json.levels;
    return c.every((l) => l.solver !== null) ? c : null;
  });
  assert.deepEqual(levels.map((l) => l.solver.status), ['solvable', 'unsolvable']);
  assert.equal(levels[0].solver.pushes, 4);
});
