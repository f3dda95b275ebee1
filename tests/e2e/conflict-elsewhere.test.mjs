// A conflict found while the player is on another screen (the moves of a
// level left behind reached the server late, after another device played
// on) does not open over that screen, where its dialog would hold every
// button and field: the choice is kept, and asked when the player is back
// on the level. Nor does a choice left open when the player leaves the
// level follow them to the next screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, localPosition } from './harness.mjs';

let server, mine, other;
before(async () => {
  server = await startServer();
  mine = await openBrowser({ viewport: { width: 1280, height: 800 } });
  other = await openBrowser();
});
after(() => closeAll(server, mine, other));

test('a conflict met on another screen waits for the level, and nothing is lost', async () => {
  const { page } = mine;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page)).find((l) => l.title === 'Side by side');
  await page.goto(`${server.url}/#/play/${level.id}`); // makes the guest
  await waitForGame(page, level.title);
  await other.context.addCookies(await mine.context.cookies());
  for (const p of [page, other.page]) {
    await p.goto(`${server.url}/#/play/${level.id}`);
    await waitForGame(p, level.title);
    await waitSynced(p);
  }
  await page.evaluate(() => window.sokod.live.stop());

  // Offline, this device plays and leaves for the credits; the other plays on.
  await mine.context.setOffline(true);
  await press(page, arrows(level.solution.slice(0, 2)));
  const played = await localPosition(page);
  await page.evaluate(() => { location.hash = '#/credits'; });
  await page.waitForSelector('#screen-credits:not([hidden])');
  // (An entry the same as this device's first would be taken for its retry.)
  await press(other.page, [...arrows(level.solution.slice(0, 1)), 'z']);
  await waitSynced(other.page);
  await mine.context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await page.waitForFunction((id) => localStorage.getItem(`sokod.conflict.${id}`) !== null, played.gameId, { timeout: 15000 })
  await page.waitForTimeout(300);

  assert.equal(await page.evaluate(() => !!document.querySelector('dialog[open]')), false,
    'no dialog opens over the credits screen');
  await page.click('#screen-credits header a'); // the screen's buttons still answer
  await page.waitForSelector('#screen-title:not([hidden])');

  // Back on the level: the choice is asked; the other device's game is
  // taken, and this device's position kept as a saved position.
  await page.evaluate((id) => { location.hash = `#/play/${id}`; }, level.id);
  await page.waitForSelector('#conflict[open]', { timeout: 15000 });
  await page.click('#conflict-theirs');
  await page.waitForSelector('#conflict', { state: 'hidden' });
  const kept = await page.evaluate(async (id) => {
    const list = (await (await fetch(`/api/v1/games/${id}/snapshots`)).json()).snapshots;
    return Promise.all(list.map(async (s) => (await (await fetch(`/api/v1/games/${id}/snapshots/${s.id}`)).json()).snapshot.lurd));
  }, played.gameId);
  assert.ok(kept.includes(played.history), `the position played offline is kept: ${JSON.stringify(kept)} holds "${played.history}"`);
  assert.deepEqual(mine.errors, []);
});

test('a choice left open when the player leaves the level is asked again on return', async () => {
  const { page } = mine;
  const level = (await tutorialLevels(page)).find((l) => l.title === 'Make room');
  for (const p of [page, other.page]) {
    await p.goto(`${server.url}/#/play/${level.id}`);
    await waitForGame(p, level.title);
    await waitSynced(p);
  }
  await page.evaluate(() => window.sokod.live.stop());
  await mine.context.setOffline(true);
  await press(page, arrows(level.solution.slice(0, 2)));
  const played = await localPosition(page);
  await press(other.page, [...arrows(level.solution.slice(0, 1)), 'z']);
  await waitSynced(other.page);
  await mine.context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await page.waitForSelector('#conflict[open]', { timeout: 15000 });

  // The player goes to the account screen, by the address.
  await page.evaluate(() => { location.hash = '#/account'; });
  await page.waitForSelector('#screen-account:not([hidden])');
  assert.equal(await page.evaluate(() => !!document.querySelector('dialog[open]')), false,
    'the choice does not follow the player to the account screen');
  await page.fill('#acc-login input[name="username"]', 'typed'); // its fields answer

  await page.evaluate((id) => { location.hash = `#/play/${id}`; }, level.id);
  await page.waitForSelector('#conflict[open]', { timeout: 15000 });
  await page.click('#conflict-theirs');
  await page.waitForSelector('#conflict', { state: 'hidden' });
  const kept = await page.evaluate(async (id) => {
    const list = (await (await fetch(`/api/v1/games/${id}/snapshots`)).json()).snapshots;
    return Promise.all(list.map(async (s) => (await (await fetch(`/api/v1/games/${id}/snapshots/${s.id}`)).json()).snapshot.lurd));
  }, played.gameId);
  assert.ok(kept.includes(played.history), `the position played offline is kept: ${JSON.stringify(kept)} holds "${played.history}"`);
  assert.deepEqual(mine.errors, []);
});
