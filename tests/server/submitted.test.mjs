// Submitted solutions: a line a player found elsewhere is replayed by the
// core and kept on the level's submitted board, never on the witnessed
// boards; refused lines say what is wrong; a player keeps the best by
// moves, the best by pushes and the latest; the quota counts them. A
// level's best known moves and pushes are the fewest of any solution the
// server holds: witnessed, submitted, or carried by an admin's upload.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { importUpload, signedUpPlayer, startAdminServer, upload } from './admin.mjs';
import { levelIds, show, sqlite, startServer } from './harness.mjs';

let server, admin, ids;
before(async () => {
  // Every client here is one address: the cost limiter, tested on its
  // own (route_costs), would refuse the optimiser's third search.
  ({ server, admin } = await startAdminServer({ args: ['--cost-per-second', '100000'] }));
  ids = await levelIds(server.client());
});
after(async () => { await server.stop(); });

// The tests collection: the corridor ('rRR' solves it in 3 moves and 2
// pushes; 'rl' walks there and back) and the room.
const corridor = () => ids[0];
const room = () => ids[1];
const ROOM_LINE = 'rRRllluRRR'; // 10 moves, 5 pushes

const submit = (client, level, body) => client.post(`/api/v1/levels/${level}/solutions`, body);
const bestKnown = async (level) => (await server.client().get(`/api/v1/levels/${level}`)).json.level.best_known;

test('a pasted line is replayed and kept on the submitted board, never on a witnessed one', async () => {
  const alice = await signedUpPlayer(server, 'alice');
  assert.equal(await bestKnown(corridor()), null, 'a level of no solution has no best known');
  let r = await submit(alice, corridor(), { lurd: 'r 2R' });
  assert.equal(r.status, 201, show(r));
  assert.deepEqual([r.json.solution.moves, r.json.solution.pushes, r.json.created], [3, 2, true], show(r));
  assert.deepEqual(r.json.best_known, { moves: 3, pushes: 2 });
  const id = r.json.solution.id;
  r = await submit(alice, corridor(), { lurd: 'RrR' });
  assert.equal(r.status, 200, `the same line again, in other letters: ${show(r)}`);
  assert.deepEqual([r.json.solution.id, r.json.created], [id, false]);

  const board = await alice.get(`/api/v1/levels/${corridor()}/submitted`);
  assert.equal(board.status, 200, show(board));
  assert.deepEqual(board.json.entries.map((e) => [e.rank, e.user, e.moves, e.pushes]), [[1, 'alice', 3, 2]]);
  const witnessed = await alice.get(`/api/v1/levels/${corridor()}/leaderboard`);
  assert.equal(witnessed.json.entries.length, 0, `the witnessed board holds nothing submitted: ${witnessed.text}`);
  assert.equal(witnessed.json.you ?? null, null, `nor does it rank the submitter: ${witnessed.text}`);
  assert.deepEqual(await bestKnown(corridor()), { moves: 3, pushes: 2 });
});

