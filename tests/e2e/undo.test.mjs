// Undo, redo, undo of the last push and restart from the keyboard: the page
// and the server agree after each, redo stack included.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, counters, waitSynced, tutorialLevels, press, arrows, localPosition, serverGame } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => closeAll(server, browser));

async function expectBoth(page, what, moves, pushes, redo) {
  await waitSynced(page);
  const shown = await counters(page);
  assert.deepEqual(shown, { moves, pushes }, `${what}: counters on screen`);
  const local = await localPosition(page);
  const game = await serverGame(page);
  assert.deepEqual(
    { moves: game.moves, pushes: game.pushes, undo: game.undo_available, redo: game.redo_available },
    { moves: local.moves, pushes: local.pushes, undo: local.cursor, redo: local.redo }, `${what}: server ${JSON.stringify(game.history)}|${JSON.stringify(game.redo)} against the page`);
  assert.equal(local.redo, redo, `${what}: redo stack`);
  assert.equal(game.player.y * game.level.width + game.player.x, local.player, `${what}: player square`);
  // Computed apart, natively on the server and by core.wasm in the page.
  assert.equal(game.hash, local.hash, `${what}: the position's hash`);
}

test('undo, redo, undo push and restart agree with the server', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page))[4]; // "Order matters": two boxes
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);

  await press(page, arrows('uurrrrD'));
  await expectBoth(page, 'after uurrrrD', 7, 1, 0);
  await press(page, ['ArrowUp']);
  await expectBoth(page, 'after a move past the push', 8, 1, 0);
  await press(page, ['z']);
  await expectBoth(page, 'after Z', 7, 1, 1);
  await press(page, ['Backspace']);
  await expectBoth(page, 'after Backspace (undoes the push)', 6, 0, 2);
  await press(page, ['y']);
  await expectBoth(page, 'after Y', 7, 1, 1);
  await press(page, ['Shift+Z']);
  await expectBoth(page, 'after Shift+Z', 8, 1, 0);
  await press(page, ['Shift+U']);
  await expectBoth(page, 'after Shift+U (back before the last push)', 6, 0, 2);
  await press(page, ['u']);
  await expectBoth(page, 'after U', 5, 0, 3);
  await press(page, ['y', 'y', 'y']);
  await expectBoth(page, 'after three redos', 8, 1, 0);
  await press(page, ['r']);
  await expectBoth(page, 'after R (restart)', 0, 0, 0);
  await press(page, ['z']);
  await expectBoth(page, 'after undoing the restart', 8, 1, 1);
  await press(page, ['r', 'z', 'y']);
  await expectBoth(page, 'after restart, undo, redo', 0, 0, 0);
  assert.deepEqual(errors, []);
});

test('the buttons undo, redo and restart too', async () => {
  const { page } = browser;
  await press(page, arrows('uur'));
  await page.click('#g-undo');
  await expectBoth(page, 'after the undo button', 2, 0, 1);
  await page.click('#g-redo');
  await expectBoth(page, 'after the redo button', 3, 0, 0);
  await page.click('#g-restart');
  await expectBoth(page, 'after the restart button', 0, 0, 0);
});

test('a box pushed against a wall for good is marked stuck, and undo frees it', async () => {
  const { page } = browser;
  const level = (await tutorialLevels(page)).find((l) => /Side by side/.test(l.title));
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows('ru'));
  assert.equal((await localPosition(page)).stuck, false, 'nothing is stuck at the start');
  // Up against the top wall, with dead squares on both sides: it can never move again.
  await press(page, arrows('U'));
  await page.waitForFunction(() => /stuck/.test(document.getElementById('live-assertive').textContent));
  assert.equal((await localPosition(page)).stuck, true, 'the box is frozen');
  await press(page, ['Shift+U']);
  assert.equal((await localPosition(page)).stuck, false, 'undoing the push frees it');
  await waitSynced(page);
});
