// Hints in the browser: the button asks the server, the push is drawn on the
// board and announced, H plays it, and the solved card counts the hint; a
// lost position offers the undo that saves it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServerAndBrowser, closeAll, waitForGame, counters, waitSynced, tutorialLevels, press, arrows,
  serverGame, screenshotPath,
} from './harness.mjs';

let server, browser, levels;
before(async () => {
  ({ server, browser } = await startServerAndBrowser());
  await browser.page.goto(`${server.url}/`);
  levels = await tutorialLevels(browser.page);
});
after(() => closeAll(server, browser));

/** The colour of the board's canvas at the centre-ish point (x, y) in
 * squares, and the theme's colour for the hint's arrow, as [r, g, b]. */
async function boardColour(page, x, y) {
  return page.evaluate(([sx, sy]) => {
    const canvas = document.getElementById('board');
    const { width } = window.sokod.position();
    const t = canvas.width / width;
    const px = canvas.getContext('2d').getImageData(Math.round(sx * t), Math.round(sy * t), 1, 1).data;
    const hex = window.sokod.app.theme.board.select;
    const arrow = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    return { at: [px[0], px[1], px[2]], arrow };
  }, [x, y]);
}

const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 12);

test('a hint is drawn, announced, played with H, and counted on the solved card', async () => {
  const { page, errors } = browser;
  const level = levels[0]; // "First push": #@ $ .#, the box two pushes from its goal
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows('rR')); // one push left: the box at (4,1), the goal at (5,1)
  await waitSynced(page);
  // On the arrow's shaft, between the box and the goal.
  const before = await boardColour(page, 4.9, 1.5);
  assert.ok(!near(before.at, before.arrow), `no arrow before the hint: ${before.at} against ${before.arrow}`);

  await page.click('#g-ask-hint');
  await page.waitForFunction(() => document.getElementById('hint-panel').dataset.kind === 'push' &&
    !document.getElementById('hint-panel').hidden, null, { timeout: 15000 });
  const text = await page.textContent('#hint-text');
  assert.match(text, /push the box right/, `the panel says what to do: ${text}`);
  assert.equal(await page.isVisible('#hint-play'), true, 'a Play it button');
  await page.waitForFunction(() => /Hint: push the box at column 5, row 2 right, to column 6, row 2/
    .test(document.getElementById('live-polite').textContent), null, { timeout: 5000 });
  // The view draws the overlay on its next frame.
  await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
  const drawn = await boardColour(page, 4.9, 1.5);
  assert.ok(near(drawn.at, drawn.arrow), `the arrow is drawn on the box's way: ${drawn.at} against ${drawn.arrow}`);
  await page.screenshot({ path: screenshotPath('hint-push.png') });
  const asked = await serverGame(page);
  assert.equal(asked.hints, 1, 'the server counted the hint');

  await press(page, ['h']);
  await page.waitForSelector('#solved:not([hidden])', { timeout: 10000 });
  const card = await page.textContent('#solved-text');
  assert.match(card, /with 1 hint$/, `the solved card: ${card}`);
  await waitSynced(page);
  const done = await serverGame(page);
  assert.equal(done.solved, true, 'the hint played through the log solves the level on the server');
  assert.equal(done.hints, 1);
  await page.screenshot({ path: screenshotPath('hint-solved.png') });

  // The library marks the level as solved with hints; the next one, played alone, as solved.
  const second = levels[1];
  await page.goto(`${server.url}/#/play/${second.id}`);
  await waitForGame(page, second.title);
  await press(page, arrows(second.solution));
  await page.waitForSelector('#solved:not([hidden])', { timeout: 10000 });
  assert.doesNotMatch(await page.textContent('#solved-text'), /hint/, 'no hint, no mention');
  await waitSynced(page);
  await page.goto(`${server.url}/#/library/${level.collection_id}`);
  const badge = (id) => page.locator(`.level-card[data-level="${id}"] .badge`);
  await badge(second.id).waitFor({ timeout: 10000 });
  assert.equal((await badge(level.id).textContent()).trim(), 'Solved with hints');
  assert.equal((await badge(second.id).textContent()).trim(), 'Solved');
  assert.deepEqual(errors, []);
});

test('a lost position says so and its button undoes the steps that save it', async () => {
  const { page, errors } = browser;
  const level = levels.find((l) => /Corners are traps/.test(l.title));
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  // Right, back, the box pushed onto the left wall (lost), then two more moves.
  await press(page, arrows('rlLrr'));
  await waitSynced(page);
  await page.click('#g-ask-hint');
  await page.waitForFunction(() => document.getElementById('hint-panel').dataset.kind === 'lost' &&
    !document.getElementById('hint-panel').hidden, null, { timeout: 15000 });
  assert.match(await page.textContent('#hint-text'), /cannot be solved any more/);
  assert.equal((await page.textContent('#hint-undo')).trim(), 'Undo 3 steps');
  await page.waitForFunction(() => /cannot be solved any more/
    .test(document.getElementById('live-assertive').textContent), null, { timeout: 5000 });
  await page.screenshot({ path: screenshotPath('hint-lost.png') });

  await page.click('#hint-undo');
  assert.equal(await page.isHidden('#hint-panel'), true, 'the panel goes once used');
  await waitSynced(page);
  assert.deepEqual(await counters(page), { moves: 2, pushes: 0 }, 'back to the position after "rl"');
  const game = await serverGame(page);
  assert.equal(game.undo_available, 2, 'the server undid the same three steps');

  await press(page, ['h']);
  await page.waitForFunction(() => document.getElementById('hint-panel').dataset.kind === 'push',
    null, { timeout: 15000 });
  assert.deepEqual(errors, []);
});
