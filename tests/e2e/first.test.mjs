// The first minute: the title screen fits short windows and groups its
// buttons, "Play" continues where the player left off, the tutorial's
// lessons sit on the board, and the last level of a collection leads on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerAndBrowser, openBrowser, closeAll, screenshotPath, tutorialLevels, waitForGame, waitSynced, press, arrows, importLevels, tempDir, apiGet, clickSquare, sendAccountForm, localPosition } from './harness.mjs';

let server, browser, phone;
before(async () => {
  ({ server, browser } = await startServerAndBrowser({ viewport: { width: 1280, height: 800 } }));
  phone = await openBrowser({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
});
after(() => closeAll(server, browser, phone));

/** Screenshots of the page at `hash` on the desktop (1280x800) and on the
 * phone (390x844, touch), once `ready` (a selector) shows. */
async function shoot(name, hash, ready) {
  for (const [device, b] of [['desktop', browser], ['phone', phone]]) {
    await b.page.goto(`${server.url}/${hash}`);
    await b.page.waitForSelector(ready);
    await b.page.waitForTimeout(300);
    await b.page.screenshot({ path: screenshotPath(`first-${name}-${device}.png`) });
  }
}

/** Where the title screen's first and last things are once scrolled to
 * each end of the screen (page coordinates), and the viewport's height. */
async function titleEnds(page) {
  return page.evaluate(() => {
    const screen = document.getElementById('screen-title');
    screen.scrollTop = 0;
    const art = document.getElementById('title-art').getBoundingClientRect();
    screen.scrollTop = screen.scrollHeight;
    const user = document.getElementById('title-user').getBoundingClientRect();
    screen.scrollTop = 0;
    return { artTop: art.top, artHeight: art.height, userBottom: user.bottom, height: innerHeight };
  });
}

test('the title screen can be seen whole on short windows', async () => {
  const { page, errors } = browser;
  for (const [width, height] of [[1280, 800], [1366, 650], [1024, 560], [390, 844], [390, 600]]) {
    await page.setViewportSize({ width, height });
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#screen-title:not([hidden])');
    const ends = await titleEnds(page);
    assert.ok(ends.artTop >= 0 && ends.artHeight > 40,
      `at ${width}x${height} the title art can be scrolled into view: its top is at ${ends.artTop} px`);
    assert.ok(ends.userBottom <= ends.height + 1,
      `at ${width}x${height} the foot of the title screen can be scrolled into view: it ends at ${ends.userBottom} of ${ends.height} px`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await shoot('title', '#/', '#screen-title:not([hidden])');
  assert.deepEqual(errors, []);
});

test('the title screen groups its buttons', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/#/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  const layout = await page.evaluate(() => {
    const menu = document.querySelector('#screen-title .menu');
    const groups = [...menu.querySelectorAll('[role="group"]')].map((g) => ({
      name: document.getElementById(g.getAttribute('aria-labelledby'))?.textContent ?? '',
      items: [...g.querySelectorAll('a, button')].map((b) => b.textContent.trim()),
    }));
    const loose = [...menu.children].filter((el) => el.matches('a, button') && !el.hidden).map((b) => b.textContent.trim());
    return { groups, loose };
  });
  assert.ok(layout.groups.length >= 2 && layout.groups.every((g) => g.name && g.items.length > 0),
    `the menu is in named groups: ${JSON.stringify(layout.groups)}`);
  assert.deepEqual(layout.loose.length, 1, `only "Play" stands alone: ${layout.loose}`);
  const daily = layout.groups.find((g) => g.items.includes('Daily puzzle'));
  assert.ok(daily && daily.items.includes('Daily board'), 'the daily puzzle and its board share a group');
  assert.deepEqual(errors, []);
});

/** Where the title screen's "Play" leads once it knows: {href, text, what}. */
async function playButton(page) {
  await page.goto(`${server.url}/#/`);
  await page.waitForSelector('#screen-title:not([hidden]) #title-play[data-ready]', { timeout: 10000 });
  return page.evaluate(() => ({
    href: document.getElementById('title-play').getAttribute('href'),
    text: document.getElementById('title-play').textContent,
    what: document.getElementById('title-play-what').textContent,
  }));
}

test('"Play" starts a new player on First Steps 1, then continues where the player left off', async () => {
  // A fresh browser: a new player.
  const b = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    const { page, errors } = b;
    await page.goto(`${server.url}/`);
    const levels = await tutorialLevels(page);
    let play = await playButton(page);
    assert.deepEqual([play.href, play.text], [`#/play/${levels[0].id}`, 'Play'], `a new player starts on First Steps 1: ${JSON.stringify(play)}`);
    assert.match(play.what, /First Steps · 1\. First push/);
    await page.click('#title-play');
    await waitForGame(page, levels[0].title);

    // A move on level 3 (unsolved): "Play" continues it.
    await page.goto(`${server.url}/#/play/${levels[2].id}`);
    await waitForGame(page, levels[2].title);
    await page.keyboard.press('ArrowLeft');
    await waitSynced(page);
    play = await playButton(page);
    assert.deepEqual([play.href, play.text], [`#/play/${levels[2].id}`, 'Continue'], `the level played last, unsolved: ${JSON.stringify(play)}`);

    // Looking at another level without a move changes nothing.
    await page.goto(`${server.url}/#/play/${levels[6].id}`);
    await waitForGame(page, levels[6].title);
    play = await playButton(page);
    assert.equal(play.href, `#/play/${levels[2].id}`, 'a level only opened is not the one played last');

    // A move in a multi-push game: "Play" continues that game, not the
    // standard one.
    await page.goto(`${server.url}/#/play/${levels[5].id}/multipush`);
    await page.waitForFunction(() => /Multi-push/.test(document.getElementById('g-sub').textContent));
    for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']) {
      await page.keyboard.press(key);
      if ((await localPosition(page)).moves > 0) break;
    }
    await waitSynced(page);
    play = await playButton(page);
    assert.deepEqual([play.href, play.text], [`#/play/${levels[5].id}/multipush`, 'Continue'],
      `the multi-push game played last: ${JSON.stringify(play)}`);
    assert.match(play.what, /Multi-push$/);

    // Solved: "Play" goes on to the next unsolved level of the collection.
    await page.goto(`${server.url}/#/play/${levels[2].id}`);
    await waitForGame(page, levels[2].title);
    await page.keyboard.press('r');
    await press(page, arrows(levels[2].solution));
    await page.waitForSelector('#solved:not([hidden])');
    await waitSynced(page);
    play = await playButton(page);
    assert.deepEqual([play.href, play.text], [`#/play/${levels[3].id}`, 'Play'], `after solving level 3, level 4: ${JSON.stringify(play)}`);
    assert.match(play.what, /First Steps · 4\. Corners are traps/);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('the solved card of a collection\'s last level offers the next collection', async () => {
  const file = join(tempDir(), 'second.sok');
  writeFileSync(file, 'Collection: Second Steps\n\n#####\n#@$.#\n#####\nTitle: One more push\n');
  importLevels(server.db, file);
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const levels = await tutorialLevels(page);
  const last = levels[levels.length - 1];
  const second = (await apiGet(page, '/collections')).body.collections.find((c) => c.name === 'Second Steps');
  assert.ok(second, 'the second collection is listed');
  await page.goto(`${server.url}/#/play/${last.id}`);
  await waitForGame(page, last.title);
  await press(page, arrows(last.solution));
  await page.waitForSelector('#solved:not([hidden])');
  await page.waitForSelector('#solved-next:not([hidden])', { timeout: 10000 });
  assert.equal(await page.textContent('#solved-next-label'), 'Play Second Steps', 'the card offers the next collection');
  assert.match(await page.textContent('#solved-best'), /last level of this collection\. Next: Second Steps/);
  await page.screenshot({ path: screenshotPath('first-next-collection-desktop.png') });
  await page.keyboard.press('Enter');
  await waitForGame(page, 'One more push');
  assert.deepEqual(errors, []);
});

/** The lesson bubble as the page shows it: its text, where it is and
 * where its arrow points (client pixels), or null when hidden. */
async function lessonOf(page) {
  // Measured once its entrance (a scale) has ended.
  await page.waitForFunction(() => !document.getElementById('lesson')?.getAnimations().some((a) => a.playState === 'running'));
  return page.evaluate(() => {
    const b = document.getElementById('lesson');
    if (!b || b.hidden) return null;
    const r = b.getBoundingClientRect();
    const arrow = getComputedStyle(b, '::after');
    return {
      text: document.getElementById('lesson-text').textContent, side: b.dataset.side,
      left: r.left, right: r.right, top: r.top, bottom: r.bottom,
      arrowX: r.left + parseFloat(b.style.getPropertyValue('--arrow-x')), arrowShown: arrow.content !== 'none',
      reach: parseFloat(b.style.getPropertyValue('--reach')),
    };
  });
}

test('a tutorial lesson sits beside the box it is about, until dismissed', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const levels = await tutorialLevels(page);
  const level = levels[1]; // "Around the box": the box at (2, 2)
  const comment = (await apiGet(page, `/levels/${level.id}`)).body.level.comment;
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await page.waitForSelector('#lesson:not([hidden])', { timeout: 5000 }).catch(() => {});
  const lesson = await lessonOf(page);
  assert.ok(lesson, 'the lesson is shown on the board');
  assert.equal(lesson.text, comment);
  const board = await page.locator('#board').boundingBox();
  const { width, height } = await page.evaluate(() => window.sokod.position());
  const size = board.width / width;
  const box = { x: board.x + 2.5 * size, top: board.y + 2 * size, bottom: board.y + 3 * size };
  assert.ok(Math.abs(lesson.arrowX - box.x) < 2 && lesson.arrowShown, `the arrow points at the box: ${lesson.arrowX} vs ${box.x}`);
  const gap = lesson.side === 'above' ? box.top - lesson.bottom : lesson.top - box.bottom;
  assert.ok(gap >= 0 && Math.abs(gap - lesson.reach - 2) < 2,
    `the line from the lesson ends at the box (${lesson.side}, ${gap} px away, the line ${lesson.reach} px)`);
  const player = { x: board.x + 1.5 * size, y: board.y + 1.5 * size };
  const covers = player.x > lesson.left && player.x < lesson.right && player.y > lesson.top && player.y < lesson.bottom;
  assert.ok(!covers && height > 0, 'the lesson leaves the player in sight');
  assert.doesNotMatch(await page.textContent('#g-hint'), new RegExp(comment.slice(0, 20)), 'not again at the foot');
  await shoot('lesson', `#/play/${level.id}`, '#lesson:not([hidden])');

  await page.click('#lesson-close');
  assert.equal(await lessonOf(page), null, '"Got it" dismisses the lesson');
  await page.reload();
  await waitForGame(page, level.title);
  await page.waitForTimeout(500);
  assert.equal(await lessonOf(page), null, 'a dismissed lesson stays dismissed');

  // A click on the board under a lesson reaches the board. In a short
  // window "Side by side" fills the frame: its lesson lies on the board
  // (open floor from (1, 1) to (6, 4), boxes at (2, 2) and (3, 2)).
  await page.setViewportSize({ width: 1280, height: 520 });
  const side = levels.find((l) => /Side by side/.test(l.title));
  await page.goto(`${server.url}/#/play/${side.id}`);
  await waitForGame(page, side.title);
  await page.waitForSelector('#lesson:not([hidden])', { timeout: 5000 });
  const over = await lessonOf(page);
  const p = await page.locator('#board').boundingBox();
  const sq = p.width / 8;
  const button = await page.locator('#lesson-close').boundingBox();
  let under = null;
  for (let y = 1; y <= 4 && !under; y++) {
    for (let x = 1; x <= 6 && !under; x++) {
      const cx = p.x + (x + 0.5) * sq, cy = p.y + (y + 0.5) * sq;
      const inside = (r) => cx > r.left && cx < r.right && cy > r.top && cy < r.bottom;
      const onButton = inside({ left: button.x, right: button.x + button.width, top: button.y, bottom: button.y + button.height });
      if (inside(over) && !onButton && !(y === 2 && (x === 2 || x === 3))) under = { x, y };
    }
  }
  assert.ok(under, `the lesson lies on the board: ${JSON.stringify(over)}`);
  await clickSquare(page, under.x, under.y);
  const at = (await page.evaluate(() => window.sokod.position())).player;
  assert.equal(at, under.y * 8 + under.x, `a click on (${under.x}, ${under.y}), under the lesson, walks there`);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Another lesson goes away with the first push.
  const first = levels[0];
  await page.goto(`${server.url}/#/play/${first.id}`);
  await waitForGame(page, first.title);
  await page.waitForSelector('#lesson:not([hidden])', { timeout: 5000 });
  await press(page, arrows('rR'));
  await page.waitForSelector('#lesson', { state: 'hidden', timeout: 5000 });
  assert.deepEqual(errors, []);
});

test('screenshots: the daily puzzle\'s header and the library\'s marks', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/#/`);
  const daily = (await apiGet(page, '/daily')).body;
  await shoot('daily', `#/play/${daily.level.id}`, '#g-sub:not(:empty)');
  assert.equal(await page.textContent('#g-sub'), 'Daily puzzles');
  const levels = await tutorialLevels(page);
  await shoot('library', `#/library/${levels[0].collection_id}`, '.level-card canvas');
  assert.deepEqual(errors, []);
});

test('"Play" on another device continues the level the account played last', async () => {
  const a = await openBrowser({ viewport: { width: 1280, height: 800 } });
  const b = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    await sendAccountForm(a.page, server.url, 'signup', 'firstminute', 'hunter22hunter');
    await a.page.waitForFunction(() => /firstminute/.test(document.getElementById('acc-status').textContent));
    const levels = await tutorialLevels(a.page);
    // The account's latest game is a multi-push one.
    await a.page.goto(`${server.url}/#/play/${levels[4].id}/multipush`);
    await waitForGame(a.page, levels[4].title);
    await a.page.keyboard.press('ArrowUp');
    await waitSynced(a.page);

    await sendAccountForm(b.page, server.url, 'login', 'firstminute', 'hunter22hunter');
    await b.page.waitForFunction(() => /firstminute/.test(document.getElementById('acc-status').textContent));
    const play = await playButton(b.page);
    assert.deepEqual([play.href, play.text], [`#/play/${levels[4].id}/multipush`, 'Continue'],
      `a new device continues the account's unsolved level, under its rule: ${JSON.stringify(play)}`);
    assert.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    await a.close();
    await b.close();
  }
});
