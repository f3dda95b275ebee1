// Races in the browser, with several people in one browser (a context
// each): a host opens a room from the races page, a rival joins by its
// link, a spectator watches. Both players see each other's board live and
// the spectator sees both; the rival's connection drops and comes back mid
// race; both finish and every page shows the same results.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { startServer, waitForGame, tutorialLevels, arrows } from './harness.mjs';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let server, browser;
before(async () => {
  // Heartbeats every second: a closed tab shows as offline within seconds.
  process.env.SOKOD_HEARTBEAT = '1';
  server = await startServer();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function person() {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** The user id the page's session belongs to. */
const userOf = (page) => page.evaluate(async () => (await (await fetch('/api/v1/account')).json()).user.id);

/** Waits until the card of `user` on `page` shows every value of `want` in its data attributes. */
async function waitCard(page, user, want, what) {
  try {
    await page.waitForFunction(([u, w]) => {
      const card = document.querySelector(`#race-players [data-user="${u}"]`);
      return card && Object.entries(w).every(([k, v]) => card.dataset[k] === v);
    }, [user, want], { timeout: 15000 });
  } catch {
    const seen = await page.evaluate((u) => ({ ...document.querySelector(`#race-players [data-user="${u}"]`)?.dataset }), user);
    assert.fail(`${what}: the card of user ${user} shows ${JSON.stringify(seen)}, wanted ${JSON.stringify(want)}`);
  }
}

/** Plays LURD letters with the keyboard on the page's own race board, and waits until the server has them. */
async function play(page, lurd) {
  await page.bringToFront();
  await page.locator('#race-board').focus();
  for (const key of arrows(lurd)) await page.keyboard.press(key);
  await page.waitForFunction(() => (document.body.dataset.pending ?? '0') === '0', null, { timeout: 15000 });
}

/** The square of the player in the server's race game of `user`, as the room says. */
async function serverPlayer(page, roomId, user) {
  return page.evaluate(async ([id, u]) => {
    const r = await (await fetch(`/api/v1/rooms/${id}`)).json();
    const i = r.room.players.findIndex((p) => p.user_id === u);
    const g = r.games[i];
    return String(g.player.y * g.level.width + g.player.x);
  }, [roomId, user]);
}

test('two players race, see each other live, one drops out and comes back, and all see the same results', async () => {
  const host = await person(), rival = await person(), watcher = await person();
  // The host plays the level once, then races on it from the races page.
  await host.page.goto(`${server.url}/`);
  const level = (await tutorialLevels(host.page))[4];
  const [part1, part2] = [level.solution.slice(0, 8), level.solution.slice(8)];
  await host.page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(host.page, level.title);
  await host.page.goto(`${server.url}/#/rooms`);
  await host.page.click('#rooms-last');
  await host.page.waitForURL(/#\/race\/\d+$/);
  const link = await host.page.inputValue('#race-url');
  const roomId = Number(link.match(/(\d+)$/)[1]);
  const hostId = await userOf(host.page);

  // The rival joins by the link; the spectator only looks.
  await rival.page.goto(link);
  await rival.page.click('#race-join');
  // Seated once the join is answered (it made the rival a guest).
  await rival.page.waitForSelector('#race-leave', { state: 'visible', timeout: 15000 });
  const rivalId = await userOf(rival.page);
  await watcher.page.goto(link);
  for (const { page } of [host, rival, watcher]) {
    await waitCard(page, hostId, { connected: '1' }, 'the host in the lobby');
    await waitCard(page, rivalId, { connected: '1' }, 'the rival in the lobby');
  }
  assert.equal(await watcher.page.isVisible('#race-join'), true, 'the spectator may join');
  assert.equal(await rival.page.isVisible('#race-start'), false, 'only the host starts');

  await host.page.click('#race-start');
  for (const { page } of [host, rival, watcher]) {
    await page.waitForFunction(() => document.body.dataset.race === 'racing', null, { timeout: 15000 });
  }

  // Each player's steps show on the other's small board and on the spectator's.
  await play(host.page, part1);
  const hostSquare = await serverPlayer(host.page, roomId, hostId);
  for (const { page } of [rival, watcher]) {
    await waitCard(page, hostId, { moves: String(part1.length), player: hostSquare }, 'the host\'s board after part 1');
  }
  await play(rival.page, part1);
  const rivalSquare = await serverPlayer(rival.page, roomId, rivalId);
  for (const { page } of [host, watcher]) {
    await waitCard(page, rivalId, { moves: String(part1.length), player: rivalSquare }, 'the rival\'s board after part 1');
  }

  // The rival's tab goes away: the others see it offline.
  await rival.page.close();
  for (const { page } of [host, watcher]) await waitCard(page, rivalId, { connected: '0' }, 'the rival offline');
  // It comes back by the link, to its own board as it was.
  rival.page = await rival.context.newPage();
  rival.page.on('pageerror', (e) => rival.errors.push(e.message));
  await rival.page.goto(link);
  await rival.page.waitForFunction(() => document.body.dataset.race === 'racing' &&
    !document.getElementById('race-own').hidden, null, { timeout: 15000 });
  for (const { page } of [host, watcher]) await waitCard(page, rivalId, { connected: '1' }, 'the rival back');
  await waitCard(rival.page, rivalId, { moves: String(part1.length) }, 'the rival\'s own counts after coming back');

  // The rival finishes first, then the host.
  await play(rival.page, part2);
  await waitCard(host.page, rivalId, { finished: '1' }, 'the rival finished');
  await play(host.page, part2);
  const results = [];
  for (const { page } of [host, rival, watcher]) {
    await page.waitForFunction(() => document.body.dataset.race === 'finished' &&
      !document.getElementById('race-results').hidden, null, { timeout: 15000 });
    results.push(await page.locator('#race-results-list').innerText());
  }
  assert.match(results[0], /20 moves/, results[0]);
  assert.equal(results[1], results[0], 'the rival sees the host\'s results');
  assert.equal(results[2], results[0], 'the spectator sees the same results');
  const first = results[0].split('\n')[0];
  assert.match(first, new RegExp(`^Guest ${rivalId}:`), `the rival came first: ${results[0]}`);
  assert.equal(await host.page.isVisible('#race-rematch'), true, 'a rematch button');
  for (const who of [host, rival, watcher]) assert.deepEqual(who.errors, [], 'no page errors');
});

test('a race on a level made for it: the races page asks for a difficulty and the room opens on the new level', async () => {
  const host = await person();
  await host.page.goto(`${server.url}/#/rooms`);
  await host.page.selectOption('#rooms-difficulty', 'medium');
  await host.page.click('#rooms-generated');
  await host.page.waitForURL(/#\/race\/\d+$/, { timeout: 15000 });
  const roomId = Number(host.page.url().match(/(\d+)$/)[1]);
  const room = await host.page.evaluate(async (id) => (await (await fetch(`/api/v1/rooms/${id}`)).json()).room, roomId);
  assert.equal(room.source, 'generated', JSON.stringify(room));
  assert.match(room.title, /^Race level \(medium, seed \d+\)$/, JSON.stringify(room));
  await host.page.waitForFunction((t) => document.getElementById('race-h').textContent === t, room.title,
    { timeout: 15000 });
  assert.deepEqual(host.errors, [], 'no page errors');
  await host.context.close();
});
