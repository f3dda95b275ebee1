// Screenshots of every screen and theme (build/screenshots/), and the two
// figures of the client: bytes of the first load of the game page, and the
// time from a key press to the frame that shows the step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, press, arrows, localPosition, screenshotPath, screenshotEachTheme, holdAnswers } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 })));
after(() => closeAll(server, browser));

test('first load of the game page: bytes transferred', async () => {
  await browser.page.goto(`${server.url}/`);
  const level = (await tutorialLevels(browser.page))[0];
  // A new tab with the cache off: count every byte the network carried.
  const page = await browser.context.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const sizes = new Map();
  const urls = new Map();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength));
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await page.waitForLoadState('networkidle');
  let total = 0;
  const rows = [];
  for (const [id, n] of sizes) {
    total += n;
    rows.push(`${String(n).padStart(7)}  ${new URL(urls.get(id)).pathname}`);
  }
  console.log(`first load of the game page: ${sizes.size} requests, ${total} bytes (${(total / 1024).toFixed(1)} KB)`);
  console.log(rows.sort().reverse().join('\n'));
  await page.close();
  assert.ok(urls.size > 0 && [...urls.values()].some((u) => u.endsWith('/core.wasm')), 'core.wasm was loaded');
  assert.ok(total < 200 * 1024, `the first load stays under 200 KB: ${total} bytes`);
});

test('a key press shows its step in the next frame, without waiting for the network', async () => {
  const { page } = browser;
  const level = (await tutorialLevels(page)).find((l) => /Point/.test(l.title));
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  // The server's answer to each step is held until the step is on screen.
  const lat = [], all = [];
  for (const [key, speed] of [['ArrowRight', 'normal'], ['ArrowLeft', 'normal'], ['ArrowDown', 'off'], ['ArrowUp', 'off'],
    ['ArrowRight', 'fast'], ['ArrowLeft', 'fast'], ['ArrowRight', 'normal'], ['ArrowLeft', 'normal']]) {
    await page.evaluate((s) => window.sokod.settings.set('speed', s), speed);
    const before = await localPosition(page);
    const answer = await holdAnswers(page, '**/api/v1/games/*/log', { method: 'POST', all: true });
    await page.keyboard.press(key);
    await page.waitForFunction((m) => window.sokod.metrics.shownAt > 0 && window.sokod.position().moves === m + 1, before.moves);
    const after = await localPosition(page);
    assert.ok(after.pending > 0, 'the step was on screen while its entry still waited for the server');
    const m = await page.evaluate(() => window.sokod.metrics);
    lat.push(m.shownAt - m.keyAt);
    all.push(`${speed} ${(m.shownAt - m.keyAt).toFixed(1)} (our work: key ${m.handlerMs.toFixed(1)}, frame ${m.drawMs.toFixed(1)})`);
    await answer.release();
    await waitSynced(page);
  }
  await page.evaluate(() => window.sokod.settings.set('speed', 'normal'));
  lat.sort((a, b) => a - b);
  const frame = await page.evaluate(() => new Promise((r) => requestAnimationFrame((a) => requestAnimationFrame((b) => r(b - a)))));
  console.log(`key press to the frame showing the step: median ${lat[lat.length >> 1].toFixed(1)} ms, ` +
    `max ${lat[lat.length - 1].toFixed(1)} ms over ${lat.length} steps (one frame here: ${frame.toFixed(1)} ms), ` +
    'with the server\'s answers held back');
  console.log(`each step (animation speed, ms): ${all.join(', ')}`);
});

test('screenshots: title, library, the game in each theme, solved', async () => {
  const { page } = browser;
  await page.goto(`${server.url}/#/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  await page.waitForTimeout(300);
  await page.screenshot({ path: screenshotPath('title.png') });
  await page.goto(`${server.url}/#/library`);
  await page.waitForSelector('.level-card canvas');
  await page.waitForTimeout(800);
  await page.screenshot({ path: screenshotPath('library.png') });
  // The credit comes from the bundled file's header (levels/tutorial.sok: "Author: sokod").
  const notes = await page.textContent('#lib-notes');
  assert.match(notes, /^By sokod — /, `the library credits the collection: "${notes}"`);

  const levels = await tutorialLevels(page);
  const level = levels.find((l) => /Side by side/.test(l.title)) ?? levels[8];
  const themes = (await (await fetch(`${server.url}/themes/index.json`)).json()).themes;
  assert.ok(themes.length >= 4, `at least four themes: ${themes}`);
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows('uuurrD'));
  await waitSynced(page);
  await screenshotEachTheme(page, 'game', themes);
  await page.goto(`${server.url}/#/account`);
  await page.waitForFunction(() => document.getElementById('acc-status').textContent.length > 0);
  await page.screenshot({ path: screenshotPath('account.png') });
  await page.goto(`${server.url}/#/credits`);
  await page.waitForFunction(() => /level/.test(document.getElementById('credits-list').textContent));
  await page.screenshot({ path: screenshotPath('credits.png') });
  await page.goto(`${server.url}/#/options`);
  await page.waitForSelector('#options-form[data-ready]');
  await page.screenshot({ path: screenshotPath('options.png') });

  await page.setViewportSize({ width: 390, height: 760 });
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await page.waitForTimeout(300);
  await page.screenshot({ path: screenshotPath('phone-game.png') });
  await page.goto(`${server.url}/#/library`);
  await page.waitForSelector('.level-card canvas');
  await page.waitForTimeout(800);
  await page.screenshot({ path: screenshotPath('phone-library.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  const first = levels[1];
  await page.goto(`${server.url}/#/play/${first.id}`);
  await waitForGame(page, first.title);
  await press(page, arrows(first.solution));
  await page.waitForSelector('#solved:not([hidden])');
  await page.waitForTimeout(500);
  await page.screenshot({ path: screenshotPath('solved.png') });
  await waitSynced(page);
  await page.goto(`${server.url}/#/library`);
  await page.waitForSelector('.level-card .badge:not(.playing)');
  await page.waitForTimeout(800);
  await page.screenshot({ path: screenshotPath('library-progress.png') });
});
