// A phone: touch only, a small screen at devicePixelRatio 3. Swipes step,
// taps walk and push, and the largest board (128 by 128) fits the screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, localPosition, serverGame, clickSquare, importLevels, tempDir, apiGet } from './harness.mjs';

let server, phone;
before(async () => ({ server, browser: phone } = await startServerAndBrowser({
  viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
})));
after(() => closeAll(server, phone));

/** A swipe from the board's centre, made of real touch events. */
async function swipe(page, dx, dy) {
  const box = await page.locator('#board').boundingBox();
  const x = box.x + box.width / 2, y = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  const point = (px, py) => [{ x: px, y: py, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(x, y) });
  for (let i = 1; i <= 4; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(x + (dx * i) / 4, y + (dy * i) / 4) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('swipes step, taps walk and push, on a touch screen', async () => {
  const { page, errors } = phone;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page)).find((l) => /Point/.test(l.title));
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  const start = await localPosition(page);
  const w = start.width;

  await swipe(page, 0, 80);
  await swipe(page, 0, 80);
  await swipe(page, 60, 0);
  let local = await localPosition(page);
  assert.equal(local.player, 3 * w + 2, `two swipes down and one right lead to (2, 3), not ${local.player}`);

  await clickSquare(page, 2, 5, true);
  local = await localPosition(page);
  assert.equal(local.player, 5 * w + 2, 'a tap walks to (2, 5)');

  await clickSquare(page, 4, 3, true);
  await clickSquare(page, 8, 3, true);
  await clickSquare(page, 8, 3, true);
  await clickSquare(page, 8, 5, true);
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
  await waitSynced(page);
  const game = await serverGame(page);
  assert.equal(game.solved, true, `solved on the server: ${game.history}`);
  assert.deepEqual(errors, []);
});

/** A valid 128 x 128 level: a walled square with pillars, three boxes and goals. */
function hugeLevel() {
  const n = 128, rows = [];
  for (let y = 0; y < n; y++) {
    let row = '';
    for (let x = 0; x < n; x++) {
      const edge = x === 0 || y === 0 || x === n - 1 || y === n - 1;
      const pillar = x % 8 === 4 && y % 8 === 4;
      row += edge || pillar ? '#' : ' ';
    }
    rows.push(row);
  }
  const put = (x, y, ch) => { rows[y] = rows[y].slice(0, x) + ch + rows[y].slice(x + 1); };
  put(2, 2, '@');
  for (const [x, y] of [[10, 10], [60, 70], [100, 40]]) put(x, y, '$');
  for (const [x, y] of [[20, 30], [90, 110], [120, 120]]) put(x, y, '.');
  return `${rows.join('\n')}\nTitle: The great hall\nAuthor: sokod tests\n`;
}

test('the largest board fits the phone screen and stays playable', async () => {
  const { page } = phone;
  const file = join(tempDir(), 'huge.sok');
  writeFileSync(file, hugeLevel());
  importLevels(server.db, file, 'Huge');
  const list = (await apiGet(page, '/collections')).body.collections;
  const huge = list.find((c) => c.name === 'Huge');
  assert.ok(huge, `the imported collection is listed: ${JSON.stringify(list.map((c) => c.name))}`);
  const levelId = (await apiGet(page, `/collections/${huge.id}`)).body.levels[0].id;
  await page.goto(`${server.url}/#/play/${levelId}`);
  await waitForGame(page, 'The great hall');
  const viewport = page.viewportSize();
  const box = await page.locator('#board').boundingBox();
  const size = await page.evaluate(() => ({ w: document.getElementById('board').width, dpr: devicePixelRatio }));
  assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width + 0.5 && box.y + box.height <= viewport.height + 0.5,
    `the board (${JSON.stringify(box)}) lies inside the ${viewport.width}x${viewport.height} screen`);
  assert.ok(size.w / 128 >= 2, `each square is at least 2 device pixels (${size.w / 128})`);
  assert.equal(Number.isInteger(size.w / 128), true, 'squares are whole device pixels (sharp)');
  await swipe(page, 80, 0);
  const local = await localPosition(page);
  assert.equal(local.player, 2 * 128 + 3, 'a swipe steps on the big board too');
});
