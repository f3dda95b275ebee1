// Screens that must fit a phone (390 by 844 upright, 844 by 390 sideways,
// touch): the options' checkboxes keep their size, the leaderboard breaks
// no word in two, the editor's panels show whole.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, sendAccountForm, screenshotPath } from './harness.mjs';

let server, phone;
before(async () => ({ server, browser: phone } = await startServerAndBrowser({
  viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
})));
after(() => closeAll(server, phone));

test('the options checkboxes keep their size when their labels wrap', async () => {
  const { page, errors } = phone;
  await page.goto(`${server.url}/#/options`);
  await page.waitForSelector('#options-form .check input');
  const sizes = await page.evaluate(() => [...document.querySelectorAll('#options-form .check')].map((l) => {
    const r = l.querySelector('input').getBoundingClientRect();
    return { label: l.textContent.trim().slice(0, 30), width: r.width, height: r.height };
  }));
  for (const s of sizes) {
    assert.ok(s.width >= 20 && s.height >= 20, `the checkbox of "${s.label}" is ${s.width}x${s.height} px, not 20x20`);
  }
  await page.screenshot({ path: screenshotPath('phone-options.png') });
  assert.deepEqual(errors, []);
});

/** The words of the text under `selector` that the layout breaks over two
 * lines (a word whose text gets more than one line box). */
async function brokenWords(page, selector) {
  return page.evaluate((sel) => {
    const broken = [];
    for (const root of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (const m of n.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(n, m.index);
          range.setEnd(n, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  }, selector);
}

test('the leaderboard breaks no word in two on a phone', async () => {
  const { page, errors } = phone;
  await sendAccountForm(page, server.url, 'signup', 'Bartholomew', 'correct horse battery');
  await page.waitForSelector('#acc-signed-in:not([hidden])');
  const level = (await tutorialLevels(page))[0];
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows(level.solution));
  await page.waitForSelector('#solved:not([hidden])');
  await waitSynced(page);
  await page.goto(`${server.url}/#/board/${level.id}`);
  await page.waitForSelector('#board-plain .board-table tbody tr');
  await page.screenshot({ path: screenshotPath('phone-leaderboard.png') });
  const broken = await brokenWords(page, '.board-table');
  assert.deepEqual(broken, [], `words broken over two lines in the leaderboard at 390 px: ${broken.join(', ')}`);
  const table = await page.locator('#board-plain .board-table').boundingBox();
  assert.ok(table.x >= 0 && table.x + table.width <= 390.5, `the table (${JSON.stringify(table)}) fits the screen`);
  assert.deepEqual(errors, []);
});
