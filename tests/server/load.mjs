// A load generator for the durability test, run as a process of its own:
//   node load.mjs BASE_URL LEVEL_ID WORKERS
// Each worker is a guest with its own game on the level, sending batches of
// steps as fast as the server answers. Every acknowledged entry is written
// to stdout at once (synchronously) as "ack GAME SEQ STEPS", and each
// worker's game and cookie as "game GAME COOKIE". Stops at the first
// network error (the server was killed) and exits.
import fs from 'node:fs';
import { Client } from './harness.mjs';

const [base, levelId, workers] = process.argv.slice(2);
const say = (line) => fs.writeSync(1, `${line}\n`);
const batches = ['ud', 'udud', 'du'.repeat(3)];

async function worker() {
  const c = new Client(base);
  const opened = await c.post(`/api/v1/levels/${levelId}/game`);
  if (opened.status !== 201) throw new Error(`open: ${opened.status} ${opened.text}`);
  const id = opened.json.game.id;
  say(`game ${id} ${c.cookies.get('sokod_session')}`);
  // From the Room's start, "u" then "d" walks up and back without pushing.
  for (let seq = 1; ; seq++) {
    const steps = batches[seq % batches.length];
    let r;
    try {
      r = await c.post(`/api/v1/games/${id}/log`, { seq, steps });
    } catch {
      return;
    }
    if (r.status !== 200 || r.json.duplicate) throw new Error(`entry ${seq}: ${r.status} ${r.text}`);
    say(`ack ${id} ${seq} ${steps}`);
  }
}

const started = await Promise.allSettled(Array.from({ length: Number(workers) }, worker));
for (const s of started) if (s.status === 'rejected') say(`error ${s.reason.message}`);