test('a line that is no solution is refused, saying what is wrong', async () => {
  const bob = await signedUpPlayer(server, 'bob');
  const cases = [
    [{ lurd: 'rxR' }, 400, 'invalid_steps', /column 2/],
    [{ lurd: 'l' }, 422, 'step_refused', /step 1 of 1 \('l'\)/],
    [{ lurd: 'rR' }, 422, 'not_a_solution', /after 2 moves, 1 push \(0 of 1 boxes on goals\)/],
    [{ lurd: 'r' }, 422, 'not_a_solution', /after 1 move, 0 pushes \(0 of 1 boxes on goals\)/],
    [{ lurd: `${1 << 19}(rl)rRR` }, 400, 'invalid_value', /at most 1048576 steps/],
    [{ lurd: 'rRR', rule: 2 }, 400, 'invalid_value', /rule/],
    [{ steps: 'rRR' }, 400, 'unknown_field', /steps/],
  ];
  for (const [body, status, code, message] of cases) {
    const r = await submit(bob, corridor(), body);
    assert.equal(r.status, status, `${JSON.stringify(body)}: ${show(r)}`);
    assert.equal(r.json.error.code, code, `${JSON.stringify(body)}: ${show(r)}`);
    assert.match(r.json.error.message, message, `${JSON.stringify(body)}: ${show(r)}`);
  }
  let r = await submit(bob, 987654, { lurd: 'rRR' });
  assert.equal(r.status, 404, show(r));
  // Nobody, and a guest, whose name no board could show.
  r = await submit(server.client(), corridor(), { lurd: 'rRR' });
  assert.deepEqual([r.status, r.json.error.code], [401, 'no_session'], show(r));
  const guest = server.client();
  await guest.post(`/api/v1/levels/${corridor()}/game`);
  r = await submit(guest, corridor(), { lurd: 'rRR' });
  assert.deepEqual([r.status, r.json.error.code], [401, 'sign_in_required'], show(r));
  const rows = sqlite(server.db, `SELECT count(*) FROM submitted_solutions s JOIN users u ON u.id = s.user_id WHERE u.username = 'bob'`);
  assert.equal(rows, '0', 'nothing refused was stored');
});

test('a player keeps the best by moves, the best by pushes and the latest', async () => {
  const carol = await signedUpPlayer(server, 'carol');
  const lines = ['rlrlrRR', 'rRR', 'rlrRR', 'rlrlrlrRR', 'rlrlrlrlrRR'];
  let best;
  let latest;
  for (const lurd of lines) {
    const r = await submit(carol, corridor(), { lurd });
    assert.equal(r.status, 201, show(r));
    latest = r.json.solution.id;
    if (lurd === 'rRR') best = latest;
    const kept = sqlite(server.db, `SELECT s.id FROM submitted_solutions s JOIN users u ON u.id = s.user_id
      WHERE u.username = 'carol' ORDER BY s.id`).split('\n').map(Number);
    assert.ok(kept.length <= 3 && kept.includes(latest), `after ${lurd}: kept ${kept}`);
    if (best !== undefined) assert.ok(kept.includes(best), `after ${lurd}: the best (${best}) is kept: ${kept}`);
  }
  const board = await carol.get(`/api/v1/levels/${corridor()}/submitted?by=pushes&limit=100`);
  assert.deepEqual(board.json.entries.find((e) => e.user === 'carol')?.moves, 3, board.text);
});

test('the best known takes witnessed solutions and those an upload carried', async () => {
  // Witnessed: dave plays the room in 10 moves.
  const dave = await signedUpPlayer(server, 'dave');
  const game = (await dave.post(`/api/v1/levels/${room()}/game`)).json.game;
  let r = await dave.post(`/api/v1/games/${game.id}/log`, { seq: game.seq + 1, steps: ROOM_LINE });
  assert.equal(r.json?.game?.solved, true, show(r));
  // A longer line submitted does not lower it.
  const erin = await signedUpPlayer(server, 'erin');
  r = await submit(erin, room(), { lurd: `du${ROOM_LINE}` });
  assert.equal(r.status, 201, show(r));
  assert.deepEqual(r.json.best_known, { moves: 10, pushes: 5 }, show(r));
  // An admin's upload with its solution.
  const file = 'Collection: submitted tests\n\n; Long corridor\n#########\n#@ $   .#\n#########\nSolution\nrRRRR\n';
  const up = await upload(admin, 'long.sok', file);
  const imported = await importUpload(admin, up.id);
  assert.ok(imported.status === 200 || imported.status === 201, show(imported));
  const [long] = await levelIds(admin, 'submitted tests');
  assert.deepEqual(await bestKnown(long), { moves: 5, pushes: 4 }, 'the uploaded solution is known');
  r = await submit(erin, long, { lurd: 'rRRRR' });
  assert.deepEqual([r.status, r.json.best_known], [201, { moves: 5, pushes: 4 }], show(r));
});

