// One user on several devices: resuming exactly, stale and retried entries,
// and a guest who signs up, logs out and logs in elsewhere.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { gameOf, show, startServerWithLevels, stopCleanly } from './harness.mjs';

let server;
let ids;

before(async () => {
  // The tests' own address is the HTTPS proxy the cookie test speaks for:
  // X-Forwarded-Proto is believed only from a listed proxy.
  ({ server, ids } = await startServerWithLevels({ args: ['--trusted-proxies', '127.0.0.1'] }));
});

after(() => stopCleanly(server));

test('a second device resumes the exact position and redo stack', async () => {
  const phone = server.client();
  const game = (await phone.post(`/api/v1/levels/${ids[1]}/game`)).json.game;
  let r = await phone.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'uurrrd' });
  assert.equal(r.status, 200, show(r));
  r = await phone.post(`/api/v1/games/${game.id}/log`, { seq: 2, undo: 3 });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.game.redo_available, 3, show(r));
  const onPhone = await gameOf(phone, game.id);
  assert.equal(onPhone.redo.length, 3, JSON.stringify(onPhone));

  const laptop = phone.sameUser();
  const opened = await laptop.post(`/api/v1/levels/${ids[1]}/game`);
  assert.equal(opened.status, 200, `opening again resumes: ${show(opened)}`);
  assert.equal(opened.json.created, false);
  const onLaptop = opened.json.game;
  for (const key of ['id', 'seq', 'rows', 'player', 'history', 'redo', 'moves', 'pushes', 'solved']) {
    assert.deepEqual(onLaptop[key], onPhone[key], `${key} on the laptop is as on the phone`);
  }
  r = await laptop.post(`/api/v1/games/${game.id}/log`, { seq: 3, redo: 3 });
  assert.equal(r.status, 200, show(r));
  assert.equal((await gameOf(laptop, game.id)).history, onPhone.history + onPhone.redo,
    'the laptop redoes the phone\'s undone steps');
});

test('a stale seq is refused with the current state, and the client catches up', async () => {
  const a = server.client();
  const game = (await a.post(`/api/v1/levels/${ids[2]}/game`)).json.game;
  const b = a.sameUser();
  let r = await a.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'r' });
  assert.equal(r.status, 200, show(r));
  r = await b.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'd' });
  assert.equal(r.status, 409, `b sent seq 1 after a took it: ${show(r)}`);
  assert.equal(r.json.error.code, 'stale_seq');
  assert.equal(r.json.game.seq, 1);
  assert.equal(r.json.game.history, 'r', 'the answer carries the true state');
  r = await b.post(`/api/v1/games/${game.id}/log`, { seq: 5, steps: 'd' });
  assert.equal(r.status, 409, `a seq from the future: ${show(r)}`);
  r = await b.post(`/api/v1/games/${game.id}/log`, { seq: r.json.game.seq + 1, steps: 'l' });
  assert.equal(r.status, 200, show(r));
  assert.equal((await gameOf(b, game.id)).history, 'rl');
});

