// Leaderboard and replay in the browser: a player solves a tutorial level,
// opens its board from the solved card (and from the library), finds its
// entry, replays it with the controls, and scrubs to the end to see the
// solved position.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, screenshotPath } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => closeAll(server, browser));

/** What the replay screen shows: step, total, counters, solved mark. */
function replayState(page) {
  return page.evaluate(() => {
    const s = document.getElementById('screen-replay');
    return {
      step: Number(s.dataset.step),
      solved: s.dataset.solved === 'true',
      max: Number(document.getElementById('replay-range').max),
      value: Number(document.getElementById('replay-range').value),
      moves: Number(document.getElementById('replay-moves').textContent),
      pushes: Number(document.getElementById('replay-pushes').textContent),
      status: document.getElementById('replay-status').hidden ? '' : document.getElementById('replay-status').textContent,
      label: document.getElementById('replay-step').textContent,
    };
  });
}

test('a solved level\'s board lists the player, and its replay plays, steps and scrubs to the solved position', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  // An account, so the board lists the player by name.
  const signup = await page.evaluate(async () => {
    const r = await fetch('/api/v1/account/signup', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'replayer', password: 'a password of a player' }),
    });
    return r.status;
  });
  assert.equal(signup, 201, 'signing up from the page');

  const level = (await tutorialLevels(page))[1];
  const lurd = level.solution;
  const pushes = [...lurd].filter((c) => c === c.toUpperCase()).length;
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows(lurd));
  await page.waitForSelector('#solved:not([hidden])', { timeout: 5000 });
  await waitSynced(page);

  // From the solved card to the board.
  await page.click('#solved-board');
  await page.waitForSelector('#screen-board:not([hidden]) #board-plain tr.you', { timeout: 10000 });
  const row = await page.evaluate(() => {
    const tr = document.querySelector('#board-plain tr.you');
    return { cells: [...tr.cells].map((td) => td.textContent), replay: tr.querySelector('a.replay-link')?.getAttribute('href') };
  });
  console.log('board row', row);
  assert.equal(row.cells[0], '1', 'the only player ranks first');
  assert.equal(row.cells[1], 'replayer');
  assert.equal(row.cells[2], String(lurd.length), 'moves');
  assert.equal(row.cells[3], String(pushes), 'pushes');
  assert.match(row.replay ?? '', /^#\/replay\/\d+$/, 'the entry links to its replay');

  // The same board from the level in the library.
  await page.goto(`${server.url}/#/library/${level.collection_id}`);
  await page.click(`a.level-board[href="#/board/${level.id}"]`);
  await page.waitForSelector('#screen-board:not([hidden]) #board-plain tr.you');
  assert.equal(await page.textContent('#board-plain tr.you td.who'), 'replayer');

  await page.click('#board-plain tr.you a.replay-link');
  await page.waitForFunction(() => {
    const s = document.getElementById('screen-replay');
    return s && !s.hidden && s.dataset.step === '0' && document.getElementById('replay-board').width > 0;
  }, null, { timeout: 10000 });
  let st = await replayState(page);
  assert.equal(st.max, lurd.length, 'the slider spans every step of the solution');
  assert.equal(st.solved, false, 'the replay starts from the level\'s start');
  assert.equal(st.moves, 0);

  await page.click('#replay-next');
  st = await replayState(page);
  assert.equal(st.step, 1, 'step forward');
  assert.equal(st.moves, 1);
  await page.click('#replay-prev');
  st = await replayState(page);
  assert.equal(st.step, 0, 'step back');

  // Play at 2× (150 ms a step) until two steps have gone by, then pause.
  // The page itself clicks Pause the moment the second step shows: a click
  // from the test could come after a slow machine played on to the end, and
  // Play at the end starts again from the beginning.
  assert.ok(lurd.length >= 6, `a solution long enough to pause midway: ${lurd}`);
  await page.selectOption('#replay-speed', '2');
  const clickedAt = await page.evaluate(() => new Promise((resolve) => {
    const screen = document.getElementById('screen-replay');
    const button = document.getElementById('replay-play');
    const seen = new MutationObserver(() => {
      const step = Number(screen.dataset.step);
      if (step < 2) return;
      seen.disconnect();
      button.click();
      resolve(step);
    });
    seen.observe(screen, { attributes: true, attributeFilter: ['data-step'] });
    button.click();
  }));
  const paused = (await replayState(page)).step;
  assert.equal(paused, clickedAt, `paused where Pause was clicked, at step ${clickedAt}`);
  assert.ok(paused >= 2 && paused < lurd.length, `paused midway, at step ${paused} of ${lurd.length}`);
  assert.equal(await page.textContent('#replay-play'), 'Play', 'the button offers to play again');
  await page.waitForTimeout(400); // a running replay would have moved on by two steps
  assert.equal((await replayState(page)).step, paused, 'pause stops the replay');

  // Scrub to the end.
  await page.locator('#replay-range').fill(String(lurd.length));
  st = await replayState(page);
  console.log('at the end', st);
  assert.equal(st.step, lurd.length);
  assert.equal(st.moves, lurd.length);
  assert.equal(st.pushes, pushes);
  assert.equal(st.solved, true, 'the end of the replay is the solved position');
  assert.equal(st.status, 'Solved');
  await page.screenshot({ path: screenshotPath('replay-solved.png') });

  // And back to the middle.
  await page.locator('#replay-range').fill('2');
  st = await replayState(page);
  assert.equal(st.step, 2);
  assert.equal(st.solved, false);
  assert.deepEqual(errors, [], 'no script errors');
});
