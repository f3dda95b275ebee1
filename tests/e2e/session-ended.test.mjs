// A session ended from another device loses no move: the device whose
// session ended keeps the moves the server refused in its queue, shows at
// once that it is signed out and asks to log in, and delivers them to the
// account once it logs in again. When another account logs in there first,
// the moves stay kept for the first account and reach it when it returns.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, closeAll, sendAccountForm, waitForGame, waitSynced, tutorialLevels, press,
  arrows, localPosition, apiGet, screenshotPath } from './harness.mjs';

let server, a, c;
before(async () => {
  server = await startServer();
  a = await openBrowser({ viewport: { width: 1280, height: 800 } });
  c = await openBrowser({ viewport: { width: 1280, height: 800 } });
});
after(() => closeAll(server, a, c));

async function signIn(page, form, name, password) {
  await sendAccountForm(page, server.url, form, name, password);
  await page.waitForFunction((n) => document.getElementById('acc-status').textContent.includes(`Signed in as ${n}`), name);
}

/** Logs `page` in by the API, whoever it was, and loads the page afresh. */
async function logInAfresh(page, name, password) {
  await page.goto(`${server.url}/#/`);
  const r = await apiPost(page, '/account/login', { username: name, password });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await page.reload();
  await page.waitForSelector('#screen-title:not([hidden])');
}

/** Calls a state-changing endpoint from inside the page (its cookie). */
function apiPost(page, path, body) {
  return page.evaluate(async ([p, b]) => {
    const r = await fetch(`/api/v1${p}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
    return { status: r.status, body: await r.json() };
  }, [path, body]);
}

/** The account's game on `level` after `first` was played on device A and
 * device C opened it: resolves to the game's id. */
async function openOnBoth(level, first) {
  await a.page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(a.page, level.title);
  await press(a.page, arrows(first));
  await waitSynced(a.page);
  await c.page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(c.page, level.title);
  await c.page.waitForFunction((n) => window.sokod.position()?.moves === n, first.length);
  return c.page.evaluate(() => window.sokod.gameId());
}

/** Plays `steps` on C after its session ended: the moves stay queued and
 * the page says it is signed out, with a way to log in. */
async function playSignedOut(steps) {
  const before = await localPosition(c.page);
  await press(c.page, arrows(steps));
  await c.page.waitForSelector('#session:not([hidden])', { timeout: 15000 });
  const pending = await c.page.evaluate(() => document.body.dataset.pending);
  assert.equal(pending, String(steps.length), `the ${steps.length} refused moves stay queued on the device`);
  const after = await localPosition(c.page);
  assert.equal(after.moves, before.moves + steps.length, 'the board keeps the moves played');
  assert.match(await c.page.textContent('#session'), /Log in/);
}

async function titleLine(page) {
  await page.evaluate(() => { location.hash = '#/'; });
  await page.waitForSelector('#screen-title:not([hidden])');
  return page.textContent('#title-user');
}

test('a password changed on A: C keeps its moves, says it is signed out, and delivers them after logging in', async () => {
  await signIn(a.page, 'signup', 'walker', 'the first password');
  await signIn(c.page, 'login', 'walker', 'the first password');
  const level = (await tutorialLevels(a.page)).find((l) => l.title === 'Order matters');
  const id = await openOnBoth(level, 'uurr');

  const changed = await apiPost(a.page, '/account/password',
    { current_password: 'the first password', new_password: 'the second password' });
  assert.equal(changed.status, 200, JSON.stringify(changed.body));
  assert.equal(changed.body.sessions_ended, 1, 'C\'s session ended');

  await playSignedOut('rr');
  await c.page.screenshot({ path: screenshotPath('session-ended.png') });
  assert.equal((await apiGet(a.page, `/games/${id}`)).body.game.moves, 4, 'the server has not had the moves yet');
  assert.doesNotMatch(await titleLine(c.page), /Signed in as/, 'the title follows the session the server refused');
  assert.equal(await c.page.evaluate(() => localStorage.getItem(`sokod.outbox.${window.sokod.gameId()}`)) !== null, true,
    'the queue is kept in the device\'s storage');

  await c.page.click('#session a');
  await c.page.waitForSelector('#screen-account:not([hidden])');
  await c.page.fill('#acc-login input[name="username"]', 'walker');
  await c.page.fill('#acc-login input[name="password"]', 'the second password');
  await c.page.click('#acc-login button[type="submit"]');
  await waitSynced(c.page);
  await c.page.waitForSelector('#session', { state: 'hidden' });
  const game = (await apiGet(a.page, `/games/${id}`)).body.game;
  assert.equal(game.moves, 6, `the 2 moves reached the account's game: ${JSON.stringify(game)}`);
  assert.match(await titleLine(c.page), /Signed in as walker/);
  assert.deepEqual(c.errors, []);
});

test('logged out everywhere, then another account on C: the moves wait for the first account', async () => {
  await logInAfresh(a.page, 'walker', 'the second password');
  await logInAfresh(c.page, 'walker', 'the second password');
  const level = (await tutorialLevels(a.page)).find((l) => l.title === 'Goals change hands');
  const id = await openOnBoth(level, 'RRRR');

  const out = await apiPost(a.page, '/account/logout-all', {});
  assert.equal(out.status, 200, JSON.stringify(out.body));
  await playSignedOut('uu');
  // A reload still says so, and the moves still wait.
  await c.page.reload();
  await waitForGame(c.page, level.title);
  await c.page.waitForSelector('#session:not([hidden])');
  assert.match(await c.page.textContent('#session'), /log in as walker/);
  assert.match(await titleLine(c.page), /Signed out: log in as walker/);

  // Someone else logs in on C: the moves are not theirs, and stay kept.
  await signIn(c.page, 'signup', 'someone', 'another password');
  await c.page.waitForFunction(() => document.getElementById('session').hidden);
  const kept = await c.page.evaluate((g) => JSON.parse(localStorage.getItem(`sokod.outbox.${g}`) || '[]'), id);
  assert.equal(kept.map((e) => e.steps).join(''), 'uu', 'the first account\'s moves are kept on the device');
  await logInAfresh(a.page, 'walker', 'the second password');
  assert.equal((await apiGet(a.page, `/games/${id}`)).body.game.moves, 4);

  // The first account returns on C: its moves are delivered.
  await c.page.click('#acc-logout');
  await signIn(c.page, 'login', 'walker', 'the second password');
  await c.page.waitForFunction((g) => localStorage.getItem(`sokod.outbox.${g}`) === null, id, { timeout: 15000 });
  const game = (await apiGet(a.page, `/games/${id}`)).body.game;
  assert.equal(game.moves, 6, `the 2 moves reached the first account's game: ${JSON.stringify(game)}`);
  assert.deepEqual(c.errors, []);
});
