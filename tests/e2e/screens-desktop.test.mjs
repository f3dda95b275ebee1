// The screens phones changed, on a desktop window (1280 by 800, a mouse):
// a wide board stays straight and fits, the game's buttons and counters
// are all there, the editor keeps its panels beside the board. Each screen
// is saved in build/screenshots/ beside its phone version.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, screenshotPath } from './harness.mjs';
import { openRoom, leaderboardWithEntry } from './rooms.mjs';

let server, desk;
before(async () => ({ server, browser: desk } = await startServerAndBrowser({ viewport: { width: 1280, height: 800 } })));
after(() => closeAll(server, desk));

test('on a desktop a wide board stays straight, whole, and zooms with the wheel', async () => {
  const { page, errors } = desk;
  await openRoom(page, server, 30, 18, 'The long hall');
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.width > box.height, `the board is drawn straight, wider than tall: ${JSON.stringify(box)}`);
  assert.ok(box.x >= 0 && box.x + box.width <= 1280 && box.y >= 0 && box.y + box.height <= 800, 'and whole');
  for (const id of ['g-goals', 'g-undo-push']) assert.ok(await page.isVisible(`#${id}`), `#${id} is shown`);
  await page.screenshot({ path: screenshotPath('desktop-game-wide.png') });

  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await page.waitForFunction((w) => document.getElementById('board').getBoundingClientRect().width > 1.2 * w, box.width);
  await page.screenshot({ path: screenshotPath('desktop-game-zoomed.png') });
  assert.deepEqual(errors, []);
});

test('the options, the leaderboard and the editor on a desktop', async () => {
  const { page, errors } = desk;
  await page.goto(`${server.url}/#/options`);
  await page.waitForSelector('#options-form .check input');
  await page.screenshot({ path: screenshotPath('desktop-options.png') });

  await leaderboardWithEntry(page, server.url, 'Bartholomew');
  await page.screenshot({ path: screenshotPath('desktop-leaderboard.png') });

  await page.goto(`${server.url}/#/editor`);
  await page.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
  const board = await page.locator('#ed-board').boundingBox();
  const side = await page.locator('.ed-side').boundingBox();
  assert.ok(side.x >= board.x + board.width, `the panels (${JSON.stringify(side)}) stand beside the board (${JSON.stringify(board)})`);
  await page.screenshot({ path: screenshotPath('desktop-editor.png') });
  assert.deepEqual(errors, []);
});
