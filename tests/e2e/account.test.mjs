// The account page and a solution's LURD: a player who solved a level
// finds its solution on the account page, copies its LURD there and on the
// replay screen, downloads all its solutions, changes its password (and
// logs in with the new one), and logs out everywhere, which ends the
// session of its other device too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServerAndBrowser, openBrowser, closeAll, sendAccountForm, waitForGame, waitSynced, tutorialLevels,
  press, arrows, apiGet, screenshotPath } from './harness.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };

let server, browser, other;
before(async () => {
  ({ server, browser } = await startServerAndBrowser({ viewport: { width: 1280, height: 800 }, ...CLIPBOARD }));
  other = await openBrowser({ ...PHONE, ...CLIPBOARD });
});
after(() => closeAll(server, browser, other));

const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());
const status = (page) => page.textContent('#acc-status');

// The clipboard's text once the page wrote one. page.waitForFunction takes
// a predicate's Promise for a truthy answer and ends at once, so the
// clipboard, which only an async call reads, is polled from here.
async function copied(page, what, timeout = 10000) {
  const end = Date.now() + timeout;
  for (;;) {
    const text = await clipboard(page);
    if (text !== '') return text;
    if (Date.now() > end) throw new Error(`${what}: the clipboard was still empty ${timeout} ms later`);
    await page.waitForTimeout(50);
  }
}

async function signedIn(page, name) {
  await page.waitForFunction((n) => document.getElementById('acc-status').textContent.includes(`Signed in as ${n}`), name);
}

test('the account page lists solutions with Copy LURD, exports them, changes the password and logs out everywhere', async () => {
  const { page, errors } = browser;
  await sendAccountForm(page, server.url, 'signup', 'copier', 'the first password');
  await signedIn(page, 'copier');
  // The account's storage against its quota (--user-storage-mb, 256 by default).
  await page.waitForFunction(() => /^Storage: \d+\.\d MB of 256\.0 MB \(\d+%\)/.test(document.getElementById('acc-storage').textContent));
  assert.equal(await page.isHidden('#acc-solutions'), true, 'no solutions yet, no list');

  const level = (await tutorialLevels(page))[0];
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows(level.solution));
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
  await waitSynced(page);

  await page.goto(`${server.url}/#/account`);
  await page.waitForSelector('#acc-solutions:not([hidden]) .solution-row');
  const rows = await page.$$eval('#acc-solution-list .solution-row', (lis) => lis.map((li) => li.textContent));
  assert.equal(rows.length, 1, `one solution listed: ${rows.join(' | ')}`);
  assert.match(rows[0], new RegExp(level.title));
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.click('#acc-solution-list .solution-row button');
  assert.equal((await copied(page, 'Copy LURD on the account page')).toLowerCase(), level.solution.toLowerCase(),
    'Copy LURD on the account page');
  await page.screenshot({ path: screenshotPath('account-desktop.png'), fullPage: true });

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#acc-export')]);
  assert.equal(download.suggestedFilename(), 'sokod-solutions.sok');
  const file = readFileSync(await download.path(), 'utf8');
  assert.match(file, /^Collection: sokod solutions/m, file);
  assert.ok(file.toLowerCase().includes(level.solution.toLowerCase()), `the export holds the solution:\n${file}`);

  // The replay screen copies its line too.
  const board = await apiGet(page, `/levels/${level.id}/leaderboard`);
  await page.goto(`${server.url}/#/replay/${board.body.you.solution_id}`);
  await page.waitForFunction(() => document.getElementById('replay-copy') && !document.getElementById('replay-copy').disabled);
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.click('#replay-copy');
  assert.equal((await copied(page, 'Copy LURD on the replay screen')).toLowerCase(), level.solution.toLowerCase(),
    'Copy LURD on the replay screen');

  // A second device of the same account.
  await sendAccountForm(other.page, server.url, 'login', 'copier', 'the first password');
  await signedIn(other.page, 'copier');
  await other.page.screenshot({ path: screenshotPath('account-phone.png'), fullPage: true });

  // A wrong current password is refused on the form; the right one works.
  await page.goto(`${server.url}/#/account`);
  await signedIn(page, 'copier');
  await page.fill('#acc-password input[name="current_password"]', 'not the password');
  await page.fill('#acc-password input[name="new_password"]', 'the second password');
  await page.click('#acc-password button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('#acc-password .form-error').textContent !== '');
  await page.fill('#acc-password input[name="current_password"]', 'the first password');
  await page.fill('#acc-password input[name="new_password"]', 'the second password');
  await page.click('#acc-password button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('#acc-password .form-error').textContent === '' &&
    document.querySelector('#acc-password input[name="current_password"]').value === '');
  let who = await apiGet(other.page, '/account');
  assert.ok(!who.body.user || who.body.user.username !== 'copier', `the password change logged the other device out: ${JSON.stringify(who.body)}`);
  await other.page.goto(`${server.url}/#/`);
  await sendAccountForm(other.page, server.url, 'login', 'copier', 'the second password');
  await signedIn(other.page, 'copier');

  // Log out everywhere, confirmed: both devices are out.
  page.once('dialog', (d) => d.accept());
  await page.click('#acc-logout-all');
  await page.waitForFunction(() => /playing as a guest/.test(document.getElementById('acc-status').textContent));
  who = await apiGet(other.page, '/account');
  assert.ok(!who.body.user || who.body.user.username !== 'copier', `the other device is logged out: ${JSON.stringify(who.body)}`);
  assert.match(await status(page), /guest/);
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
});
