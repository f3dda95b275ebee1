// sokod backup and sokod restore on PostgreSQL: pg_dump of the database
// while a server runs, and pg_restore of it once the server is stopped
// bringing back a deleted row; the password of the URI never on a command
// line or in the output, and a clear error without the client tools.
// PostgreSQL only: one run (SOKOD_ONE_RUN_TESTS).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  Client, freshPgDatabase, gameOf, levelIds, openGame, runSokod, show, sokodEnv, sqlite, startServer, stopCleanly,
} from './harness.mjs';

const PASSWORD = 'Sekr1tPassw0rd';

test('a PostgreSQL backup brings back a row deleted after it', async () => {
  const pg = freshPgDatabase();
  const withPassword = pg.replace('postgres@', `postgres:${PASSWORD}@`);
  const server = await startServer({ db: pg });
  const ids = await levelIds(server.client());
  const carol = server.client();
  let r = await carol.post('/api/v1/account/signup', { username: 'carol', password: 'a long password 3' });
  assert.equal(r.status, 201, show(r));
  const game = await openGame(carol, ids[1]);
  r = await carol.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'urr' });
  assert.equal(r.status, 200, show(r));
  const before = await gameOf(carol, game.id);

  const file = path.join(server.dir, 'sokod.dump');
  const made = runSokod(['backup', file, '--db', withPassword]);
  const out = `${made.stdout}${made.stderr}`;
  assert.equal(made.status, 0, `sokod backup while the server runs:\n${out}`);
  assert.ok(!out.includes(PASSWORD), `sokod backup printed the password:\n${out}`);
  assert.equal(fs.readFileSync(file).subarray(0, 5).toString(), 'PGDMP', 'the file is in pg_dump\'s custom format');
  assert.ok(!fs.existsSync(`${file}.partial`), 'no partial file is left');

  const refused = runSokod(['restore', file, '--db', withPassword]);
  assert.equal(refused.status, 1, `restore while a server is connected: ${refused.stdout}${refused.stderr}`);
  assert.match(refused.stderr, /other connections use .*postgres:\*\*\*@.*: stop the sokod servers/);
  await stopCleanly(server);

  sqlite(pg, `DELETE FROM games WHERE id = ${game.id}`);
  assert.equal(sqlite(pg, `SELECT count(*) FROM game_log WHERE game_id = ${game.id}`), '0');
  const restored = runSokod(['restore', file, '--db', withPassword]);
  const restoreOut = `${restored.stdout}${restored.stderr}`;
  assert.equal(restored.status, 0, `sokod restore:\n${restoreOut}`);
  assert.ok(!restoreOut.includes(PASSWORD), `sokod restore printed the password:\n${restoreOut}`);
  assert.equal(sqlite(pg, `SELECT count(*) FROM game_log WHERE game_id = ${game.id}`), '1',
    'the deleted game and its log are back');

  const again = await startServer({ db: pg });
  const c = new Client(again.url);
  c.cookies = new Map(carol.cookies);
  assert.deepEqual(await gameOf(c, game.id), before, 'the restored game is the game backed up');
  const fresh = await openGame(again.client(), ids[0]);
  assert.ok(fresh.id > game.id, `a new game (${fresh.id}) takes an id after the restored ones (${game.id})`);
  await stopCleanly(again);
});

test('backup and restore on PostgreSQL say so when the client tools are missing', () => {
  const pg = freshPgDatabase();
  const noTools = { env: sokodEnv({ PATH: '/nonexistent' }) };
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'sokod-pgdump-'));
  const file = path.join(dir, 'sokod.dump');
  let r = runSokod(['backup', file, '--db', pg], noTools);
  assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
  assert.match(r.stderr, /pg_dump is not installed .*postgresql-client/);
  assert.ok(!fs.existsSync(file) && !fs.existsSync(`${file}.partial`), 'no file is left');
  fs.writeFileSync(file, 'PGDMP');
  r = runSokod(['restore', file, '--db', pg], noTools);
  assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
  assert.match(r.stderr, /pg_restore is not installed .*postgresql-client/);
});

// pg_restore is run the same way, after a check of the database's other
// connections that needs a server listening at the URI.
test('the password of the URI reaches pg_dump in PGPASSWORD, not on its command line', () => {
  // A stand-in pg_dump that writes down what it was given.
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'sokod-pgtools-'));
  fs.writeFileSync(path.join(dir, 'pg_dump'), `#!/bin/sh
printf '%s\\n' "$@" > "${dir}/args"
printf '%s' "$PGPASSWORD" > "${dir}/password"
for a; do case $a in --file=*) echo PGDMP > "\${a#--file=}";; esac; done
`, { mode: 0o755 });
  const env = { env: sokodEnv({ PATH: `${dir}:${process.env.PATH}`, PGPASSWORD: 'not this one' }) };
  const file = path.join(dir, 'sokod.dump');
  const cases = [
    ['postgresql://sokod:p%40ss%2Fw0rd@db.example.org:5433/sokod?sslmode=disable', 'p@ss/w0rd',
      'postgresql://sokod@db.example.org:5433/sokod?sslmode=disable'],
    ['postgres://sokod@/sokod?host=/run/pg&password=s3cret&application_name=x', 's3cret',
      'postgres://sokod@/sokod?host=/run/pg&application_name=x'],
  ];
  for (const [uri, password, shown] of cases) {
    const r = runSokod(['backup', file, '--db', uri], env);
    assert.equal(r.status, 0, `sokod backup with the stand-in pg_dump: ${r.stdout}${r.stderr}`);
    const args = fs.readFileSync(path.join(dir, 'args'), 'utf8').trim().split('\n');
    assert.ok(args.includes(shown), `pg_dump gets the URI without its password: ${args.join(' ')}`);
    assert.ok(!args.join(' ').includes(password.slice(0, 4)), `no password on the command line: ${args.join(' ')}`);
    assert.equal(fs.readFileSync(path.join(dir, 'password'), 'utf8'), password, 'PGPASSWORD holds it, decoded');
    assert.ok(!`${r.stdout}${r.stderr}`.includes(password.slice(0, 4)), `nor in the output: ${r.stdout}${r.stderr}`);
    assert.equal(fs.readFileSync(file, 'utf8'), 'PGDMP\n', 'the dump is put in place');
  }
});