test('submitted solutions count against the player\'s quota', async () => {
  const s = await startServer({ args: ['--user-storage-mb', '1'] });
  try {
    const c = s.client();
    let r = await c.post('/api/v1/account/signup', { username: 'frank', password: 'a long password' });
    assert.equal(r.status, 201, show(r));
    const [level] = await levelIds(c);
    // 1,048,575 steps: with the row's 32 bytes, past 1 MiB.
    r = await submit(c, level, { lurd: `${(1 << 19) - 2}(rl)rRR` });
    assert.deepEqual([r.status, r.json.error.code], [403, 'quota_exceeded'], show(r));
    assert.ok(r.json.quota.allowed === 1 << 20, show(r));
    r = await submit(c, level, { lurd: '1000(rl)rRR' });
    assert.equal(r.status, 201, show(r));
    const used = (await c.get('/api/v1/account')).json.user.storage.used;
    assert.ok(used >= 2003 + 32, `the account counts the line it holds: ${used} bytes`);
  } finally {
    await s.stop();
  }
});

test('the optimiser shortens a player\'s own solution onto the submitted board', async () => {
  const gina = await signedUpPlayer(server, 'gina');
  const solve = async (level, steps) => {
    const g = (await gina.post(`/api/v1/levels/${level}/game`)).json.game;
    const r = await gina.post(`/api/v1/games/${g.id}/log`, { seq: g.seq + 1, steps });
    assert.equal(r.json?.game?.solved, true, show(r));
    return Number(sqlite(server.db, `SELECT max(id) FROM solutions WHERE game_id = ${g.id}`));
  };
  const long = await solve(room(), `${'du'.repeat(5)}${ROOM_LINE}`);
  let r = await gina.post(`/api/v1/solutions/${long}/optimise`, { metric: 'moves' });
  assert.equal(r.status, 201, show(r));
  assert.equal(r.json.improved, true, show(r));
  assert.deepEqual([r.json.from.moves, r.json.from.pushes], [20, 5]);
  const s = r.json.solution;
  assert.ok(s.moves < 20 && s.pushes <= 5 && s.source === 'optimised', show(r));
  assert.equal(s.lurd.length, s.moves, 'the line has its moves');
  // The line replays: submitted by hand, it is the same row.
  const again = await submit(gina, room(), { lurd: s.lurd });
  assert.deepEqual([again.status, again.json.solution.id], [200, s.id], show(again));
  const board = await gina.get(`/api/v1/levels/${room()}/submitted?limit=100`);
  const mine = board.json.entries.find((e) => e.user === 'gina');
  assert.deepEqual([mine?.moves, mine?.source], [s.moves, 'optimised'], board.text);
  const witnessed = await gina.get(`/api/v1/levels/${room()}/leaderboard?limit=100`);
  const own = [...witnessed.json.entries, witnessed.json.you].find((e) => e?.user === 'gina');
  assert.equal(own?.moves, 20, `the witnessed board keeps what was played: ${witnessed.text}`);

  // Nothing shorter than the corridor's three moves.
  const short = await solve(corridor(), 'rRR');
  r = await gina.post(`/api/v1/solutions/${short}/optimise`, {});
  assert.deepEqual([r.status, r.json.improved], [200, false], show(r));
  assert.match(r.json.reason, /no shorter solution/);
  // Another's solution, a guest, a metric it does not know.
  r = await (await signedUpPlayer(server, 'hal')).post(`/api/v1/solutions/${long}/optimise`, {});
  assert.deepEqual([r.status, r.json.error.code], [404, 'solution_not_found'], show(r));
  const guest = server.client();
  await guest.post(`/api/v1/levels/${corridor()}/game`);
  r = await guest.post(`/api/v1/solutions/${long}/optimise`, {});
  assert.deepEqual([r.status, r.json.error.code], [401, 'sign_in_required'], show(r));
  r = await gina.post(`/api/v1/solutions/${long}/optimise`, { metric: 'boxes' });
  assert.deepEqual([r.status, r.json.error.code], [400, 'invalid_value'], show(r));
});
