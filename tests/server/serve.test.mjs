// Starting and stopping sokod: flags and variables, the database and its
// migrations, the bundled levels, the access log, a clean stop; and
// `sokod import`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { BACKEND, SOURCE, SQL, TEST_LEVELS, freshPgDatabase, runSokod, show, sqlite, startServer, stopCleanly, tempDir } from './harness.mjs';

const migrations = fs.readdirSync(path.join(SOURCE, 'migrations')).filter((f) => /^\d{4}_[a-z0-9_-]+\.sql$/.test(f));

test('sokod serve --help lists every flag with its variable', () => {
  const r = runSokod(['serve', '--help']);
  assert.equal(r.status, 0, r.stderr);
  for (const [flag, env] of [['--address', 'SOKOD_ADDRESS'], ['--port', 'SOKOD_PORT'], ['--db', 'SOKOD_DB'],
    ['--static', 'SOKOD_STATIC'], ['--levels', 'SOKOD_LEVELS'], ['--synchronous', 'SOKOD_SYNCHRONOUS'],
    ['--wasm', 'SOKOD_WASM'], ['--max-body', 'SOKOD_MAX_BODY']]) {
    assert.match(r.stdout, new RegExp(`${flag} .*\\$${env}`), `${flag} and $${env} in:\n${r.stdout}`);
  }
  const bad = runSokod(['serve', '--synchronous', 'SOMETIMES']);
  assert.equal(bad.status, 2, 'a bad value is a usage error');
  assert.match(bad.stderr, /SOMETIMES/);
  const unknown = runSokod(['serve', '--frobnicate']);
  assert.equal(unknown.status, 2);
});

test('a first start creates the database in WAL mode with every migration and the bundled levels', async () => {
  const server = await startServer();
  try {
    if (BACKEND === 'sqlite') {
      assert.ok(fs.existsSync(server.db), `the database file ${server.db} exists`);
      assert.equal(sqlite(server.db, 'PRAGMA journal_mode'), 'wal');
    }
    assert.equal(Number(sqlite(server.db, SQL.version)), migrations.length,
      `the schema's version is the number of migrations (${migrations.join(', ')})`);
    const r = await server.client().get('/api/v1/collections');
    assert.equal(r.status, 200, show(r));
    const boards = TEST_LEVELS.split('\n').filter((l) => l.startsWith('; ')).length;
    assert.deepEqual(r.json.collections.map((c) => [c.name, c.levels]), [['sokod tests', boards]]);
    // The line is written when the request completes, just after the answer left.
    for (let i = 0; i < 100 && !/^GET \/api\/v1\/collections /m.test(server.stderr()); i++) {
      await new Promise((res) => setTimeout(res, 20));
    }
    const log = server.stderr();
    assert.match(log, /^GET \/api\/v1\/collections 200 \d+ \d+us$/m, `an access-log line per request:\n${log}`);
  } finally {
    await stopCleanly(server);
  }
  // A second start neither migrates nor imports again.
  const again = await startServer({ dir: server.dir, db: server.db, levels: server.levels });
  try {
    const r = await again.client().get('/api/v1/collections');
    assert.equal(r.json.collections.length, 1, show(r));
    assert.doesNotMatch(again.stderr(), /applied migration|imported/);
  } finally {
    assert.equal((await again.stop()).code, 0, again.stderr());
  }
});

test('flags come from environment variables too, and a missing levels folder imports nothing', async () => {
  const dir = tempDir();
  const db = path.join(dir, 'env.db');
  const server = await startServer({
    dir, db, levels: path.join(dir, 'missing'), env: { SOKOD_DB: path.join(dir, 'ignored.db'), SOKOD_MAX_BODY: '2048' },
  });
  try {
    assert.ok(fs.existsSync(db), 'the flag wins over the variable');
    assert.ok(!fs.existsSync(path.join(dir, 'ignored.db')));
    const r = await server.client().get('/api/v1/collections');
    assert.deepEqual(r.json.collections, []);
    const big = await server.client().post('/api/v1/account/login', { username: 'x', password: 'y'.repeat(3000) });
    assert.equal(big.status, 413, `SOKOD_MAX_BODY applies: ${show(big)}`);
  } finally {
    assert.equal((await server.stop()).code, 0, server.stderr());
  }
});

test('a database newer than the binary is refused with a clear message', () => {
  const dir = tempDir();
  const db = BACKEND === 'postgresql' ? freshPgDatabase() : path.join(dir, 'future.db');
  sqlite(db, SQL.setVersion(migrations.length + 5));
  const r = runSokod(['serve', '--port', '0', '--db', db, '--levels', dir], { timeout: 20000 });
  assert.equal(r.status, 1, `sokod must refuse, not serve: ${r.stdout}${r.stderr}`);
  assert.match(r.stderr, /newer than this sokod/);
  assert.doesNotMatch(r.stdout, /listening/);
});

