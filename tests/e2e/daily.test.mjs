// The daily puzzle opens from the title screen; solving it puts the player
// on the day's board and starts a streak, both shown from the title screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, openBrowser, closeAll, waitForGame, waitSynced, apiGet, holdAnswers, press, arrows } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => closeAll(server, browser));

test('the title screen opens today\'s daily puzzle', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  await page.click('#title-daily');
  const today = new Date().toISOString().slice(0, 10);
  await waitForGame(page, `Daily puzzle ${today}`);
  const daily = (await apiGet(page, '/daily')).body;
  assert.equal(daily.day, today);
  assert.equal(page.url().replace(/.*#/, '#'), `#/play/${daily.level.id}`, 'the play screen is on the daily level');
  const shown = await page.evaluate(() => window.sokod.position());
  assert.equal(shown.moves, 0, 'a fresh game on the daily level');
  assert.deepEqual(errors, [], 'no page errors');
});

test('the daily puzzle\'s header names its collection, which is not asked for', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/#/`);
  const daily = (await apiGet(page, '/daily')).body;
  const asked = [];
  const hidden = `/api/v1/collections/${daily.level.collection_id}`;
  const listen = (r) => { if (r.url().endsWith(hidden)) asked.push(`${r.url()} (${r.status()})`); };
  page.on('response', listen);
  // A fresh page: the game screen may show the level already.
  await page.goto(`${server.url}/#/play/${daily.level.id}`);
  await page.reload();
  await waitForGame(page, daily.level.title);
  await page.waitForFunction(() => document.getElementById('g-sub').textContent !== '', null, { timeout: 5000 });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
  page.off('response', listen);
  const sub = await page.textContent('#g-sub');
  assert.equal(sub, 'Daily puzzles', `the line under the daily puzzle's title: "${sub}"`);
  assert.deepEqual(asked, [], 'the hidden collection of the daily puzzles is not asked for');
  assert.deepEqual(errors, [], 'no page errors');
});

