// Players paced like people, for bench/bench_capacity.sh:
//
//   node bench_capacity.mjs URL GAMES_FILE PLAYERS SECONDS WATCHED
//
// Each of PLAYERS players (the first lines of GAMES_FILE, "GAME_ID COOKIE"
// as bench_nodes.mjs writes them) holds a connection of its own, as a
// browser does, and steps its game (walking right and back on the
// benchmark's hall) one entry at a time: after each answer it waits a
// random time of 250 ms on average (exponential), and now and then (one
// step in 40) thinks for 2 to 5 s. WATCHED of the games are followed by a
// live stream each (a spectator), opened before the steps start.
//
// Steps are counted after the first 2 s (everyone started, streams
// opened) for SECONDS. Prints one line:
//   RESULT players=N steps=N seconds=S p50_us=N p99_us=N errors=N
//          late_p99_ms=N events=N
// errors: answers other than 200 and failed connections; late_p99_ms: how
// late this process's own timers fired at p99 (past 20 ms, this process,
// not the server, is what limits the run).
import fs from 'node:fs';
import http from 'node:http';
import { followGame } from './support/game_stream.mjs';

const [base, file, playersArg, secondsArg, watchedArg] = process.argv.slice(2);
const players = Number(playersArg);
const seconds = Number(secondsArg);
const watched = Number(watchedArg ?? 0);
const games = fs.readFileSync(file, 'utf8').trim().split('\n').slice(0, players).map((l) => l.split(' '));
if (games.length < players) throw new Error(`${file} holds ${games.length} games, ${players} asked`);
const url = new URL(base);
const WARMUP_MS = 2000;

const latencies = [];
const lateness = [];
let errors = 0;
let events = 0;
let counting = false;
let stopping = false;

function post(agent, path, cookie, body) {
  return new Promise((resolve) => {
    const data = JSON.stringify(body);
    const req = http.request({
      host: url.hostname, port: url.port, path, method: 'POST', agent,
      headers: { Cookie: cookie, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode, text }));
      res.on('error', () => resolve({ status: 0, text: '' }));
    });
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end(data);
  });
}

function pause() {
  // Exponential around 250 ms, and a thought now and then.
  const wait = -Math.log(1 - Math.random()) * 250;
  return Math.random() < 1 / 40 ? wait + 2000 + Math.random() * 3000 : wait;
}

function sleep(ms) {
  const due = performance.now() + ms;
  return new Promise((resolve) => setTimeout(() => {
    if (counting) lateness.push(performance.now() - due);
    resolve();
  }, ms));
}

async function player([id, cookie]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let seq = 0;
  // Spread the first steps over the first 250 ms.
  await sleep(Math.random() * 250);
  while (!stopping) {
    const sent = performance.now();
    const r = await post(agent, `/api/v1/games/${id}/log`, cookie, { seq: seq + 1, steps: seq % 2 ? 'l' : 'r' });
    const took = performance.now() - sent;
    if (r.status === 200) {
      seq++;
      if (counting) latencies.push(took);
    } else {
      if (counting) errors++;
      // A stale seq (another run stepped this game): take the server's.
      const m = /"seq":(\d+)/.exec(r.text);
      if (r.status === 409 && m) seq = Number(m[1]);
      else await sleep(100);
    }
    await sleep(pause());
  }
  agent.destroy();
}

const streams = [];
for (let i = 0; i < Math.min(watched, games.length); i += 32) {
  const batch = games.slice(i, Math.min(i + 32, watched)).map(([id, cookie]) =>
    followGame(base, id, cookie, (name) => { if (name === 'step' && counting) events++; }, () => {}));
  streams.push(...await Promise.all(batch));
}
const running = games.map(player);
await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
counting = true;
const started = performance.now();
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
counting = false;
const elapsed = (performance.now() - started) / 1000;
stopping = true;
for (const s of streams) s.destroy();
await Promise.all(running);

const at = (list, q) => {
  if (list.length === 0) return 0;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
console.log(`RESULT players=${players} steps=${latencies.length} seconds=${elapsed.toFixed(3)} ` +
  `p50_us=${Math.round(at(latencies, 0.5) * 1000)} p99_us=${Math.round(at(latencies, 0.99) * 1000)} ` +
  `errors=${errors} late_p99_ms=${at(lateness, 0.99).toFixed(1)} events=${events}`);
