// Leaderboards of witnessed solutions: ranks by moves and by pushes, ties
// broken by the earlier solution, the asker's own rank outside the top,
// guests ranked for themselves only, a better solution replacing a
// player's entry, reference solutions never ranked, and the solution
// endpoint a replay reads.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { levelIds, runSokod, show, startServer, stopCleanly, tempDir } from './harness.mjs';
import { ADMIN, ADMIN_PASSWORD, signedUpPlayer, startAdminServer } from './admin.mjs';
import { Board } from './sokoban.mjs';

// A room where a box goes three squares right. A player can waste moves
// (up and down) or pushes (the box pushed back and forth), so the boards
// by moves and by pushes order the same players differently. The file's
// own solution is a reference solution: it must never rank.
const LEVELS = `Collection: board tests

#########
#       #
#@ $  . #
#       #
#########
Title: Open room

Solution
rRRR

#######
#@ $ .#
#######
Title: Corridor

Solution
rRR
`;

// Lines on the open room and what they count (worked out by the model below).
const SHORT = 'rrrr';                      // 4 moves, 3 pushes
const WANDER = 'ud'.repeat(6) + 'rrrr';   // 16 moves, 3 pushes
const BACK_AND_FORTH = 'rrurrdlulldrrr'; // 14 moves, 5 pushes: box right, back, then home

let server;
let admin;
let room;
let corridor;

before(async () => {
  const dir = tempDir('sokod-boards-');
  const levels = path.join(dir, 'levels');
  fs.mkdirSync(levels, { recursive: true });
  fs.writeFileSync(path.join(levels, 'boards.sok'), LEVELS);
  ({ server, admin } = await startAdminServer({ dir, levels }));
  [room, corridor] = await levelIds(admin, 'board tests');
});

after(() => stopCleanly(server, 'sokod should stop cleanly on SIGTERM'));

// What a line counts on a level, from the test's own model.
async function counts(client, levelId, line) {
  const level = (await client.get(`/api/v1/levels/${levelId}`)).json.level;
  const b = new Board(level.rows);
  for (const l of line) b.step(l);
  assert.ok(b.solved(), `the line ${line} should solve level ${levelId}`);
  return { moves: b.moves, pushes: b.pushes };
}

// Plays `line` (after a restart when the game has a history) through the
// log and checks the server says solved.
async function solve(client, levelId, line) {
  let r = await client.post(`/api/v1/levels/${levelId}/game`);
  assert.ok(r.status === 200 || r.status === 201, show(r));
  const game = r.json.game;
  let seq = game.seq;
  if (game.history.length > 0) {
    r = await client.post(`/api/v1/games/${game.id}/log`, { seq: ++seq, restart: true });
    assert.equal(r.status, 200, show(r));
  }
  r = await client.post(`/api/v1/games/${game.id}/log`, { seq: seq + 1, steps: line });
  assert.equal(r.status, 200, `playing ${line} on level ${levelId}: ${show(r)}`);
  assert.equal(r.json.game.solved, true, `${line} should solve level ${levelId}: ${show(r)}`);
  return r.json.game;
}

async function board(client, levelId, query = '') {
  const r = await client.get(`/api/v1/levels/${levelId}/leaderboard${query}`);
  assert.equal(r.status, 200, show(r));
  return r.json;
}

const names = (list) => list.entries.map((e) => e.user);

// Players are made in an order unlike the order they solve in, so that a
// board sorted by user rather than by time would fail.
let late, early, waster, pusher, guest;

