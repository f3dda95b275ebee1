// Saved positions from the game screen: the player names the position on
// the board, plays on, and goes back to it from the in-game menu; another
// device of the same player lists it and goes back to it too. The server
// takes the way back as entries of the log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, localPosition, serverGame, screenshotPath } from './harness.mjs';

let server, desk, phone, level;
before(async () => {
  server = await startServer();
  desk = await openBrowser({ viewport: { width: 1280, height: 800 } });
  phone = await openBrowser({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
});
after(() => closeAll(server, desk, phone));

const same = (p) => ({ player: p.player, boxes: p.boxes, moves: p.moves, pushes: p.pushes, hash: p.hash });

/** Opens the saved positions from the in-game menu and waits for its list. */
async function openPositions(page) {
  await page.keyboard.press('Escape');
  await page.click('#game-menu [data-menu="positions"]');
  await page.waitForSelector('#positions[open]');
  await page.waitForFunction(() => !/Reading/.test(document.getElementById('positions-status').textContent));
}

async function listed(page) {
  return page.$$eval('#positions-list li', (lis) => lis.map((li) => [
    li.querySelector('.pos-name').textContent, li.querySelector('.pos-counts').textContent]));
}

test('a position saved, played past and gone back to', async () => {
  const { page, errors } = desk;
  await page.goto(`${server.url}/`);
  level = (await tutorialLevels(page))[4];
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows(level.solution.slice(0, 6)));
  const saved = await localPosition(page);

  await openPositions(page);
  assert.match(await page.textContent('#positions-status'), /No saved positions/);
  await page.fill('#positions-name', 'before the corner');
  await page.click('#positions-save button[type="submit"]');
  await page.waitForSelector('#positions-list li');
  assert.deepEqual(await listed(page), [['before the corner', `${saved.moves} moves, ${saved.pushes} ${saved.pushes === 1 ? 'push' : 'pushes'}`]]);
  assert.match(await page.textContent('#positions-status'), /1 of 50 saved positions/);
  await page.fill('#positions-name', 'a second one');
  await page.click('#positions-save button[type="submit"]');
  await page.waitForFunction(() => document.querySelectorAll('#positions-list li').length === 2);
  await page.screenshot({ path: screenshotPath('positions-desktop.png') });
  await page.click('#positions-close');

  await press(page, arrows(level.solution.slice(6, 10)));
  await waitSynced(page);
  assert.notDeepEqual(same(await localPosition(page)), same(saved), 'played on');

  await openPositions(page);
  await page.click('#positions-list li:first-child [data-go]');
  await page.waitForSelector('#positions', { state: 'hidden' });
  assert.deepEqual(same(await localPosition(page)), same(saved), 'the board is back at the saved position');
  await waitSynced(page);
  const game = await serverGame(page);
  const local = await localPosition(page);
  assert.deepEqual([game.moves, game.pushes, game.hash, game.seq], [saved.moves, saved.pushes, saved.hash, local.seq],
    'the server took the way back');
  assert.deepEqual(errors, []);
});

test('another device of the player lists the position and goes back to it', async () => {
  const { page } = phone;
  await phone.context.addCookies(await desk.context.cookies());
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows('u'));
  await waitSynced(page);
  await openPositions(page);
  const names = (await listed(page)).map(([n]) => n);
  assert.deepEqual(names, ['before the corner', 'a second one']);
  await page.screenshot({ path: screenshotPath('positions-phone.png') });
  await page.click('#positions-list li:last-child [data-go]');
  await page.waitForSelector('#positions', { state: 'hidden' });
  await waitSynced(page);
  const here = await localPosition(page);
  const there = await localPosition(desk.page);
  assert.deepEqual(same(here), same(there), 'the same position as where the first device saved it');

  // Deleting it takes it off the list.
  await openPositions(page);
  await page.click('#positions-list li:last-child [data-delete]');
  await page.waitForFunction(() => document.querySelectorAll('#positions-list li').length === 1);
  assert.deepEqual((await listed(page)).map(([n]) => n), ['before the corner']);
});
