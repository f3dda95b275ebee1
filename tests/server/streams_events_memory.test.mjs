// The live events a game keeps for streams that reconnect are bounded in
// bytes, per game (256 KiB, EVENTS_HISTORY_BYTES in server/live/events.h) and
// over all games (--events-memory), not only in number: a guest's batches
// of 60 KB steps would otherwise keep 256 of them, 15 MB per game. What is
// kept still resumes with Last-Event-ID; an id older than what is kept
// gets a snapshot, as for a history that has moved on.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { show, startServerWithLevels, stopCleanly } from './harness.mjs';
import { openStream } from './sse.mjs';

const BATCH = 'rl'.repeat(30000); // 60,000 steps on the corridor, back and forth
const TOPIC_BYTES = 256 * 1024;

let server;
let ids;

before(async () => {
  // 1 MiB over all games, by variable: an older sokod starts without it.
  ({ server, ids } = await startServerWithLevels({ args: ['--heartbeat', '1'], env: { SOKOD_EVENTS_MEMORY: '1' } }));
});

after(() => stopCleanly(server));

// A guest's new game on the corridor, followed by a stream (so that its
// events are kept); resolves to {player, game, stream}.
async function followedGame() {
  const player = server.client();
  const opened = await player.post(`/api/v1/levels/${ids[0]}/game`);
  assert.equal(opened.status, 201, show(opened));
  const game = opened.json.game.id;
  const stream = await openStream(player, `?game=${game}`);
  await stream.next('ready');
  return { player, game, stream };
}

// Sends n batches; resolves once the stream saw them all, to their events.
async function sendBatches({ player, game, stream }, n, from = 1) {
  for (let i = 0; i < n; i++) {
    const r = await player.post(`/api/v1/games/${game}/log`, { seq: from + i, steps: BATCH });
    assert.equal(r.status, 200, show(r));
  }
  await stream.until((s) => s.of('step').length >= from - 1 + n, `${n} step events`);
  return stream.of('step').slice(from - 1);
}

// Opens a stream resuming after `last`; resolves to its ready event's data
// and whether a snapshot came.
async function resume(player, game, last) {
  const s = await openStream(player, `?game=${game}`, { 'Last-Event-ID': last });
  const ready = (await s.next('ready')).json;
  const snapshot = s.of('snapshot').length;
  s.close();
  return { ready, snapshot };
}

test('a game fed large batches keeps at most its bytes, and resumes within them', async () => {
  const g = await followedGame();
  const events = await sendBatches(g, 12);
  const size = events[0].data.length;
  assert.ok(size > 60000, `a batch's event is ${size} bytes`);
  const keepable = Math.floor(TOPIC_BYTES / size);
  // From before the first batch: twelve events of 60 KB are past the bytes.
  const old = await resume(g.player, g.game, events[0].id);
  assert.equal(old.snapshot, 1, `resuming from the first batch's id: ${JSON.stringify(old.ready)}`);
  assert.equal(old.ready.replayed, 0, 'no partial replay');
  // From within what is kept: the missed events, oldest first.
  const recent = await resume(g.player, g.game, events[events.length - 3].id);
  assert.deepEqual(recent.ready, { id: recent.ready.id, replayed: 2, snapshots: 0 }, 'two events missed');
  assert.ok(keepable >= 2 && keepable < 12, `${keepable} batches fit in a game's bytes`);
  g.stream.close();
});

test('all games together keep at most --events-memory', async () => {
  // Five games of four batches each: each game's history fits in its own
  // bytes, but together they pass 1 MiB, so the first game's go first.
  const games = [];
  for (let i = 0; i < 5; i++) games.push(await followedGame());
  const firsts = [];
  for (const g of games) firsts.push((await sendBatches(g, 4))[0].id);
  const first = await resume(games[0].player, games[0].game, firsts[0]);
  assert.equal(first.snapshot, 1, `the oldest game's history is gone: ${JSON.stringify(first.ready)}`);
  const last = await resume(games[4].player, games[4].game, firsts[4]);
  assert.equal(last.snapshot, 0, 'the newest game keeps its events');
  assert.equal(last.ready.replayed, 3, 'the three batches after its first');
  for (const g of games) g.stream.close();
});
