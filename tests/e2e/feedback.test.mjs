// Feedback and reward: what the player hears and sees after each action,
// on the solved card and in the library.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, openBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, localPosition, press, arrows, screenshotPath, clickSquare } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser({ viewport: { width: 1280, height: 800 } })));
after(() => closeAll(server, browser));

/** Presses a key and waits until the polite live region says something new. */
async function heard(page, key) {
  await page.evaluate(() => { document.getElementById('live-polite').textContent = ''; });
  await page.keyboard.press(key);
  await page.waitForFunction(() => document.getElementById('live-polite').textContent !== '');
  return page.textContent('#live-polite');
}

test('announcements count one move and one push in the singular', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page))[0]; // "#@ $ .#": right, then pushes right
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  // The level's own announcement first, which would replace a step's.
  await page.waitForFunction((t) => document.getElementById('live-polite').textContent.startsWith(t), level.title);
  assert.equal(await heard(page, 'ArrowRight'), 'Move right. 1 move, 0 pushes');
  assert.equal(await heard(page, 'ArrowRight'), 'Push right. 2 moves, 1 push');
  assert.match(await page.getAttribute('#board', 'aria-label'), /, 2 moves, 1 push$/);
  assert.equal(await heard(page, 'z'), 'Undone. 1 move, 0 pushes');
  await waitSynced(page);
  assert.deepEqual(errors, []);
});

/** The badge on a level's card in the library ('' for none), as the
 * server says now: the cards of an earlier visit stay in the page until
 * the fresh ones replace them, so those are marked and waited out. */
async function badgeOf(page, level) {
  await page.evaluate(() => document.querySelectorAll('.level-card').forEach((c) => { c.dataset.stale = '1'; }));
  await page.goto(`${page.url().replace(/#.*/, '')}#/library/${level.collection_id}`);
  await page.waitForSelector(`.level-card[data-level="${level.id}"]:not([data-stale])`);
  return page.evaluate((id) => document.querySelector(`.level-card[data-level="${id}"] .badge`)?.textContent ?? '', level.id);
}

test('a level opened without a move is not marked "Started"; a move starts it', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page))[3];
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  assert.equal(await badgeOf(page, level), '', 'opened and left without a move: no badge');
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await page.keyboard.press('ArrowUp');
  await waitSynced(page);
  assert.equal(await badgeOf(page, level), 'Started', 'after a move the level is started');
  assert.deepEqual(errors, []);
});

/** Plays `keys` from the start of the level shown and waits for the solved
 * card to tell the player's standing; returns the card's texts. */
async function solveAndRead(page, keys, shot = '') {
  if ((await localPosition(page)).moves > 0) await page.keyboard.press('r');
  await press(page, keys);
  await page.waitForSelector('#solved:not([hidden])');
  await page.waitForFunction(() => document.getElementById('solved-rank').textContent !== '', null, { timeout: 10000 });
  const card = await page.evaluate(() => ({
    rank: document.getElementById('solved-rank').textContent,
    newBest: !document.getElementById('solved-new').hidden,
  }));
  if (shot) await page.screenshot({ path: screenshotPath(shot) });
  await page.keyboard.press('Escape'); // stay on the level
  return card;
}

