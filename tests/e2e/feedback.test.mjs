// Feedback and reward: what the player hears and sees after each action,
// on the solved card and in the library.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, localPosition, screenshotPath, clickSquare } from './harness.mjs';

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
  // The level's own announcement first, which would replace a step's.
  await page.waitForFunction((t) => document.getElementById('live-polite').textContent.startsWith(t), level.title);
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

/** Clicks square (x, y) in point mode and reads the mark it leaves on the
 * board: {text, x, y} of the mark (centre, in board squares), or null. */
async function missAt(page, x, y, shot = '') {
  await clickSquare(page, x, y);
  const mark = await page.waitForSelector('.point-miss', { state: 'visible', timeout: 2000 }).catch(() => null);
  if (!mark) return null;
  const box = await mark.boundingBox();
  const board = await page.locator('#board').boundingBox();
  const { width, height } = await localPosition(page);
  const text = (await mark.textContent()).trim();
  if (shot) await page.screenshot({ path: screenshotPath(shot) });
  // Gone after a moment, before the next click.
  await page.waitForSelector('.point-miss', { state: 'detached', timeout: 5000 });
  return {
    text,
    x: Math.floor(((box.x + box.width / 2 - board.x) / board.width) * width),
    y: Math.floor(((box.y + box.height / 2 - board.y) / board.height) * height),
  };
}

test('a point-mode click that leads nowhere shows why, on the square', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page)).find((l) => /Down the corridor/.test(l.title));
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  const before = await localPosition(page);
  // The board as the server gives it: the box at (2, 2), the corridor below it.
  assert.deepEqual(await missAt(page, 1, 3), { text: 'Wall', x: 1, y: 3 }, 'a click on a wall');
  assert.deepEqual(await missAt(page, 2, 4, 'feedback-point-miss-desktop.png'), { text: 'No way there', x: 2, y: 4 },
    'a click below the box, out of reach');
  const after = await localPosition(page);
  assert.equal(after.moves, before.moves, 'neither click moved the player');
  assert.deepEqual(errors, []);
});
