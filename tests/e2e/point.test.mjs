// Point mode: a click walks the player along the shortest path; a click on a
// box shows where it can go, and a click there pushes it. The server's
// paths are the page's paths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, localPosition, serverGame, clickSquare } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => closeAll(server, browser));

test('click to walk, click a box and a square to push it there', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page)).find((l) => /Point/.test(l.title));
  assert.ok(level, 'the tutorial has a point-mode level');
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  const start = await localPosition(page);
  const w = start.width;

  await clickSquare(page, 7, 1);
  await waitSynced(page);
  let local = await localPosition(page);
  assert.equal(local.player, 1 * w + 7, `the player walked to (7, 1), is on ${local.player}`);
  assert.equal(local.moves, 6, 'a shortest walk from (1, 1) is 6 moves');
  let game = await serverGame(page);
  assert.deepEqual([game.player.x, game.player.y, game.moves], [7, 1, 6], 'the server walked the same way');

  const box = start.boxes[0];
  const [bx, by] = [box % w, Math.floor(box / w)];
  await clickSquare(page, bx, by);
  local = await localPosition(page);
  assert.equal(local.selected, box, 'the clicked box is selected');
  assert.ok(local.reach.length > 10, `the box's reach is shown (${local.reach.length} squares)`);
  assert.ok(local.reach.includes(5 * w + 8), 'the goal is in reach');

  await clickSquare(page, 8, 5);
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
  await waitSynced(page);
  local = await localPosition(page);
  game = await serverGame(page);
  assert.equal(game.solved, true, 'the server saw the level solved');
  assert.deepEqual([game.moves, game.pushes], [local.moves, local.pushes],
    `server ${game.history} against the page`);
  assert.deepEqual(errors, []);
});

test('a click on a wall or an unreachable square changes nothing', async () => {
  const { page } = browser;
  await page.keyboard.press('Escape');
  await page.keyboard.press('r');
  await waitSynced(page);
  const before = await localPosition(page);
  await clickSquare(page, 0, 0);
  await waitSynced(page);
  const after = await localPosition(page);
  assert.deepEqual([after.player, after.moves], [before.player, before.moves]);
});

test('a box dragged with the mouse goes where the drag ends; a drag from the floor is a click', async () => {
  const { page, errors } = browser;
  await page.keyboard.press('r');
  await waitSynced(page);
  const start = await localPosition(page);
  const [w, h] = [start.width, start.height];
  const centre = async (x, y) => {
    const b = await page.locator('#board').boundingBox();
    return [b.x + ((x + 0.5) * b.width) / w, b.y + ((y + 0.5) * b.height) / h];
  };
  const drag = async ([x0, y0], [x1, y1]) => {
    await page.mouse.move(...(await centre(x0, y0)));
    await page.mouse.down();
    await page.mouse.move(...(await centre(x1, y1)), { steps: 8 });
    await page.mouse.up();
  };
  const box = start.boxes[0];
  await drag([box % w, Math.floor(box / w)], [8, 5]);
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 })
    .catch(async () => assert.fail(`the dragged box did not reach the goal: ${JSON.stringify(await localPosition(page))}`));
  await waitSynced(page);
  const game = await serverGame(page);
  assert.equal(game.solved, true, 'the server saw the box pushed to the goal');

  await page.keyboard.press('Escape');
  await page.keyboard.press('r');
  await waitSynced(page);
  await drag([7, 1], [3, 1]);
  await waitSynced(page);
  const local = await localPosition(page);
  assert.deepEqual([local.player, local.moves], [1 * w + 7, 6], 'a drag from the floor walks to where it started');
  assert.deepEqual(errors, []);
});
