// Players for bench/bench_failover.sh: steps that carry on through a
// database failover, and streams that should see every one of them.
//
//   node bench_failover.mjs URL_A URL_B PLAYERS OUT_FILE
//
// Opens PLAYERS games, half through node A and half through node B, and a
// live stream of each game on the other node. Each player sends its next
// entry as soon as the last was answered: a 200 moves it on; a 409 adopts
// the seq the server says the game has; anything else (an error, a 5xx,
// no answer) sends the same entry again 100 ms later. Prints "ready" once
// the streams are open, then one line a second ("T ok=N errors=N
// events=N", T in seconds since ready). On SIGUSR1 it stops stepping,
// waits until the streams had nothing for 2 s, prints
// "RESULT ok=N errors=N kinds=STATUS:N,... adopted=N rewound=N events=N
// unseen=N ended=N" (kinds: the errors by HTTP status or error code;
// adopted: 409 answers; rewound: entries answered 200 that a 409 later
// showed the database without; unseen: entries answered 200 whose event
// never reached the game's stream) and writes one line a
// game to OUT_FILE: "GAME_ID ACKED STREAMED", the last seq a player was
// answered 200 for and the last seq its stream carried.
import fs from 'node:fs';
import { followGame } from './support/game_stream.mjs';

const [urlA, urlB, count, outFile] = process.argv.slice(2);
const PLAYERS = Number(count);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let ok = 0;
let errors = 0;
const errorKinds = new Map(); // status or error code -> count
const countError = (kind) => { errors++; errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1); };
let adopted = 0;
let rewound = 0;
let events = 0;
let ended = 0;
let lastEvent = 0;
let stepping = true;

async function request(base, method, path, cookie, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (cookie) headers.Cookie = cookie;
  const r = await fetch(base + path, { method, headers, body: body && JSON.stringify(body), signal: AbortSignal.timeout(10000) });
  const text = await r.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* an error page */ }
  return { status: r.status, json, cookie: r.headers.getSetCookie().find((c) => c.startsWith('sokod_session='))?.split(';')[0] };
}

// Counts the game's step events, and keeps the last seq they carried.
function follow(base, g) {
  return followGame(base, g.id, g.cookie, (name, block) => {
    const m = name === 'step' && /"seq":(\d+)/.exec(block);
    if (!m) return;
    g.streamed = Math.max(g.streamed, Number(m[1]));
    g.events++;
    events++;
    lastEvent = performance.now();
  }, () => { ended++; });
}

async function play(g) {
  while (stepping) {
    const seq = g.seq + 1;
    try {
      const r = await request(g.base, 'POST', `/api/v1/games/${g.id}/log`, g.cookie, { seq, steps: seq % 2 ? 'r' : 'l' });
      if (r.status === 200) {
        ok++;
        g.ok++;
        g.seq = seq;
        g.acked = seq;
        continue;
      }
      if (r.status === 409 && r.json?.game) {
        adopted++;
        // Entries answered 200 that the database no longer has.
        if (r.json.game.seq < g.acked) rewound += g.acked - r.json.game.seq;
        g.seq = r.json.game.seq;
        continue;
      }
      countError(String(r.status));
    } catch (e) {
      countError(e.cause?.code ?? e.name);
    }
    await sleep(100);
  }
}

const games = [];
for (let i = 0; i < PLAYERS; i++) {
  const base = i % 2 ? urlB : urlA;
  const r = await request(base, 'POST', '/api/v1/levels/1/game', null, {});
  if (!r.json?.game || !r.cookie) throw new Error(`a game: ${r.status} ${JSON.stringify(r.json)}`);
  games.push({ id: r.json.game.id, cookie: r.cookie, base, other: i % 2 ? urlA : urlB, seq: 0, acked: 0, streamed: 0, ok: 0, events: 0 });
}
const streams = await Promise.all(games.map((g) => follow(g.other, g)));
console.log('ready');
const t0 = performance.now();
let before = { ok: 0, errors: 0, events: 0 };
const ticker = setInterval(() => {
  const t = ((performance.now() - t0) / 1000).toFixed(0);
  console.log(`${t} ok=${ok - before.ok} errors=${errors - before.errors} events=${events - before.events}`);
  before = { ok, errors, events };
}, 1000);
const players = games.map(play);

process.on('SIGUSR1', async () => {
  stepping = false;
  await Promise.all(players);
  clearInterval(ticker);
  const stopped = performance.now();
  while (performance.now() - Math.max(lastEvent, stopped) < 2000 && performance.now() - stopped < 60000) await sleep(100);
  const kinds = [...errorKinds].map(([k, n]) => `${k}:${n}`).join(',') || 'none';
  const unseen = games.reduce((n, g) => n + Math.max(0, g.ok - g.events), 0);
  console.log(`RESULT ok=${ok} errors=${errors} kinds=${kinds} adopted=${adopted} rewound=${rewound} ` +
    `events=${events} unseen=${unseen} ended=${ended}`);
  fs.writeFileSync(outFile, games.map((g) => `${g.id} ${g.acked} ${g.streamed}`).join('\n') + '\n');
  for (const s of streams) s.destroy();
  process.exit(0);
});
