// Reverse mode in the browser: the game menu switches a level to its
// reverse game, which starts with the boxes on their goals; a step away
// from a box pulls it, the page's core and the server agree, and the
// finished game becomes a forward solution on the standard board. On a
// phone, a tap where the player cannot walk chooses its start square.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerAndBrowser, openBrowser, closeAll, importLevels, tempDir, waitForGame, waitSynced,
  apiGet, press, counters, serverGame, localPosition, clickSquare, screenshotPath } from './harness.mjs';

// Corridor: "rrrrLL" in reverse, "rrRR" forward. Pocket: a square behind
// the box's goal, where the player can only start. Trap: a goal in a
// pocket no pull gets a box out of (no forward push gets it in either).
const LEVELS = `Collection: Reverse

; Corridor
########
#@  $ .#
########

; Pocket
########
#@ $ . #
########

; Trap
######
#@$  #
###.##
  ###
`;

let server, desktop, phone;
let corridor, pocket, trap;
before(async () => {
  ({ server, browser: desktop } = await startServerAndBrowser());
  phone = await openBrowser({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const file = join(tempDir('sokod-reverse-'), 'reverse.sok');
  writeFileSync(file, LEVELS);
  importLevels(server.db, file, 'Reverse');
});
after(() => closeAll(server, desktop, phone));

async function levels(page) {
  const list = await apiGet(page, '/collections');
  const col = list.body.collections.find((c) => c.name === 'Reverse');
  assert.ok(col, `the imported collection is listed: ${JSON.stringify(list.body)}`);
  return (await apiGet(page, `/collections/${col.id}`)).body.levels;
}

/** The boxes of the page's board as "x,y" strings. */
async function boxes(page) {
  const p = await localPosition(page);
  return p.boxes.map((c) => `${c % p.width},${Math.floor(c / p.width)}`);
}

test('the menu switches a level to reverse, where steps pull and the solution is stored forward', async () => {
  const { page, errors } = desktop;
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  const signup = await page.evaluate(async () => (await fetch('/api/v1/account/signup', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'puller', password: 'a password of a player' }),
  })).status);
  assert.equal(signup, 201, 'signing up from the page');
  [corridor, pocket, trap] = await levels(page);

  await page.goto(`${server.url}/#/play/${corridor.id}`);
  await waitForGame(page, 'Corridor');
  const names = () => page.$$eval('.counters dt', (dts) => dts.map((dt) => dt.textContent));
  assert.deepEqual(await names(), ['Moves', 'Pushes', 'Goals']);
  await page.click('#g-menu');
  assert.equal(await page.textContent('#menu-reverse'), 'Play in reverse', 'the menu offers reverse mode');
  await page.click('#menu-reverse');
  await page.waitForFunction(() => location.hash.endsWith('/reverse'));
  await waitForGame(page, 'Corridor');
  await page.waitForFunction(() => /Reverse/.test(document.getElementById('g-sub').textContent));
  assert.deepEqual(await boxes(page), ['6,1'], 'the box starts on its goal');
  assert.deepEqual(await names(), ['Moves', 'Pulls', 'Start'],
    'the counters name pulls, and the boxes back on their start');
  assert.equal((await serverGame(page)).rule, 2);
  assert.equal((await localPosition(page)).stuck, false, 'a box on a goal that pulls can bring back is not stuck');
  await page.screenshot({ path: screenshotPath('reverse-start-desktop.png') });

  // Four steps right, then two away from the box: each pulls it.
  await press(page, ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight']);
  assert.deepEqual(await counters(page), { moves: 4, pushes: 0 });
  await press(page, ['ArrowLeft']);
  assert.deepEqual(await counters(page), { moves: 5, pushes: 1 }, 'a step away from the box pulled it');
  assert.deepEqual(await boxes(page), ['5,1']);
  await page.screenshot({ path: screenshotPath('reverse-pulled-desktop.png') });
  await press(page, ['ArrowLeft']);
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
  assert.deepEqual(await counters(page), { moves: 6, pushes: 2 });
  await waitSynced(page);
  const game = await serverGame(page);
  assert.equal(game.solved, true, `the server agrees the start is reached: ${JSON.stringify(game)}`);
  assert.equal(game.history, 'rrrrLL');

  const board = await apiGet(page, `/levels/${corridor.id}/leaderboard`);
  assert.equal(board.body.entries[0]?.user, 'puller', JSON.stringify(board.body));
  const sol = await apiGet(page, `/solutions/${board.body.entries[0].solution.split('/').pop()}`);
  assert.equal(sol.body.solution.lurd, 'rrRR', JSON.stringify(sol.body));
  assert.equal(sol.body.solution.reverse, true, JSON.stringify(sol.body));
  // The solved card counts that forward line, as the leaderboard does.
  const entry = board.body.entries[0];
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const stored = sol.body.solution.lurd;
  assert.deepEqual([entry.moves, entry.pushes], [stored.length, stored.replace(/[a-z]/g, '').length],
    `the leaderboard counts the stored line ${stored}: ${JSON.stringify(entry)}`);
  assert.equal(await page.textContent('#solved-text'),
    `${plural(entry.moves, 'move', 'moves')}, ${plural(entry.pushes, 'push', 'pushes')}, played in reverse`,
    `the solved card of the reverse line ${game.history} tells the forward solution ${stored} stored`);

  // Undo takes the pull back, on the page and on the server.
  await page.click('#solved-stay');
  await press(page, ['z']);
  assert.deepEqual(await counters(page), { moves: 5, pushes: 1 });
  assert.deepEqual(await boxes(page), ['5,1']);
  // Shift leaves the box where it is.
  await press(page, ['Shift+ArrowLeft']);
  assert.deepEqual(await counters(page), { moves: 6, pushes: 1 }, 'Shift stepped away without pulling');
  assert.deepEqual(await boxes(page), ['5,1']);
  await waitSynced(page);
  const after = await serverGame(page);
  assert.equal(after.history, 'rrrrLl', JSON.stringify(after));
  assert.equal(after.redo, '', JSON.stringify(after));

  // A box where no pull brings it back to its start is marked stuck.
  await page.goto(`${server.url}/#/play/${trap.id}/reverse`);
  await waitForGame(page, 'Trap');
  await page.waitForFunction(() => window.sokod.position()?.stuck === true, null, { timeout: 5000 });
  await page.screenshot({ path: screenshotPath('reverse-stuck-desktop.png') });
  assert.deepEqual(errors, []);
});

