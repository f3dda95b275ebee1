// Watching a player in the browser, with two people in one browser (a
// context each): the watcher finds the player on a level's leaderboard,
// follows the name's link, and the watching board follows every move the
// player makes, then the next level the player opens; once the player
// turns watching off in the options, the watcher is told so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchChromium, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, localPosition, holdAnswers, NO_SERVICE_WORKER } from './harness.mjs';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launchChromium();
});
after(() => closeAll(server, browser));

/** Waits until the watching board shows the position `want` (the player's own). */
async function waitWatched(page, want, what) {
  try {
    await page.waitForFunction((w) => {
      const d = document.getElementById('screen-watch').dataset;
      return d.player === String(w.player) && d.moves === String(w.moves) && d.pushes === String(w.pushes);
    }, want, { timeout: 10000 });
  } catch {
    const seen = await page.evaluate(() => ({ ...document.getElementById('screen-watch').dataset }));
    assert.fail(`${what}: the watcher shows ${JSON.stringify(seen)}, the player ${JSON.stringify(
      { player: want.player, moves: want.moves, pushes: want.pushes })}`);
  }
}

test('a watcher\'s board follows a player\'s moves live, from the leaderboard\'s link', async () => {
  const errors = [];
  const playerContext = await browser.newContext({ viewport: { width: 900, height: 700 }, ...NO_SERVICE_WORKER });
  const watcherContext = await browser.newContext({ viewport: { width: 900, height: 700 }, ...NO_SERVICE_WORKER });
  const player = await playerContext.newPage();
  const watcher = await watcherContext.newPage();
  for (const p of [player, watcher]) p.on('pageerror', (e) => errors.push(e.message));

  // The player signs up and solves a level, so that their name is on its board.
  await player.goto(`${server.url}/`);
  const signed = await player.evaluate(async () => (await fetch('/api/v1/account/signup', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'watched', password: 'a watched password' }),
  })).status);
  assert.equal(signed, 201, 'sign-up');
  const [first, second] = (await tutorialLevels(player)).slice(1, 3);
  await player.goto(`${server.url}/#/play/${first.id}`);
  await waitForGame(player, first.title);
  await press(player, arrows(first.solution));
  await waitSynced(player);

  // The watcher opens the level's leaderboard and follows the name.
  await watcher.goto(`${server.url}/#/board/${first.id}`);
  await watcher.click('a.watch-link:text("watched")', { timeout: 15000 });
  await watcher.waitForURL(/#\/watch\/\d+$/);
  await watcher.waitForFunction(() => document.body.dataset.watch === 'live', null, { timeout: 15000 });
  assert.match(await watcher.textContent('#watch-h'), /Watching watched/);

  // The player restarts and plays on: the watching board follows each step.
  await player.bringToFront();
  await player.locator('#board').focus();
  await press(player, ['r']);
  await waitSynced(player);
  await waitWatched(watcher, await localPosition(player), 'after a restart');
  for (const key of arrows(first.solution.slice(0, 4))) {
    await press(player, [key]);
    await waitSynced(player);
    await waitWatched(watcher, await localPosition(player), `after ${key}`);
  }
  await press(player, ['z']);
  await waitSynced(player);
  await waitWatched(watcher, await localPosition(player), 'after an undo');

  // Another level: the watcher loads its board and follows it.
  await player.goto(`${server.url}/#/play/${second.id}`);
  await waitForGame(player, second.title);
  const game = await player.evaluate(() => window.sokod.gameId());
  await watcher.waitForFunction((g) => document.getElementById('screen-watch').dataset.game === String(g), game,
    { timeout: 10000 });
  await player.locator('#board').focus();
  await press(player, arrows(second.solution.slice(0, 2)));
  await waitSynced(player);
  await waitWatched(watcher, await localPosition(player), 'on the second level');
  assert.equal(await watcher.textContent('#watch-sub'), second.title);

  // The player turns watching off: the watcher is told, and sees no more.
  await player.goto(`${server.url}/#/options`);
  await player.uncheck('input[name="watchable"]');
  try {
    await watcher.waitForFunction(() => document.body.dataset.watch === 'refused', null, { timeout: 15000 });
  } catch {
    const seen = await watcher.evaluate(() => ({
      watch: document.body.dataset.watch, live: document.body.dataset.live,
      state: document.getElementById('watch-state').textContent,
    }));
    const requests = server.log().split('\n').filter((l) => /\/api\/v1\/(events|watch|settings)/.test(l));
    assert.fail(`after the player turned watching off, the watcher shows ${JSON.stringify(seen)}; ` +
      `the server's log of streams, watching and settings:\n${requests.slice(-30).join('\n')}`);
  }
  assert.match(await watcher.textContent('#watch-state'), /cannot be watched/);
  assert.deepEqual(errors, [], 'no page errors');
  await playerContext.close();
  await watcherContext.close();
});

test('watching another player while the first one\'s game is still on its way shows the other', async () => {
  const contexts = [];
  const errors = [];
  const players = [];
  const stamp = Date.now() % 100000;
  let level = null;
  for (const name of [`first${stamp}`, `second${stamp}`]) {
    const context = await browser.newContext(NO_SERVICE_WORKER);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    level ??= (await tutorialLevels(page))[1];
    // A player with an account (guests are watched by no one) and a game.
    const made = await page.evaluate(async ([n, l]) => {
      const post = (path, body) => fetch(`/api/v1${path}`, { method: 'POST',
        headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const signup = (await post('/account/signup', { username: n, password: 'a watched password' })).status;
      const game = (await post(`/levels/${l}/game`, {})).status;
      return { signup, game, id: (await (await fetch('/api/v1/account')).json()).user.id };
    }, [name, level.id]);
    assert.ok(made.signup === 201 && made.game === 201, `${name} signs up and opens a level: ${JSON.stringify(made)}`);
    players.push({ name, id: made.id });
  }
  const [first, second] = players;

  const watcherContext = await browser.newContext({ viewport: { width: 900, height: 700 }, ...NO_SERVICE_WORKER });
  contexts.push(watcherContext);
  const watcher = await watcherContext.newPage();
  watcher.on('pageerror', (e) => errors.push(e.message));
  await watcher.goto(`${server.url}/`);
  await watcher.waitForFunction(() => window.sokod?.app);
  // The first player's game is held back until the watcher has moved on.
  const late = await holdAnswers(watcher, new RegExp(`/api/v1/watch/${first.id}$`));
  await watcher.goto(`${server.url}/#/watch/${first.id}`);
  await late.arrived;
  await watcher.goto(`${server.url}/#/watch/${second.id}`);
  try {
    await watcher.waitForFunction((n) => document.getElementById('watch-h').textContent === `Watching ${n}` &&
      document.body.dataset.watch === 'live', second.name, { timeout: 10000 });
  } catch {
    assert.fail(`the watcher moved on to ${second.name} shows "${await watcher.textContent('#watch-h')}", ` +
      `"${await watcher.textContent('#watch-state')}"`);
  }
  await late.release();
  assert.equal(await watcher.textContent('#watch-h'), `Watching ${second.name}`,
    'the late answer about the first player left the second on the screen');
  assert.deepEqual(errors, [], 'no page errors');
  for (const c of contexts) await c.close();
});
