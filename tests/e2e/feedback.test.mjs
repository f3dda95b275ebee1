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