test('on a phone, a tap where the player cannot walk chooses where it starts', async () => {
  const { page, errors } = phone;
  await page.goto(`${server.url}/#/play/${pocket.id}/reverse`);
  await waitForGame(page, 'Pocket');
  await page.waitForFunction(() => /Reverse/.test(document.getElementById('g-sub').textContent));
  assert.deepEqual((await serverGame(page)).start, { x: 1, y: 1 }, 'the default start is the level\'s player square');
  // The square past the goal: the player cannot walk there, so it starts there.
  await clickSquare(page, 6, 1, true);
  await page.waitForFunction(() => window.sokod.position().player === 6 + 8);
  assert.deepEqual((await serverGame(page)).start, { x: 6, y: 1 }, 'the server keeps the start chosen');
  await page.screenshot({ path: screenshotPath('reverse-start-phone.png') });
  // And back: a tap on the left starts the player there again.
  await clickSquare(page, 2, 1, true);
  await page.waitForFunction(() => window.sokod.position().player === 2 + 8);
  // Walks never pull: a tap walks up to the box, steps away pull it.
  await clickSquare(page, 4, 1, true);
  await page.waitForFunction(() => window.sokod.position().player === 4 + 8);
  await press(page, ['ArrowLeft', 'ArrowLeft']);
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
  await waitSynced(page);
  const game = await serverGame(page);
  assert.equal(game.solved, true, JSON.stringify(game));
  assert.deepEqual(game.start, { x: 2, y: 1 });
  await page.screenshot({ path: screenshotPath('reverse-solved-phone.png') });
  assert.deepEqual(errors, []);
});