test('a node whose threads need more PostgreSQL connections than --db-connections does not start', { skip: BACKEND !== 'postgresql' && 'SQLite\'s connections are not counted' }, () => {
  const db = freshPgDatabase();
  const dir = tempDir();
  const r = runSokod(['serve', '--port', '0', '--db', db, '--levels', dir, '--threads', '4', '--db-connections', '8'], { timeout: 20000 });
  assert.equal(r.status, 1, `sokod must refuse, not serve: ${r.stdout}${r.stderr}`);
  assert.match(r.stderr, /may hold \d+ database connections, more than --db-connections 8/);
  assert.doesNotMatch(r.stdout, /listening/);
});

test('SIGTERM lets a request in flight finish, then closes the database', async () => {
  const server = await startServer();
  // A sign-up whose body is only half sent when SIGTERM comes: the request
  // is in flight for certain, and cannot have been answered before it.
  const u = new URL(server.url);
  const body = JSON.stringify({ username: 'late', password: 'still answered' });
  const socket = net.connect(Number(u.port), u.hostname);
  const answer = new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => { text += d; });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  await new Promise((r) => socket.once('connect', r));
  socket.write(`POST /api/v1/account/signup HTTP/1.1\r\nHost: ${u.host}\r\nOrigin: ${server.url}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n` +
    body.slice(0, 10));
  await new Promise((r) => setTimeout(r, 300));
  server.proc.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 100));
  socket.write(body.slice(10));
  const text = await answer;
  const r = { status: Number(text.match(/^HTTP\/1\.1 (\d+)/)?.[1]), text };
  assert.equal(r.status, 201, `the request in flight was answered: ${show(r)}`);
  const end = await server.exited;
  assert.equal(end.code, 0, server.stderr());
  assert.match(server.stderr(), /stopped/);
  assert.ok(!fs.existsSync(`${server.db}-wal`) || fs.statSync(`${server.db}-wal`).size === 0,
    'the last connection closed and checkpointed the WAL');
  assert.equal(sqlite(server.db, "SELECT count(*) FROM users WHERE username = 'late'"), '1');
});

test('sokod import adds valid levels in one transaction and reports the others as FILE:LINE:COL', () => {
  const dir = tempDir();
  const db = path.join(dir, 'import.db');
  const file = path.join(dir, 'mixed.sok');
  fs.writeFileSync(file, [
    '; Good one', '#####', '#@$.#', '#####', '',
    '; Two players', '#####', '#@$.#', '#@  #', '#####', '',
    '; Good two', '######', '#@ $.#', '######', '',
  ].join('\n'));
  let r = runSokod(['import', file, '--db', db]);
  console.log(`import: ${r.status}\n${r.stdout}${r.stderr}`);
  assert.equal(r.status, 1, 'a refused level makes the exit status 1');
  assert.match(r.stdout, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(7|8|9):\\d+: level 2 \\(Two players\\)`));
  assert.match(r.stdout, /imported 2 level/);
  assert.match(r.stdout, /\nimported: 2, invalid: 1, duplicates: 0\n$/, 'the report ends with the counts');
  assert.equal(sqlite(db, 'SELECT title FROM levels ORDER BY position').split('\n').join('|'), 'Good one|Good two');
  assert.equal(sqlite(db, 'SELECT name FROM collections'), 'mixed');

  // The same name again (with a new level): nothing is imported, not even
  // from a good first file.
  const good = path.join(dir, 'good.sok');
  fs.writeFileSync(good, TEST_LEVELS);
  const clash = path.join(dir, 'clash.sok');
  fs.writeFileSync(clash, ['Collection: mixed', '', '; New', '#######', '#@ $ .#', '#     #', '#######', ''].join('\n'));
  r = runSokod(['import', good, clash, '--db', db]);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /exists already/);
  assert.equal(sqlite(db, 'SELECT count(*) FROM collections'), '1', 'nothing half-imported');
  assert.equal(sqlite(db, 'SELECT count(*) FROM levels'), '2');

  // An unreadable file stops the whole import too.
  r = runSokod(['import', good, path.join(dir, 'absent.sok'), '--db', db]);
  assert.equal(r.status, 1);
  assert.equal(sqlite(db, 'SELECT count(*) FROM levels'), '2', 'nothing half-imported');

  // The two good levels of mixed.sok are in the library already: skipped as duplicates.
  r = runSokod(['import', good, file, '--db', db, '--collection', 'Both']);
  assert.equal(r.status, 1, 'still one refused level');
  assert.match(r.stdout, /\nimported: 3, invalid: 1, duplicates: 2\n$/, r.stdout);
  assert.equal(sqlite(db, "SELECT count(*) FROM levels l JOIN collections c ON c.id = l.collection_id WHERE c.name = 'Both'"), '3');
  assert.equal(sqlite(db, "SELECT l.position FROM levels l JOIN collections c ON c.id = l.collection_id WHERE c.name = 'Both' ORDER BY l.position").split('\n').join(','), '1,2,3');

  r = runSokod(['import', '--db', db]);
  assert.equal(r.status, 2, 'no file is a usage error');
  r = runSokod(['import', '--help']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /--collection/);
});