test('boards rank each player once, by moves or by pushes, ties to the earlier solution', async () => {
  const short = await counts(admin, room, SHORT);
  const wander = await counts(admin, room, WANDER);
  const bf = await counts(admin, room, BACK_AND_FORTH);
  console.log({ short, wander, bf });
  // The test's premise: the two orderings differ on these lines.
  assert.ok(bf.moves < wander.moves && bf.pushes > wander.pushes, 'back and forth: fewer moves, more pushes than wandering');

  late = await signedUpPlayer(server, 'late');
  pusher = await signedUpPlayer(server, 'pusher');
  waster = await signedUpPlayer(server, 'waster');
  early = await signedUpPlayer(server, 'early');

  await solve(early, room, SHORT);
  await solve(waster, room, WANDER);
  await solve(pusher, room, BACK_AND_FORTH);
  await solve(late, room, SHORT);
  // A second, worse line of the same player changes nothing on the board.
  await solve(early, room, WANDER);

  const byMoves = await board(admin, room, '?by=moves');
  console.log('by moves', JSON.stringify(byMoves.entries));
  assert.deepEqual(names(byMoves), ['early', 'late', 'pusher', 'waster']);
  assert.deepEqual(byMoves.entries.map((e) => e.rank), [1, 2, 3, 4]);
  assert.equal(byMoves.total, 4);
  assert.equal(byMoves.by, 'moves');
  assert.deepEqual([byMoves.entries[0].moves, byMoves.entries[0].pushes], [short.moves, short.pushes]);
  assert.deepEqual([byMoves.entries[2].moves, byMoves.entries[2].pushes], [bf.moves, bf.pushes]);
  assert.ok(byMoves.entries[0].solved_at <= byMoves.entries[1].solved_at, 'the tie goes to the earlier time');
  assert.equal(byMoves.you, null, 'the admin has no entry on this board');

  const byPushes = await board(admin, room, '?by=pushes');
  console.log('by pushes', JSON.stringify(byPushes.entries));
  assert.deepEqual(names(byPushes), ['early', 'late', 'waster', 'pusher']);
  assert.deepEqual([byPushes.entries[2].moves, byPushes.entries[2].pushes], [wander.moves, wander.pushes]);

  const defaulted = await board(admin, room);
  assert.equal(defaulted.by, 'moves', 'moves is the default ordering');
  assert.deepEqual(names(defaulted), names(byMoves));
});

test('a player sees its own rank even outside the top', async () => {
  const top = await board(waster, room, '?by=moves&limit=2');
  assert.deepEqual(names(top), ['early', 'late'], 'limit keeps the top two');
  assert.equal(top.total, 4, 'total counts the whole board');
  assert.ok(top.you, `the asker's own entry: ${JSON.stringify(top)}`);
  assert.equal(top.you.user, 'waster');
  assert.equal(top.you.rank, 4);
  assert.equal(top.you.you, true);
  const inTop = await board(early, room, '?limit=2');
  assert.equal(inTop.entries[0].you, true, 'an entry of the asker is marked as such');
  assert.equal(inTop.entries[1].you, false);
  assert.equal(inTop.you.rank, 1);
});

test('a guest is ranked for itself, shown to nobody, and listed once it signs up', async () => {
  guest = server.client();
  await solve(guest, room, SHORT);
  let seen = await board(guest, room, '?limit=100');
  assert.ok(!seen.entries.some((e) => e.you), 'a guest is not listed');
  assert.equal(seen.total, 4);
  assert.equal(seen.you.rank, 3, 'a guest learns where it would stand (after the two earlier short lines)');
  assert.equal(seen.you.listed, false);
  assert.equal(seen.you.user, null);
  const other = await board(admin, room, '?limit=100');
  assert.equal(other.total, 4);

  // Its solution is its own to see.
  let r = await admin.get(seen.you.solution);
  assert.equal(r.status, 404, `a guest's solution is not shown to others: ${show(r)}`);
  assert.equal(r.json.error.code, 'solution_not_found');
  r = await guest.get(seen.you.solution);
  assert.equal(r.status, 200, show(r));

  r = await guest.post('/api/v1/account/signup', { username: 'newcomer', password: 'a password of a player' });
  assert.equal(r.status, 201, show(r));
  seen = await board(admin, room, '?limit=100');
  assert.deepEqual(names(seen), ['early', 'late', 'newcomer', 'pusher', 'waster'], 'signed up, the guest is listed');
  assert.equal(seen.total, 5, 'and counted');
  assert.equal((await board(admin, room, '?by=pushes')).total, 5, 'on both orderings');
  r = await admin.get(seen.entries[2].solution);
  assert.equal(r.status, 200, show(r));
});

