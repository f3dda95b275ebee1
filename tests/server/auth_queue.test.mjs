// The password checks' queue (WORKER_AUTH) under a flood: capped, with
// 503 unavailable and Retry-After past the cap, and fair between client
// addresses, so that a log-in from a quiet address waits for a few
// hashes, not for every flooder's. Addresses come from X-Forwarded-For
// through a trusted proxy (the test's own loopback address). The wait is
// measured as a count of hashes (the flood's answers that a password
// check made, received while the quiet log-in waited), never as a time.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BACKEND, show, startServer, stopCleanly } from './harness.mjs';

let server;

before(async () => {
  server = await startServer({ args: ['--trusted-proxies', '127.0.0.1'] });
});

after(async () => {
  await stopCleanly(server);
});

const FLOODERS = 8;
const EACH = 30; // within the default --auth-per-minute

function loginFrom(address, username, password) {
  return server.client().post('/api/v1/account/login', { username, password }, { 'X-Forwarded-For': address });
}

test('a quiet address logs in after a few hashes while 8 addresses flood the password checks, and past the cap the flood gets 503', async () => {
  const quiet = '203.0.113.99';
  let r = await server.client().post('/api/v1/account/signup', { username: 'quiet', password: 'the quiet password' },
    { 'X-Forwarded-For': quiet });
  assert.equal(r.status, 201, show(r));

  // Every flood answer in the order it arrived; `hashed` counts those a
  // password check made (401: a wrong password, checked).
  const answers = [];
  let hashed = 0;
  let firstHashed;
  const hashedOnce = new Promise((resolve) => { firstHashed = resolve; });
  const flood = [];
  for (let a = 1; a <= FLOODERS; a++) {
    for (let i = 0; i < EACH; i++) {
      flood.push(loginFrom(`198.51.100.${a}`, `flood${a}x${i}`, 'a wrong password').then((res) => {
        answers.push(res);
        if (res.status === 401) { hashed++; firstHashed(); }
        return res;
      }));
    }
  }
  // Once a hash has run, the rest of the flood is queued or refused.
  await hashedOnce;
  const before = hashed;
  const sent = Date.now();
  r = await loginFrom(quiet, 'quiet', 'the quiet password');
  const waitedMs = Date.now() - sent;
  const during = hashed - before;
  await Promise.all(flood);

  const statuses = {};
  for (const res of answers) statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  console.log(`${BACKEND}: ${FLOODERS} addresses x ${EACH} wrong log-ins: answers ${JSON.stringify(statuses)}; ` +
    `the quiet log-in answered ${r.status} after ${during} of the flood's password checks (${waitedMs} ms)`);

  assert.equal(r.status, 200, `the quiet address's log-in: ${show(r)}`);
  // Quiet owners go first: it waits for the checks running when it came
  // (2 threads), and a few more while the HTTP threads read the rest of
  // the flood. The bound allows two per flooding address; one queue for
  // everyone made it wait for nearly all 240.
  assert.ok(during <= 2 * FLOODERS,
    `the quiet log-in waited for ${during} of the flood's password checks, more than two per flooding address (${FLOODERS} addresses)`);

  const refused = answers.filter((res) => res.status === 503);
  assert.ok(refused.length > 0, `past the queue's cap some of the flood must get 503; answers ${JSON.stringify(statuses)}`);
  for (const res of refused) {
    assert.equal(res.json?.error?.code, 'unavailable', show(res));
    const retry = Number(res.headers.get('retry-after'));
    assert.ok(Number.isInteger(retry) && retry >= 1, `Retry-After is ${res.headers.get('retry-after')}: ${show(res)}`);
  }
  const other = answers.filter((res) => res.status !== 401 && res.status !== 503);
  assert.equal(other.length, 0, `the flood's answers are 401 or 503: ${other.map(show).join('; ')}`);
});
