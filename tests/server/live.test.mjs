// Live streams (GET /api/v1/events): their framing, a game followed from a
// second device step by step, resuming after a lost connection with
// Last-Event-ID, heartbeats, who may follow what, and a clean stop with
// streams open.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { show, startServerWithLevels, stopCleanly } from './harness.mjs';
import { openStream } from './sse.mjs';

let server;
let ids;

before(async () => ({ server, ids } = await startServerWithLevels({ args: ['--heartbeat', '1'] })));

after(async () => {
  // Streams left open must not keep the server from stopping, nor leave it
  // stopping with requests unanswered.
  const owner = server.client();
  const game = (await owner.post(`/api/v1/levels/${ids[0]}/game`)).json.game;
  const open = [];
  for (let i = 0; i < 3; i++) {
    const s = await openStream(owner, `?game=${game.id}`);
    await s.next('ready');
    open.push(s);
  }
  await stopCleanly(server);
  for (const s of open) await s.until((x) => x.ended, 'end of the stream at shutdown');
  assert.doesNotMatch(server.stderr(), /unanswered/, 'every stream ended before the daemon stopped');
});

// A new game of a fresh user on level `n`, and a second device of that user.
async function twoDevices(n) {
  const phone = server.client();
  const r = await phone.post(`/api/v1/levels/${ids[n]}/game`);
  assert.ok(r.status === 201, show(r));
  return { phone, laptop: phone.sameUser(), game: r.json.game };
}

test('a stream starts with a ready event carrying an id, as text/event-stream', async () => {
  const { laptop, game } = await twoDevices(0);
  const s = await openStream(laptop, `?game=${game.id}`);
  assert.equal(s.status, 200);
  assert.match(s.headers['content-type'], /^text\/event-stream/);
  assert.equal(s.headers['cache-control'], 'no-store');
  const ready = await s.next('ready');
  assert.match(ready.id, /^\d+$/, `the ready event has a numeric id: ${s.raw}`);
  assert.equal(String(ready.json.id), ready.id);
  assert.equal(ready.json.replayed, 0);
  assert.match(s.raw, /^id: \d+\nevent: ready\ndata: \{.*\}\n\n/, 'fields one a line, a blank line after');
  s.close();
});

test('steps played on one device reach the other device, in order, once committed', async () => {
  const { phone, laptop, game } = await twoDevices(1);
  const s = await openStream(laptop, `?game=${game.id}`);
  await s.next('ready');
  const sent = [{ seq: 1, steps: 'uurrr' }, { seq: 2, undo: 2 }, { seq: 3, redo: 1 }, { seq: 4, restart: true }];
  const answers = [];
  for (const e of sent) {
    const r = await phone.post(`/api/v1/games/${game.id}/log`, e);
    assert.equal(r.status, 200, show(r));
    answers.push(r.json.game);
  }
  await s.until((x) => x.of('step').length === 4, 'four step events');
  const steps = s.of('step').map((e) => e.json);
  assert.deepEqual(steps.map((e) => e.seq), [1, 2, 3, 4]);
  assert.deepEqual(steps.map((e) => e.kind), ['steps', 'undo', 'redo', 'restart']);
  assert.equal(steps[0].steps, 'uurrr');
  assert.equal(steps[1].count, 2);
  assert.equal(steps[2].count, 1);
  for (let i = 0; i < 4; i++) {
    assert.equal(steps[i].game, game.id);
    assert.equal(steps[i].moves, answers[i].moves, `event ${i + 1}'s moves are the game's after it`);
    assert.equal(steps[i].pushes, answers[i].pushes);
    assert.equal(steps[i].solved, answers[i].solved);
  }
  const ids = s.of('step').map((e) => BigInt(e.id));
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i] > ids[i - 1], `ids grow: ${ids}`);
  // A refused entry and a retried one publish nothing.
  let r = await phone.post(`/api/v1/games/${game.id}/log`, { seq: 5, steps: 'l' });
  assert.equal(r.status, 422, show(r));
  r = await phone.post(`/api/v1/games/${game.id}/log`, { seq: 4, restart: true });
  assert.equal(r.json.duplicate, true, show(r));
  r = await phone.post(`/api/v1/games/${game.id}/log`, { seq: 5, steps: 'd' });
  assert.equal(r.status, 200, show(r));
  const fifth = await s.next('step', (e) => e.seq === 5);
  assert.equal(fifth.json.steps, 'd');
  assert.equal(s.of('step').length, 5, 'the refused and the retried entry sent no event');
  s.close();
});

