// The level editor on a phone: tools and squares tapped, a wall line drawn
// with a finger drag, the grid grown and cropped, test play with swipes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, screenshotPath } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser({
  viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
})));
after(() => closeAll(server, browser));

const rowsNow = (page) => page.evaluate(() => window.sokod.editor.rows());

async function centre(page, x, y) {
  const box = await page.locator('#ed-board').boundingBox();
  const rows = await rowsNow(page);
  return [box.x + ((x + 0.5) * box.width) / rows[0].length, box.y + ((y + 0.5) * box.height) / rows.length];
}

/** A finger pressed at `from`, moved through `to` in steps, lifted. */
async function fingerDrag(page, from, to, steps = 6) {
  const cdp = await page.context().newCDPSession(page);
  const point = (x, y) => [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(...from) });
  for (let i = 1; i <= steps; i++) {
    const x = from[0] + ((to[0] - from[0]) * i) / steps, y = from[1] + ((to[1] - from[1]) * i) / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(x, y) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

// Taps a button until its effect shows: on a loaded machine Chromium may take
// a tap soon after a drag for the end of that gesture, and the tap is lost.
async function tapUntil(page, selector, done, arg) {
  for (let i = 0; i < 3; i++) {
    await page.tap(selector);
    try {
      await page.waitForFunction(done, arg, { timeout: 3000 });
      return;
    } catch {
      // the tap was lost: tap again
    }
  }
  throw new Error(`tapping ${selector} three times had no effect`);
}
const widthIs = (w) => document.getElementById('ed-width').value === String(w);

test('draw, resize and test-play a level with a finger', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/#/editor`);
  await page.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
  await page.tap('#ed-new');
  const tapTool = (id) => page.tap(`.ed-tool:has(input[value="${id}"])`);
  const tapSquare = async (x, y) => page.touchscreen.tap(...(await centre(page, x, y)));

  await tapTool('player');
  await tapSquare(1, 1);
  await tapTool('box');
  await tapSquare(2, 3);
  await tapTool('goal');
  await tapSquare(2, 5);
  await tapTool('wall');
  await fingerDrag(page, await centre(page, 4, 1), await centre(page, 4, 5));
  // Chromium takes a tap this soon after a drag for the end of the gesture.
  await page.waitForTimeout(1000);
  const drawn = ['#########', '#@--#---#', '#---#---#', '#-$-#---#', '#---#---#', '#-.-#---#', '#########'];
  assert.deepEqual(await rowsNow(page), drawn, 'the finger drag painted the whole column');
  await page.waitForFunction(() => document.getElementById('ed-edit').dataset.valid === '1');

  // Grow the grid by a column on the left, then crop the empty column away.
  await tapUntil(page, '[data-grow="left:1"]', widthIs, 10);
  assert.deepEqual(await rowsNow(page), drawn.map((r) => ` ${r}`), 'an empty column on the left');
  assert.equal(await page.inputValue('#ed-width'), '10');
  await tapUntil(page, '[data-grow="crop"]', widthIs, 9);
  assert.deepEqual(await rowsNow(page), drawn, 'cropped back to the drawing');
  await page.fill('#ed-height', '8');
  await page.press('#ed-height', 'Enter');
  await page.waitForFunction(() => window.sokod.editor.rows().length === 8);
  assert.equal((await rowsNow(page))[7], '         ', 'a new empty row at the bottom');
  await tapUntil(page, '[data-grow="crop"]', () => window.sokod.editor.rows().length === 7);
  await page.screenshot({ path: screenshotPath('editor-phone.png') });

  // Test play with swipes: down, down pushes the box onto its goal.
  await page.tap('#ed-play');
  await page.waitForSelector('#ed-playing:not([hidden])');
  const frame = await page.locator('#ed-play-frame').boundingBox();
  const mid = [frame.x + frame.width / 2, frame.y + frame.height / 2];
  const swipe = async (dx, dy) => fingerDrag(page, mid, [mid[0] + dx, mid[1] + dy], 4);
  await swipe(60, 0);   // right: (2, 1)
  await swipe(0, 60);   // down:  (2, 2)
  await swipe(0, 60);   // push the box down to (2, 4)
  await swipe(0, 60);   // push it onto the goal (2, 5)
  await page.waitForFunction(() => document.getElementById('ed-playing').dataset.solved === '1');
  const d = await page.evaluate(() => ({ ...document.getElementById('ed-playing').dataset }));
  assert.deepEqual([d.moves, d.pushes], ['4', '2']);
  await page.waitForSelector('#ed-solved:not([hidden])');
  await page.screenshot({ path: screenshotPath('editor-phone-solved.png') });
  assert.deepEqual(errors, [], 'no script errors');
});