test('the solved card shows the player\'s best and rank, and says "New best"', async () => {
  const b = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    const { page, errors } = b;
    await page.goto(`${server.url}/`);
    const level = (await tutorialLevels(page))[0]; // "#@ $ .#"
    await page.goto(`${server.url}/#/play/${level.id}`);
    await waitForGame(page, level.title);
    // A guest: ranked where it would stand, but listed to nobody.
    const guest = 'Your best: 3 moves, 2 pushes · sign up to be listed: rank 1 of 1';
    let card = await solveAndRead(page, arrows('rRR'), 'feedback-solved-desktop.png');
    assert.deepEqual(card, { rank: guest, newBest: true }, 'a first solution is a new best');
    card = await solveAndRead(page, arrows('rlrRR'));
    assert.deepEqual(card, { rank: guest, newBest: false }, 'a longer solution is not');
    card = await solveAndRead(page, arrows('rRR'));
    assert.equal(card.newBest, false, 'the same best again is not a new one');
    // The leaderboard tells the guest the same: it is not on it yet.
    await page.goto(`${server.url}/#/board/${level.id}`);
    await page.waitForFunction(() => !!document.querySelector('#board-plain .board-total')?.textContent);
    assert.equal(await page.textContent('#board-plain .board-total'), 'Nobody is listed yet: sign up to be the first.');
    assert.match(await page.textContent('#board-plain .board-you'), /^Your rank: 1 \(sign up to be listed\)/);

    // Signed up, the same solution is listed, and ranked of those listed.
    await page.goto(`${server.url}/#/account`);
    await page.fill('#acc-signup input[name="username"]', 'ranked');
    await page.fill('#acc-signup input[name="password"]', 'a password');
    await page.click('#acc-signup button[type="submit"]');
    await page.waitForFunction(() => /Signed in as ranked/.test(document.getElementById('acc-status').textContent));
    await page.goto(`${server.url}/#/play/${level.id}`);
    await waitForGame(page, level.title);
    card = await solveAndRead(page, arrows('rRR'));
    assert.equal(card.rank, 'Your best: 3 moves, 2 pushes · rank 1 of 1');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

/** Clicks (or taps) square (x, y) in point mode and reads the mark it
 * leaves on the board, as it is put there (it stays a moment only):
 * {text, x, y} (its centre, in board squares), or null. */
async function missAt(page, x, y, shot = '', tap = false) {
  const seen = await page.evaluate(() => {
    if (!window.testMisses) {
      window.testMisses = [];
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of r.addedNodes) {
            if (!n.classList?.contains('point-miss')) continue;
            const m = n.getBoundingClientRect(), b = document.getElementById('board').getBoundingClientRect();
            const { width, height } = window.sokod.position();
            window.testMisses.push({
              text: n.textContent.trim(),
              x: Math.floor(((m.left + m.width / 2 - b.left) / b.width) * width),
              y: Math.floor(((m.top + m.height / 2 - b.top) / b.height) * height),
            });
          }
        }
      }).observe(document.getElementById('board-frame'), { childList: true });
    }
    return window.testMisses.length;
  });
  await clickSquare(page, x, y, tap);
  if (shot) await page.screenshot({ path: screenshotPath(shot) });
  return page.waitForFunction((n) => window.testMisses[n] ?? null, seen, { timeout: 2000 })
    .then((h) => h.jsonValue()).catch(() => null);
}

test('a point-mode click that leads nowhere shows why, on the square', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page)).find((l) => /Down the corridor/.test(l.title));
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  const before = await localPosition(page);
  // The board as the server gives it: the box at (2, 2), the corridor below it.
  assert.deepEqual(await missAt(page, 1, 3), { text: 'Wall', x: 1, y: 3 }, 'a click on a wall');
  assert.deepEqual(await missAt(page, 2, 4, 'feedback-point-miss-desktop.png'), { text: 'No way there', x: 2, y: 4 },
    'a click below the box, out of reach');
  const after = await localPosition(page);
  assert.equal(after.moves, before.moves, 'neither click moved the player');
  assert.deepEqual(errors, []);
});

test('on a phone: the solved card with its rank, and a tap that leads nowhere', async () => {
  const phone = await openBrowser({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  try {
    const { page, errors } = phone;
    await page.goto(`${server.url}/`);
    const levels = await tutorialLevels(page);
    await page.goto(`${server.url}/#/play/${levels[0].id}`);
    await waitForGame(page, levels[0].title);
    await press(page, arrows('rRR'));
    await page.waitForSelector('#solved:not([hidden])');
    const overflow = await page.evaluate(() => [...document.querySelectorAll('#solved button, #solved .button')]
      .filter((b) => !b.hidden).map((b) => b.getBoundingClientRect())
      .filter((r) => r.left < 0 || r.right > innerWidth).length);
    assert.equal(overflow, 0, 'every button of the solved card is on the screen');
    await page.keyboard.press('Escape');
    const card = await solveAndRead(page, arrows('rRR'), 'feedback-solved-phone.png');
    assert.equal(card.rank, 'Your best: 3 moves, 2 pushes · sign up to be listed: rank 2 of 2',
      'a guest, behind the one listed player');
    const level = levels.find((l) => /Down the corridor/.test(l.title));
    await page.goto(`${server.url}/#/play/${level.id}`);
    await waitForGame(page, level.title);
    assert.deepEqual(await missAt(page, 2, 4, 'feedback-point-miss-phone.png', true), { text: 'No way there', x: 2, y: 4 },
      'a tap out of reach is marked as a click is');
    assert.deepEqual(errors, []);
  } finally {
    await phone.close();
  }
});
