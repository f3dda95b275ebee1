// CPU work that clients can ask for is bounded and kept off the log-in
// path: the check of an upload replays its solutions within a budget of
// steps (a run-length bomb is reported "not checked: over budget" instead
// of being replayed for seconds), and log-ins have threads of their own, so
// that four uploads being checked never keep one waiting. Past days' daily
// puzzles are made a few at a time, the rest refused with 503.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { SHARED, show, stopCleanly } from './harness.mjs';
import { ADMIN, ADMIN_PASSWORD, startAdminServer, upload } from './admin.mjs';

// The default of --upload-steps, and the longest solution the check reads.
const UPLOAD_STEPS = 16777216;
const MAX_STEPS = 1048576;

// A level file of `levels` corridors, each followed by the same solutions:
// `moves` (LURD, run-length allowed) `count` times.
function bombFile(levels, count, moves) {
  let text = 'Collection: bombs\n\n';
  for (let i = 1; i <= levels; i++) {
    text += `; Bomb ${i}\n#######\n#@ $ .#\n#######\n`;
    for (let s = 1; s <= count; s++) text += `Solution ${s}\n${moves}\n`;
    text += '\n';
  }
  return Buffer.from(text);
}

// Counts a report's solutions by result.
function results(report) {
  const counts = {};
  for (const l of report.levels) for (const s of l.solutions) counts[s.result] = (counts[s.result] ?? 0) + 1;
  return counts;
}

let server;
let admin;

before(async () => {
  ({ server, admin } = await startAdminServer());
});

after(() => stopCleanly(server));

test('a run-length bomb is replayed up to the budget, the rest "not checked: over budget"', async () => {
  // 32 solutions of 1,000,000 steps (500000 times "rl"): 16 fit the
  // default budget of 16,777,216 steps, the 17th does not.
  const r = await upload(admin, 'bomb.sok', bombFile(2, 16, '500000(rl)'));
  const report = r.json.upload.report;
  assert.deepEqual(report.levels.map((l) => l.solutions.length), [16, 16], 'the solutions are read as such');
  assert.deepEqual(results(report), { unsolved: 16, over_budget: 16 }, show(r));
  for (const s of report.levels[0].solutions) {
    assert.equal(s.result, 'unsolved', `level 1 is replayed in full: ${JSON.stringify(s)}`);
    assert.equal(s.moves, 1000000);
  }
  for (const s of report.levels[1].solutions) {
    assert.equal(s.result, 'over_budget', `level 2 is past the budget: ${JSON.stringify(s)}`);
    assert.match(s.message, /^not checked: over budget/);
    assert.equal(s.moves, undefined, 'a solution over budget has no moves: it was not replayed');
  }
});

test('a solution that fails after expanding is charged what it may have expanded', async () => {
  // Each of level 1's solutions expands 900,000 steps, then stops at a
  // count that repeats nothing:
  // unreadable, and charged all it was allowed (1,048,576 steps), so that
  // 16 of them spend the budget and nothing after them is replayed.
  assert.equal(16 * MAX_STEPS, UPLOAD_STEPS, 'the test spends the default budget exactly');
  const bytes = Buffer.concat([
    bombFile(2, 16, '450000(rl)7'),
    Buffer.from('; Short\n#######\n#@ $ .#\n#######\nSolution\nrRR\n'),
  ]);
  const r = await upload(admin, 'late-errors.sok', bytes);
  const report = r.json.upload.report;
  assert.equal(report.levels.length, 3, show(r));
  assert.deepEqual(report.levels.map((l) => l.solutions.length), [16, 16, 1], 'the solutions are read as such');
  for (const s of report.levels[0].solutions) assert.equal(s.result, 'unreadable', JSON.stringify(s));
  for (const s of report.levels[1].solutions) assert.equal(s.result, 'over_budget', JSON.stringify(s));
  assert.deepEqual(report.levels[2].solutions.map((s) => s.result), ['over_budget'],
    `a short solution after the budget is spent is not replayed: ${JSON.stringify(report.levels[2].solutions)}`);
});

