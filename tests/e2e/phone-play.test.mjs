// Playing on a phone (390 by 844, touch, devicePixelRatio 3): every counter
// and the "undo the last push" button on screen, big boards zoomed with two
// fingers, panned, following the player, and turned a quarter when that
// makes their squares larger.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, waitSynced, tutorialLevels, localPosition, press, arrows, clickSquare, screenshotPath } from './harness.mjs';
import { openRoom } from './rooms.mjs';

let server, phone;
before(async () => ({ server, browser: phone } = await startServerAndBrowser({
  viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
})));
after(() => closeAll(server, phone));

/** Whether an element is shown whole inside the viewport. */
async function onScreen(page, selector) {
  return page.evaluate((sel) => {
    const e = document.querySelector(sel);
    if (!e || !e.checkVisibility()) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 &&
      r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  }, selector);
}

test('the goals counter and an undo-push button are on a phone screen', async () => {
  const { page, errors } = phone;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page))[4]; // "Order matters": two boxes
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  for (const id of ['g-moves', 'g-pushes', 'g-goals', 'g-undo', 'g-undo-push', 'g-redo', 'g-restart', 'g-next']) {
    assert.equal(await onScreen(page, `#${id}`), true, `#${id} is shown whole on a 390 px wide screen`);
  }
  assert.equal(await page.textContent('#g-goals'), '0/2', 'the goals counter counts boxes on goals');

  await press(page, arrows('uurrrrDu'));
  let local = await localPosition(page);
  assert.deepEqual([local.moves, local.pushes], [8, 1], 'uurrrrDu: 8 moves, one push');
  await page.tap('#g-undo-push');
  await page.waitForFunction(() => window.sokod.position().moves === 6);
  local = await localPosition(page);
  assert.deepEqual([local.moves, local.pushes, local.redo], [6, 0, 2], 'the button undoes back to before the push');
  await waitSynced(page);
  assert.deepEqual(errors, []);
});

/** Fingers on the screen through CDP: each step is a list of [x, y], one
 * per finger, and the fingers lift after the last. */