test('a better solution replaces the player\'s entry, and the solution replays it', async () => {
  const before = await board(admin, room, '?by=pushes&limit=100');
  const old = before.entries.find((e) => e.user === 'pusher');
  await solve(pusher, room, SHORT);
  const afterwards = await board(admin, room, '?by=pushes&limit=100');
  console.log('by pushes after the better line', JSON.stringify(afterwards.entries));
  const mine = afterwards.entries.filter((e) => e.user === 'pusher');
  assert.equal(mine.length, 1, 'a player appears once');
  assert.notEqual(mine[0].solution_id, old.solution_id);
  assert.deepEqual([mine[0].moves, mine[0].pushes], [SHORT.length, 3]);
  assert.deepEqual(names(afterwards), ['early', 'late', 'newcomer', 'pusher', 'waster'],
    'the same counts, later: after the earlier ones');

  const r = await admin.get(mine[0].solution);
  assert.equal(r.status, 200, show(r));
  const s = r.json.solution;
  assert.equal(s.level_id, room);
  assert.equal(s.user, 'pusher');
  assert.equal(s.lurd.toLowerCase(), SHORT, 'the solution holds the line played');
  assert.equal(s.lurd, 'rRRR', 'pushes in upper case');
  assert.equal(s.hinted, false);
  assert.equal(s.rule, 0);
  const level = (await admin.get(`/api/v1/levels/${room}`)).json.level;
  const replay = new Board(level.rows);
  for (const l of s.lurd) assert.equal(replay.step(l), l, `replaying ${s.lurd}`);
  assert.ok(replay.solved(), 'the line replays to solved');
});

test('a solution found after a hint is ranked apart and marked; one found before stays unaided', async () => {
  const plainBefore = await board(admin, room, '?limit=100');
  const wasterBefore = plainBefore.entries.find((e) => e.user === 'waster');
  assert.equal(wasterBefore.moves, 16, 'waster solved by wandering, unaided');
  assert.equal(plainBefore.hinted.total, 0, 'no hinted solution yet');

  // waster restarts, asks for a hint, then plays the short line.
  let r = await waster.post(`/api/v1/levels/${room}/game`);
  const game = r.json.game;
  r = await waster.post(`/api/v1/games/${game.id}/log`, { seq: game.seq + 1, restart: true });
  assert.equal(r.status, 200, show(r));
  r = await waster.post(`/api/v1/games/${game.id}/hint`, {});
  assert.equal(r.status, 200, `asking for a hint: ${show(r)}`);
  assert.equal(r.json.game.hints, 1);
  r = await waster.post(`/api/v1/games/${game.id}/log`, { seq: game.seq + 2, steps: SHORT });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.game.solved, true, show(r));

  const after = await board(waster, room, '?limit=100');
  console.log('after a hinted solution', JSON.stringify(after));
  const plain = after.entries.find((e) => e.user === 'waster');
  assert.equal(plain.moves, 16, 'the hinted 4-move line does not replace the unaided entry');
  assert.equal(plain.hinted, false);
  assert.equal(plain.rank, 5, 'nor lift its rank');
  assert.equal(after.total, 5, 'the unaided board keeps its players');
  assert.equal(after.hinted.total, 1);
  assert.equal(after.hinted.entries.length, 1);
  const helped = after.hinted.entries[0];
  assert.deepEqual([helped.user, helped.rank, helped.moves, helped.pushes, helped.hinted, helped.hints],
    ['waster', 1, 4, 3, true, 1], 'the hinted list ranks it, marked with its hint count');
  assert.equal(after.hinted.you.rank, 1, 'the asker sees its own hinted rank');
  assert.equal(after.you.moves, 16, 'and its own unaided entry');
  r = await admin.get(helped.solution);
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.solution.hinted, true, 'the solution says it was helped');
  assert.equal(r.json.solution.hints, 1);
  // The player who has no hinted solution has no entry there.
  const early = await board(admin, room);
  assert.equal(early.hinted.you, null);
});

