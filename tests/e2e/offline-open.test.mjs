// Opening sokod with no network: the service worker (static/sw.js) keeps
// the page, the core and the levels seen, so a reload while the server is
// down opens the page and a level seen, whose moves wait in the outbox and
// reach the server once it is back. The API answers the page keeps
// (static/js/kept.js) are marked as such and never given while the server
// answers; logging out drops them; a new version of the page replaces the
// kept one whole.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, openBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, localPosition, serverGame, tempDir, SOURCE_DIR, screenshotPath } from './harness.mjs';

let server, browser, level, staticDir;
before(async () => {
  // A copy of the page, to change it between two versions.
  staticDir = join(tempDir(), 'static');
  cpSync(join(SOURCE_DIR, 'static'), staticDir, { recursive: true });
  server = await startServer({ staticDir });
  browser = await openBrowser({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'allow' });
});
after(() => closeAll(server, browser));

/** Waits until `check` (run in the page, async) holds, polling; fails
 * after `ms` saying `what`. (waitForFunction does not wait on promises.) */
async function until(page, check, arg, what, ms = 20000) {
  for (const end = Date.now() + ms; Date.now() < end; await page.waitForTimeout(250)) {
    if (await page.evaluate(check, arg)) return;
  }
  assert.fail(`waited ${ms} ms for ${what}`);
}

/** Runs `fn` with the server down and starts it again however `fn` ends,
 * so that one failing test leaves the next a server. */
async function whileDown(fn) {
  await server.stop();
  try {
    return await fn();
  } finally {
    server = await server.restart();
  }
}

/** Waits until the worker controls the page and keeps a complete copy of it;
 * resolves to the names of the copies kept. */
async function shellKept(page) {
  await until(page, async () => {
    if (!navigator.serviceWorker.controller) return false;
    for (const name of await caches.keys()) {
      if (name.startsWith('sokod-shell-') && await (await caches.open(name)).match('/__sokod/complete')) return true;
    }
    return false;
  }, null, 'the worker to keep a complete copy of the page');
  return page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith('sokod-shell-')));
}

