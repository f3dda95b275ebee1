// Storage full loses no move: when the server has no room for a player's
// moves (all guests together past --all-guests-storage-mb, or the player's
// own quota), the page keeps them queued on the device, says so, and
// delivers them once there is room: here, when the guest signs up.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, closeAll, sendAccountForm, waitForGame, waitSynced, tutorialLevels, press,
  arrows, localPosition, apiGet } from './harness.mjs';

let server, b;
before(async () => {
  // All guests may store 1 MiB, counted every second.
  server = await startServer({ args: ['--all-guests-storage-mb', '1', '--sweep-interval', '1'] });
  b = await openBrowser({ viewport: { width: 1280, height: 800 } });
});
after(() => closeAll(server, b));

/** A guest of its own, outside the browser: {cookie, game}. */
async function guestGame(levelId) {
  const r = await fetch(`${server.url}/api/v1/levels/${levelId}/game`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}',
  });
  const text = await r.text();
  assert.equal(r.status, 201, text);
  const cookie = r.headers.getSetCookie().find((c) => c.startsWith('sokod_session=')).split(';')[0];
  return { cookie, game: JSON.parse(text).game };
}

async function post(g, path, body) {
  const r = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: g.cookie }, body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

test('a guest whose moves find no room keeps them, and they reach the server after signing up', async () => {
  const { page } = b;
  await page.goto(`${server.url}/#/`);
  const level = (await tutorialLevels(page)).find((l) => l.title === 'Order matters');
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows('uu'));
  await waitSynced(page);
  const gameId = await page.evaluate(() => window.sokod.gameId());

  // Another guest fills what all guests may store: a step there and back,
  // found by trying, makes a line that changes nothing.
  const filler = await guestGame(level.id);
  let pair = null;
  for (const p of ['rl', 'lr', 'ud', 'du']) {
    const r = await post(filler, `/games/${filler.game.id}/log`, { seq: filler.game.seq + 1, steps: p });
    if (r.status === 200) { pair = p; filler.game.seq++; break; }
  }
  assert.ok(pair, 'the filler guest found a step there and back');
  for (let i = 0; i < 24; i++) {
    const r = await post(filler, `/games/${filler.game.id}/snapshots`, { name: `p${i}`, lurd: pair.repeat(25000) });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
  // Within a count or two, guests store nothing more.
  for (let i = 0; ; i++) {
    const r = await post(filler, `/games/${filler.game.id}/log`, { seq: filler.game.seq + 1, steps: pair });
    if (r.status === 403) {
      assert.equal(r.body.quota?.guests_full, true, JSON.stringify(r.body));
      break;
    }
    assert.equal(r.status, 200, JSON.stringify(r.body));
    filler.game.seq++;
    assert.ok(i < 60, `guests' storage never filled: ${server.log().slice(-800)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  // The page's guest plays two moves: the server has no room for them.
  const before = await localPosition(page);
  await press(page, arrows('dd'));
  await page.waitForFunction(() => [...document.querySelectorAll('#toasts *')]
    .some((t) => /storage on this server is full.*kept on this device/.test(t.textContent)), null, { timeout: 15000 });
  assert.equal(await page.evaluate(() => document.body.dataset.pending), '2', 'the two moves stay queued on the device');
  assert.equal((await localPosition(page)).moves, before.moves + 2, 'the board keeps them');
  let onServer = (await apiGet(page, `/games/${gameId}`)).body.game;
  assert.equal(onServer.moves, before.moves, `the server holds the moves before them only: ${JSON.stringify(onServer)}`);

  // A reload keeps them too (the queue is stored).
  await page.reload();
  await waitForGame(page, level.title);
  await page.waitForFunction((n) => window.sokod.position()?.moves === n, before.moves + 2);

  // Signing up makes the guest an account, which has room: they go.
  await sendAccountForm(page, server.url, 'signup', 'roomy', 'a good password');
  await page.waitForFunction(() => document.getElementById('acc-status').textContent.includes('Signed in as roomy'));
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await waitSynced(page, 30000);
  onServer = (await apiGet(page, `/games/${gameId}`)).body.game;
  assert.equal(onServer.moves, before.moves + 2, `the account's game holds every move: ${JSON.stringify(onServer)}`);
});