test('a daily puzzle or a room asked for, then given up on, does not pull the player away when it arrives', async () => {
  const { page, errors } = browser;
  // The title screen's daily puzzle, still on its way when the player opens the library.
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  let late = await holdAnswers(page, /\/api\/v1\/daily$/, { method: 'GET' });
  await page.click('#title-daily');
  await page.waitForFunction(() => /Fetching/.test(document.getElementById('title-daily-status').textContent));
  await page.goto(`${server.url}/#/library`);
  await page.waitForSelector('#screen-library:not([hidden])');
  assert.equal(late.held.length, 1, 'the daily puzzle was asked for');
  await late.release();
  assert.equal(page.url().replace(/.*#/, '#'), '#/library', 'the late daily puzzle left the player in the library');

  // A room on a random level: a double click asks once, every button waits
  // meanwhile, and the answer, once the player has gone, leaves them be.
  await page.goto(`${server.url}/#/rooms`);
  await page.waitForSelector('#screen-rooms:not([hidden])');
  late = await holdAnswers(page, /\/api\/v1\/rooms$/, { method: 'POST' });
  await page.dblclick('#rooms-random');
  await page.waitForFunction(() => /Opening/.test(document.getElementById('rooms-status').textContent));
  for (const id of ['rooms-random', 'rooms-daily', 'rooms-generated']) {
    assert.equal(await page.isDisabled(`#${id}`), true, `#${id} waits while a room is asked for`);
  }
  await page.goto(`${server.url}/#/credits`);
  await page.waitForSelector('#screen-credits:not([hidden])');
  await late.release();
  assert.equal(late.count(), 1, 'a double click asked for one room');
  assert.equal(page.url().replace(/.*#/, '#'), '#/credits', 'the late room left the player on the credits page');
  await page.goto(`${server.url}/#/rooms`);
  assert.equal(await page.isDisabled('#rooms-random'), false, 'back on the races page, a new room may be asked for');
  assert.deepEqual(errors, [], 'no page errors');
});

test('solving the daily puzzle starts a streak shown on the daily board', async () => {
  const { page, errors } = browser;
  const today = new Date().toISOString().slice(0, 10);
  await page.goto(`${server.url}/#/board/daily`);
  await page.waitForFunction((t) => document.getElementById('board-h')?.textContent === `Daily puzzle ${t}`,
    today, { timeout: 10000 });
  await page.waitForSelector('#board-streak:not([hidden])');
  assert.match(await page.textContent('#board-streak'), /start a streak/, 'no streak before solving');
  await page.goto(`${server.url}/#/`);
  await page.waitForFunction(() => document.getElementById('title-daily-state').textContent !== '',
    null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.textContent('#title-daily-state'), 'Not solved yet today',
    'the title screen tells today\'s puzzle is still to solve');

  // Solve today's puzzle through the API by following hints from the start.
  const daily = (await apiGet(page, '/daily')).body;
  const solved = await page.evaluate(async (levelId) => {
    const post = async (path, body) => {
      const r = await fetch(`/api/v1${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body) });
      return { status: r.status, body: await r.json() };
    };
    let game = (await post(`/levels/${levelId}/game`, {})).body.game;
    const played = [];
    for (let i = 0; i < 200 && !game.solved; i++) {
      const h = await post(`/games/${game.id}/hint`, {});
      if (h.status !== 200 || h.body.hint.kind !== 'push') return { played, hint: h };
      const step = await post(`/games/${game.id}/log`, { seq: game.seq + 1, steps: h.body.hint.steps });
      if (step.status !== 200) return { played, step };
      played.push(h.body.hint.steps);
      game = step.body.game;
    }
    return { played, solved: game.solved };
  }, daily.level.id);
  assert.equal(solved.solved, true, `following hints solves the daily puzzle: ${JSON.stringify(solved)}`);

  await page.goto(`${server.url}/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  await page.click('#title-daily-board');
  await page.waitForFunction((t) => document.getElementById('board-h')?.textContent === `Daily puzzle ${t}`,
    today, { timeout: 10000 });
  await page.waitForFunction(() => /Your streak/.test(document.getElementById('board-streak').textContent),
    null, { timeout: 10000 }).catch(() => {});
  assert.equal(await page.textContent('#board-streak'), 'Your streak: 1 day in a row',
    'the streak after solving today\'s puzzle');

  // The title screen says so too.
  await page.goto(`${server.url}/#/`);
  await page.waitForFunction(() => /Solved today/.test(document.getElementById('title-daily-state').textContent),
    null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.textContent('#title-daily-state'), 'Solved today · 1 day in a row',
    'the title screen tells today\'s puzzle is solved, and the streak');
  assert.deepEqual(errors, [], 'no page errors');
});

test('the daily puzzle\'s solved card says when the next one comes and offers a next step', async () => {
  const b = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    const { page, errors } = b;
    await page.goto(`${server.url}/#/`);
    const daily = (await apiGet(page, '/daily')).body;
    await page.goto(`${server.url}/#/play/${daily.level.id}`);
    await waitForGame(page, daily.level.title);
    // A solution, from the server's hints on this game, which then starts over.
    const lurd = await page.evaluate(async (id) => {
      const post = async (path, body) => {
        const r = await fetch(`/api/v1${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body) });
        return r.json();
      };
      let game = (await (await fetch(`/api/v1/games/${id}`)).json()).game;
      let line = '';
      for (let i = 0; i < 200 && !game.solved; i++) {
        const h = await post(`/games/${game.id}/hint`, {});
        if (h.hint?.kind !== 'push') return null;
        game = (await post(`/games/${game.id}/log`, { seq: game.seq + 1, steps: h.hint.steps })).game;
        line += h.hint.steps;
      }
      await post(`/games/${game.id}/log`, { seq: game.seq + 1, restart: true });
      return line;
    }, await page.evaluate(() => window.sokod.gameId()));
    assert.ok(lurd, 'the hints lead to a solution');
    await page.reload();
    await waitForGame(page, daily.level.title);
    await page.waitForFunction(() => window.sokod.position().moves === 0);
    await press(page, arrows(lurd));
    await page.waitForSelector('#solved:not([hidden])');
    await page.waitForSelector('#solved-next:not([hidden])', { timeout: 10000 });
    const best = await page.textContent('#solved-best');
    assert.doesNotMatch(best, /last level of this collection/, 'the daily puzzle is no collection\'s last level');
    assert.match(best, /^Today’s puzzle is solved: a new one comes tomorrow\. Next: /, best);
    assert.match(await page.textContent('#solved-next-label'), /^Play /);
    assert.equal(await page.getAttribute('#solved-board', 'href'), '#/board/daily', 'the board is the day\'s');
    await waitSynced(page);
    await page.click('#solved-next');
    await waitForGame(page);
    assert.notEqual(await page.evaluate(() => window.sokod.gameId()), 0);
    assert.doesNotMatch(page.url(), new RegExp(`#/play/${daily.level.id}$`), 'the next step leaves the daily puzzle');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('a race on today\'s puzzle opens from the races page', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/#/rooms`);
  await page.click('#rooms-daily');
  await page.waitForURL(/#\/race\/\d+$/, { timeout: 10000 });
  const id = Number(page.url().replace(/.*#\/race\//, ''));
  const room = (await apiGet(page, `/rooms/${id}`)).body.room;
  const daily = (await apiGet(page, '/daily')).body;
  assert.equal(room.level_id, daily.level.id, 'the room races on today\'s puzzle');
  assert.equal(room.source, 'daily');
  assert.deepEqual(errors, [], 'no page errors');
});
