// A second device of the same player follows a game live: the steps, undos
// and restarts played in one browser context appear in the other one as
// they happen, through its event stream, without it fetching the game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchChromium, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, localPosition } from './harness.mjs';

let server, browser, phone, laptop;
before(async () => {
  server = await startServer();
  browser = await launchChromium();
  phone = await browser.newContext({ viewport: { width: 800, height: 700 } });
  laptop = await browser.newContext({ viewport: { width: 800, height: 700 } });
});
after(() => closeAll(server, browser));

const same = (p) => ({ player: p.player, boxes: p.boxes, moves: p.moves, pushes: p.pushes, cursor: p.cursor, redo: p.redo });

/** Waits until the page's local game is at `want` (a position from the other page). */
async function waitPosition(page, want, what) {
  try {
    await page.waitForFunction((w) => {
      const p = window.sokod.position();
      return p && p.moves === w.moves && p.pushes === w.pushes && p.cursor === w.cursor && p.player === w.player &&
        JSON.stringify(p.boxes) === JSON.stringify(w.boxes);
    }, want, { timeout: 10000 });
  } catch (e) {
    const got = await localPosition(page);
    assert.fail(`${what}: the follower shows ${JSON.stringify(same(got))}, not ${JSON.stringify(same(want))}`);
  }
}

test('a second device of the same player follows the game step by step', async () => {
  const a = await phone.newPage();
  const errors = [];
  a.on('pageerror', (e) => errors.push(e.message));
  await a.goto(`${server.url}/`);
  const level = (await tutorialLevels(a))[4];
  await a.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(a, level.title);
  // The laptop is the same player: the phone's session cookie.
  await laptop.addCookies(await phone.cookies());
  const b = await laptop.newPage();
  b.on('pageerror', (e) => errors.push(e.message));
  await b.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(b, level.title);
  await b.waitForFunction(() => document.body.dataset.live === 'on', null, { timeout: 10000 });
  await a.waitForFunction(() => document.body.dataset.live === 'on', null, { timeout: 10000 });
  assert.equal(await b.evaluate(() => window.sokod.gameId()), await a.evaluate(() => window.sokod.gameId()),
    'both show the same game');

  // From here on the laptop must learn everything from its stream.
  const fetched = [];
  b.on('request', (r) => { if (/\/api\/v1\/games\/\d+$/.test(new URL(r.url()).pathname)) fetched.push(r.url()); });

  // Steps one at a time: the laptop shows each of them.
  for (const key of arrows('uurr')) {
    await press(a, [key]);
    await waitSynced(a);
    await waitPosition(b, await localPosition(a), `after ${key} on the phone`);
  }
  // A push, an undo and a redo.
  await press(a, [...arrows('rrD'), 'z']);
  await waitSynced(a);
  const undone = await localPosition(a);
  assert.equal(undone.redo, 1, 'the phone undid the push');
  await waitPosition(b, undone, 'after a push and an undo');
  assert.equal((await localPosition(b)).redo, 1, 'the laptop can redo it too');
  await press(a, ['y']);
  await waitSynced(a);
  await waitPosition(b, await localPosition(a), 'after a redo');
  assert.deepEqual(fetched, [], 'the laptop followed from its stream, without fetching the game');

  // And the other way round: the laptop plays on, the phone follows.
  await b.bringToFront();
  await b.locator('#board').focus();
  await press(b, arrows('u'));
  await waitSynced(b);
  await waitPosition(a, await localPosition(b), 'the phone after a step on the laptop');
  const moves = (await localPosition(a)).moves;
  assert.equal(moves, (await localPosition(b)).moves);
  assert.deepEqual(errors, [], 'no page errors');
});
