// Moves played on a device whose game moved on elsewhere meanwhile are
// never dropped: the page shows the other device's game and asks. "Keep
// mine" plays them on from there when they replay; when they do not, their
// position is brought back and the other device's is kept as a saved
// position. "Take the other device's" keeps the other game and saves this
// one's position. Until the
// player chooses, a reload asks again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, localPosition, serverGame, apiGet, screenshotPath, routeNow } from './harness.mjs';

let server, mine, other, levels;
before(async () => {
  server = await startServer();
  mine = await openBrowser({ viewport: { width: 1280, height: 800 } });
  other = await openBrowser();
});
after(() => closeAll(server, mine, other));

const LOG = '**/api/v1/games/*/log';
const same = (p) => ({ player: p.player, boxes: p.boxes, moves: p.moves, pushes: p.pushes, hash: p.hash });

/** Opens `level` on both devices, the first one deaf to the other's steps
 * (its live stream stopped) and cut off from the log. */
async function openOnBoth(level) {
  for (const page of [mine.page, other.page]) {
    await page.goto(`${server.url}/#/play/${level.id}`);
    await waitForGame(page, level.title);
    await waitSynced(page);
  }
  await mine.page.evaluate(() => window.sokod.live.stop());
  await routeNow(mine.page, LOG, (route) => route.abort('internetdisconnected'));
}

/** Plays `here` on the cut-off device and `there` on the other, then lets
 * the first reach the server: its moves are refused as stale. Resolves to
 * the first device's position before the conflict. */
async function conflict(here, there) {
  await press(mine.page, arrows(here));
  await mine.page.waitForSelector('#net:not([hidden])', { timeout: 10000 });
  const played = await localPosition(mine.page);
  await press(other.page, arrows(there));
  await waitSynced(other.page);
  await mine.page.unroute(LOG);
  await mine.page.evaluate(() => window.dispatchEvent(new Event('online')));
  await mine.page.waitForSelector('#conflict[open]', { timeout: 15000 });
  return played;
}

test('keep mine: moves that replay on the other device\'s game are played on from it', async () => {
  const { page } = mine;
  await page.goto(`${server.url}/`);
  levels = await tutorialLevels(page);
  await page.goto(`${server.url}/#/play/${levels[0].id}`); // makes the guest
  await waitForGame(page, levels[0].title);
  await other.context.addCookies(await mine.context.cookies());

  await openOnBoth(levels[2]); // "Along the wall": open floor above the box
  await conflict('rr', 'u');
  const text = await page.textContent('#conflict-text');
  assert.match(text, /2 moves of yours waited here/, `the dialog says what waits: "${text}"`);
  assert.deepEqual(same(await localPosition(page)), same(await localPosition(other.page)),
    'while it asks, the board shows the other device\'s game');
  await page.screenshot({ path: screenshotPath('conflict-desktop.png') });

  await page.click('#conflict-mine');
  await page.waitForSelector('#conflict', { state: 'hidden' });
  await waitSynced(page);
  const game = await serverGame(page);
  assert.equal(game.history, 'urr', `the other device's move, then mine: ${game.history}`);
  const local = await localPosition(page);
  assert.deepEqual([local.moves, local.hash], [3, game.hash], 'the board shows the same');
  // Where my moves had led, from before the other device's, is kept.
  const id = await page.evaluate(() => window.sokod.gameId());
  let saved = [];
  for (let i = 0; i < 50 && saved.length === 0; i++, await page.waitForTimeout(100)) {
    saved = (await apiGet(page, `/games/${id}/snapshots`)).body.snapshots;
  }
  assert.deepEqual(saved.map((s) => s.name.replace(/\d\d:\d\d$/, 'HH:MM')), ['Mine, kept HH:MM'], 'where I stood is saved');
  const kept = (await apiGet(page, `/games/${id}/snapshots/${saved[0].id}`)).body.snapshot;
  assert.equal(kept.lurd.toLowerCase(), 'rr', `my line: ${kept.lurd}`);
});

test('keep mine: moves that do not replay there bring their position back; the other device\'s is kept', async () => {
  const { page } = mine;
  await openOnBoth(levels[3]); // "Corners are traps"
  const played = await conflict('rr', 'urr'); // from the other's square, 'r' runs into the wall
  await page.click('#conflict-mine');
  await page.waitForSelector('#conflict', { state: 'hidden' });
  await waitSynced(page);
  const game = await serverGame(page);
  assert.deepEqual(same(await localPosition(page)), same(played), 'the board is back where my moves led');
  assert.equal(game.hash, played.hash, 'and so is the server\'s game');
  assert.equal(game.history, 'urr*rr', `the other device's line stays in the history, undo brings it back: ${game.history}`);
  // The dialog said that the one left is kept in Saved positions: here
  // the other device's line.
  const id = await page.evaluate(() => window.sokod.gameId());
  const saved = (await apiGet(page, `/games/${id}/snapshots`)).body.snapshots;
  const names = saved.map((s) => s.name.replace(/\d\d:\d\d$/, 'HH:MM'));
  assert.deepEqual([...names].sort(), ['Mine, kept HH:MM', 'Other device, kept HH:MM'],
    'the other device\'s position is saved, and mine too');
  const theirs = saved[names.indexOf('Other device, kept HH:MM')];
  const kept = (await apiGet(page, `/games/${id}/snapshots/${theirs.id}`)).body.snapshot;
  assert.equal(kept.lurd.toLowerCase(), 'urr', `the other device's line: ${kept.lurd}`);
});

test('take the other device\'s: mine is kept as a saved position, and a reload asks again until I choose', async () => {
  const { page } = mine;
  await openOnBoth(levels[5]); // "Down the corridor"
  await conflict('r', 'd');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#conflict', { state: 'hidden' });
  await page.reload();
  await waitForGame(page, levels[5].title);
  await page.waitForSelector('#conflict[open]', { timeout: 10000 });
  assert.match(await page.textContent('#conflict-text'), /1 move of yours/, 'asked again after the reload');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('conflict-phone.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.click('#conflict-theirs');
  await page.waitForSelector('#conflict', { state: 'hidden' });
  await waitSynced(page);
  const game = await serverGame(page);
  assert.equal(game.history, 'd', 'the other device\'s game stands');
  assert.deepEqual(same(await localPosition(page)), same(await localPosition(other.page)));
  const id = await page.evaluate(() => window.sokod.gameId());
  const saved = (await apiGet(page, `/games/${id}/snapshots`)).body.snapshots;
  assert.equal(saved.length, 1, 'mine is a saved position');
  const one = (await apiGet(page, `/games/${id}/snapshots/${saved[0].id}`)).body.snapshot;
  assert.equal(one.lurd, 'r', 'with my move');
  await page.reload();
  await waitForGame(page, levels[5].title);
  await page.waitForTimeout(500);
  assert.equal(await page.isVisible('#conflict'), false, 'once chosen, not asked again');
});