test('a retried batch is acknowledged again and applied once', async () => {
  const c = server.client();
  const game = (await c.post(`/api/v1/levels/${ids[1]}/game`)).json.game;
  let seq = game.seq;
  const before = game.history;
  const first = await c.post(`/api/v1/games/${game.id}/log`, { seq: seq + 1, steps: 'ud' });
  assert.equal(first.status, 200, show(first));
  assert.equal(first.json.duplicate, false);
  const retry = await c.post(`/api/v1/games/${game.id}/log`, { seq: seq + 1, steps: 'ud' });
  assert.equal(retry.status, 200, show(retry));
  assert.equal(retry.json.duplicate, true);
  assert.deepEqual(retry.json.game, first.json.game, 'the retry changes nothing');
  assert.equal((await gameOf(c, game.id)).history, before + 'ud');
  // The same seq with other content is not a retry.
  const other = await c.post(`/api/v1/games/${game.id}/log`, { seq: seq + 1, steps: 'du' });
  assert.equal(other.status, 409, show(other));
  // Retried undo entries too.
  seq = retry.json.game.seq;
  const u1 = await c.post(`/api/v1/games/${game.id}/log`, { seq: seq + 1, undo: 1 });
  const u2 = await c.post(`/api/v1/games/${game.id}/log`, { seq: seq + 1, undo: 1 });
  assert.equal(u1.json.duplicate, false, show(u1));
  assert.equal(u2.json.duplicate, true, show(u2));
  assert.equal((await gameOf(c, game.id)).history, before + 'u');
  // Concurrent copies of one batch: one applies, the other is a duplicate or stale, never both applied.
  seq = u2.json.game.seq;
  const both = await Promise.all([1, 2, 3].map(() => c.post(`/api/v1/games/${game.id}/log`, { seq: seq + 1, steps: 'du' })));
  const applied = both.filter((r) => r.status === 200 && r.json.duplicate === false).length;
  assert.equal(applied, 1, both.map(show).join('\n'));
  const now = await c.get(`/api/v1/games/${game.id}`);
  assert.equal(now.json.game.seq, seq + 1);
  assert.equal(now.json.game.history, before + 'u' + 'du', show(now));
});

test('a guest plays, signs up and keeps its progress; logs out and in on a second device', async () => {
  const home = server.client();
  let r = await home.get('/api/v1/account');
  assert.equal(r.status, 200);
  assert.equal(r.json.user, null, 'nobody before the first game');
  assert.equal(home.cookies.size, 0, 'a GET creates no guest');

  const game = (await home.post(`/api/v1/levels/${ids[0]}/game`)).json.game;
  assert.ok(home.cookies.has('sokod_session'), 'opening a game makes a guest with a cookie');
  r = await home.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'rrr' });
  assert.equal(r.json.game.solved, true, show(r));
  const guest = (await home.get('/api/v1/account')).json.user;
  assert.equal(guest.guest, true);
  assert.equal(guest.username, null);

  const oldCookie = home.cookies.get('sokod_session');
  r = await home.post('/api/v1/account/signup', { username: 'carol', password: 'correct horse' });
  assert.equal(r.status, 201, show(r));
  assert.equal(r.json.user.id, guest.id, 'the guest becomes the account');
  assert.equal(r.json.user.guest, false);
  assert.equal(r.json.user.username, 'carol');
  assert.notEqual(home.cookies.get('sokod_session'), oldCookie, 'sign-up starts a new session');
  const stolen = server.client();
  stolen.cookies.set('sokod_session', oldCookie);
  assert.equal((await stolen.get('/api/v1/account')).json.user, null, 'the old token is worth nothing');

  let progress = (await home.get('/api/v1/progress')).json;
  assert.deepEqual(progress.solved.map((s) => s.level_id), [ids[0]], 'progress kept through sign-up');

  r = await home.post('/api/v1/account/signup', { username: 'carol2', password: 'correct horse' });
  assert.equal(r.status, 409, show(r));
  assert.equal(r.json.error.code, 'already_signed_up');

  r = await home.post('/api/v1/account/logout');
  assert.equal(r.status, 200, show(r));
  assert.equal(home.cookies.has('sokod_session'), false, 'log-out clears the session cookie');
  assert.ok(home.cookies.has('sokod_device'), 'the device cookie stays: this browser is the account\'s');
  assert.equal((await home.get('/api/v1/account')).json.user, null);

  // The second device played as a guest before logging in.
  const work = server.client();
  const g2 = (await work.post(`/api/v1/levels/${ids[1]}/game`)).json.game;
  r = await work.post(`/api/v1/games/${g2.id}/log`, { seq: 1, steps: 'uu' });
  assert.equal(r.status, 200, show(r));
  const g3 = (await work.post(`/api/v1/levels/${ids[0]}/game`)).json.game;
  r = await work.post(`/api/v1/games/${g3.id}/log`, { seq: 1, steps: 'r' });
  assert.equal(r.status, 200, show(r));

  r = await work.post('/api/v1/account/login', { username: 'carol', password: 'wrong password' });
  assert.equal(r.status, 401, show(r));
  assert.equal(r.json.error.code, 'bad_credentials');
  r = await work.post('/api/v1/account/login', { username: 'nobody', password: 'correct horse' });
  assert.equal(r.status, 401, show(r));
  r = await work.post('/api/v1/account/login', { username: 'CAROL', password: 'correct horse' });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.user.id, guest.id);

  progress = (await work.get('/api/v1/progress')).json;
  assert.deepEqual(progress.solved.map((s) => s.level_id), [ids[0]], 'the account\'s solved level');
  assert.deepEqual(progress.in_progress.map((p) => p.game_id), [g2.id],
    'the guest game on a level the account had not started joins the account');
  r = await work.get(`/api/v1/games/${game.id}`);
  assert.equal(r.status, 200, 'the account\'s own game wins over the guest\'s');
  assert.equal(r.json.game.solved, true);
  r = await work.get(`/api/v1/games/${g3.id}`);
  assert.equal(r.status, 404, `the guest's game on a level the account had is gone: ${show(r)}`);

  // Back home, logging in again finds the same progress.
  r = await home.post('/api/v1/account/login', { username: 'carol', password: 'correct horse' });
  assert.equal(r.status, 200, show(r));
  progress = (await home.get('/api/v1/progress')).json;
  assert.equal(progress.solved.length, 1);
  assert.equal(progress.in_progress.length, 1);

  r = await server.client().post('/api/v1/account/signup', { username: 'carol', password: 'another one' });
  assert.equal(r.status, 409, show(r));
  assert.equal(r.json.error.code, 'username_taken');
});

