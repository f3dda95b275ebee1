// The page says where it stands: the title's "Signed in as" follows the
// session as soon as the server shows it ended (on another device), with
// no reload; a reload then does not turn the device into a guest unasked;
// and an address that names nothing answers with a page that says so, in
// the site's style, with the ways back: a path the server has no file for
// (404) and a #/ route the page has no screen for.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, closeAll, sendAccountForm, waitForGame, waitSynced, tutorialLevels, press,
  arrows, localPosition, screenshotPath } from './harness.mjs';

let server, a, c;
before(async () => {
  server = await startServer();
  a = await openBrowser({ viewport: { width: 1280, height: 800 } });
  c = await openBrowser({ viewport: { width: 1280, height: 800 } });
});
after(() => closeAll(server, a, c));

/** Signs up or logs in on the account screen, entered afresh (a page
 * already there shows what it knew when it entered). */
async function signIn(page, form, name, password) {
  await page.goto(`${server.url}/#/`);
  await sendAccountForm(page, server.url, form, name, password);
  await page.waitForFunction((n) => document.getElementById('acc-status').textContent.includes(`Signed in as ${n}`), name);
}

/** Calls a state-changing endpoint from inside the page (its cookie). */
function apiPost(page, path, body) {
  return page.evaluate(async ([p, b]) => {
    const r = await fetch(`/api/v1${p}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
    return { status: r.status, body: await r.json() };
  }, [path, body]);
}

const titleLine = (page) => page.textContent('#title-user');

async function toTitle(page) {
  await page.evaluate(() => { location.hash = '#/'; });
  await page.waitForSelector('#screen-title:not([hidden])');
}

test('the title follows a session ended on another device, without a reload', async () => {
  await signIn(a.page, 'signup', 'stander', 'the first password');
  await signIn(c.page, 'login', 'stander', 'the first password');
  await toTitle(c.page);
  await c.page.waitForFunction(() => /Signed in as stander/.test(document.getElementById('title-user').textContent));

  const out = await apiPost(a.page, '/account/logout-all', {});
  assert.equal(out.status, 200, JSON.stringify(out.body));
  // C only reads: nothing it sends is refused, but the server no longer
  // knows its session. Back on the title, the title says so.
  await c.page.evaluate(() => { location.hash = '#/library'; });
  await c.page.waitForSelector('#screen-library:not([hidden])');
  await toTitle(c.page);
  await c.page.waitForFunction(() => !/Signed in as/.test(document.getElementById('title-user').textContent),
    null, { timeout: 10000 }).catch(() => {});
  const line = await titleLine(c.page);
  assert.doesNotMatch(line, /Signed in as/, `the title after the session ended elsewhere: "${line}"`);
  assert.match(line, /Signed out: log in as stander/);
  assert.equal(await c.page.isVisible('#session'), true, 'the banner asks for a log-in');
  await c.page.screenshot({ path: screenshotPath('title-signed-out.png') });
  assert.deepEqual(c.errors, []);
});

test('a refusal on any request updates the title at once', async () => {
  await signIn(c.page, 'login', 'stander', 'the first password');
  await toTitle(c.page);
  await c.page.waitForFunction(() => /Signed in as stander/.test(document.getElementById('title-user').textContent));
  await signIn(a.page, 'login', 'stander', 'the first password');
  const changed = await apiPost(a.page, '/account/password', { current_password: 'the first password', new_password: 'the second password' });
  assert.equal(changed.status, 200, JSON.stringify(changed.body));
  // A settings change, through the page's own API module: refused.
  const status = await c.page.evaluate(async () => (await (await import('/js/api.js')).api.saveSettings({ note: 'x' })).status);
  assert.equal(status, 401);
  await c.page.waitForFunction(() => !/Signed in as/.test(document.getElementById('title-user').textContent), null, { timeout: 5000 })
    .catch(() => {});
  assert.match(await titleLine(c.page), /Signed out: log in as stander/, 'the title changed where it stood');
});

test('a device reloaded after its session ended elsewhere plays the account\'s game, not a new guest\'s', async () => {
  await signIn(c.page, 'login', 'stander', 'the second password');
  const level = (await tutorialLevels(c.page)).find((l) => l.title === 'Make room');
  await c.page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(c.page, level.title);
  const [first, then] = [level.solution.slice(0, 2), level.solution.slice(2, 3)];
  await press(c.page, arrows(first));
  await waitSynced(c.page);
  const id = await c.page.evaluate(() => window.sokod.gameId());
  // A is still signed in: a password change keeps the session it came from.
  assert.equal((await apiPost(a.page, '/account/logout-all', {})).status, 200);

  await c.page.goto(`${server.url}/#/play/${level.id}`);
  await c.page.reload();
  await waitForGame(c.page, level.title);
  const shown = await localPosition(c.page);
  assert.equal(shown.gameId, id, 'the account\'s game, as the device kept it');
  assert.equal(shown.moves, 2, `with its moves: ${JSON.stringify(shown)}`);
  await c.page.waitForSelector('#session:not([hidden])');
  await press(c.page, arrows(then));
  await c.page.waitForFunction(() => document.body.dataset.pending === '1', null, { timeout: 10000 });

  // The log-in delivers the move to the account's game.
  await c.page.click('#session a');
  await c.page.fill('#acc-login input[name="username"]', 'stander');
  await c.page.fill('#acc-login input[name="password"]', 'the second password');
  await c.page.click('#acc-login button[type="submit"]');
  await c.page.waitForFunction((g) => localStorage.getItem(`sokod.outbox.${g}`) === null, id, { timeout: 15000 });
  await signIn(a.page, 'login', 'stander', 'the second password');
  const game = await a.page.evaluate(async (g) => (await (await fetch(`/api/v1/games/${g}`)).json()).game, id);
  assert.equal(game.history, level.solution.slice(0, 3), `the move made signed out reached the account: ${JSON.stringify(game.history)}`);
  assert.deepEqual(c.errors, []);
});

test('signed out, the player may play on as a guest, and the page stays so', async () => {
  await toTitle(c.page);
  await c.page.waitForFunction(() => /Signed in as stander/.test(document.getElementById('title-user').textContent));
  assert.equal((await apiPost(a.page, '/account/logout-all', {})).status, 200);
  // Away from the title, a request is refused.
  await c.page.evaluate(() => { location.hash = '#/credits'; });
  await c.page.waitForSelector('#screen-credits:not([hidden])');
  const status = await c.page.evaluate(async () => (await (await import('/js/api.js')).api.saveSettings({ note: 'y' })).status);
  assert.equal(status, 401);
  await c.page.waitForSelector('#session:not([hidden])', { timeout: 10000 });
  await c.page.click('#session-guest');
  await c.page.waitForSelector('#session', { state: 'hidden' });
  // The title's reading of the account does not take it back.
  await toTitle(c.page);
  await c.page.waitForTimeout(500);
  assert.match(await titleLine(c.page), /Playing as a guest/);
  assert.equal(await c.page.isVisible('#session'), false, 'the banner stays away');
  assert.deepEqual(c.errors, []);
});

test('a path with no page answers 404 with a page in the site\'s style', async () => {
  const r = await c.page.goto(`${server.url}/no/such/page`);
  assert.equal(r.status(), 404);
  assert.match(r.headers()['content-type'], /^text\/html/);
  assert.equal(await c.page.textContent('h1'), 'Nothing here');
  const bg = await c.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(243, 234, 216)', 'the site\'s colours (its style sheet)');
  await c.page.screenshot({ path: screenshotPath('not-found-path.png') });
  await c.page.click('text=Play sokod');
  await c.page.waitForSelector('#screen-title:not([hidden])');
  // A script asking gets JSON, as the API does.
  const js = await c.page.evaluate(async () => {
    const res = await fetch('/no/such/file.js');
    return { status: res.status, code: (await res.json()).error.code };
  });
  assert.deepEqual(js, { status: 404, code: 'not_found' });
});

test('a route with no screen shows a not-found screen with a way back', async () => {
  await c.page.goto(`${server.url}/#/nonsense/5`);
  await c.page.waitForSelector('#screen-missing:not([hidden])', { timeout: 10000 });
  assert.equal(await c.page.isVisible('#screen-title'), false, 'not the title screen');
  assert.equal(await c.page.textContent('#missing-what'), '#/nonsense/5');
  await c.page.screenshot({ path: screenshotPath('not-found-route.png') });
  await c.page.click('#screen-missing a.primary');
  await c.page.waitForSelector('#screen-title:not([hidden])');
  // The skip link's anchor is no route: the screen stays.
  await c.page.evaluate(() => { location.hash = '#main'; });
  await c.page.waitForTimeout(200);
  assert.equal(await c.page.isVisible('#screen-title'), true, 'the skip link keeps the screen');
  assert.deepEqual(c.errors, []);
});
