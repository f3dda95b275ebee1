// Account protections: rate limits on log-ins and sign-ups (429 with
// Retry-After), a browser's own trust while its name is locked (which a
// password change and log out everywhere end), sessions that expire and
// slide, log out everywhere, and a password change that ends every other
// session.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { show, sqlite, startServer, stopCleanly } from './harness.mjs';

let server; // generous address limit: per-name limits and sessions
let strict; // an address limit of 6 a minute

before(async () => {
  server = await startServer({ args: ['--auth-per-minute', '1000'] });
  strict = await startServer({ args: ['--auth-per-minute', '6'] });
});

after(async () => {
  for (const s of [server, strict]) {
    await stopCleanly(s);
  }
});

async function signup(s, name, password = 'a good password') {
  const c = s.client();
  const r = await c.post('/api/v1/account/signup', { username: name, password });
  assert.equal(r.status, 201, `sign-up of ${name}: ${show(r)}`);
  return c;
}

function expect429(r, what) {
  assert.equal(r.status, 429, `${what}: ${show(r)}`);
  assert.equal(r.json?.error?.code, 'rate_limited', `${what}: ${show(r)}`);
  const retry = Number(r.headers.get('retry-after'));
  assert.ok(Number.isInteger(retry) && retry >= 1, `${what}: Retry-After is ${r.headers.get('retry-after')}`);
  return retry;
}

test('wrong passwords for one name are limited, even with the right one after; other names are not', async () => {
  await signup(server, 'victim', 'the right password');
  const attacker = server.client();
  for (let i = 1; i <= 10; i++) {
    const r = await attacker.post('/api/v1/account/login', { username: 'victim', password: `guess ${i}` });
    assert.equal(r.status, 401, `wrong password ${i}: ${show(r)}`);
  }
  let r = await attacker.post('/api/v1/account/login', { username: 'VICTIM', password: 'guess 11' });
  const retry = expect429(r, 'the 11th wrong password, the name in other case');
  assert.ok(retry <= 60, `one more try within a minute, not ${retry} s`);
  r = await server.client().post('/api/v1/account/login', { username: 'victim', password: 'the right password' });
  expect429(r, 'even the right password while the name is limited');
  // Another account is untouched.
  await signup(server, 'bystander', 'another password');
  r = await server.client().post('/api/v1/account/login', { username: 'bystander', password: 'another password' });
  assert.equal(r.status, 200, show(r));
});

test('an account\'s own browser logs in while strangers keep its name locked; its own failures count apart', async () => {
  const owner = await signup(server, 'homeowner', 'the owner password');
  const device = owner.cookies.get('sokod_device');
  assert.ok(device, `sign-up gives the browser a device cookie: ${[...owner.cookies.keys()]}`);
  assert.equal((await owner.post('/api/v1/account/logout')).status, 200);
  const strangers = server.client();
  for (let i = 1; i <= 10; i++) {
    const r = await strangers.post('/api/v1/account/login', { username: 'homeowner', password: `guess ${i}` });
    assert.equal(r.status, 401, `a stranger's wrong password ${i}: ${show(r)}`);
  }
  const right = { username: 'HomeOwner', password: 'the owner password' };
  expect429(await server.client().post('/api/v1/account/login', right), 'a browser new to the account, with the right password');
  // A cookie altered, or one given for another account, is a stranger's.
  const forged = server.client();
  forged.cookies.set('sokod_device', (device[0] === 'A' ? 'B' : 'A') + device.slice(1));
  expect429(await forged.post('/api/v1/account/login', right), 'a forged device cookie');
  const neighbour = await signup(server, 'nextdoor', 'the next door password');
  const borrowed = server.client();
  borrowed.cookies.set('sokod_device', neighbour.cookies.get('sokod_device'));
  expect429(await borrowed.post('/api/v1/account/login', right), 'another account\'s device cookie');
  // The owner's browser logs in, in any case of the name, and is given a new cookie.
  const r = await owner.post('/api/v1/account/login', right);
  assert.equal(r.status, 200, `the owner's browser: ${show(r)}`);
  const set = r.headers.getSetCookie().find((c) => c.startsWith('sokod_device='));
  assert.ok(set, `a log-in renews the device cookie: ${r.headers.getSetCookie()}`);
  assert.match(set, /; Path=\/api\/v1\/account;/, set);
  assert.match(set, /; HttpOnly/, set);
  assert.match(set, /; SameSite=Strict/, set);
  assert.notEqual(owner.cookies.get('sokod_device'), device, 'a new device cookie each time');
  // Wrong passwords from the owner's browser are limited for that browser.
  for (let i = 1; i <= 10; i++) {
    const w = await owner.post('/api/v1/account/login', { username: 'homeowner', password: `slip ${i}` });
    assert.equal(w.status, 401, `the owner's wrong password ${i}: ${show(w)}`);
  }
  const limited = await owner.post('/api/v1/account/login', right);
  expect429(limited, 'the owner\'s browser after ten wrong passwords of its own');
  assert.match(limited.json.error.message, /this browser/, show(limited));
});