test('the session cookie is HttpOnly, SameSite=Lax, Path=/, and Secure behind HTTPS', async () => {
  const plain = server.client();
  let r = await plain.post(`/api/v1/levels/${ids[0]}/game`);
  const cookie = r.headers.get('set-cookie');
  assert.match(cookie, /^sokod_session=[A-Za-z0-9_-]{43}; /, cookie);
  for (const part of ['HttpOnly', 'SameSite=Lax', 'Path=/']) assert.ok(cookie.split('; ').includes(part), `${part} in ${cookie}`);
  assert.ok(!/Secure/.test(cookie), `no Secure over plain HTTP: ${cookie}`);

  const proxied = server.client();
  r = await proxied.post(`/api/v1/levels/${ids[0]}/game`, {}, {
    'X-Forwarded-Proto': 'https', Origin: `https://127.0.0.1:${server.port}`,
  });
  assert.ok(r.status === 201, `behind an HTTPS proxy the https Origin is this origin: ${show(r)}`);
  assert.match(r.headers.get('set-cookie'), /; Secure/);
});

test('a game that moved from a guest to an account at log-in goes on and records its solution for the account', async () => {
  const first = server.client();
  let r = await first.post('/api/v1/account/signup', { username: 'dave', password: 'dave password' });
  assert.equal(r.status, 201, show(r));
  const dave = r.json.user.id;

  const other = server.client();
  const game = (await other.post(`/api/v1/levels/${ids[0]}/game`)).json.game;
  r = await other.post(`/api/v1/games/${game.id}/log`, { seq: 1, steps: 'r' });
  assert.equal(r.status, 200, show(r));
  r = await other.post('/api/v1/account/login', { username: 'dave', password: 'dave password' });
  assert.equal(r.status, 200, show(r));
  r = await other.post(`/api/v1/games/${game.id}/log`, { seq: 2, steps: 'rr' });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.game.solved, true);
  const progress = (await first.get('/api/v1/progress')).json;
  assert.deepEqual(progress.solved.map((s) => [s.level_id, s.game_id]), [[ids[0], game.id]],
    `dave's progress on his first device: ${JSON.stringify(progress)}`);
  assert.equal((await first.get('/api/v1/account')).json.user.id, dave);
});
