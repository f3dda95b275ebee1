// Durability: a second process plays as fast as it can while sokod is
// killed with SIGKILL. After a restart every acknowledged entry is in the
// database, the log has no gaps, and SQLite's integrity check passes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { Client, levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

for (const synchronous of ['NORMAL', 'FULL']) {
  test(`every acknowledged entry survives kill -9 (synchronous=${synchronous})`, async () => {
    let server = await startServer({ args: ['--synchronous', synchronous] });
    const ids = await levelIds(server.client());
    const load = spawn(process.execPath, [path.join(here, 'load.mjs'), server.url, String(ids[1]), '6'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    load.stdout.setEncoding('utf8');
    load.stdout.on('data', (d) => { out += d; });
    const loadDone = new Promise((resolve) => load.on('exit', resolve));

    // Let it run until a good number of entries were acknowledged.
    const t0 = Date.now();
    while ((out.match(/^ack /gm) ?? []).length < 300 && Date.now() - t0 < 20000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const killed = await server.kill9();
    assert.equal(killed.signal, 'SIGKILL');
    await loadDone;

    const lines = out.trim().split('\n');
    const errors = lines.filter((l) => l.startsWith('error'));
    assert.deepEqual(errors, [], 'the load saw only answers it expected until the kill');
    const cookies = new Map();
    const acked = new Map();
    for (const l of lines) {
      const [kind, game, a, b] = l.split(' ');
      if (kind === 'game') cookies.set(game, a);
      if (kind === 'ack') {
        if (!acked.has(game)) acked.set(game, new Map());
        acked.get(game).set(Number(a), b);
      }
    }
    const total = [...acked.values()].reduce((n, m) => n + m.size, 0);
    console.log(`${cookies.size} games, ${total} acknowledged entries before the kill`);
    assert.ok(total >= 100, `enough load before the kill (${total})`);

    assert.equal(sqlite(server.db, 'PRAGMA integrity_check'), 'ok');
    assert.equal(sqlite(server.db, 'PRAGMA foreign_key_check'), '');

    for (const [game, entries] of acked) {
      const rows = sqlite(server.db, `SELECT seq, steps FROM game_log WHERE game_id = ${game} ORDER BY seq`)
        .split('\n').filter((x) => x).map((r) => r.split('|'));
      rows.forEach(([seq], i) => assert.equal(Number(seq), i + 1, `game ${game}: the log has no gaps`));
      const held = new Map(rows.map(([seq, steps]) => [Number(seq), steps]));
      for (const [seq, steps] of entries) {
        assert.equal(held.get(seq), steps, `game ${game}: acknowledged entry ${seq} (${steps}) is in the database`);
      }
      const summary = sqlite(server.db, `SELECT seq FROM games WHERE id = ${game}`);
      assert.equal(Number(summary), rows.length, `game ${game}: the summary row matches the log`);
    }

    // The restarted server rebuilds each game from its log.
    server = await startServer({ dir: server.dir, db: server.db, levels: server.levels });
    try {
      for (const [game, entries] of acked) {
        const c = new Client(server.url);
        c.cookies.set('sokod_session', cookies.get(game));
        const r = await c.get(`/api/v1/games/${game}`);
        assert.equal(r.status, 200, show(r));
        const maxAcked = Math.max(...entries.keys());
        assert.ok(r.json.game.seq >= maxAcked, `game ${game}: seq ${r.json.game.seq} >= acknowledged ${maxAcked}`);
        const expected = Array.from({ length: r.json.game.seq }, (_, i) => ['ud', 'udud', 'dududu'][(i + 1) % 3]).join('');
        assert.equal(r.json.game.history, expected, `game ${game}: history rebuilt from the log`);
        const next = await c.post(`/api/v1/games/${game}/log`, { seq: r.json.game.seq + 1, steps: 'ud' });
        assert.equal(next.status, 200, `game ${game} goes on after the restart: ${show(next)}`);
      }
    } finally {
      await stopCleanly(server);
    }
  });
}
