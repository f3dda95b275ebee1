// The game screen's small details: a count reads "1 push", never "1
// pushes" (on a race card, in the admin's report); the header names a level
// as the library does ("Level 1" for a level titled "1"), with its
// collection; a solved level reopened says the player's best; the solved
// card leaves the board's final position in view on a desktop and on a
// phone; and "?" or F1 opens the list of keys, which Escape closes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, launchChromium, closeAll, importLevels, tempDir, apiGet, tutorialLevels, waitForGame,
  waitSynced, press, arrows, screenshotPath } from './harness.mjs';

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** A square room of 16 by 16 (it fills the board's frame whichever way it
 * is turned) solved by one push to the right on its lowest floor row. */
function bigRoom() {
  const rows = [];
  for (let y = 0; y < 16; y++) rows.push(y === 0 || y === 15 ? '#'.repeat(16) : `#${' '.repeat(14)}#`);
  rows[14] = `#@$.${' '.repeat(11)}#`;
  return rows.join('\n');
}

// Levels titled by bare numbers, as many files number them, and the room.
const FILE = `; 1
#####
#@$.#
#####

; 43
######
#@ $.#
######

${bigRoom()}
Title: Big room
`;

let server, browser, numbered;
before(async () => {
  server = await startServer();
  browser = await launchChromium();
  const file = join(tempDir('sokod-details-'), 'numbered.sok');
  writeFileSync(file, FILE);
  importLevels(server.db, file, 'Numbered');
});
after(() => closeAll(server, browser));

async function person(options = DESKTOP) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** The levels of the imported collection, in order. */
async function numberedLevels(page) {
  if (numbered) return numbered;
  await page.goto(`${server.url}/`);
  const list = (await apiGet(page, '/collections')).body.collections;
  const col = list.find((c) => c.name === 'Numbered');
  assert.ok(col, `the imported collection is listed: ${JSON.stringify(list.map((c) => c.name))}`);
  numbered = (await apiGet(page, `/collections/${col.id}`)).body.levels;
  return numbered;
}

async function openLevel(page, level) {
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page);
  // The collection's name comes with the neighbours, once they are known.
  await page.waitForFunction(() => / of \d+/.test(document.getElementById('g-sub').textContent));
}

const rect = (page, selector) => page.evaluate((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
}, selector);

test('a count reads "1 push" and "1 move" on a race card and in the admin\'s report', async () => {
  const host = await person(), rival = await person(PHONE);
  try {
    await host.page.goto(`${server.url}/`);
    const first = (await tutorialLevels(host.page))[0];
    const room = await host.page.evaluate(async (id) => {
      const r = await fetch('/api/v1/rooms', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ level: 'chosen', level_id: id }) });
      return { status: r.status, body: await r.json() };
    }, first.id);
    assert.equal(room.status, 201, JSON.stringify(room.body));
    const url = `${server.url}/#/race/${room.body.room.id}`;
    await host.page.goto(url);
    await rival.page.goto(url);
    await rival.page.click('#race-join');
    await rival.page.waitForSelector('#race-leave', { state: 'visible', timeout: 15000 });
    await host.page.waitForFunction(() => document.querySelectorAll('#race-players .race-card').length === 2);
    await host.page.click('#race-start');
    await host.page.waitForFunction(() => document.body.dataset.race === 'racing' &&
      document.getElementById('race-countdown').hidden && !document.getElementById('race-own').hidden, null, { timeout: 15000 });
    // "rR" on the tutorial's first level: two moves, one push.
    await host.page.focus('#race-board');
    await press(host.page, ['ArrowRight', 'ArrowRight']);
    await rival.page.waitForFunction(() => [...document.querySelectorAll('#race-players .race-card')]
      .some((c) => c.dataset.pushes === '1'), null, { timeout: 15000 });
    const line = await rival.page.evaluate(() => [...document.querySelectorAll('#race-players .race-card')]
      .find((c) => c.dataset.pushes === '1').querySelector('.race-counts').textContent);
    assert.match(line, /^2 moves, 1 push, /, `the host's race card after "rR", as the rival sees it: "${line}"`);
    await rival.page.screenshot({ path: screenshotPath('race-card-one-push.png') });

    // The admin's report words the solver's verdict on a one-push level.
    const said = await host.page.evaluate(async () => (await import('/js/admin/report.js'))
      .solverText({ status: 'solvable', moves: 1, pushes: 1, seconds: 0.1 }));
    assert.equal(said, 'Solver: solvable, 1 push, 1 move (0.1 s).', 'the solver\'s verdict on "#@$.#"');
    assert.deepEqual([...host.errors, ...rival.errors], []);
  } finally {
    await host.context.close();
    await rival.context.close();
  }
});

