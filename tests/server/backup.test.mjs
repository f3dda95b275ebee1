// sokod backup while a client steps: a server started on the copy holds
// every step acknowledged before the backup began, and the copy passes
// SQLite's integrity check. sokod restore refuses while a server uses the
// database and puts the copy back once it is stopped.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  Client, assertNoSanitizerReport, levelIds, runSokod, show, sokodEnv, sqlite, startServer,
} from './harness.mjs';

// Runs `sokod ARGS` without blocking the event loop; resolves to its end.
function sokodAsync(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.env.SOKOD_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'], env: sokodEnv() });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { out += d; });
    p.on('close', (code) => {
      try {
        assertNoSanitizerReport(`sokod ${args.join(' ')}`, out);
        resolve({ code, out });
      } catch (e) {
        reject(e);
      }
    });
  });
}

test('a backup taken during play holds every step acknowledged before it began', async () => {
  const server = await startServer();
  const ids = await levelIds(server.client());
  const player = server.client();
  const opened = await player.post(`/api/v1/levels/${ids[1]}/game`);
  assert.equal(opened.status, 201, show(opened));
  const game = opened.json.game.id;
  let acked = 0;
  let stop = false;
  // From the Room's start, "u" then "d" walks up and back without pushing.
  const stepping = (async () => {
    for (let seq = 1; !stop; seq++) {
      const r = await player.post(`/api/v1/games/${game}/log`, { seq, steps: seq % 2 ? 'u' : 'd' });
      assert.equal(r.status, 200, `entry ${seq}: ${show(r)}`);
      acked = seq;
    }
  })();
  while (acked < 50) await new Promise((r) => setTimeout(r, 5));
  const backup = path.join(server.dir, 'copy.db');
  const before = acked;
  const made = await sokodAsync(['backup', backup, '--db', server.db]);
  const after = acked;
  stop = true;
  await stepping;
  assert.equal(made.code, 0, `sokod backup: ${made.out}`);
  assert.match(made.out, /checked/);
  console.log(`${before} steps acknowledged before the backup, ${after - before} while it ran, ${acked} in all`);
  assert.ok(after > before, 'the client kept stepping while the backup ran');
  assert.equal(sqlite(backup, 'PRAGMA integrity_check'), 'ok');
  assert.ok(!fs.existsSync(`${backup}-wal`) || fs.statSync(`${backup}-wal`).size === 0, 'the copy stands alone');
  const inCopy = Number(sqlite(backup, `SELECT max(seq) FROM game_log WHERE game_id = ${game}`));
  assert.ok(inCopy >= before, `the copy holds entry ${before} (it has up to ${inCopy})`);

  // A server on the copy: the same session, the same game, those steps.
  const restored = await startServer({ db: backup });
  const again = new Client(restored.url);
  again.cookies = new Map(player.cookies);
  const r = await again.get(`/api/v1/games/${game}`);
  assert.equal(r.status, 200, show(r));
  assert.ok(r.json.game.seq >= before, `the game on the copy is at seq ${r.json.game.seq}, at least ${before}`);
  assert.equal(r.json.game.history.length, r.json.game.seq, 'one step per entry, none lost in between');

  // Restore: refused while a server holds the database, done once stopped.
  const refused = runSokod(['restore', backup, '--db', server.db]);
  assert.equal(refused.status, 1, `restore while serving: ${refused.stdout}${refused.stderr}`);
  assert.match(refused.stderr, /server is using/);
  assert.equal(sqlite(server.db, `SELECT max(seq) FROM game_log WHERE game_id = ${game}`), String(acked),
    'a refused restore changes nothing');
  const bad = path.join(server.dir, 'not-a-database.db');
  fs.writeFileSync(bad, 'this is not SQLite at all, just text '.repeat(200));
  assert.equal((await restored.stop()).code, 0);
  assert.equal((await server.stop()).code, 0);
  const refusedBad = runSokod(['restore', bad, '--db', server.db]);
  assert.equal(refusedBad.status, 1, `restore of a file that is no database: ${refusedBad.stderr}`);
  assert.equal(sqlite(server.db, `SELECT max(seq) FROM game_log WHERE game_id = ${game}`), String(acked),
    'a refused restore changes nothing');
  const done = runSokod(['restore', backup, '--db', server.db]);
  assert.equal(done.status, 0, `restore: ${done.stdout}${done.stderr}`);
  assert.equal(sqlite(server.db, `SELECT max(seq) FROM game_log WHERE game_id = ${game}`), String(inCopy),
    'the database now holds the copy');
  assert.equal(sqlite(server.db, 'PRAGMA integrity_check'), 'ok');
  const back = await startServer({ dir: server.dir, db: server.db });
  const c = new Client(back.url);
  c.cookies = new Map(player.cookies);
  const g = await c.get(`/api/v1/games/${game}`);
  assert.equal(g.json?.game?.seq, inCopy, show(g));
  assert.equal((await back.stop()).code, 0);
});
