// Races in the browser, with several people in one browser (a context
// each): a host opens a room from the races page, a rival joins by its
// link, a spectator watches. Both players see each other's board live and
// the spectator sees both; the rival's connection drops and comes back mid
// race; both finish, every page shows the same results, and a rematch's
// lobby starts everyone from nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchChromium, closeAll, waitForGame, tutorialLevels, arrows, apiGet, holdAnswers, NO_SERVICE_WORKER } from './harness.mjs';

let server, browser;
before(async () => {
  // Heartbeats every second: a closed tab shows as offline within seconds.
  process.env.SOKOD_HEARTBEAT = '1';
  server = await startServer();
  browser = await launchChromium();
});
after(() => closeAll(server, browser));

async function person() {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, ...NO_SERVICE_WORKER });
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

  // A rematch: the next round's lobby counts nobody's moves of the last
  // round, though the host's board still shows where it ended.
  await host.page.click('#race-rematch');
  for (const { page } of [host, rival]) {
    await page.waitForFunction(() => document.body.dataset.race === 'lobby', null, { timeout: 15000 });
    await waitCard(page, hostId, { moves: '0', finished: '0' }, 'the host in the rematch\'s lobby');
    await waitCard(page, rivalId, { moves: '0', finished: '0' }, 'the rival in the rematch\'s lobby');
  }
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

/** Calls the API from inside the page with a method and a body: {status, body}. */
const apiSend = (page, method, path, body) => page.evaluate(async ([m, p, b]) => {
  const r = await fetch(`/api/v1${p}`, { method: m, headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(b) });
  return { status: r.status, body: await r.json() };
}, [method, path, body]);

test('a spectator\'s race screen: one board a player while steps arrive, and late answers about a room left meanwhile change nothing', async () => {
  const host = await person(), spectator = await person();
  await host.page.goto(`${server.url}/`);
  const [racing, waiting] = (await tutorialLevels(host.page)).slice(4, 6);
  const a = (await apiSend(host.page, 'POST', '/rooms', { level: 'chosen', level_id: racing.id })).body.room;
  const b = (await apiSend(host.page, 'POST', '/rooms', { level: 'chosen', level_id: waiting.id })).body.room;
  assert.notEqual(a.title, b.title, 'two rooms told apart by their titles');
  assert.equal((await apiSend(host.page, 'POST', `/rooms/${a.id}/start`, {})).status, 200, 'the host starts alone');
  let game = null;
  for (let i = 0; i < 100 && !game; i++) {
    const r = (await apiGet(host.page, `/rooms/${a.id}`)).body;
    if (r.room.state === 'racing') game = r.games[0];
    else await host.page.waitForTimeout(100);
  }
  assert.ok(game, 'the race in room A is under way');
  const hostId = a.host_id;
  const titleIs = (t) => spectator.page.waitForFunction((x) => document.getElementById('race-h').textContent === x,
    t, { timeout: 10000 });

  // The spectator opens room A while the race is on. The cores of its small
  // boards are slow to come, and the host steps meanwhile: that step loads
  // the room again, which must not build the host's board a second time.
  const { page } = spectator;
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => window.sokod?.app);
  const cores = await holdAnswers(page, '**/core.wasm', { method: 'GET', all: true });
  const heard = page.evaluate(() => new Promise((r) => window.sokod.live.on('race_step', r)));
  await page.goto(`${server.url}/#/race/${a.id}`);
  await cores.arrived;
  await page.waitForFunction(() => document.body.dataset.live === 'on');
  const step = await apiSend(host.page, 'POST', `/games/${game.id}/log`, { seq: 1, steps: racing.solution[0] });
  assert.equal(step.status, 200, `the host's step: ${JSON.stringify(step.body)}`);
  await heard;
  // Time for a second load of the room, had the step started one, to reach the boards.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 250)));
  await cores.release();
  await waitCard(page, hostId, { seq: '1', moves: '1' }, 'the host\'s board after the step heard while it was built');
  assert.equal(await page.locator(`#race-players [data-user="${hostId}"] canvas`).count(), 1,
    'one board in the host\'s card');

  // Room A is fetched again and answers late: by then the spectator has
  // opened room B, which loads on its own, and A's answer leaves it be.
  await page.goto(`${server.url}/#/rooms`);
  let late = await holdAnswers(page, new RegExp(`/api/v1/rooms/${a.id}$`), { method: 'GET', all: true });
  await page.goto(`${server.url}/#/race/${a.id}`);
  await late.arrived;
  await page.goto(`${server.url}/#/race/${b.id}`);
  await titleIs(b.title);
  await late.release();
  assert.equal(await page.textContent('#race-h'), b.title, 'room A\'s late answer left room B on the screen');
  assert.equal(await page.locator('#race-players canvas').count(), 0, 'no board in room B\'s lobby');

  // The spectator joins room B, but the answer comes after they went back to room A.
  late = await holdAnswers(page, new RegExp(`/api/v1/rooms/${b.id}/join$`), { method: 'POST', all: true });
  await page.click('#race-join');
  await late.arrived;
  await page.goto(`${server.url}/#/race/${a.id}`);
  await titleIs(a.title);
  await waitCard(page, hostId, { seq: '1' }, 'the host\'s board in room A again');
  // Every title shown from now on, however briefly.
  await page.evaluate(() => {
    const h = document.getElementById('race-h');
    window.titlesShown = [];
    new MutationObserver(() => window.titlesShown.push(h.textContent))
      .observe(h, { childList: true, characterData: true, subtree: true });
  });
  await late.release();
  const shown = await page.evaluate(() => window.titlesShown);
  assert.ok(!shown.includes(b.title), `the late answer to joining room B never showed it: ${JSON.stringify(shown)}`);
  assert.equal(await page.textContent('#race-h'), a.title, 'room A is on the screen');
  assert.equal(await page.evaluate(() => document.body.dataset.race), 'racing', 'room A is still shown racing');
  assert.equal(await page.locator(`#race-players [data-user="${hostId}"] canvas`).count(), 1,
    'one board in the host\'s card');
  assert.deepEqual(host.errors.concat(spectator.errors), [], 'no page errors');
  await host.context.close();
  await spectator.context.close();
});

