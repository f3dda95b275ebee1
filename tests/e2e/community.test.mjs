// Players' own levels in the browser, on a desktop and on a phone: a guest
// is told to sign up before publishing; a player makes a level in the
// editor, publishes it, finds it in the library's Community collection
// under their name, likes it, plays and solves it, reports it, and opens
// the page of the author's levels.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, openBrowser, closeAll, sendAccountForm, screenshotPath, apiGet, waitForGame, waitSynced, counters,
  createAdmin,
} from './harness.mjs';

let server, desktop, phone;
before(async () => {
  server = await startServer();
  createAdmin(server.db, 'keeper', 'an admin who keeps order');
  desktop = await openBrowser({ viewport: { width: 1280, height: 800 } });
  phone = await openBrowser({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
});
after(() => closeAll(server, desktop, phone));

const ARROW = { l: 'ArrowLeft', r: 'ArrowRight', u: 'ArrowUp', d: 'ArrowDown' };

/** Opens the editor with `rows` imported as its level. */
async function editorWith(page, rows, tap) {
  await page.goto(`${server.url}/#/editor`);
  await page.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
  await (tap ? page.tap('#ed-import') : page.click('#ed-import'));
  await page.waitForSelector('#ed-import-dialog[open]');
  await page.fill('#ed-import-text', rows.join('\n'));
  await (tap ? page.tap('#ed-import-read') : page.click('#ed-import-read'));
  await page.waitForSelector('#ed-import-dialog', { state: 'hidden' });
  await page.waitForFunction(() => document.getElementById('ed-edit').dataset.valid === '1');
  assert.deepEqual((await page.evaluate(() => window.sokod.editor.rows())).map((r) => r.replace(/-/g, ' ').trimEnd()), rows);
}

/** Publishes the editor's level under `title`; resolves to its id. */
async function publish(page, title, tap, shot) {
  await (tap ? page.tap('#ed-publish') : page.click('#ed-publish'));
  await page.waitForSelector('#ed-publish-dialog[open]');
  await page.waitForSelector('#ed-publish-form:not([hidden])');
  await page.fill('#ed-publish-title', title);
  if (shot) await page.screenshot({ path: screenshotPath(shot) });
  await (tap ? page.tap('#ed-publish-go') : page.click('#ed-publish-go'));
  await page.waitForSelector('#ed-publish-done:not([hidden])', { timeout: 20000 });
  const href = await page.getAttribute('#ed-publish-play', 'href');
  const id = Number(/#\/play\/(\d+)/.exec(href)?.[1]);
  assert.ok(id > 0, `a link to the level: ${href}`);
  return id;
}

async function communityCollection(page) {
  const list = (await apiGet(page, '/collections')).body.collections;
  const c = list.find((x) => x.source === 'community');
  assert.ok(c, `the community collection is listed: ${JSON.stringify(list.map((x) => x.name))}`);
  return c;
}

// Two boxes on two rows: 'drRRRllluRRR' solves it (12 moves, 6 pushes).
const TWO_ROWS = ['########', '#@ $  .#', '#  $  .#', '########'];
const SOLUTION = 'drRRRllluRRR';

test('on a desktop: publish from the editor, find, like, play and report the level', async () => {
  const { page, errors } = desktop;
  // A guest is told to sign up.
  await editorWith(page, TWO_ROWS);
  await page.click('#ed-publish');
  await page.waitForSelector('#ed-publish-guest:not([hidden])');
  assert.match(await page.textContent('#ed-publish-guest'), /Sign up or sign in to publish/);
  await page.screenshot({ path: screenshotPath('editor-publish-guest.png') });
  await page.click('#ed-publish-guest [data-close]');

  await sendAccountForm(page, server.url, 'signup', 'maker', 'a player who makes levels');
  await page.waitForFunction(() => window.sokod?.app.account?.username === 'maker');
  await editorWith(page, TWO_ROWS);
  const id = await publish(page, 'Two rows', false, 'editor-publish.png');
  // The same level again, as any copy, is refused with the server's words.
  await page.click('#ed-publish-form [data-close]');
  await page.click('#ed-publish');
  await page.waitForSelector('#ed-publish-form:not([hidden])');
  await page.click('#ed-publish-go');
  await page.waitForFunction(() => /holds this level already/.test(document.getElementById('ed-publish-msg').textContent));
  await page.click('#ed-publish-form [data-close]');

  // In the library, under its author, with its likes.
  const community = await communityCollection(page);
  await page.goto(`${server.url}/#/library/${community.id}`);
  const card = page.locator(`a.level-card[data-level="${id}"]`);
  await card.waitFor();
  const li = page.locator('#lib-levels li', { has: card });
  await li.locator('.level-author').waitFor();
  assert.equal(await li.locator('.level-author').textContent(), 'By maker');
  assert.match(await card.locator('.meta').textContent(), /♥ 0/);
  await page.screenshot({ path: screenshotPath('library-community.png') });

  // Liked, played and solved.
  await card.click();
  await waitForGame(page, 'Two rows');
  await page.waitForSelector('#g-community:not([hidden])');
  assert.equal(await page.textContent('#g-community-author'), 'More levels by maker');
  await page.click('#g-like');
  await page.waitForFunction(() => document.getElementById('g-like').getAttribute('aria-pressed') === 'true');
  assert.match(await page.textContent('#g-like'), /Liked · 1/);
  for (const c of SOLUTION) await page.keyboard.press(ARROW[c.toLowerCase()]);
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
  assert.deepEqual(await counters(page), { moves: 12, pushes: 6 });
  await waitSynced(page);
  await page.click('#solved-stay');

  // Reported: the admins get it.
  await page.click('#g-report');
  await page.waitForSelector('#report-dialog[open]');
  await page.fill('#report-reason', 'a test of the report');
  await page.click('#report-form button[type="submit"]');
  await page.waitForSelector('#report-dialog', { state: 'hidden' });
  const listed = (await apiGet(page, '/community/levels')).body.levels.find((l) => l.id === id);
  assert.deepEqual([listed.likes, listed.liked, listed.solved], [1, true, true], JSON.stringify(listed));

  // The author's page: their levels alone.
  await page.click('#g-community-author');
  await page.waitForFunction(() => /^Levels by maker$/.test(document.getElementById('lib-heading').textContent));
  assert.equal(await page.locator('#lib-levels li').count(), 1);
  assert.deepEqual(errors, [], 'no script errors');
});

test('on a phone: publish with taps, then find, like and solve the level', async () => {
  const { page, errors } = phone;
  await sendAccountForm(page, server.url, 'signup', 'thumbs', 'a player on a phone');
  await page.waitForFunction(() => window.sokod?.app.account?.username === 'thumbs');
  const rows = ['#######', '#@$  .#', '#######'];
  await editorWith(page, rows, true);
  const id = await publish(page, 'Pocket corridor', true, 'editor-publish-phone.png');
  const community = await communityCollection(page);
  await page.goto(`${server.url}/#/library/${community.id}`);
  const card = page.locator(`a.level-card[data-level="${id}"]`);
  await card.waitFor();
  await card.tap();
  await waitForGame(page, 'Pocket corridor');
  await page.waitForSelector('#g-community:not([hidden])');
  await page.tap('#g-like');
  await page.waitForFunction(() => document.getElementById('g-like').getAttribute('aria-pressed') === 'true');
  await page.screenshot({ path: screenshotPath('game-community-phone.png') });
  // Played to its end: three pushes.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
  await waitSynced(page);
  const mine = (await apiGet(page, '/community/levels')).body.levels.find((l) => l.id === id);
  assert.deepEqual([mine.likes, mine.liked, mine.solved], [1, true, true], JSON.stringify(mine));
  assert.deepEqual(errors, [], 'no script errors');
});

test('an admin hides a reported level, blocks its author and lifts the block', async () => {
  const keeper = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    await moderate(keeper);
  } finally {
    await keeper.close();
  }
});

async function moderate({ page, errors }) {
  await sendAccountForm(page, server.url, 'login', 'keeper', 'an admin who keeps order');
  await page.waitForFunction(() => window.sokod?.app.account?.admin === true);
  await page.goto(`${server.url}/#/admin/community`);
  const report = page.locator('#adm-reports-rows tr', { hasText: 'a test of the report' });
  await report.waitFor();
  assert.match(await report.textContent(), /Two rows.*maker.*maker/);
  const id = Number(/(\d+)$/.exec(await report.locator('a').getAttribute('href'))[1]);

  await report.locator('button[data-action="hide"]').click();
  await page.waitForSelector('#adm-reports-rows button[data-action="show"]');
  const listed = (await apiGet(page, '/community/levels')).body.levels.map((l) => l.id);
  assert.ok(!listed.includes(id), `a hidden level is not listed to players: ${JSON.stringify(listed)}`);

  page.once('dialog', (d) => d.accept('copies of other levels'));
  await page.click('#adm-reports-rows button[data-action="block"]');
  const blocked = page.locator('#adm-blocked-rows tr', { hasText: 'maker' });
  await blocked.waitFor();
  assert.match(await blocked.textContent(), /copies of other levels/);
  await blocked.locator('button[data-action="unblock"]').click();
  await page.waitForFunction(() => document.getElementById('adm-blocked-rows').children.length === 0);
  const audit = (await apiGet(page, '/admin/audit')).body.entries.map((e) => e.action);
  assert.deepEqual(audit.slice(0, 2), ['community.unblock', 'community.block'], JSON.stringify(audit));
  assert.deepEqual(errors, [], 'no script errors');
}
