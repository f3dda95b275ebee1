// Playing on a phone (390 by 844, touch, devicePixelRatio 3): every counter
// and the "undo the last push" button on screen, big boards zoomed with two
// fingers, panned, following the player, and turned a quarter when that
// makes their squares larger.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, localPosition, press, arrows } from './harness.mjs';

let server, phone;
before(async () => ({ server, browser: phone } = await startServerAndBrowser({
  viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
})));
after(() => closeAll(server, phone));

/** Whether an element is shown whole inside the viewport. */
async function onScreen(page, selector) {
  return page.evaluate((sel) => {
    const e = document.querySelector(sel);
    if (!e || !e.checkVisibility()) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 &&
      r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  }, selector);
}

test('the goals counter and an undo-push button are on a phone screen', async () => {
  const { page, errors } = phone;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page))[4]; // "Order matters": two boxes
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  for (const id of ['g-moves', 'g-pushes', 'g-goals', 'g-undo', 'g-undo-push', 'g-redo', 'g-restart', 'g-next']) {
    assert.equal(await onScreen(page, `#${id}`), true, `#${id} is shown whole on a 390 px wide screen`);
  }
  assert.equal(await page.textContent('#g-goals'), '0/2', 'the goals counter counts boxes on goals');

  await press(page, arrows('uurrrrDu'));
  let local = await localPosition(page);
  assert.deepEqual([local.moves, local.pushes], [8, 1], 'uurrrrDu: 8 moves, one push');
  await page.tap('#g-undo-push');
  await page.waitForFunction(() => window.sokod.position().moves === 6);
  local = await localPosition(page);
  assert.deepEqual([local.moves, local.pushes, local.redo], [6, 0, 2], 'the button undoes back to before the push');
  await waitSynced(page);
  assert.deepEqual(errors, []);
});
