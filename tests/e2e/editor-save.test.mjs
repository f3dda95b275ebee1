// A level made in the editor by an admin, test-played, saved into a new
// collection (with the test-play solution as its reference solution), then
// found in the library by a player, played and solved there. The editor is
// also photographed in every theme.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, openBrowser, closeAll, createAdmin, sendAccountForm, screenshotPath, screenshotEachTheme, apiGet,
  waitForGame, waitSynced, counters,
} from './harness.mjs';


let server, browser;
before(async () => {
  server = await startServer();
  createAdmin(server.db, 'maker', 'level maker secret');
  browser = await openBrowser({ viewport: { width: 1280, height: 800 } });
});
after(() => closeAll(server, browser));

async function squareCentre(page, x, y) {
  const box = await page.locator('#ed-board').boundingBox();
  const rows = await page.evaluate(() => window.sokod.editor.rows());
  return [box.x + ((x + 0.5) * box.width) / rows[0].length, box.y + ((y + 0.5) * box.height) / rows.length];
}

async function paint(page, tool, squares) {
  await page.click(`.ed-tool:has(input[value="${tool}"])`);
  for (const [x, y] of squares) {
    const [px, py] = await squareCentre(page, x, y);
    await page.mouse.click(px, py);
  }
}

const ARROW = { l: 'ArrowLeft', r: 'ArrowRight', u: 'ArrowUp', d: 'ArrowDown' };

test('an editor-made level saved by an admin is played and solved from the library', async () => {
  const { page, errors } = browser;
  await sendAccountForm(page, server.url, 'login', 'maker', 'level maker secret');
  await page.waitForFunction(() => window.sokod?.app.account?.admin === true);

  await page.goto(`${server.url}/#/editor`);
  await page.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
  await page.click('#ed-new');
  // Two boxes, two goals, an inner wall.
  await paint(page, 'player', [[1, 3]]);
  await paint(page, 'box', [[3, 2], [3, 4]]);
  await paint(page, 'goal', [[6, 2], [6, 4]]);
  await paint(page, 'wall', [[4, 3], [5, 3]]);
  const drawn = ['#########', '#-------#', '#--$--.-#', '#@--##--#', '#--$--.-#', '#-------#', '#########'];
  assert.deepEqual(await page.evaluate(() => window.sokod.editor.rows()), drawn);
  await page.waitForFunction(() => document.getElementById('ed-edit').dataset.valid === '1');
  await page.fill('#ed-title', 'Twin rooms');
  await page.fill('#ed-author', 'maker');
  await page.focus('#ed-board');
  await screenshotEachTheme(page, 'editor');

  // Test play: the upper box to its goal, then the lower one.
  const solution = 'urRRRlllddRRR';
  await page.click('#ed-play');
  await page.waitForSelector('#ed-playing:not([hidden])');
  for (const c of solution) await page.keyboard.press(ARROW[c.toLowerCase()]);
  await page.waitForFunction(() => document.getElementById('ed-playing').dataset.solved === '1');
  await page.click('#ed-solved-edit');

  // Save into a new collection.
  assert.equal(await page.isVisible('#ed-save'), true, 'an admin sees "Save to a collection"');
  await page.click('#ed-save');
  await page.waitForSelector('#ed-save-dialog[open]');
  await page.waitForFunction(() => document.getElementById('ed-save-collection').options.length > 1);
  await page.selectOption('#ed-save-collection', 'new');
  assert.match(await page.textContent('#ed-save-note'), /13 moves, 6 pushes/, 'the test-play solution goes with it');
  await page.fill('#ed-save-new', 'Made in the editor');
  await page.screenshot({ path: screenshotPath('editor-save.png') });
  await page.click('#ed-save-go');
  await page.waitForSelector('#ed-save-dialog', { state: 'hidden' });

  const list = (await apiGet(page, '/collections')).body.collections;
  const made = list.find((c) => c.name === 'Made in the editor');
  assert.ok(made, `the new collection is listed: ${JSON.stringify(list.map((c) => c.name))}`);
  const levels = (await apiGet(page, `/collections/${made.id}`)).body.levels;
  assert.equal(levels.length, 1);
  assert.equal(levels[0].title, 'Twin rooms');
  const level = (await apiGet(page, `/admin/levels/${levels[0].id}`)).body.level;
  assert.deepEqual(level.rows, drawn.map((r) => r.replace(/-/g, ' ')), 'the server holds the board that was drawn');
  assert.equal(level.reference_solutions, 1, 'the test-play solution is its reference solution');

  // Saving the same level again is refused as a duplicate.
  await page.click('#ed-save');
  await page.waitForFunction(() => document.getElementById('ed-save-collection').options.length > 2);
  await page.selectOption('#ed-save-collection', String(made.id));
  await page.click('#ed-save-go');
  await page.waitForFunction(() => /in the library already/.test(document.getElementById('ed-save-msg').textContent));
  await page.click('#ed-save-dialog [data-close]');

  // From the library: open the collection, the level, and solve it.
  await page.goto(`${server.url}/#/library/${made.id}`);
  await page.click(`a.level-card[data-level="${levels[0].id}"]`);
  await waitForGame(page, 'Twin rooms');
  for (const c of solution) await page.keyboard.press(ARROW[c.toLowerCase()]);
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
  assert.deepEqual(await counters(page), { moves: 13, pushes: 6 });
  await waitSynced(page);
  const after = (await apiGet(page, `/collections/${made.id}`)).body.levels[0];
  assert.equal(after.solved, true, 'the server records the level as solved');
  assert.equal(after.best_moves, 13);
  assert.deepEqual(errors, [], 'no script errors');
});
