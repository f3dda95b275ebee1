// A spectator that stops reading its event stream while events pour in:
// the server drops it once it is EVENTS_QUEUE (512) events or
// EVENTS_QUEUE_BYTES (256 KiB) behind, whichever comes first, and cuts
// its connection at once, the other spectators get every event, and the
// server's memory does not grow with what the slow one does not read. The
// slow client is tests/tools/slow_reader (a small receive buffer and
// segment size, which node cannot set), so the kernel holds only a few
// kilobytes for it and the server's own queue fills.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { levelIds, show, startServer, stopCleanly } from './harness.mjs';
import { openStream } from './sse.mjs';

const SLOW_READER = process.env.SOKOD_SLOW_READER;
const QUEUE = 512; // EVENTS_QUEUE in server/live/events.h
const QUEUE_BYTES = 256 * 1024; // EVENTS_QUEUE_BYTES

let server;
let ids;

before(async () => {
  assert.ok(SLOW_READER && fs.existsSync(SLOW_READER), `SOKOD_SLOW_READER names the helper (got ${SLOW_READER})`);
  // Without AddressSanitizer's quarantine, freed memory is used again, so
  // the resident size follows what the server holds.
  server = await startServer({ args: ['--heartbeat', '1'], env: { ASAN_OPTIONS: `${process.env.ASAN_OPTIONS ?? ''}:quarantine_size_mb=0` } });
  ids = await levelIds(server.client());
});

after(() => stopCleanly(server));

const rssKiB = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.proc.pid}/status`, 'utf8'))[1]);

// Starts the helper on `path`; resolves once its stream is ready.
async function slowReader(path, cookie) {
  const proc = spawn(SLOW_READER, [String(server.port), path, cookie]);
  let out = Buffer.alloc(0);
  proc.stdout.on('data', (d) => { out = Buffer.concat([out, d]); });
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
  const ready = new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (out.includes('\nready\n')) { clearInterval(timer); resolve(); }
      if (proc.exitCode !== null) { clearInterval(timer); reject(new Error(`slow_reader ended: ${err}`)); }
    }, 10);
  });
  await ready;
  return {
    // Reads again until the server closes (0) or stays silent (3).
    async drain() {
      proc.stdin.write('read\n');
      return { code: await exited, text: out.toString('latin1'), err };
    },
    // Reads again until done(what it got) or `ms` pass, then stops the
    // helper; resolves to what it got (heartbeats keep it from ever being
    // silent).
    async readUntil(done, ms) {
      proc.stdin.write('read\n');
      const deadline = Date.now() + ms;
      while (!done(out.toString('latin1')) && proc.exitCode === null && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      proc.kill();
      await exited;
      return out.toString('latin1');
    },
  };
}

// Events travel as they are: big step entries (8,000 letters back and
// forth, about 8 KiB each) and undos that take them back, so the game's
// history stays short and only the streams hold memory.
const WALK = 'ud'.repeat(4000);
const entry = (seq) => (seq % 2 === 1 ? { seq, steps: WALK } : { seq, undo: WALK.length });
// Events a queue takes before it is full: the steps' events take most of
// its bytes, the undos' few.
const QUEUED = Math.min(QUEUE, Math.floor(QUEUE_BYTES / WALK.length) * 2);
const droppedLine = /^GET \/api\/v1\/events 200 /m;

test('a spectator that stops reading is dropped past the queue limit; the others get everything', async () => {
  const player = server.client();
  const opened = await player.post(`/api/v1/levels/${ids[1]}/game`);
  assert.equal(opened.status, 201, show(opened));
  const game = opened.json.game.id;
  const watcher = await openStream(player.sameUser(), `?game=${game}`);
  await watcher.next('ready');
  const slow = await slowReader(`/api/v1/events?game=${game}`, player.cookieHeader());

  // A fixed flood: four times the queue. The slow stream must end once its
  // queue is full (its access-log line is written when the request ends),
  // which leaves the second half to show that the server's memory no
  // longer follows the events the slow client does not read.
  const total = 4 * QUEUE;
  let droppedAt = 0;
  let before = 0;
  for (let seq = 1; seq <= total; seq++) {
    const r = await player.post(`/api/v1/games/${game}/log`, entry(seq));
    assert.equal(r.status, 200, `entry ${seq}: ${show(r)}`);
    if (droppedAt === 0 && droppedLine.test(server.stderr())) droppedAt = seq;
    if (seq === total / 2) before = rssKiB();
  }
  const grown = rssKiB() - before;
  // 512 big events (4 MiB) went by in the second half: a server that kept
  // them for the slow client would have grown by that much.
  assert.ok(grown < 2048, `the server grew by ${grown} KiB while the last ${total / 2} events passed ` +
    `a client that read none of them`);
  assert.ok(droppedAt > 0, `the server still holds a stream that read nothing after ${total} events ` +
    `(its queue takes ${QUEUED}); stderr:\n${server.stderr().slice(-1500)}`);
  assert.ok(droppedAt > QUEUED && droppedAt <= total / 2,
    `dropped after ${droppedAt} events: once its queue of ${QUEUED} was full, plus what the kernel holds`);
  // Its queue's bytes, not its count, filled first: 512 events of 8 KiB
  // would be 4 MiB held for a client that reads nothing.
  assert.ok(droppedAt < QUEUE, `dropped after ${droppedAt} events, not once ${QUEUE_BYTES} bytes waited`);
  const seq = total;

  // The reading spectator got every event, in order.
  await watcher.until((s) => s.of('step').length >= seq, `${seq} step events`, 30000);
  const seqs = watcher.of('step').map((e) => e.json.seq);
  assert.deepEqual(seqs, Array.from({ length: seq }, (_, i) => i + 1), 'the reading spectator\'s events');
  assert.equal(watcher.ended, false, 'the reading spectator is still connected');

  // The slow client: the connection is closed (not left open), and what it
  // had received is an unbroken start of the stream.
  const { code, text, err } = await slow.drain();
  assert.equal(code, 0, `the slow client's connection was ${code === 3 ? 'left open' : 'lost'} (${err})`);
  const got = [...text.matchAll(/"seq":(\d+),"kind"/g)].map((m) => Number(m[1]));
  assert.ok(got.length < droppedAt, `the slow client got ${got.length} of ${droppedAt} events before the drop`);
  assert.deepEqual(got, Array.from({ length: got.length }, (_, i) => i + 1), 'what the slow client got');

  // Coming back with the last id it saw, it is told to fetch the game again
  // (its missed events are no longer all kept).
  const eventIds = [...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]);
  const back = await openStream(player.sameUser(), `?game=${game}`, { 'Last-Event-ID': eventIds.at(-1) });
  const ready = await back.next('ready');
  assert.equal(ready.json.snapshots, 1, back.raw);
  assert.equal(back.of('snapshot')[0].json.topic, `game:${game}`);
  back.close();
  watcher.close();
  // The server logs a stream when it has ended it, which for a client gone
  // quiet is at the next heartbeat: wait for the three of this test (the
  // slow client's, these two), so that the next test counts only its own.
  const lines = () => (server.stderr().match(/^GET \/api\/v1\/events 200 /gm) ?? []).length;
  for (let i = 0; i < 200 && lines() < 3; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(lines(), 3, `the three streams of this test ended; stderr:\n${server.stderr().slice(-1500)}`);
});

