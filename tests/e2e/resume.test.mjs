// Resuming: a reload mid-level comes back exactly where it was, undo and
// redo stacks included; an account's second device opens the same position;
// a tab whose game moved on elsewhere shows it on its next step. Answers
// held back until the player has moved on (a catch-up, a game fetched to
// follow the server, a resend after a reload) undo nothing played since.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, closeAll, sendAccountForm, waitForGame, waitSynced, tutorialLevels, press, arrows, localPosition, serverGame, holdAnswers, routeNow } from './harness.mjs';

let server, phone, laptop, level;
before(async () => {
  server = await startServer();
  phone = await openBrowser();
  laptop = await openBrowser();
});
after(() => closeAll(server, phone, laptop));

const same = (p) => ({ player: p.player, boxes: p.boxes, moves: p.moves, pushes: p.pushes, cursor: p.cursor, redo: p.redo, hash: p.hash });

test('a reload mid-level resumes exactly, redo stack included', async () => {
  const { page } = phone;
  await page.goto(`${server.url}/`);
  level = (await tutorialLevels(page))[4];
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, [...arrows('uurrrrDu'), 'z', 'z']);
  await waitSynced(page);
  const before = await localPosition(page);
  assert.deepEqual([before.moves, before.redo], [6, 2]);
  await page.reload();
  await waitForGame(page, level.title);
  const after = await localPosition(page);
  assert.deepEqual(same(after), same(before), 'the position after the reload');
  await press(page, ['y']);
  await waitSynced(page);
  const redone = await localPosition(page);
  assert.deepEqual([redone.moves, redone.pushes], [7, 1], 'redo after the reload replays the push');
});

test('steps typed just before a reload are not lost', async () => {
  const { page } = phone;
  await press(page, arrows('ul'));
  // No wait for the server: the outbox in localStorage carries them over.
  await page.reload();
  await waitForGame(page, level.title);
  await waitSynced(page);
  const local = await localPosition(page);
  const game = await serverGame(page);
  assert.deepEqual([local.moves, game.moves], [9, 9], `page ${local.moves} moves, server ${game.history}`);
});

test('signed up on one device, logged in on another: the same position', async () => {
  const { page } = phone;
  const name = `player${Date.now() % 100000}`;
  await sendAccountForm(page, server.url, 'signup', name, 'correct horse battery');
  await page.waitForFunction((n) => document.getElementById('acc-status').textContent.includes(n), name);
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  const onPhone = await localPosition(page);
  assert.equal(onPhone.moves, 9, 'signing up kept the guest game');

  const other = laptop.page;
  await sendAccountForm(other, server.url, 'login', name, 'correct horse battery');
  await other.waitForFunction((n) => document.getElementById('acc-status').textContent.includes(n), name);
  await other.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(other, level.title);
  const onLaptop = await localPosition(other);
  assert.deepEqual(same(onLaptop), same(onPhone), 'the laptop opens the phone\'s position');
});

test('a tab whose game moved on elsewhere shows it on its next step, and asks about its own', async () => {
  const phonePage = phone.page, laptopPage = laptop.page;
  // Tabs follow their game live (tests/e2e/live.test.mjs); this one has
  // lost its stream, and hears nothing of the laptop's steps.
  await phonePage.evaluate(() => window.sokod.live.stop());
  await press(laptopPage, arrows('dd'));
  await waitSynced(laptopPage);
  const moved = await localPosition(laptopPage);
  // The phone has not heard of it: its next step is refused as stale.
  await press(phonePage, ['ArrowLeft']);
  await phonePage.waitForFunction((seq) => window.sokod.position().seq >= seq, moved.seq, { timeout: 10000 });
  // Its own step is not dropped: the player chooses (tests/e2e/conflict.test.mjs).
  await phonePage.waitForSelector('#conflict[open]', { timeout: 10000 });
  await phonePage.click('#conflict-theirs');
  await phonePage.waitForSelector('#conflict', { state: 'hidden' });
  await waitSynced(phonePage);
  const caughtUp = await localPosition(phonePage);
  const game = await serverGame(phonePage);
  assert.deepEqual(same(caughtUp), same(moved), 'the phone shows the laptop\'s position');
  assert.equal(game.seq, moved.seq, 'the stale step was not applied');
});