test('the solvability check gives one upload\'s levels a budget of time, the rest "over_budget"', async () => {
  // XSokoban's 90 levels, many beyond one second of search each: with 2
  // seconds for the whole file, most of them are not searched at all.
  const budget = await startAdminServer({ args: ['--solver-seconds', '1', '--upload-solver-seconds', '2'] });
  try {
    const bytes = fs.readFileSync(path.join(SHARED, 'levels', 'XSokoban_90.xsb'));
    const r = await upload(budget.admin, 'XSokoban_90.xsb', bytes);
    let u = r.json.upload;
    const until = Date.now() + 60000;
    while (u.solver.done < u.solver.total && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      u = (await budget.admin.get(`/api/v1/admin/uploads/${r.id}`)).json.upload;
    }
    const states = {};
    let searched = 0;
    for (const l of u.report.levels) {
      states[l.solver.status] = (states[l.solver.status] ?? 0) + 1;
      searched += l.solver.seconds ?? 0;
    }
    console.log(`solver: ${JSON.stringify(states)}, ${searched.toFixed(1)} s of search in all`);
    assert.equal(u.solver.done, u.solver.total, `the solver went through every level: ${JSON.stringify(u.solver)}`);
    assert.ok(states.over_budget > 0, `levels past the budget are not searched: ${JSON.stringify(states)}`);
    assert.ok(searched < 4, `the searches took ${searched} s for a budget of 2 s (each at most 1 s)`);
    for (const l of u.report.levels.filter((x) => x.solver.status === 'over_budget')) {
      assert.equal(l.solver.seconds, undefined, `level ${l.number} was not searched`);
    }
  } finally {
    await stopCleanly(budget.server);
  }
});

test('past days\' puzzles are made four at a time: the others get 503 with Retry-After', async () => {
  // Eight different past days asked at once (within one address's
  // allowance of ten): four are made (--daily-past-jobs), the ones that
  // come meanwhile are refused rather than queued, and are made when asked
  // again.
  const days = Array.from({ length: 8 }, (_, i) => `2001-02-${String(i + 10)}`);
  const client = server.client();
  const answers = await Promise.all(days.map((d) => client.get(`/api/v1/daily?day=${d}`)));
  const statuses = answers.map((r) => r.status);
  console.log(`statuses: ${statuses.join(' ')}`);
  assert.ok(statuses.includes(200), `some of them are made: ${statuses.join(' ')}`);
  assert.ok(statuses.includes(503), `not all of them are made at once: ${statuses.join(' ')}`);
  for (const r of answers) {
    assert.ok(r.status === 200 || r.status === 503, show(r));
    if (r.status !== 503) continue;
    assert.equal(r.json.error.code, 'unavailable', show(r));
    assert.equal(r.headers.get('retry-after'), '1', show(r));
  }
  // One at a time, each refused day is made after all.
  const refused = days.filter((_, i) => statuses[i] === 503).slice(0, 2);
  for (const d of refused) {
    const r = await client.get(`/api/v1/daily?day=${d}`);
    assert.equal(r.status, 200, `${d} asked again: ${show(r)}`);
    assert.equal(r.json.day, d);
  }
});

test('a log-in during four upload checks is answered before any of them', async () => {
  // A server whose budget lets each check replay 48 solutions of 1,000,000
  // steps: several seconds each, on a debug build.
  const slow = await startAdminServer({ args: ['--upload-steps', String(1 << 30)] });
  try {
    const bytes = bombFile(3, 16, '500000(rl)');
    const answered = [];
    const uploads = [];
    for (let i = 1; i <= 4; i++) {
      uploads.push(upload(slow.admin, `bomb-${i}.sok`, bytes).then((r) => {
        answered.push(`upload ${i}`);
        return r;
      }));
    }
    // Once every file is in (all four checks queued or running), log in.
    for (;;) {
      const list = await slow.admin.get('/api/v1/admin/uploads');
      assert.equal(list.status, 200, show(list));
      const states = list.json.uploads.map((u) => u.state);
      if (states.length === 4 && !states.includes('receiving')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const player = slow.server.client();
    const started = Date.now();
    const login = await player.post('/api/v1/account/login', { username: ADMIN, password: ADMIN_PASSWORD });
    const took = Date.now() - started;
    answered.push('log-in');
    assert.equal(login.status, 200, show(login));
    const reports = await Promise.all(uploads);
    console.log(`log-in answered in ${took} ms; order: ${answered.join(', ')}`);
    assert.equal(answered[0], 'log-in', `the log-in waited for upload checks: ${answered.join(', ')}`);
    for (const r of reports) {
      assert.deepEqual(results(r.json.upload.report), { unsolved: 48 }, 'each check replayed everything (the budget allows it)');
    }
  } finally {
    await stopCleanly(slow.server);
  }
});