test('a stream whose client vanished ends at the next heartbeat without a line in the log', async () => {
  const player = server.client();
  const opened = await player.post(`/api/v1/levels/${ids[0]}/game`);
  assert.equal(opened.status, 201, show(opened));
  const ended = () => (server.stderr().match(/^GET \/api\/v1\/events 200 /gm) ?? []).length;
  const before = ended();
  // A client that resets its connection once the stream is ready: the
  // server, its connection suspended, learns it only when the heartbeat
  // writes to it, and libmicrohttpd then reports the failed write.
  const sock = net.connect(server.port, '127.0.0.1');
  await new Promise((resolve) => sock.on('connect', resolve));
  sock.write(`GET /api/v1/events?game=${opened.json.game.id} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    `Cookie: ${player.cookieHeader()}\r\n\r\n`);
  let got = '';
  await new Promise((resolve) => sock.on('data', (d) => { got += d; if (got.includes('event: ready')) resolve(); }));
  sock.resetAndDestroy();
  const deadline = Date.now() + 10000;
  while (ended() === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.equal(ended(), before + 1, `the stream of a client that went away ended; stderr:\n${server.stderr().slice(-1500)}`);
  assert.doesNotMatch(server.stderr(), /Failed to send the chunked response body/);
  // Other messages of libmicrohttpd still reach the log.
  const bad = net.connect(server.port, '127.0.0.1');
  await new Promise((resolve) => bad.on('connect', resolve));
  bad.end('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n');
  await new Promise((resolve) => bad.on('close', resolve).resume());
  const said = /^sokod: http: Failed to parse `Content-Length' header/m;
  for (let i = 0; i < 100 && !said.test(server.stderr()); i++) await new Promise((r) => setTimeout(r, 20));
  assert.match(server.stderr(), said, 'a malformed Content-Length is still reported');
});

// A stream's queue starts short and grows as events wait in it (server/
// live/events.c): a spectator that falls behind by less than the limits,
// here 400 events of 130 to 550 bytes while its client reads none (the
// kernel holds some kilobytes, the queue the rest), then reads, gets
// every one of them once, in order, across the queue's growth.
test('a spectator that falls behind within the limits catches up with every event, in order', async () => {
  const player = server.client();
  const opened = await player.post(`/api/v1/levels/${ids[1]}/game`);
  assert.equal(opened.status, 201, show(opened));
  const game = opened.json.game.id;
  const slow = await slowReader(`/api/v1/events?game=${game}`, player.cookieHeader());
  const total = 400;
  const walk = 'ud'.repeat(200);
  for (let seq = 1; seq <= total; seq++) {
    const r = await player.post(`/api/v1/games/${game}/log`, seq % 2 === 1 ? { seq, steps: walk } : { seq, undo: walk.length });
    assert.equal(r.status, 200, `entry ${seq}: ${show(r)}`);
  }
  // The answer is chunked, and a chunk may end inside an event: its size
  // lines go before the events are read.
  const unchunked = (raw) => raw.replace(/\r\n[0-9a-fA-F]+\r\n/g, '');
  const last = new RegExp(`"seq":${total},"kind"`);
  const text = unchunked(await slow.readUntil((raw) => last.test(unchunked(raw)), 20000));
  const got = [...text.matchAll(/"seq":(\d+),"kind"/g)].map((m) => Number(m[1]));
  const bytes = text.length / Math.max(got.length, 1);
  assert.ok(total * bytes < QUEUE_BYTES / 2, `${total} events of ${bytes.toFixed(0)} bytes fit in a queue`);
  assert.deepEqual(got, Array.from({ length: total }, (_, i) => i + 1),
    `the events of a client that read none of ${total} events, then read`);
});
