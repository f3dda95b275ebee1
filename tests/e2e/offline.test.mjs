// A bad network: the server stops during play. The indicator shows, steps
// are played at once and queued, and when the server is back the queue
// reaches it in order, nothing lost and nothing doubled.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, localPosition, serverGame, counters, apiGet, routeNow } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => closeAll(server, browser));

test('steps queue while the server is down and sync once it is back', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page)).find((l) => /Point/.test(l.title));
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows('dd'));
  await waitSynced(page);
  assert.equal(await page.isVisible('#net'), false, 'no offline indicator while the server answers');

  await server.stop();
  await press(page, arrows('rr'));
  await page.waitForSelector('#net:not([hidden])', { timeout: 10000 });
  // The badge counts moves, however the queue batches them.
  await press(page, arrows('RRR'));
  await page.waitForFunction(() => /5 moves waiting/.test(document.getElementById('net-text').textContent),
    null, { timeout: 5000 }).catch(() => {});
  const five = await page.textContent('#net');
  assert.match(five, /Offline: 5 moves waiting/, `five steps played offline: "${five}"`);
  // An undo, a redo and one more step while offline: played at once, queued.
  await press(page, ['z', 'y', ...arrows('u')]);
  const offline = await localPosition(page);
  assert.deepEqual(await counters(page), { moves: 8, pushes: 3 }, 'the page plays every step at once');
  assert.ok(offline.pending > 0, `entries wait in the queue (${offline.pending})`);
  const netText = await page.textContent('#net');
  assert.match(netText, /Offline: 8 moves waiting/, `the indicator counts each step, undo and redo: "${netText}"`);

  server = await server.restart();
  await waitSynced(page, 20000);
  await page.waitForSelector('#net', { state: 'hidden', timeout: 10000 });
  const game = await serverGame(page);
  const local = await localPosition(page);
  assert.equal(game.history, 'ddrrRRRu', `the server's history has each step once: ${game.history}`);
  assert.deepEqual([game.moves, game.pushes, game.undo_available, game.redo_available],
    [local.moves, local.pushes, local.cursor, local.redo], 'the server and the page agree');
  assert.equal(game.player.y * game.level.width + game.player.x, local.player);
  assert.deepEqual(errors, []);
});

test('a refused entry snaps the board to the server with a message', async () => {
  const { page } = browser;
  await waitSynced(page);
  const before = await localPosition(page);
  // The network turns the next step into one the server must refuse: a step
  // into the wall above the player.
  await routeNow(page, '**/api/v1/games/*/log', async (route) => {
    const body = JSON.parse(route.request().postData());
    await route.continue({ postData: JSON.stringify({ ...body, steps: 'uuuuuuuu' }) });
  });
  await press(page, arrows('d'));
  await page.waitForFunction((moves) => window.sokod.position().moves === moves && window.sokod.position().pending === 0,
    before.moves, { timeout: 10000 });
  await page.unroute('**/api/v1/games/*/log');
  const local = await localPosition(page);
  const game = await serverGame(page);
  assert.deepEqual([local.player, local.moves, local.seq], [before.player, before.moves, before.seq],
    'the board went back to the server\'s position');
  assert.equal(game.seq, before.seq, 'the server applied nothing');
  const toast = await page.textContent('#toasts');
  assert.match(toast, /refused/, `a short message says why: "${toast}"`);
});

test('moves queued on a level the player left still reach the server', async () => {
  const { page } = browser;
  const levels = await tutorialLevels(page);
  const [left, next] = [levels[2], levels[3]];
  await page.goto(`${server.url}/#/play/${left.id}`);
  await waitForGame(page, left.title);
  await waitSynced(page);
  const before = await localPosition(page);

  await server.stop();
  await press(page, arrows('ll'));
  await page.keyboard.press('n'); // on to the next level while the moves wait
  await page.waitForSelector('#net:not([hidden])', { timeout: 10000 });
  server = await server.restart();
  await waitForGame(page, next.title);
  const gameOfLeft = async () => {
    const listed = (await apiGet(page, `/collections/${left.collection_id}`)).body.levels.find((l) => l.id === left.id);
    return (await apiGet(page, `/games/${listed.game_id}`)).body.game;
  };
  let game = await gameOfLeft();
  for (let i = 0; i < 40 && game.moves !== before.moves + 2; i++) {
    await page.waitForTimeout(250);
    game = await gameOfLeft();
  }
  assert.equal(game.moves, before.moves + 2, `the left level's moves arrived once: ${game.history}`);
});