async function touch(page, steps) {
  const cdp = await page.context().newCDPSession(page);
  const points = (at) => at.map(([x, y], i) => ({ x, y, id: i + 1, radiusX: 4, radiusY: 4, force: 1 }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(steps[0]) });
  for (const at of steps.slice(1)) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(at) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Two fingers about (x, y), `from` pixels apart, spread to `to` apart while
 * both move by (dx, dy). */
function pinch(page, x, y, from, to, dx = 0, dy = 0, n = 6) {
  const steps = [];
  for (let i = 0; i <= n; i++) {
    const half = (from + ((to - from) * i) / n) / 2, cx = x + (dx * i) / n, cy = y + (dy * i) / n;
    steps.push([[cx - half, cy], [cx + half, cy]]);
  }
  return touch(page, steps);
}

/** One finger from the frame's centre, moved by (dx, dy). */
async function swipe(page, dx, dy) {
  const f = await page.locator('#board-frame').boundingBox();
  const x = f.x + f.width / 2, y = f.y + f.height / 2;
  await touch(page, [0, 1, 2, 3, 4].map((i) => [[x + (dx * i) / 4, y + (dy * i) / 4]]));
}

/** The board's square size in CSS pixels, the frame's box, whether the
 * board is drawn turned (taller than the level is), and the client box of
 * the player's square. A turned board is turned a quarter clockwise: the
 * level's square (x, y) shows in column height - 1 - y, row x. */
async function view(page) {
  return page.evaluate(() => {
    const b = document.getElementById('board').getBoundingClientRect();
    const f = document.getElementById('board-frame').getBoundingClientRect();
    const p = window.sokod.position();
    const turned = p.width !== p.height && (b.width > b.height) !== (p.width > p.height);
    const square = b.width / (turned ? p.height : p.width);
    const px = p.player % p.width, py = Math.floor(p.player / p.width);
    const [col, row] = turned ? [p.height - 1 - py, px] : [px, py];
    const x = b.left + col * square, y = b.top + row * square;
    return { square, turned, board: [b.left, b.top, b.width, b.height], frame: [f.left, f.top, f.right, f.bottom],
      player: [x, y, x + square, y + square], cell: [col, row] };
  });
}

const inside = (v) => v.player[0] >= v.frame[0] - 0.5 && v.player[1] >= v.frame[1] - 0.5 &&
  v.player[2] <= v.frame[2] + 0.5 && v.player[3] <= v.frame[3] + 0.5;

test('two fingers zoom and pan a big board; taps and swipes still play', async () => {
  const { page, errors } = phone;
  await openRoom(page, server, 24, 40, 'The tall hall');
  const fit = await view(page);
  assert.equal(fit.turned, false, 'a tall board is never turned');
  const [fx, fy] = [(fit.frame[0] + fit.frame[2]) / 2, (fit.frame[1] + fit.frame[3]) / 2];

  await pinch(page, fx, fy, 60, 200);
  const zoomed = await view(page);
  assert.ok(zoomed.square >= 2 * fit.square,
    `spreading two fingers from 60 to 200 px zooms in: squares of ${fit.square} px became ${zoomed.square} px`);
  assert.ok(zoomed.board[2] > fit.frame[2] - fit.frame[0], 'the zoomed board is wider than its frame');

  // Two fingers moved together, the same distance apart, pan the board:
  // toward the side where the board has room to move (the zoom centred
  // it on the player, who may stand near either edge).
  const roomRight = fit.frame[0] - zoomed.board[0];
  const roomLeft = zoomed.board[0] + zoomed.board[2] - fit.frame[2];
  assert.ok(Math.max(roomRight, roomLeft) >= 120, `the zoomed board can move 120 px one way: ${roomLeft} left, ${roomRight} right`);
  const dx = roomRight >= roomLeft ? 120 : -120;
  // A phone reports each finger's move on its own (as CDP's touches do
  // here), so the spread changes at every other event: the board must
  // follow the fingers exactly all the same, there and back, its zoom
  // untouched.
  let from = zoomed;
  for (const d of [dx, -dx]) {
    await pinch(page, fx, fy, 80, 80, d, 0);
    const panned = await view(page);
    const moved = panned.board[0] - from.board[0];
    assert.ok(Math.abs(moved - d) <= 2,
      `moving two fingers ${d} px across moves the board as far: its left edge went from ${from.board[0]} to ${panned.board[0]} (${moved} px)`);
    assert.equal(panned.square, zoomed.square, `moving two fingers ${d} px across, apart as they were, keeps the zoom`);
    from = panned;
  }
  assert.equal((await localPosition(page)).moves, 0, 'a pinch is neither a tap nor a swipe');

  // Two fingers bring the player to the frame's centre; then a tap walks
  // and a swipe steps at this zoom.
  const far = await view(page);
  const toCentre = [0, 1].map((i) => Math.round(fit.frame[i] + fit.frame[i + 2] - far.player[i] - far.player[i + 2]) / 2);
  await pinch(page, fx, fy, 80, 80, toCentre[0], toCentre[1]);
  const back = await view(page);
  assert.ok(inside(back), `the player's square ${back.player} is in the frame ${back.frame}`);
  await clickSquare(page, 4, 3, true);
  let local = await localPosition(page);
  assert.equal(local.player, 3 * 24 + 4, `a tap on (4, 3) walks there, not to ${local.player}`);
  await swipe(page, 0, 60);
  local = await localPosition(page);
  assert.equal(local.player, 4 * 24 + 4, `a swipe down steps to (4, 4), not to ${local.player}`);
  await page.screenshot({ path: screenshotPath('phone-zoomed.png') });

  // The view follows the player across the board.
  await press(page, arrows(`${'r'.repeat(18)}${'d'.repeat(30)}`));
  local = await localPosition(page);
  assert.equal(local.player, 34 * 24 + 22, `the walk ended at (22, 34), not ${local.player}`);
  // The last steps are still animating: give the view until they end.
  await page.waitForFunction(() => {
    const b = document.getElementById('board').getBoundingClientRect();
    const f = document.getElementById('board-frame').getBoundingClientRect();
    const square = b.width / 24, x = b.left + 22 * square, y = b.top + 34 * square;
    return x >= f.left && y >= f.top && x + square <= f.right && y + square <= f.bottom;
  }, null, { timeout: 5000 }).catch(() => {});
  const followed = await view(page);
  assert.ok(inside(followed), `the view followed the player: its square ${followed.player} is in the frame ${followed.frame}`);

  // Pinching back in shows the whole board again.
  await pinch(page, fx, fy, 300, 20);
  const whole = await view(page);
  assert.ok(Math.abs(whole.square - fit.square) < 0.01, `zoomed back out to ${fit.square} px squares, not ${whole.square}`);
  await waitSynced(page);
  assert.deepEqual(errors, []);
});

/** Taps the centre of the level's square (x, y), wherever the board shows it. */
async function tapSquare(page, x, y) {
  const [cx, cy] = await page.evaluate(([sx, sy]) => {
    const b = document.getElementById('board').getBoundingClientRect();
    const p = window.sokod.position();
    const turned = (b.width > b.height) !== (p.width > p.height);
    const square = b.width / (turned ? p.height : p.width);
    const [col, row] = turned ? [p.height - 1 - sy, sx] : [sx, sy];
    return [b.left + (col + 0.5) * square, b.top + (row + 0.5) * square];
  }, [x, y]);
  await page.touchscreen.tap(cx, cy);
}

test('a wide board turns a quarter in a tall screen, and directions turn with it', async () => {
  const { page, errors } = phone;
  await openRoom(page, server, 30, 18, 'The long hall');
  const v = await view(page);
  const [fw, fh] = [v.frame[2] - v.frame[0], v.frame[3] - v.frame[1]];
  const straight = Math.min(fw / 30, fh / 18);
  assert.equal(v.turned, true, `the 30 by 18 board is drawn turned in the ${fw}x${fh} frame: ${v.board}`);
  assert.ok(v.square >= 1.25 * straight, `turned, its squares are ${v.square} px, not the ${straight} px of a straight board`);

  // A hint names the way its arrow points on screen, and its spoken form
  // names the squares as drawn: the box is on the square it names, and the
  // way from there to the square it names is the way the text says.
  await page.tap('#g-ask-hint');
  await page.waitForFunction(() => /push the box at/.test(document.getElementById('live-polite').textContent));
  const said = await page.textContent('#live-polite');
  const [, bc, br, way, tc, tr] = said.match(/column (\d+), row (\d+) (\w+), to column (\d+), row (\d+)/);
  const [c0, r0, c1, r1] = [bc, br, tc, tr].map((n) => Number(n) - 1);
  const onScreen = r1 < r0 ? 'up' : c1 > c0 ? 'right' : r1 > r0 ? 'down' : 'left';
  assert.equal(way, onScreen, `spoken: "${said}"`);
  const text = await page.textContent('#hint-text');
  assert.match(text, new RegExp(`push the box ${onScreen}\\b`), `a push ${onScreen} on screen shows as such: "${text}"`);
  // Drawn turned a quarter clockwise: the level's square (x, y) shows in
  // column height - 1 - y, row x.
  const p = await localPosition(page);
  const boxAt = (p.height - 1 - c0) * p.width + r0;
  assert.ok(p.boxes.includes(boxAt), `a box on the level's square ${boxAt % p.width},${Math.floor(boxAt / p.width)}, drawn at the column ${c0 + 1}, row ${r0 + 1} spoken: ${JSON.stringify(p.boxes)}`);
  await page.screenshot({ path: screenshotPath('phone-turned.png') });
  await page.tap('#hint-close');

  // Each way of stepping moves the player the way it points on screen:
  // counted in the drawn board's squares, which the page may move as a
  // whole meanwhile (the hint's panel closing).
  const moved = async (what, expected) => {
    const before = (await view(page)).cell, moves = (await localPosition(page)).moves;
    await what();
    await page.waitForFunction((n) => window.sokod.position().moves === n, moves + 1, { timeout: 5000 });
    const after = (await view(page)).cell;
    const d = [after[0] - before[0], after[1] - before[1]];
    assert.deepEqual(d, expected, `the player moved by ${d} squares on screen, not ${expected}`);
  };
  await moved(() => swipe(page, 0, -60), [0, -1]);
  await moved(() => swipe(page, 60, 0), [1, 0]);
  await moved(() => press(page, ['ArrowDown']), [0, 1]);
  await moved(() => press(page, ['ArrowLeft']), [-1, 0]);
  assert.equal((await localPosition(page)).player, 2 * 30 + 2, 'four steps around a square lead back to (2, 2)');
  await moved(() => swipe(page, 0, -60), [0, -1]);
  assert.equal((await localPosition(page)).player, 2 * 30 + 1, 'up on screen is left on the level: (1, 2)');

  // A tap walks to the square under the finger; pushing works as drawn.
  await tapSquare(page, 4, 9);
  assert.equal((await localPosition(page)).player, 9 * 30 + 4, 'a tap on (4, 9) walks there');
  await tapSquare(page, 5, 9);
  await tapSquare(page, 8, 9);
  await page.waitForFunction(() => window.sokod.position().pushes === 3);
  const local = await localPosition(page);
  assert.deepEqual(local.boxes, [9 * 30 + 8], 'tapping the box, then (8, 9), pushes it there');
  await waitSynced(page);
  assert.deepEqual(errors, []);
});
