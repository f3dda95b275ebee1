// sokod copy: a SQLite database filled by a real server moves to
// PostgreSQL, where a server started on it resumes the same player's game
// and gives new ids past the copied ones; it moves back to a new SQLite
// file with the same rows. The copy refuses a target that holds rows, a
// source of another schema version or with a table it does not know, and
// its check catches a game whose log does not give its stored state.
// Both backends at once: one run (SOKOD_ONE_RUN_TESTS).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  Client, SOURCE, TEST_LEVELS, freshPgDatabase, gameOf, levelIds, openGame, runSokod, show, sqlite, startServer,
  stopCleanly, tempDir,
} from './harness.mjs';

const TABLES = ['users', 'sessions', 'user_settings', 'audit_log', 'server_keys', 'collections', 'levels',
  'reference_solutions', 'daily', 'race_levels', 'rooms', 'games', 'game_log', 'snapshots', 'solutions',
  'board_entries', 'board_buckets'];
const PASSWORD = 'Sekr1tPassw0rd';
// Every column of every level, and which users have no name (guests).
const LEVEL_ROWS = "SELECT id || '|' || collection_id || '|' || position || '|' || title || '|' || author || '|' || " +
  "comment || '|' || board || '|' || width || 'x' || height || '|' || boxes || '|' || canonical_hash || '|' || created_at " +
  'FROM levels ORDER BY id';
const GUEST_ROWS = "SELECT id || ':' || CASE WHEN username IS NULL THEN 'guest' ELSE username END FROM users ORDER BY id";

// The URI of a PostgreSQL database with a password in it (the test cluster
// trusts local connections, so any password does).
function withPassword(uri) {
  return uri.replace('postgres@', `postgres:${PASSWORD}@`);
}

// Level i of a collection of distinct corridors: a box to push right onto
// its goal, the room 6 to 30 squares wide with 0 to 3 empty rows below.
function corridorLevel(i) {
  const w = 6 + (i % 25);
  const rows = ['#'.repeat(w), `#@$${' '.repeat(w - 5)}.#`];
  for (let k = 0; k < Math.floor(i / 25); k++) rows.push(`#${' '.repeat(w - 2)}#`);
  rows.push('#'.repeat(w));
  return `; Corridor ${i + 1}\n${rows.join('\n')}\n`;
}

function counts(db) {
  return Object.fromEntries(TABLES.map((t) => [t, Number(sqlite(db, `SELECT count(*) FROM ${t}`))]));
}

function copy(from, to) {
  const r = runSokod(['copy', '--from', from, '--to', to]);
  const out = `${r.stdout}${r.stderr}`;
  assert.ok(!out.includes(PASSWORD), `sokod copy printed the password:\n${out}`);
  return { ...r, out };
}

// A fresh SQLite database with the levels of a small file, made without a
// server.
function importedDatabase(dir, name) {
  const db = path.join(dir, name);
  const levels = path.join(dir, 'tests.sok');
  fs.writeFileSync(levels, TEST_LEVELS);
  const r = runSokod(['import', '--db', db, levels]);
  assert.equal(r.status, 0, `sokod import: ${r.stderr}`);
  return db;
}