test('reference solutions of the level file are never ranked', async () => {
  for (const id of [room, corridor]) {
    const r = await admin.get(`/api/v1/admin/levels/${id}`);
    assert.equal(r.status, 200, show(r));
    assert.equal(r.json.level.references.length, 1, `level ${id}'s file solution is kept as a reference: ${show(r)}`);
  }
  const b = await board(admin, corridor);
  assert.equal(b.total, 0, `nobody played the corridor: ${JSON.stringify(b)}`);
  assert.deepEqual(b.entries, []);
  assert.equal(b.hinted.total, 0);
  const players = ['early', 'late', 'newcomer', 'pusher', 'waster'];
  const all = await board(admin, room, '?limit=100');
  assert.deepEqual(names(all).sort(), players, 'only players who played are on the room\'s board');
});

test('bad queries are refused with a clear error', async () => {
  let r = await admin.get(`/api/v1/levels/${room}/leaderboard?by=time`);
  assert.equal(r.status, 400, show(r));
  assert.equal(r.json.error.code, 'invalid_value');
  for (const limit of ['0', '101', 'ten', '5x']) {
    r = await admin.get(`/api/v1/levels/${room}/leaderboard?limit=${limit}`);
    assert.equal(r.status, 400, `limit=${limit}: ${show(r)}`);
  }
  r = await admin.get('/api/v1/levels/999999/leaderboard');
  assert.equal(r.status, 404, show(r));
  assert.equal(r.json.error.code, 'level_not_found');
  r = await admin.get('/api/v1/solutions/999999');
  assert.equal(r.status, 404, show(r));
  assert.equal(r.json.error.code, 'solution_not_found');
  r = await admin.post(`/api/v1/levels/${room}/leaderboard`, {});
  assert.equal(r.status, 405, show(r));
});

// ---- The daily puzzle's board and streaks --------------------------------------------------

// The servers' clocks (SOKOD_TEST_NOW, Unix seconds): ten minutes before
// the end of DAY, then just after midnight, then the day after that.
const DAY = '2026-03-10';
const NEXT = '2026-03-11';
const LATE_ON_DAY = Date.UTC(2026, 2, 10, 23, 50, 0) / 1000;
const JUST_AFTER = Date.UTC(2026, 2, 11, 0, 0, 1) / 1000;
const TWO_DAYS_ON = Date.UTC(2026, 2, 12, 0, 0, 1) / 1000;
const THREE_DAYS_ON = Date.UTC(2026, 2, 13, 0, 0, 1) / 1000;

// A server on the shared database with its clock at `now`, and clients
// that keep their sessions from one server to the next.
async function dailyServer(db, dir, now) {
  return startServer({ dir, db, args: ['--solver-seconds', '0'], env: { SOKOD_TEST_NOW: String(now) } });
}

// The client's session on another server of the same database.
function on(server, client) {
  const c = server.client();
  c.cookies = new Map(client.cookies);
  return c;
}

// Opens the day's puzzle and plays its reference solution (read by the
// admin) through the log.
async function solveDaily(server, client, admin, day) {
  let r = await client.get(`/api/v1/daily?day=${day}`);
  assert.equal(r.status, 200, `the puzzle of ${day}: ${show(r)}`);
  const level = r.json.level.id;
  r = await admin.get(`/api/v1/admin/levels/${level}`);
  assert.equal(r.status, 200, show(r));
  const lurd = r.json.level.references[0]?.lurd;
  assert.ok(lurd, `the puzzle of ${day} has a reference solution: ${show(r)}`);
  const game = await solve(client, level, lurd);
  return { level, moves: game.moves, pushes: game.pushes };
}

