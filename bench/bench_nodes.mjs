// The clients bench/bench_nodes.sh needs besides wrk:
//
//   node bench_nodes.mjs games URL N FILE
//     opens N games on level 1, each by a guest of its own, and writes
//     "GAME_ID COOKIE" lines to FILE (what bench_server.lua reads).
//   node bench_nodes.mjs watch URL FILE N
//     opens one live stream per game of the first N games of FILE (each
//     with its player's cookie, `?game=ID`), prints "ready" once every
//     stream said `ready`, then counts the `step` events that arrive. On
//     SIGUSR1 (the steps stopped) it notes what arrived so far, waits until
//     no event came for 2 s (at most 60 s), and prints one line:
//     "RESULT during=N seconds=S total=N drained_ms=MS snapshots=N ended=N"
//     where `during` arrived between the first event and SIGUSR1 (`seconds`
//     long), `total` by the end, `drained_ms` is how long after SIGUSR1 the
//     last event came, and `ended` counts streams the server closed.
import fs from 'node:fs';
import { followGame } from './support/game_stream.mjs';

const [command, base, ...args] = process.argv.slice(2);

async function makeGames(n, file) {
  const lines = [];
  let next = 0;
  async function worker() {
    while (next < n) {
      next++;
      const r = await fetch(`${base}/api/v1/levels/1/game`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}',
      });
      const body = await r.json();
      const cookie = r.headers.getSetCookie().find((c) => c.startsWith('sokod_session='));
      if (r.status !== 200 && r.status !== 201) throw new Error(`a game: ${r.status} ${JSON.stringify(body)}`);
      if (!cookie || !body.game) throw new Error(`a game without a cookie or a game: ${JSON.stringify(body)}`);
      lines.push(`${body.game.id} ${cookie.split(';')[0]}`);
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker));
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

async function watch(file, n) {
  const games = fs.readFileSync(file, 'utf8').trim().split('\n').slice(0, n).map((l) => l.split(' '));
  let steps = 0;
  let snapshots = 0;
  let ended = 0;
  let first = 0;
  let last = 0;
  const on = (name) => {
    if (name === 'step') {
      steps++;
      last = performance.now();
      if (first === 0) first = last;
    } else if (name === 'snapshot') {
      snapshots++;
    }
  };
  const reqs = [];
  for (let i = 0; i < games.length; i += 32) {
    const batch = games.slice(i, i + 32).map(([id, cookie]) => followGame(base, id, cookie, on, () => { ended++; }));
    reqs.push(...await Promise.all(batch));
  }
  console.log('ready');
  process.on('SIGUSR1', async () => {
    const stopped = performance.now();
    const during = steps;
    const seconds = first ? (stopped - first) / 1000 : 0;
    const giveUp = stopped + 60000;
    while (performance.now() < giveUp && performance.now() - Math.max(last, stopped) < 2000) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const drained = last > stopped ? last - stopped : 0;
    console.log(`RESULT during=${during} seconds=${seconds.toFixed(3)} total=${steps} drained_ms=${drained.toFixed(0)} ` +
      `snapshots=${snapshots} ended=${ended}`);
    for (const r of reqs) r.destroy();
    process.exit(0);
  });
}

if (command === 'games') await makeGames(Number(args[0]), args[1]);
else if (command === 'watch') await watch(args[0], Number(args[1]));
else {
  console.error('usage: bench_nodes.mjs games URL N FILE | watch URL FILE N');
  process.exit(2);
}