test('a database moves to PostgreSQL and back with its players, games and ids', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'data', 'sokod.db');
  const server = await startServer({ dir, db: file });
  const ids = await levelIds(server.client());
  const alice = server.client();
  let r = await alice.post('/api/v1/account/signup', { username: 'alice', password: 'a long password 1' });
  assert.equal(r.status, 201, show(r));
  const aliceId = r.json.user.id;
  // A solved level (a solution, and the leaderboards its triggers fill).
  const corridor = await openGame(alice, ids[0]);
  r = await alice.post(`/api/v1/games/${corridor.id}/log`, { seq: 1, steps: 'rrr' });
  assert.equal(r.json?.game?.solved, true, show(r));
  // A game left with an undo, so that it has a redo stack.
  const room = await openGame(alice, ids[1]);
  for (const [i, entry] of [{ steps: 'urr' }, { steps: 'dr' }, { undo: 2 }].entries()) {
    r = await alice.post(`/api/v1/games/${room.id}/log`, { seq: i + 1, ...entry });
    assert.equal(r.status, 200, `entry ${i + 1}: ${show(r)}`);
  }
  const before = await gameOf(alice, room.id);
  // A guest who played, a race room and the daily puzzle.
  const guest = server.client();
  const guestGame = await openGame(guest, ids[2]);
  r = await guest.post(`/api/v1/games/${guestGame.id}/log`, { seq: 1, steps: 'r' });
  assert.equal(r.status, 200, show(r));
  r = await alice.post('/api/v1/rooms', { level: 'chosen', level_id: ids[2] });
  assert.equal(r.status, 201, show(r));
  r = await alice.get('/api/v1/daily');
  assert.equal(r.status, 200, show(r));
  await stopCleanly(server);
  // A hundred corridors: more rows than one insert of the copy carries.
  const corridors = path.join(dir, 'corridors.sok');
  fs.writeFileSync(corridors, `Collection: corridors\n\n${Array.from({ length: 100 }, (_, i) => corridorLevel(i)).join('\n')}`);
  r = runSokod(['import', '--db', file, corridors]);
  assert.equal(r.status, 0, `sokod import: ${r.stderr}`);

  // Game ids were given past the largest still there (rows since deleted):
  // the copy must not give them again.
  sqlite(file, "UPDATE sqlite_sequence SET seq = seq + 40 WHERE name = 'games'");
  const lastGame = Number(sqlite(file, "SELECT seq FROM sqlite_sequence WHERE name = 'games'"));
  const lastUser = Number(sqlite(file, 'SELECT max(id) FROM users'));
  const source = counts(file);
  assert.ok(source.game_log >= 5 && source.board_entries > 0 && source.rooms === 1 && source.daily === 1,
    `the source holds what the test made: ${JSON.stringify(source)}`);

  const pg = freshPgDatabase();
  const there = copy(file, withPassword(pg));
  assert.equal(there.status, 0, `sokod copy to PostgreSQL:\n${there.out}`);
  assert.match(there.stdout, /checked: the same row counts in every table; 3 games replayed/);
  assert.deepEqual(counts(pg), source, 'every table has the same rows on PostgreSQL');
  // Rows go many to a statement: each lands whole, in its own columns.
  assert.ok(source.levels > 64, `more levels than one insert carries: ${source.levels}`);
  for (const sql of [LEVEL_ROWS, GUEST_ROWS]) assert.equal(sqlite(pg, sql), sqlite(file, sql), `the copy reads the same: ${sql}`);

  // A server on the copy: the same session resumes the same game, history,
  // redo stack and all, and plays on from it.
  const onPg = await startServer({ db: pg });
  const again = new Client(onPg.url);
  again.cookies = new Map(alice.cookies);
  assert.deepEqual(await gameOf(again, room.id), before, 'the game on PostgreSQL is the game on SQLite');
  r = await again.post(`/api/v1/games/${room.id}/log`, { seq: before.seq + 1, redo: 1 });
  assert.equal(r.status, 200, `redo on the copy: ${show(r)}`);
  r = await onPg.client().post('/api/v1/account/login', { username: 'alice', password: 'a long password 1' });
  assert.equal(r.json?.user?.id, aliceId, `alice logs in on the copy: ${show(r)}`);
  // New rows get ids past the copied ones, and past those given before.
  const bob = onPg.client();
  r = await bob.post('/api/v1/account/signup', { username: 'bob', password: 'another password 2' });
  assert.equal(r.status, 201, show(r));
  assert.ok(r.json.user.id > lastUser, `a new user's id ${r.json.user.id} comes after ${lastUser}`);
  const bobGame = await openGame(bob, ids[0]);
  assert.ok(bobGame.id > lastGame, `a new game's id ${bobGame.id} comes after ${lastGame}`);
  await stopCleanly(onPg);

  // And back to a new SQLite file.
  const back = path.join(dir, 'back.db');
  const home = copy(withPassword(pg), back);
  assert.equal(home.status, 0, `sokod copy back to SQLite:\n${home.out}`);
  assert.deepEqual(counts(back), counts(pg), 'every table has the same rows back on SQLite');
  for (const sql of [LEVEL_ROWS, GUEST_ROWS]) assert.equal(sqlite(back, sql), sqlite(pg, sql), `the copy back reads the same: ${sql}`);
  assert.ok(Number(sqlite(back, "SELECT seq FROM sqlite_sequence WHERE name = 'games'")) >= bobGame.id,
    'SQLite\'s sequence of games comes after the copied ids');

  // A copy whose game does not replay to its stored state fails its check.
  const tampered = path.join(dir, 'tampered.db');
  sqlite(file, `VACUUM INTO '${tampered}'`);
  sqlite(tampered, `UPDATE games SET moves = moves + 1 WHERE id = ${room.id}`);
  const bad = copy(tampered, path.join(dir, 'tampered-copy.db'));
  assert.equal(bad.status, 1, `a copy of a tampered game must fail its check:\n${bad.out}`);
  assert.match(bad.stderr, new RegExp(`game ${room.id} stores seq 3, \\d+ moves`));
  assert.match(bad.stderr, /1 of 3 games whose log does not replay/);
});