test('a password change and log out everywhere end the trust of the account\'s browsers', async () => {
  const phone = await signup(server, 'keeper', 'first password 1');
  const laptop = server.client();
  let r = await laptop.post('/api/v1/account/login', { username: 'keeper', password: 'first password 1' });
  assert.equal(r.status, 200, show(r));
  assert.ok(laptop.cookies.get('sokod_device'), 'the laptop is given a device cookie');
  const strangers = server.client();
  for (let i = 1; i <= 10; i++) {
    r = await strangers.post('/api/v1/account/login', { username: 'keeper', password: `guess ${i}` });
    assert.equal(r.status, 401, `a stranger's wrong password ${i}: ${show(r)}`);
  }
  r = await laptop.post('/api/v1/account/login', { username: 'keeper', password: 'first password 1' });
  assert.equal(r.status, 200, `the laptop is trusted while the name is locked: ${show(r)}`);

  // The phone changes the password: the laptop's cookie is a stranger's
  // now, and the phone is given a new one.
  const before = phone.cookies.get('sokod_device');
  r = await phone.post('/api/v1/account/password', { current_password: 'first password 1', new_password: 'second password 2' });
  assert.equal(r.status, 200, show(r));
  assert.notEqual(phone.cookies.get('sokod_device'), before, 'the browser that changed the password gets a new device cookie');
  const second = { username: 'keeper', password: 'second password 2' };
  expect429(await laptop.post('/api/v1/account/login', second), 'the laptop, trusted before the password changed');
  assert.equal((await phone.post('/api/v1/account/logout')).status, 200);
  r = await phone.post('/api/v1/account/login', second);
  assert.equal(r.status, 200, `the phone, trusted again when it changed the password: ${show(r)}`);

  // Log out everywhere: the phone too is a stranger to the locked name.
  r = await phone.post('/api/v1/account/logout-all', {});
  assert.equal(r.status, 200, show(r));
  expect429(await phone.post('/api/v1/account/login', second), 'the phone after log out everywhere');
  // Another account's browsers are still trusted.
  const other = await signup(server, 'unmoved', 'unmoved password');
  assert.equal((await other.post('/api/v1/account/logout')).status, 200);
  for (let i = 1; i <= 10; i++) {
    r = await strangers.post('/api/v1/account/login', { username: 'unmoved', password: `guess ${i}` });
    assert.equal(r.status, 401, `a stranger's wrong password ${i} for another name: ${show(r)}`);
  }
  r = await other.post('/api/v1/account/login', { username: 'unmoved', password: 'unmoved password' });
  assert.equal(r.status, 200, `another account's browser: ${show(r)}`);
});

test('one address may try only so many log-ins and sign-ups a minute', async () => {
  const c = strict.client();
  const seen = [];
  for (let i = 0; i < 6; i++) {
    const r = i % 2 === 0
      ? await c.post('/api/v1/account/login', { username: `nobody${i}`, password: 'whatever it is' })
      : await strict.client().post('/api/v1/account/signup', { username: `newcomer${i}`, password: 'a good password' });
    seen.push(r.status);
    assert.ok(r.status === 401 || r.status === 201, `attempt ${i + 1} of 6 is allowed: ${show(r)}`);
  }
  expect429(await c.post('/api/v1/account/login', { username: 'nobody9', password: 'whatever it is' }), 'a 7th log-in');
  expect429(await strict.client().post('/api/v1/account/signup', { username: 'late', password: 'a good password' }), 'a 7th sign-up');
  const users = sqlite(strict.db, "SELECT count(*) FROM users WHERE username = 'late'");
  assert.equal(users, '0', 'a refused sign-up creates no account');
  // Playing is not limited.
  const r = await c.get('/api/v1/collections');
  assert.equal(r.status, 200, show(r));
  console.log(`statuses before the limit: ${seen.join(' ')}`);
});

function sessionHash(db, user) {
  return sqlite(db, `SELECT hex(token_hash) FROM sessions WHERE user_id = ${user} ORDER BY created_at LIMIT 1`);
}