test('keys pressed while the race board resends what an earlier tab left wait for it, and the room\'s older answers take no step back', async () => {
  const host = await person();
  const { page } = host;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page))[4];
  const room = (await apiSend(page, 'POST', '/rooms', { level: 'chosen', level_id: level.id })).body.room;
  assert.equal((await apiSend(page, 'POST', `/rooms/${room.id}/start`, {})).status, 200, 'the host starts alone');
  let game = null;
  for (let i = 0; i < 100 && !game; i++) {
    const r = (await apiGet(page, `/rooms/${room.id}`)).body;
    if (r.room.state === 'racing') game = r.games[0];
    else await page.waitForTimeout(100);
  }
  assert.ok(game, 'the race is under way');
  // An earlier tab sent the first step and closed before the answer: the
  // server holds it, and this browser's saved queue still has it.
  const first = level.solution[0];
  const step = await apiSend(page, 'POST', `/games/${game.id}/log`, { seq: 1, steps: first });
  assert.equal(step.status, 200, `the first step: ${JSON.stringify(step.body)}`);
  await page.evaluate(([id, steps]) => localStorage.setItem(`sokod.outbox.${id}`,
    JSON.stringify([{ kind: 'steps', steps, seq: 1, sealed: true }])), [game.id, first]);

  const resend = await holdAnswers(page, new RegExp(`/api/v1/games/${game.id}/log$`), { method: 'POST', all: true });
  await page.goto(`${server.url}/#/race/${room.id}`);
  await resend.arrived;
  await page.locator('#race-board').focus();
  for (const key of arrows(level.solution.slice(1, 3))) await page.keyboard.press(key);
  await resend.release();
  await page.waitForFunction(() => (document.body.dataset.pending ?? '0') === '0', null, { timeout: 15000 });
  const hostId = room.host_id;
  await waitCard(page, hostId, { moves: '1' }, 'the keys pressed during the resend waited; the resent step counts once');
  await play(page, level.solution.slice(1, 3));
  const r = (await apiGet(page, `/rooms/${room.id}`)).body;
  assert.equal(r.games[0].history, level.solution.slice(0, 3), 'the server holds the first three steps, once each');
  await waitCard(page, hostId, { moves: '3' }, 'the board after the keys pressed once the resend was answered');

  // The room is fetched again (the stream reopened) and its answer, which
  // left the server before the next step was confirmed, comes after it:
  // the board keeps the step.
  const stale = await holdAnswers(page, new RegExp(`/api/v1/rooms/${room.id}$`), { method: 'GET' });
  await page.evaluate(() => window.sokod.live.reopen());
  await stale.arrived;
  await play(page, level.solution.slice(3, 4));
  await waitCard(page, hostId, { moves: '4' }, 'the board after the fourth step');
  await stale.release();
  const card = await page.evaluate((u) => document.querySelector(`#race-players [data-user="${u}"]`).dataset.moves, hostId);
  assert.equal(card, '4', 'the older answer of the room did not take the fourth step back');
  await play(page, level.solution.slice(4, 5));
  const game5 = (await apiGet(page, `/rooms/${room.id}`)).body.games[0];
  assert.equal(game5.history, level.solution.slice(0, 5), 'the next step follows on the server, none refused');

  // The same on a spectator's small board of the host: a step heard live,
  // then the room's older answer.
  const spectator = await person();
  const cardOn = (p) => p.evaluate((u) => ({ ...document.querySelector(`#race-players [data-user="${u}"]`)?.dataset }), hostId);
  await spectator.page.goto(`${server.url}/#/race/${room.id}`);
  await waitCard(spectator.page, hostId, { moves: '5' }, 'the spectator sees the host\'s board');
  const late = await holdAnswers(spectator.page, new RegExp(`/api/v1/rooms/${room.id}$`), { method: 'GET' });
  await spectator.page.evaluate(() => window.sokod.live.reopen());
  await late.arrived;
  await play(page, level.solution.slice(5, 6));
  await waitCard(spectator.page, hostId, { moves: '6' }, 'the spectator heard the sixth step');
  const heard = await cardOn(spectator.page);
  await late.release();
  const after = await cardOn(spectator.page);
  assert.deepEqual([after.seq, after.moves, after.player], [heard.seq, '6', heard.player],
    'the spectator\'s older answer did not take the sixth step back');
  assert.deepEqual(spectator.errors, [], 'no page errors for the spectator');
  await spectator.context.close();
  assert.deepEqual(host.errors, [], 'no page errors');
  await host.context.close();
});