test('a reload with the server down opens the page and a level seen; its moves wait and arrive', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  level = (await tutorialLevels(page))[4];
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows(level.solution.slice(0, 3)));
  await waitSynced(page);
  await shellKept(page);
  await page.reload(); // now under the worker: the level's answers are kept too
  await waitForGame(page, level.title);
  await press(page, arrows(level.solution.slice(3, 5)));
  await waitSynced(page);
  const before = await localPosition(page);

  await whileDown(async () => {
    await page.reload();
    await waitForGame(page, level.title);
    const opened = await localPosition(page);
    assert.deepEqual([opened.moves, opened.pushes, opened.hash, opened.seq], [before.moves, before.pushes, before.hash, before.seq],
      'the level opens offline where the server left it');
    await page.waitForSelector('#net:not([hidden])', { timeout: 10000 });
    await press(page, arrows(level.solution.slice(5, 8)));
    await page.waitForFunction(() => /3 moves waiting/.test(document.getElementById('net-text').textContent), null, { timeout: 10000 });
    await page.screenshot({ path: screenshotPath('offline-open-desktop.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath('offline-open-phone.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
  await waitSynced(page, 20000);
  const game = await serverGame(page);
  assert.equal(game.history, level.solution.slice(0, 8), `every move reached the server once: ${game.history}`);
  assert.deepEqual(errors, []);
});

test('a level never opened here, with the server down: no other level\'s board, and "Offline" until it opens', async () => {
  const { page, errors } = browser;
  const unseen = (await tutorialLevels(page)).at(-1);
  assert.notEqual(unseen.id, level.id);
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  const shown = () => page.evaluate(() => ['#board', '.counters', '.hud-buttons']
    .map((s) => document.querySelector(`#screen-game ${s}`).checkVisibility()));
  await whileDown(async () => {
    await page.evaluate((id) => { location.hash = `#/play/${id}`; }, unseen.id);
    await page.waitForFunction(() => document.getElementById('game-h').textContent === 'Offline', null, { timeout: 10000 });
    // Every heading the page shows from now on, over two retries.
    await page.evaluate(() => {
      const h = document.getElementById('game-h');
      window.headings = [];
      new MutationObserver(() => window.headings.push(h.textContent))
        .observe(h, { childList: true, characterData: true, subtree: true });
    });
    await page.waitForTimeout(7000);
    const headings = await page.evaluate(() => [...new Set(window.headings)]);
    assert.ok(headings.every((h) => h === 'Offline'), `the heading while retrying: ${JSON.stringify(headings)}`);
    assert.deepEqual(await shown(), [false, false, false], 'the last level\'s board, counters and buttons are not shown');
    assert.match(await page.textContent('#g-status'), /server cannot be reached/);
  });
  await waitForGame(page, unseen.title);
  assert.deepEqual(await shown(), [true, true, true], 'once the level opens, its board, counters and buttons show');
  assert.deepEqual(errors, []);
});

test('kept answers are marked as such, and never given while the server answers', async () => {
  const { page } = browser;
  // Through the page's own API module, as its screens call it.
  const settings = () => page.evaluate(async () => {
    const { api } = await import('/js/api.js');
    const r = await api.settings();
    return { kept: r.kept ?? null, offline: r.offline, note: r.body?.settings?.note };
  });
  const put = (value) => page.evaluate(async (v) => {
    const { api } = await import('/js/api.js');
    return (await api.saveSettings({ note: v })).status;
  }, value);
  assert.equal(await put('first'), 200);
  let r = await settings();
  assert.deepEqual(r, { kept: null, offline: false, note: 'first' }, 'an answer of the server carries no mark');
  // The answer changes on the server: the page reads it fresh, not the one kept.
  assert.equal(await put('second'), 200);
  r = await settings();
  assert.deepEqual(r, { kept: null, offline: false, note: 'second' }, 'the server\'s answer, not the kept one');
  // A read is given before it is kept (a change only after): wait for it.
  await until(page, async () => (await (await import('/js/kept.js')).keptAnswer('GET', '/account/settings'))
    ?.body?.settings?.note === 'second', null, 'the second answer to be kept');

  await whileDown(async () => {
    r = await settings();
    assert.match(r.kept ?? '', /^\d{4}-\d\d-\d\dT/, `offline, the kept answer says when it was kept: ${r.kept}`);
    assert.deepEqual([r.offline, r.note], [true, 'second'], 'the last answer kept, as an offline one');
  });
});

test('logging out drops what was kept of the player', async () => {
  const { page } = browser;
  const keptCount = () => page.evaluate(async () => (await (await caches.open('sokod-api')).keys()).length);
  assert.ok(await keptCount() > 0, 'answers are kept');
  await page.goto(`${server.url}/#/account`);
  const name = `keeper${Date.now() % 100000}`;
  await page.fill('#acc-signup input[name="username"]', name);
  await page.fill('#acc-signup input[name="password"]', 'correct horse battery');
  await page.click('#acc-signup button[type="submit"]');
  await page.waitForFunction((n) => document.getElementById('acc-status').textContent.includes(n), name);
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await until(page, async () => (await (await caches.open('sokod-api')).keys()).length > 0, null, 'answers kept');
  // A request made before logging out, whose answer comes after.
  await page.evaluate(async () => { window.beforeLogout = (await import('/js/kept.js')).keptGeneration(); });
  const r = await page.evaluate(async () => (await (await import('/js/api.js')).api.logout()).status);
  assert.equal(r, 200);
  await until(page, async () => !(await caches.keys()).includes('sokod-api') ||
    (await (await caches.open('sokod-api')).keys()).length === 0, null, 'the kept answers to go', 5000);
  await page.evaluate(async (id) => {
    const { keepAnswer } = await import('/js/kept.js');
    await keepAnswer('GET', `/levels/${id}`, undefined, { level: { id } }, window.beforeLogout);
  }, level.id);
  assert.equal(await keptCount(), 0, 'an answer to a request made before logging out is not kept when it comes after');
});

test('a new version of the page replaces the kept one whole', async () => {
  const { page } = browser;
  const [first] = await shellKept(page);
  // A new version: two files change.
  const stamp = `v${Date.now()}`;
  const index = join(staticDir, 'index.html');
  writeFileSync(index, readFileSync(index, 'utf8').replace('</body>', `<!-- ${stamp} -->\n</body>`));
  const dom = join(staticDir, 'js', 'dom.js');
  writeFileSync(dom, `${readFileSync(dom, 'utf8')}\n// ${stamp}\n`);
  await page.goto(`${server.url}/`);
  await page.evaluate(() => navigator.serviceWorker.controller.postMessage('refresh'));
  await until(page, async (old) => {
    const names = (await caches.keys()).filter((n) => n.startsWith('sokod-shell-'));
    return names.length === 1 && names[0] !== old && !!(await (await caches.open(names[0])).match('/__sokod/complete'));
  }, first, 'one complete copy of the new version, and no other');

  await whileDown(async () => {
    await page.reload();
    await page.waitForFunction(() => window.sokod?.app);
    const served = await page.evaluate(async () => ({
      index: await (await fetch('/')).text(),
      dom: await (await fetch('/js/dom.js')).text(),
    }));
    assert.ok(served.index.includes(stamp) && served.dom.includes(stamp), 'offline, both files are of the new version');
  });
});

/** Goes to the title screen, then to level `lvl` under `rule` (0 or 2),
 * so that what the game screen shows is this opening's. Resolves to the
 * position shown, or null when the page says the level is not kept here. */
async function openThere(page, lvl, rule) {
  await page.evaluate(() => { location.hash = '#/'; });
  await page.waitForSelector('#screen-title:not([hidden])');
  await page.evaluate((h) => { location.hash = h; }, `#/play/${lvl.id}${rule === 2 ? '/reverse' : ''}`);
  const heading = await page.waitForFunction((t) => {
    const h = document.getElementById('game-h').textContent;
    return !document.getElementById('screen-game').hidden && (h === t || h === 'Offline') && h;
  }, lvl.title, { timeout: 15000 });
  if ((await heading.jsonValue()) === 'Offline') return null;
  await waitForGame(page, lvl.title);
  return localPosition(page);
}

test('a level\'s forward and reverse games are kept apart offline, and those kept by earlier pages are found', async () => {
  // A device of its own: the one of the tests above was signed out.
  const device = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    await keptApart(device.page);
    assert.deepEqual(device.errors, []);
  } finally {
    await device.close();
  }
});

async function keptApart(page) {
  await page.goto(`${server.url}/`);
  const lvl = (await tutorialLevels(page))[2];
  assert.ok(await openThere(page, lvl, 0), 'the level opens');
  await press(page, arrows(lvl.solution.slice(0, 2)));
  await waitSynced(page);
  const forward = await localPosition(page);
  assert.notEqual((await openThere(page, lvl, 2)).gameId, forward.gameId, 'the reverse game is a game of its own');
  // A step of the reverse game: the game kept follows it.
  await press(page, ['ArrowLeft']);
  await waitSynced(page);
  const reverse = await localPosition(page);
  assert.equal(reverse.moves, 1, 'the reverse game took its step');
  const same = (p, q) => p && [p.gameId, p.moves, p.hash].join() === [q.gameId, q.moves, q.hash].join();
  const seen = (p) => (p ? `game ${p.gameId}, ${p.moves} moves, hash ${p.hash}` : 'none ("Offline")');

  // The reverse game was opened last: the forward one is still kept.
  await whileDown(async () => {
    const f = await openThere(page, lvl, 0);
    assert.ok(same(f, forward), `offline, the forward game is the one kept: ${seen(f)}, not ${seen(forward)}`);
    const r = await openThere(page, lvl, 2);
    assert.ok(same(r, reverse), `offline, the reverse game is the one kept: ${seen(r)}, not ${seen(reverse)}`);
  });

  // Earlier pages kept one game per level, the last opened, at the key
  // the forward game has now: it is found for its own rule only.
  const legacy = `/__sokod/level-game/${lvl.id}`;
  const kept = await page.evaluate(async (prefix) => {
    const cache = await caches.open('sokod-api');
    const byRule = {};
    for (const req of await cache.keys()) {
      const path = new URL(req.url).pathname;
      if (path !== prefix && !path.startsWith(`${prefix}/`)) continue;
      const answer = await (await cache.match(req)).json();
      byRule[answer.body.game.rule] = answer;
    }
    return byRule;
  }, legacy);
  assert.deepEqual(Object.keys(kept).sort(), ['0', '2'], 'the device keeps both games of the level');
  for (const [rule, other] of [[2, 0], [0, 2]]) {
    const earlier = await openBrowser({ viewport: { width: 1280, height: 800 } });
    try {
      await earlier.page.goto(`${server.url}/`);
      await earlier.page.waitForSelector('#screen-title:not([hidden])');
      await earlier.page.evaluate(async ({ key, answer }) => {
        await (await caches.open('sokod-api')).put(key, new Response(JSON.stringify(answer),
          { headers: { 'Content-Type': 'application/json' } }));
      }, { key: legacy, answer: kept[rule] });
      const want = rule === 2 ? reverse : forward;
      await whileDown(async () => {
        const mine = await openThere(earlier.page, lvl, rule);
        assert.ok(same(mine, want), `offline, the rule ${rule} game an earlier page kept is found: ${seen(mine)}, not ${seen(want)}`);
        const theOther = await openThere(earlier.page, lvl, other);
        assert.equal(theOther, null, `no rule ${other} game is kept, and the rule ${rule} one is not given for it: ${seen(theOther)}`);
      });
      assert.deepEqual(earlier.errors, []);
    } finally {
      await earlier.close();
    }
  }
}

test('a race on a level leaves the player\'s own game of it kept offline', async () => {
  const device = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    const { page, errors } = device;
    await page.goto(`${server.url}/`);
    const lvl = (await tutorialLevels(page))[3];
    const own = await openThere(page, lvl, 0);
    assert.ok(own, 'the level opens');
    // A race on the same level: the player's race game is another game of
    // that level and rule.
    const race = await page.evaluate(async (levelId) => {
      const post = async (p, body) => (await fetch(`/api/v1${p}`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}),
      })).json();
      const { room } = await post('/rooms', { level: 'chosen', level_id: levelId });
      await post(`/rooms/${room.id}/start`);
      for (let i = 0; i < 150; i++) {
        const seat = (await (await fetch(`/api/v1/rooms/${room.id}`)).json()).room.players[0];
        if (seat.game_id) return seat.game_id;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return null;
    }, lvl.id);
    assert.ok(race && race !== own.gameId, `the race gave its player a game of its own: ${race}`);
    // The page reads the race game by its id, as the race screen does.
    const kept = await page.evaluate(async ({ raceId, levelId }) => {
      const { api } = await import('/js/api.js');
      const r = await api.game(raceId);
      if (!r.ok) return `GET /games/${raceId} answered ${r.status}`;
      // Kept answers are written in turn: once this one is, so is that.
      await (await import('/js/kept.js')).keepAnswer('GET', '/not-kept', null, null);
      const res = await (await caches.open('sokod-api')).match(`/__sokod/level-game/${levelId}`);
      return res ? (await res.json()).body.game.id : null;
    }, { raceId: race, levelId: lvl.id });
    assert.equal(kept, own.gameId,
      `the game kept for level ${lvl.id} is the player's own, ${own.gameId}, not the race's, ${race}`);
    await whileDown(async () => {
      const offline = await openThere(page, lvl, 0);
      assert.equal(offline?.gameId, own.gameId, 'offline, the level opens on the player\'s own game');
    });
    assert.deepEqual(errors, []);
  } finally {
    await device.close();
  }
});
