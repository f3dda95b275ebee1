// Screens that must fit a phone (390 by 844 upright, 844 by 390 sideways,
// touch): the options' checkboxes keep their size, the leaderboard breaks
// no word in two, the editor's panels show whole.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, screenshotPath } from './harness.mjs';

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
