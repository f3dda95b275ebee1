// Solving tutorial levels with the keyboard alone: the solved card, the
// counters, the live region, the server's solved mark, Enter to go on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, counters, waitSynced, tutorialLevels, press, arrows, apiGet } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => closeAll(server, browser));

test('solve the first two tutorial levels with the keyboard', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  const levels = await tutorialLevels(page);
  assert.ok(levels.length >= 2, `the tutorial should have levels, got ${levels.length}`);

  // From the title screen to the level by keyboard: Tab to "Play", Enter,
  // then the first level card.
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.textContent);
  assert.equal(focused, 'Play', 'Tab from the title heading reaches Play');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`a.level-card[data-level="${levels[0].id}"]`);
  await page.focus(`a.level-card[data-level="${levels[0].id}"]`);
  await page.keyboard.press('Enter');
  await waitForGame(page, levels[0].title);

  for (const [i, level] of levels.slice(0, 2).entries()) {
    const lurd = level.solution;
    await press(page, arrows(lurd));
    await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
    const shown = await counters(page);
    const pushes = [...lurd].filter((c) => c === c.toUpperCase()).length;
    assert.deepEqual(shown, { moves: lurd.length, pushes },
      `level ${level.position} after ${lurd}: counters`);
    const live = await page.textContent('#live-assertive');
    assert.match(live, /Solved/, 'the live region announces the solution');
    await waitSynced(page);
    const listed = (await apiGet(page, `/collections/${level.collection_id}`)).body.levels[i];
    assert.equal(listed.solved, true, `the server records level ${level.position} as solved`);
    assert.equal(listed.best_moves, lurd.length);
    // One key away: Enter opens the next level.
    await page.keyboard.press('Enter');
    await waitForGame(page, levels[i + 1].title);
  }
  assert.deepEqual(errors, [], 'no script errors');
});

test('the live region announces moves and pushes', async () => {
  const { page } = browser;
  const level = (await tutorialLevels(page))[2];
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  // The region may still hold an earlier level's words: wait for the new
  // ones (announcements are delayed so that fast play is not a backlog).
  await page.keyboard.press('ArrowLeft');
  const expected = 'Move left. 1 moves, 0 pushes';
  await page.waitForFunction((want) => document.getElementById('live-polite').textContent === want,
    expected, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.textContent('#live-polite'), expected, 'after ArrowLeft on a fresh level');
});