test('copy refuses a target with rows, another schema version and a table it does not know', async () => {
  const dir = tempDir();
  const src = importedDatabase(dir, 'src.db');

  const done = copy(src, path.join(dir, 'full.db'));
  assert.equal(done.status, 0, done.out);
  let r = copy(src, path.join(dir, 'full.db'));
  assert.equal(r.status, 1, `a second copy into the same file: ${r.out}`);
  assert.match(r.stderr, /is not empty: table \w+ holds rows/);
  const pg = freshPgDatabase();
  assert.equal(copy(src, pg).status, 0);
  const before = counts(pg);
  r = copy(src, withPassword(pg));
  assert.equal(r.status, 1, `a second copy into the same PostgreSQL database: ${r.out}`);
  assert.match(r.stderr, /postgres:\*\*\*@.* is not empty/);
  assert.deepEqual(counts(pg), before, 'a refused copy writes nothing');

  const newest = fs.readdirSync(path.join(SOURCE, 'migrations')).filter((f) => /^\d{4}_.*\.sql$/.test(f)).length;
  for (const [version, words] of [[12, new RegExp(`schema version 12, older than this sokod's \\(${newest}\\)`)],
    [99, /schema version 99, newer than this sokod's/]]) {
    const other = path.join(dir, `v${version}.db`);
    sqlite(src, `VACUUM INTO '${other}'`);
    sqlite(other, `PRAGMA user_version = ${version}`);
    r = copy(other, path.join(dir, `v${version}-copy.db`));
    assert.equal(r.status, 1, `a source at version ${version}: ${r.out}`);
    assert.match(r.stderr, words);
  }
  const extra = path.join(dir, 'extra.db');
  sqlite(src, `VACUUM INTO '${extra}'`);
  sqlite(extra, 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
  r = copy(extra, freshPgDatabase());
  assert.equal(r.status, 1, `a source with a table the copy does not know: ${r.out}`);
  assert.match(r.stderr, /the source has a table the copy does not know: notes/);

  r = copy(path.join(dir, 'missing.db'), path.join(dir, 'nowhere.db'));
  assert.equal(r.status, 1, r.out);
  assert.match(r.stderr, /no database at .*missing\.db/);
  r = copy(src, src);
  assert.equal(r.status, 1, r.out);
  assert.match(r.stderr, /the same database/);
});
