// The screens phones changed, on a desktop window (1280 by 800, a mouse):
// a wide board stays straight and fits, the game's buttons and counters
// are all there, the editor keeps its panels beside the board. Each screen
// is saved in build/screenshots/ beside its phone version.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, importLevels, tempDir, apiGet, sendAccountForm, screenshotPath } from './harness.mjs';

let server, desk;
before(async () => ({ server, browser: desk } = await startServerAndBrowser({ viewport: { width: 1280, height: 800 } })));
after(() => closeAll(server, desk));

/** A walled 30 by 18 room with one box and its goal. */
function wideRoom() {
  const rows = [];
  for (let y = 0; y < 18; y++) {
    let row = '';
    for (let x = 0; x < 30; x++) row += x === 0 || y === 0 || x === 29 || y === 17 ? '#' : ' ';
    rows.push(row);
  }
  rows[2] = `#@${rows[2].slice(2)}`;
  rows[9] = `${rows[9].slice(0, 5)}$${rows[9].slice(6, 20)}.${rows[9].slice(21)}`;
  return `${rows.join('\n')}\nTitle: The long hall\n`;
}

test('on a desktop a wide board stays straight, whole, and zooms with the wheel', async () => {
  const { page, errors } = desk;
  const file = join(tempDir(), 'wide.sok');
  writeFileSync(file, wideRoom());
  importLevels(server.db, file, 'Wide');
  await page.goto(`${server.url}/`);
  const wide = (await apiGet(page, '/collections')).body.collections.find((c) => c.name === 'Wide');
  const id = (await apiGet(page, `/collections/${wide.id}`)).body.levels[0].id;
  await page.goto(`${server.url}/#/play/${id}`);
  await waitForGame(page, 'The long hall');
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
  await page.screenshot({ path: screenshotPath('desktop-leaderboard.png') });

  await page.goto(`${server.url}/#/editor`);
  await page.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
  const board = await page.locator('#ed-board').boundingBox();
  const side = await page.locator('.ed-side').boundingBox();
  assert.ok(side.x >= board.x + board.width, `the panels (${JSON.stringify(side)}) stand beside the board (${JSON.stringify(board)})`);
  await page.screenshot({ path: screenshotPath('desktop-editor.png') });
  assert.deepEqual(errors, []);
});