test('an undo played while the tab asks whether its game moved on is kept', async () => {
  const { page } = phone;
  await waitSynced(page);
  const id = await page.evaluate(() => window.sokod.gameId());
  // Back in the tab, it asks for its game; that answer comes late.
  const hold = await holdAnswers(page, new RegExp(`/api/v1/games/${id}$`));
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await hold.arrived;
  await press(page, ['z']);
  await waitSynced(page);
  const played = await localPosition(page);
  await hold.release();
  assert.deepEqual(same(await localPosition(page)), same(played), 'the answer from before the undo did not take it back');
  await press(page, ['y']);
  await waitSynced(page);
  const local = await localPosition(page);
  const game = await serverGame(page);
  assert.deepEqual([local.moves, local.seq], [played.moves + 1, played.seq + 1], 'the redo after it was played');
  assert.deepEqual([game.moves, game.seq], [local.moves, local.seq], 'and the server took it');
});

test('the game fetched after an answer that differs is not adopted once the player is on the next level', async () => {
  const { page } = phone;
  const next = (await tutorialLevels(page))[5];
  await waitSynced(page);
  const id = await page.evaluate(() => window.sokod.gameId());
  // The network turns an undo into two: the answer differs from the page,
  // which fetches the whole game to follow the server; that comes late.
  await routeNow(page, '**/api/v1/games/*/log', async (route) => {
    const body = JSON.parse(route.request().postData());
    await route.continue({ postData: JSON.stringify({ ...body, undo: body.undo + 1 }) });
  }, { times: 1 });
  const hold = await holdAnswers(page, new RegExp(`/api/v1/games/${id}$`));
  await press(page, ['z']);
  await hold.arrived;
  await page.keyboard.press('n');
  await waitForGame(page, next.title);
  const opened = await localPosition(page);
  await hold.release();
  assert.equal(await page.textContent('#game-h'), next.title, 'the next level is still shown');
  assert.deepEqual(same(await localPosition(page)), same(opened), 'the last level\'s game did not replace the board');
  await press(page, arrows('lurd'));
  await waitSynced(page);
  const local = await localPosition(page);
  const game = await serverGame(page);
  assert.equal(game.level.id, next.id, 'moves go to the next level\'s game');
  assert.deepEqual([game.moves, game.seq], [local.moves, local.seq], 'the server took them');
});

test('keys wait while a reloaded page resends what the server already holds', async () => {
  const { page } = phone;
  const levels = await tutorialLevels(page);
  /** Opens `level`, plays its solution's next step and reloads before the
   * server's answer (which it has applied) reaches the page: the reloaded
   * page resends that step, and the resend is held back. */
  const reloadMidStep = async (level, step) => {
    await page.goto(`${server.url}/#/play/${level.id}`);
    await waitForGame(page, level.title);
    await waitSynced(page);
    const lost = await holdAnswers(page, '**/api/v1/games/*/log');
    await press(page, arrows(level.solution[step]));
    await lost.arrived;
    const resend = await holdAnswers(page, '**/api/v1/games/*/log');
    await page.reload();
    await resend.arrived;
    return resend;
  };

  // Keys pressed while the resend is on its way are not played: the queue
  // the page rebuilds after it would leave them out.
  const first = levels[6];
  let resend = await reloadMidStep(first, 0);
  await press(page, arrows(first.solution.slice(1, 3)));
  await resend.release();
  await waitForGame(page, first.title);
  await waitSynced(page);
  let local = await localPosition(page);
  let game = await serverGame(page);
  assert.deepEqual([local.moves, local.seq], [1, 1], 'the step resent, and nothing else');
  assert.deepEqual([game.moves, game.seq, game.hash], [local.moves, local.seq, local.hash], 'the server and the page agree');

  // Another level opened while the resend is on its way plays on from its own seq.
  resend = await reloadMidStep(first, 1);
  const other = levels[7];
  await page.evaluate((id) => { location.hash = `#/play/${id}`; }, other.id);
  await waitForGame(page, other.title);
  await resend.release();
  await press(page, arrows(other.solution.slice(0, 2)));
  await waitSynced(page);
  local = await localPosition(page);
  game = await serverGame(page);
  assert.equal(game.level.id, other.id);
  assert.deepEqual([local.moves, game.moves, game.seq], [2, 2, 2], 'both steps played on the level opened');
});
