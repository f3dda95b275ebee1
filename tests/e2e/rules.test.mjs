// The multi-push rule in the browser: the game menu switches a level to its
// multi-push game, where the page's core pushes a whole line of boxes, the
// server agrees, and the solution ranks on the level's multi-push board.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerAndBrowser, closeAll, importLevels, tempDir, waitForGame, waitSynced, apiGet, press,
  counters, serverGame, screenshotPath } from './harness.mjs';

// Two boxes in a row before two goals: one multi-push "RR" solves it; under
// the standard rule the first push is blocked.
const LINE = `Collection: Rules

; Line
 #######
 #     #
 #@$$..#
 #     #
 #######
`;

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => closeAll(server, browser));

test('the menu switches a level to multi-push, where a push moves the whole line and ranks apart', async () => {
  const { page, errors } = browser;
  const file = join(tempDir('sokod-rules-'), 'rules.sok');
  writeFileSync(file, LINE);
  importLevels(server.db, file, 'Rules');
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  const signup = await page.evaluate(async () => (await fetch('/api/v1/account/signup', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'pusher', password: 'a password of a player' }),
  })).status);
  assert.equal(signup, 201, 'signing up from the page');
  const list = await apiGet(page, '/collections');
  const rules = list.body.collections.find((c) => c.name === 'Rules');
  assert.ok(rules, `the imported collection is listed: ${JSON.stringify(list.body)}`);
  const level = (await apiGet(page, `/collections/${rules.id}`)).body.levels[0];

  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, 'Line');
  await press(page, ['ArrowRight']);
  await page.waitForTimeout(300);
  assert.deepEqual(await counters(page), { moves: 0, pushes: 0 }, 'the standard rule cannot push two boxes');
  assert.equal((await serverGame(page)).rule, 0);

  await page.click('#g-menu');
  const label = await page.textContent('#menu-rule');
  assert.equal(label, 'Play multi-push', 'the menu offers the other rule');
  await page.click('#menu-rule');
  await page.waitForFunction(() => location.hash.endsWith('/multipush'));
  await waitForGame(page, 'Line');
  await page.waitForFunction(() => /Multi-push/.test(document.getElementById('g-sub').textContent));
  await page.screenshot({ path: screenshotPath('rules-multipush-desktop.png') });
  await press(page, ['ArrowRight', 'ArrowRight']);
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
  assert.deepEqual(await counters(page), { moves: 2, pushes: 2 }, 'each push moved the whole line');
  await waitSynced(page);
  const game = await serverGame(page);
  assert.equal(game.rule, 1, 'the server plays the game as multi-push');
  assert.equal(game.solved, true, `the server agrees it is solved: ${JSON.stringify(game)}`);

  const multi = await apiGet(page, `/levels/${level.id}/leaderboard?rule=1`);
  assert.equal(multi.body.entries[0]?.user, 'pusher', JSON.stringify(multi.body));
  const standard = await apiGet(page, `/levels/${level.id}/leaderboard`);
  assert.equal(standard.body.total, 0, `the standard board stays empty: ${JSON.stringify(standard.body)}`);

  // The solved card leads to the multi-push board, which lists the player.
  await page.click('#solved-board');
  await page.waitForSelector('#screen-board:not([hidden]) #board-plain tr.you', { timeout: 10000 });
  assert.match(await page.textContent('#board-h'), /^Multi-push leaderboard/);
  assert.match(await page.textContent('#board-plain tr.you'), /pusher/);
  await page.goto(`${server.url}/#/board/${level.id}`);
  await page.waitForFunction(() => /^Leaderboard/.test(document.getElementById('board-h').textContent) &&
    !/Loading/.test(document.getElementById('board-status').textContent));
  assert.equal(await page.$('#board-plain tr.you'), null, 'the standard board does not list the multi-push solution');
  // The board's switch goes from one rule's board to the other's.
  assert.equal(await page.getAttribute('#board-rule-standard', 'aria-current'), 'true');
  await page.click('#board-rule-multipush');
  await page.waitForSelector('#screen-board:not([hidden]) #board-plain tr.you', { timeout: 10000 });
  assert.match(await page.textContent('#board-h'), /^Multi-push leaderboard/);
  assert.equal(await page.getAttribute('#board-rule-multipush', 'aria-current'), 'true');
  await page.screenshot({ path: screenshotPath('board-rules-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('board-rules-phone.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click('#board-rule-standard');
  await page.waitForFunction(() => /^Leaderboard/.test(document.getElementById('board-h').textContent) &&
    !/Loading/.test(document.getElementById('board-status').textContent));
  assert.equal(await page.$('#board-plain tr.you'), null, 'the switch leads back to the standard board');

  // Back to the standard game: the menu offers it, and it is the first one.
  await page.goto(`${server.url}/#/play/${level.id}/multipush`);
  await waitForGame(page, 'Line');
  // The solved card is still up from before the board was opened.
  await page.click('#solved-stay');
  await page.click('#g-menu');
  assert.equal(await page.textContent('#menu-rule'), 'Play the standard rule');
  await page.click('#menu-rule');
  await page.waitForFunction(() => !location.hash.endsWith('/multipush'));
  await waitForGame(page, 'Line');
  await page.waitForFunction(() => !/Multi-push/.test(document.getElementById('g-sub').textContent));
  assert.equal((await serverGame(page)).rule, 0);

  // The multi-push game and its menu at a phone's size, for the record.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/#/play/${level.id}/multipush`);
  await page.waitForFunction(() => /Multi-push/.test(document.getElementById('g-sub').textContent));
  await page.screenshot({ path: screenshotPath('rules-multipush-phone.png') });
  await page.click('#g-menu');
  await page.screenshot({ path: screenshotPath('rules-menu-phone.png') });
  assert.deepEqual(errors, []);
});