test('point mode publishes the steps the server walked', async () => {
  const { phone, laptop, game } = await twoDevices(1);
  const s = await openStream(laptop, `?game=${game.id}`);
  await s.next('ready');
  const r = await phone.post(`/api/v1/games/${game.id}/walk`, { seq: 1, x: 6, y: 1 });
  assert.equal(r.status, 200, show(r));
  const e = await s.next('step');
  assert.equal(e.json.steps, r.json.steps, 'the event carries the walked steps');
  assert.ok(e.json.steps.length > 0);
  s.close();
});

test('a stream reopened with Last-Event-ID gets what it missed, then ready', async () => {
  const { phone, laptop, game } = await twoDevices(2);
  const first = await openStream(laptop, `?game=${game.id}`);
  await first.next('ready');
  let r = await phone.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'r' });
  assert.equal(r.status, 200, show(r));
  const seen = await first.next('step');
  first.close();
  // Missed while away:
  for (const e of [{ seq: 2, steps: 'r' }, { seq: 3, undo: 1 }]) {
    r = await phone.post(`/api/v1/games/${game.id}/log`, e);
    assert.equal(r.status, 200, show(r));
  }
  const back = await openStream(laptop, `?game=${game.id}`, { 'Last-Event-ID': seen.id });
  const ready = await back.next('ready');
  assert.equal(ready.json.replayed, 2, back.raw);
  assert.deepEqual(back.of('step').map((e) => e.json.seq), [2, 3], 'the missed entries, in order');
  assert.ok(back.events.indexOf(ready) > back.events.indexOf(back.of('step')[1]), 'ready comes after them');
  assert.equal(back.of('snapshot').length, 0);
  back.close();
  // The same from the query string (a page opening a new stream).
  const q = await openStream(laptop, `?game=${game.id}&last_event_id=${seen.id}`);
  await q.next('ready');
  assert.deepEqual(q.of('step').map((e) => e.json.seq), [2, 3]);
  q.close();
  // Nothing missed: nothing replayed.
  const current = await openStream(laptop, `?game=${game.id}`, { 'Last-Event-ID': ready.id });
  assert.equal((await current.next('ready')).json.replayed, 0);
  current.close();
});

test('an id older than what the server keeps gets a snapshot event instead', async () => {
  const { phone, laptop, game } = await twoDevices(0);
  const s = await openStream(laptop, `?game=${game.id}`);
  const ready = await s.next('ready');
  s.close();
  // An id from before this server started (or a made-up one).
  const old = await openStream(laptop, `?game=${game.id}`, { 'Last-Event-ID': '5' });
  const snap = await old.next('snapshot');
  assert.equal(snap.json.topic, `game:${game.id}`);
  assert.equal((await old.next('ready')).json.snapshots, 1);
  old.close();
  // More entries than the history holds, while away.
  let seq = 0;
  for (let i = 0; i < 130; i++) {
    for (const e of [{ steps: 'r' }, { undo: 1 }]) {
      const r = await phone.post(`/api/v1/games/${game.id}/log`, { seq: ++seq, ...e });
      assert.equal(r.status, 200, show(r));
    }
  }
  const late = await openStream(laptop, `?game=${game.id}`, { 'Last-Event-ID': ready.id });
  await late.next('snapshot');
  assert.equal(late.of('step').length, 0, 'no partial replay');
  late.close();
});

test('an idle stream gets heartbeat comments', async () => {
  const { laptop, game } = await twoDevices(0);
  const s = await openStream(laptop, `?game=${game.id}`);
  await s.next('ready');
  await s.until((x) => x.comments >= 2, 'two heartbeats (--heartbeat 1)', 8000);
  assert.match(s.raw, /\n\n:\n\n/);
  s.close();
});

test('nobody follows a game that is not theirs', async () => {
  const { phone, game } = await twoDevices(0);
  const stranger = server.client();
  await stranger.post(`/api/v1/levels/${ids[0]}/game`);
  let r = await stranger.get(`/api/v1/events?game=${game.id}`);
  assert.equal(r.status, 404, show(r));
  assert.equal(r.json.error.code, 'game_not_found');
  r = await server.client().get(`/api/v1/events?game=${game.id}`);
  assert.equal(r.status, 401, `no session: ${show(r)}`);
  assert.equal(r.json.error.code, 'no_session');
  r = await phone.get('/api/v1/events');
  assert.equal(r.status, 400, show(r));
  assert.equal(r.json.error.code, 'missing_field');
  r = await phone.get('/api/v1/events?game=abc');
  assert.equal(r.json.error.code, 'invalid_value', show(r));
  r = await phone.get(`/api/v1/events?game=${game.id}`, { 'Last-Event-ID': 'x1' });
  assert.equal(r.status, 400, show(r));
  r = await phone.post('/api/v1/events', {});
  assert.equal(r.status, 405, show(r));
  assert.equal(r.headers.get('allow'), 'GET, HEAD');
});