test('the daily board holds the solutions of its own day (UTC) only, and streaks count days in a row', async () => {
  const dir = tempDir('sokod-daily-board-');
  const db = path.join(dir, 'data', 'sokod.db');
  const made = runSokod(['admin', 'create', ADMIN, '--db', db], { input: `${ADMIN_PASSWORD}\n` });
  assert.equal(made.status, 0, `sokod admin create: ${made.stdout}${made.stderr}`);

  // Late on DAY: alice solves DAY's puzzle, and yesterday's (not on its day).
  let s = await dailyServer(db, dir, LATE_ON_DAY);
  let admin = s.client();
  let r = await admin.post('/api/v1/account/login', { username: ADMIN, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200, show(r));
  const alice = await signedUpPlayer(s, 'alice');
  const onDay = await solveDaily(s, alice, admin, DAY);
  await solveDaily(s, alice, admin, '2026-03-09');
  r = await alice.get(`/api/v1/daily/leaderboard?day=${DAY}`);
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.day, DAY);
  assert.equal(r.json.level_id, onDay.level);
  assert.deepEqual(r.json.entries.map((e) => e.user), ['alice']);
  r = await alice.get('/api/v1/daily/leaderboard');
  assert.equal(r.json.day, DAY, 'without ?day, today\'s board');
  r = await alice.get('/api/v1/daily/leaderboard?day=2026-03-09');
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.total, 0, `a puzzle solved after its day is not on that day's board: ${show(r)}`);
  r = await alice.get('/api/v1/daily/streak');
  assert.deepEqual(r.json, { today: DAY, streak: 1, solved_today: true }, show(r));
  await s.stop();

  // Just after midnight: bob solves DAY's puzzle a day late, alice NEXT's.
  s = await dailyServer(db, dir, JUST_AFTER);
  admin = on(s, admin);
  const bob = await signedUpPlayer(s, 'bob');
  await solveDaily(s, bob, admin, DAY);
  await solveDaily(s, on(s, alice), admin, NEXT);
  r = await bob.get(`/api/v1/daily/leaderboard?day=${DAY}`);
  assert.deepEqual(r.json.entries.map((e) => e.user), ['alice'], `solved after midnight is not on the day's board: ${show(r)}`);
  assert.equal(r.json.you, null, 'bob has no entry on that day');
  r = await bob.get(`/api/v1/levels/${onDay.level}/leaderboard`);
  assert.deepEqual(r.json.entries.map((e) => e.user).sort(), ['alice', 'bob'], 'the level\'s own board has both');
  r = await bob.get(`/api/v1/daily/leaderboard?day=${NEXT}`);
  assert.deepEqual(r.json.entries.map((e) => e.user), ['alice']);
  r = await on(s, alice).get('/api/v1/daily/streak');
  assert.deepEqual(r.json, { today: NEXT, streak: 2, solved_today: true }, show(r));
  r = await bob.get('/api/v1/daily/streak');
  assert.deepEqual(r.json, { today: NEXT, streak: 0, solved_today: false }, show(r));
  r = await s.client().get('/api/v1/daily/streak');
  assert.equal(r.json.streak, 0, 'nobody has no streak');
  r = await bob.get('/api/v1/daily/leaderboard?day=2026-02-30');
  assert.equal(r.status, 400, show(r));
  r = await bob.get('/api/v1/daily/leaderboard?day=2025-01-01');
  assert.equal(r.status, 404, `a day whose puzzle was never made: ${show(r)}`);
  await s.stop();

  // The next day the streak still stands (today's is not solved yet); the
  // day after, it is broken.
  s = await dailyServer(db, dir, TWO_DAYS_ON);
  r = await on(s, alice).get('/api/v1/daily/streak');
  assert.deepEqual(r.json, { today: '2026-03-12', streak: 2, solved_today: false }, show(r));
  await s.stop();
  s = await dailyServer(db, dir, THREE_DAYS_ON);
  r = await on(s, alice).get('/api/v1/daily/streak');
  assert.deepEqual(r.json, { today: '2026-03-13', streak: 0, solved_today: false }, show(r));
  await stopCleanly(s);
});