test('an expired session is no session; a used one slides forward', async () => {
  const c = await signup(server, 'sleeper');
  const me = (await c.get('/api/v1/account')).json.user;
  const hash = sessionHash(server.db, me.id);
  assert.match(hash, /^[0-9A-F]{64}$/);
  const now = Math.floor(Date.now() / 1000);
  // Close to its end: the next use moves it a full span ahead, cookie too.
  sqlite(server.db, `UPDATE sessions SET expires_at = ${now + 3600} WHERE token_hash = x'${hash}'`);
  let r = await c.get('/api/v1/account');
  assert.equal(r.json.user?.id, me.id, show(r));
  const slid = Number(sqlite(server.db, `SELECT expires_at FROM sessions WHERE token_hash = x'${hash}'`));
  assert.ok(slid >= now + 89 * 86400, `the session slid to ${slid - now} s ahead`);
  assert.match(r.headers.get('set-cookie') ?? '', /Max-Age=7776000/, 'the cookie is renewed with it');
  // A fresh one is not written on every request.
  r = await c.get('/api/v1/account');
  assert.equal(r.headers.get('set-cookie'), null, 'no cookie on a session used within the day');
  // Past its end: nobody, and endpoints that need a session refuse.
  sqlite(server.db, `UPDATE sessions SET expires_at = ${now - 1} WHERE token_hash = x'${hash}'`);
  r = await c.get('/api/v1/account');
  assert.equal(r.json.user, null, `an expired session is nobody: ${show(r)}`);
  r = await c.post('/api/v1/account/logout-all', {});
  assert.equal(r.status, 401, `an expired session cannot act for the account: ${show(r)}`);
  // Logging in again clears the account's expired sessions.
  r = await c.post('/api/v1/account/login', { username: 'sleeper', password: 'a good password' });
  assert.equal(r.status, 200, show(r));
  const left = sqlite(server.db, `SELECT count(*) FROM sessions WHERE user_id = ${me.id} AND expires_at <= ${now}`);
  assert.equal(left, '0', 'expired sessions of the account are deleted at log-in');
});

test('log out everywhere ends every session of the account, and only of that account', async () => {
  const a = await signup(server, 'traveller');
  const devices = [a];
  for (let i = 0; i < 2; i++) {
    const d = server.client();
    const r = await d.post('/api/v1/account/login', { username: 'traveller', password: 'a good password' });
    assert.equal(r.status, 200, show(r));
    devices.push(d);
  }
  const other = await signup(server, 'neighbour');
  for (const d of devices) assert.equal((await d.get('/api/v1/account')).json.user?.username, 'traveller');
  let r = await devices[1].post('/api/v1/account/logout-all', {});
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.sessions_ended, 3, show(r));
  for (const [i, d] of devices.entries()) {
    r = await d.get('/api/v1/account');
    assert.equal(r.json.user, null, `device ${i + 1} is signed out: ${show(r)}`);
  }
  assert.equal((await other.get('/api/v1/account')).json.user?.username, 'neighbour', 'another account keeps its session');
  r = await server.client().post('/api/v1/account/logout-all', {});
  assert.equal(r.status, 401, `log out everywhere without a session: ${show(r)}`);
});

test('changing the password checks the old one and ends the other sessions', async () => {
  const phone = await signup(server, 'changer', 'old password 1');
  const laptop = server.client();
  assert.equal((await laptop.post('/api/v1/account/login', { username: 'changer', password: 'old password 1' })).status, 200);
  let r = await phone.post('/api/v1/account/password', { current_password: 'not it at all', new_password: 'new password 2' });
  assert.equal(r.status, 401, `a wrong current password: ${show(r)}`);
  assert.equal(r.json.error.code, 'bad_credentials');
  r = await phone.post('/api/v1/account/password', { current_password: 'old password 1', new_password: 'short' });
  assert.equal(r.status, 400, `a new password too short: ${show(r)}`);
  assert.equal((await laptop.get('/api/v1/account')).json.user?.username, 'changer', 'refused changes end nothing');
  r = await phone.post('/api/v1/account/password', { current_password: 'old password 1', new_password: 'new password 2' });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.sessions_ended, 1, show(r));
  assert.equal((await phone.get('/api/v1/account')).json.user?.username, 'changer', 'the device that changed it stays in');
  assert.equal((await laptop.get('/api/v1/account')).json.user, null, 'the other device is out');
  r = await server.client().post('/api/v1/account/login', { username: 'changer', password: 'old password 1' });
  assert.equal(r.status, 401, `the old password no longer works: ${show(r)}`);
  r = await server.client().post('/api/v1/account/login', { username: 'changer', password: 'new password 2' });
  assert.equal(r.status, 200, `the new one does: ${show(r)}`);
  const guest = server.client();
  await guest.post('/api/v1/levels/1/game');
  r = await guest.post('/api/v1/account/password', { current_password: 'x', new_password: 'new password 3' });
  assert.equal(r.status, 401, `a guest has no password to change: ${show(r)}`);
});