test('the header names a level as the library does, with its collection', async () => {
  const { context, page, errors } = await person();
  try {
    const [one, fortyThree, big] = await numberedLevels(page);
    for (const [level, name, sub] of [[one, 'Level 1', 'Numbered · 1 of 3'], [fortyThree, 'Level 43', 'Numbered · 2 of 3'],
      [big, 'Big room', 'Numbered · 3 of 3']]) {
      await openLevel(page, level);
      const shown = await page.evaluate(() => [document.getElementById('game-h').textContent,
        document.getElementById('g-sub').textContent]);
      assert.deepEqual(shown, [name, sub], `the header of the level titled "${level.title}" at position ${level.position}`);
    }
    await page.screenshot({ path: screenshotPath('game-header-numbered.png') });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a solved level reopened says the player\'s best on it', async () => {
  const { context, page, errors } = await person();
  try {
    await page.goto(`${server.url}/`);
    const [first, second] = await tutorialLevels(page);
    const moves = first.solution.length, pushes = first.solution.replace(/[lurd]/g, '').length;
    await page.goto(`${server.url}/#/play/${first.id}`);
    await waitForGame(page, first.title);
    assert.equal(await page.isVisible('#g-best'), false, 'an unsolved level says no best');
    // A longer solution first ("rl" walks back and forth), then the shortest:
    // the best is the least of each count.
    await press(page, arrows(`rl${first.solution}`));
    await page.waitForSelector('#solved:not([hidden])');
    await waitSynced(page);
    await page.goto(`${server.url}/#/play/${second.id}`);
    await waitForGame(page, second.title);
    assert.equal(await page.isVisible('#g-best'), false, `the unsolved "${second.title}" says no best`);
    await page.goto(`${server.url}/#/play/${first.id}`);
    await waitForGame(page, first.title);
    await page.waitForSelector('#g-best:not([hidden])', { timeout: 10000 }).catch(() => {});
    const line = await page.evaluate(() => {
      const e = document.getElementById('g-best');
      return e && !e.hidden ? e.textContent : null;
    });
    assert.equal(line, `Solved · best ${moves + 2} moves, ${pushes} pushes`,
      `"${first.title}" reopened after solving it with "rl${first.solution}"`);
    // The game reopened at its solved position: restart and solve it better.
    await press(page, ['r']);
    await press(page, arrows(first.solution));
    await page.waitForFunction((t) => document.getElementById('g-best').textContent === t,
      `Solved · best ${moves} moves, ${pushes} pushes`, { timeout: 10000 }).catch(() => {});
    assert.equal(await page.textContent('#g-best'), `Solved · best ${moves} moves, ${pushes} pushes`,
      'the line follows a better solution at once');
    await page.screenshot({ path: screenshotPath('game-solved-best.png') });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

for (const [size, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`the solved card leaves the board's final position in view (${size})`, async () => {
    const { context, page, errors } = await person(options);
    try {
      const big = (await numberedLevels(page))[2];
      await openLevel(page, big);
      await press(page, ['ArrowRight']);
      await page.waitForSelector('#solved:not([hidden])');
      // The board fits again in what the card leaves it.
      await page.waitForTimeout(300);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const board = await rect(page, '#board'), card = await rect(page, '#solved .solved-card');
      const apart = board.bottom <= card.top + 1 || board.right <= card.left + 1 || card.right <= board.left + 1;
      await page.screenshot({ path: screenshotPath(`solved-card-big-${size}.png`) });
      assert.ok(apart, `the board ${JSON.stringify(board)} and the solved card ${JSON.stringify(card)} overlap`);
      assert.ok(board.top >= 0 && board.bottom <= options.viewport.height, `the board is on the screen: ${JSON.stringify(board)}`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('"?" and F1 open the list of keys and Escape closes it', async () => {
  const { context, page, errors } = await person();
  try {
    // "#@ $.#": a step right and back push nothing.
    const fortyThree = (await numberedLevels(page))[1];
    await openLevel(page, fortyThree);
    for (const [i, key] of ['?', 'F1'].entries()) {
      await page.focus('#board');
      await page.keyboard.press(key);
      await page.waitForSelector('#keys[open]', { timeout: 3000 }).catch(() => {});
      const open = await page.evaluate(() => {
        const d = document.getElementById('keys');
        return d ? {
          open: d.open, modal: d.matches(':modal'), focusInside: d.contains(document.activeElement),
          label: document.getElementById(d.getAttribute('aria-labelledby'))?.textContent,
          lists: /Undo/.test(d.textContent) && /Restart/.test(d.textContent),
        } : null;
      });
      assert.deepEqual(open, { open: true, modal: true, focusInside: true, label: 'Keys', lists: true },
        `pressing "${key}" on the game screen`);
      if (key === '?') await page.screenshot({ path: screenshotPath('keys-list.png') });
      await page.keyboard.press('Escape');
      await page.waitForSelector('#keys', { state: 'hidden' });
      const after = await page.evaluate(() => ({ menu: document.getElementById('game-menu').open,
        focus: document.activeElement?.id }));
      assert.deepEqual(after, { menu: false, focus: 'board' }, `Escape after "${key}": the list closes, the menu stays shut`);
      // The board plays again.
      await press(page, [i === 0 ? 'ArrowRight' : 'ArrowLeft']);
      await page.waitForFunction((n) => document.body.dataset.moves === n, String(i + 1));
    }
    // The menu's Keys opens the same list.
    await page.keyboard.press('Escape');
    await page.waitForSelector('#game-menu[open]');
    await page.click('#game-menu [data-menu="keys"]');
    await page.waitForSelector('#keys[open]');
    await page.click('#keys-close');
    await page.waitForSelector('#keys', { state: 'hidden' });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
