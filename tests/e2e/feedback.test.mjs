// Feedback and reward: what the player hears and sees after each action,
// on the solved card and in the library.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser({ viewport: { width: 1280, height: 800 } })));
after(() => closeAll(server, browser));

/** Presses a key and waits until the polite live region says something new. */
async function heard(page, key) {
  await page.evaluate(() => { document.getElementById('live-polite').textContent = ''; });
  await page.keyboard.press(key);
  await page.waitForFunction(() => document.getElementById('live-polite').textContent !== '');
  return page.textContent('#live-polite');
}

test('announcements count one move and one push in the singular', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page))[0]; // "#@ $ .#": right, then pushes right
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  assert.equal(await heard(page, 'ArrowRight'), 'Move right. 1 move, 0 pushes');
  assert.equal(await heard(page, 'ArrowRight'), 'Push right. 2 moves, 1 push');
  assert.match(await page.getAttribute('#board', 'aria-label'), /, 2 moves, 1 push$/);
  assert.equal(await heard(page, 'z'), 'Undone. 1 move, 0 pushes');
  await waitSynced(page);
  assert.deepEqual(errors, []);
});

/** The badge on a level's card in the library ('' for none). */
async function badgeOf(page, level) {
  await page.goto(`${page.url().replace(/#.*/, '')}#/library/${level.collection_id}`);
  await page.waitForSelector(`.level-card[data-level="${level.id}"]`);
  return page.evaluate((id) => document.querySelector(`.level-card[data-level="${id}"] .badge`)?.textContent ?? '', level.id);
}

test('a level opened without a move is not marked "Started"; a move starts it', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page))[3];
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  assert.equal(await badgeOf(page, level), '', 'opened and left without a move: no badge');
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await page.keyboard.press('ArrowUp');
  await waitSynced(page);
  assert.equal(await badgeOf(page, level), 'Started', 'after a move the level is started');
  assert.deepEqual(errors, []);
});
