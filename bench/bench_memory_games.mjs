// Memory of games filled to the history cap: N guests, each from its own
// loopback address (127.0.1.k), fill a game with a random walk of legal
// steps to SOKO_MAX_HISTORY entries, P at a time, with a small game cache.
// Prints sokod's resident memory before, after the fills and after an idle
// pause, the game cache's own count (/metrics), and the growth per game.
// Run against a Release build:
//   node bench/bench_memory_games.mjs build-rel/sokod [games 120] [parallel 120] [cache MiB 32]
// More flags for sokod go in BENCH_ARGS (e.g. "--threads 8").
// Each figure is printed; nothing is asserted (tests/server/memory.test.mjs
// does that with fewer games).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
process.env.SOKOD_BIN = path.resolve(process.argv[2] ?? 'build-rel/sokod');
const GAMES = Number(process.argv[3] ?? 120);
const PARALLEL = Number(process.argv[4] ?? GAMES);
const CACHE_MB = Number(process.argv[5] ?? 32);
const { levelIds, startServer } = await import(path.join(here, '../tests/server/harness.mjs'));

const CAP = 1 << 22; // SOKO_MAX_HISTORY in core/game.h
const BATCH = 65400; // letters per request, under the 64 KiB body limit
const ROOM = ['########', '#      #', '# $  . #', '#@ $ . #', '#      #', '########'];

// n legal letters of a pseudo-random walk on ROOM, pushes in upper case.
function randomWalk(n, seed) {
  const w = ROOM[0].length;
  const cells = ROOM.join('').split('');
  let at = cells.indexOf('@');
  cells[at] = ' ';
  const delta = { u: -w, r: 1, d: w, l: -1 };
  const out = new Array(n);
  let k = 0;
  while (k < n) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const dir = 'urdl'[(seed >>> 16) & 3];
    const to = at + delta[dir];
    if (cells[to] === '#') continue;
    if (cells[to] === '$' || cells[to] === '*') {
      const beyond = to + delta[dir];
      if (cells[beyond] === '#' || cells[beyond] === '$' || cells[beyond] === '*') continue;
      cells[beyond] = cells[beyond] === '.' ? '*' : '$';
      cells[to] = cells[to] === '*' ? '.' : ' ';
      out[k++] = dir.toUpperCase();
    } else {
      out[k++] = dir;
    }
    at = to;
  }
  return out.join('');
}

// One guest on one loopback address, with a kept-alive connection.
class Guest {
  constructor(url, address) {
    this.url = new URL(url);
    this.address = address;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.cookie = '';
  }

  post(p, body) {
    const payload = JSON.stringify(body ?? {});
    const headers = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) };
    if (this.cookie) headers.Cookie = this.cookie;
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: this.url.hostname, port: this.url.port, method: 'POST', path: p, headers,
        localAddress: this.address, agent: this.agent,
      }, (res) => {
        for (const sc of res.headers['set-cookie'] ?? []) this.cookie = sc.split(';')[0];
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => { text += d; });
        res.on('end', () => resolve({ status: res.statusCode, text }));
      });
      req.on('error', reject);
      req.end(payload);
    });
  }
}

function status(pid, field) {
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}

async function cacheBytes(server) {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^sokod_game_cache_bytes (\d+)/m.exec(text)?.[1] ?? NaN);
}

const mib = (kib) => (kib / 1024).toFixed(1);

const server = await startServer({
  env: { SOKOD_GAME_CACHE_MB: String(CACHE_MB) },
  args: ['--guests-per-minute', '60000', ...(process.env.BENCH_ARGS ?? '').split(' ').filter(Boolean)],
});
try {
  const pid = server.proc.pid;
  const ids = await levelIds(server.client());
  const letters = randomWalk(CAP, 12345);
  const before = status(pid, 'VmRSS');
  console.log(`sokod ${process.env.SOKOD_BIN} (pid ${pid}), --game-cache-mb ${CACHE_MB}: ` +
    `${GAMES} games of ${CAP} entries, ${PARALLEL} at a time, ${Math.ceil(CAP / BATCH)} requests each`);
  console.log(`resident before: ${mib(before)} MiB`);
  const t0 = Date.now();
  let next = 0, refused = 0;
  const worker = async () => {
    while (next < GAMES) {
      const k = next++;
      const g = new Guest(server.url, `127.0.${1 + (k >> 8)}.${1 + (k & 255)}`);
      const made = await g.post(`/api/v1/levels/${ids[1]}/game`);
      if (made.status !== 201) throw new Error(`game ${k}: ${made.status} ${made.text}`);
      const id = JSON.parse(made.text).game.id;
      let seq = 1;
      for (let at = 0; at < CAP; at += BATCH) {
        const r = await g.post(`/api/v1/games/${id}/log`, { seq, steps: letters.slice(at, at + BATCH) });
        if (r.status !== 200) {
          refused++;
          console.log(`game ${k}, request ${seq}: ${r.status} ${r.text.slice(0, 200)}`);
          break;
        }
        seq++;
      }
      g.agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const filled = status(pid, 'VmRSS');
  console.log(`filled in ${((Date.now() - t0) / 1000).toFixed(0)} s (${refused} refused): ` +
    `resident ${mib(filled)} MiB, peak ${mib(status(pid, 'VmHWM'))} MiB, game cache ${(await cacheBytes(server) / 1048576).toFixed(1)} MiB`);
  await new Promise((r) => setTimeout(r, 5000));
  const idle = status(pid, 'VmRSS');
  const grown = idle - before;
  console.log(`after 5 s idle: resident ${mib(idle)} MiB; grown ${mib(grown)} MiB, ` +
    `${mib(grown / GAMES)} MiB a game; bound ${CACHE_MB} + 64 MiB: ${grown <= (CACHE_MB + 64) * 1024 ? 'within' : 'OVER'}`);
  const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n')
    .filter((l) => /^(Rss|Anonymous|Private_Dirty|Shared_Clean|Private_Clean):/.test(l)).join('; ').replace(/\s+/g, ' ');
  console.log(`smaps_rollup: ${rollup}`);
  if (process.env.BENCH_PAUSE) await new Promise((r) => setTimeout(r, Number(process.env.BENCH_PAUSE) * 1000));
} finally {
  await server.stop();
}
