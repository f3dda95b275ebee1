// What the level editor draws, read back from its canvas in every theme:
// a wall square and a goal square look different from a floor square of
// the same shade (the floor is checkered), whether they come with the blank
// room, from the Wall and Goal tools or from an imported level. The
// editor's other tests check the grid it holds; these check the pixels.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, screenshotPath, setTheme, THEMES } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser({ viewport: { width: 1280, height: 800 } })));
after(() => closeAll(server, browser));

async function openEditor(page) {
  await page.goto(`${server.url}/#/editor`);
  await page.waitForSelector('#ed-board');
  await page.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
}

async function clickSquare(page, x, y) {
  const box = await page.locator('#ed-board').boundingBox();
  const [w, h] = await page.evaluate(() => {
    const rows = window.sokod.editor.rows();
    return [rows[0].length, rows.length];
  });
  await page.mouse.click(box.x + ((x + 0.5) * box.width) / w, box.y + ((y + 0.5) * box.height) / h);
}

/** Takes the mouse and the focus off the board (no hover outline, no
 * keyboard cursor), then waits until the board has drawn two frames. */
async function settle(page) {
  await page.mouse.move(1, 1);
  await page.evaluate(() => document.activeElement?.blur());
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** How many pixels of square `a` differ from those of square `b` on the
 * editor's canvas (by more than a rounding in any channel), and how many
 * pixels a square has. */
async function squaresDiffer(page, a, b) {
  return page.evaluate(([a, b]) => {
    const canvas = document.getElementById('ed-board');
    const cols = window.sokod.editor.rows()[0].length;
    const t = Math.floor(canvas.width / cols);
    const ctx = canvas.getContext('2d');
    const pa = ctx.getImageData(a[0] * t, a[1] * t, t, t).data;
    const pb = ctx.getImageData(b[0] * t, b[1] * t, t, t).data;
    let n = 0;
    for (let i = 0; i < pa.length; i += 4) {
      if (Math.abs(pa[i] - pb[i]) > 8 || Math.abs(pa[i + 1] - pb[i + 1]) > 8 || Math.abs(pa[i + 2] - pb[i + 2]) > 8) n++;
    }
    return { differ: n, of: t * t };
  }, [a, b]);
}

/** Asserts that square `sq` (a `what`) is drawn unlike the floor square
 * `floor`: at least 2 % of its pixels differ. */
async function assertNotFloor(page, theme, what, sq, floor) {
  const { differ, of } = await squaresDiffer(page, sq, floor);
  const rows = await page.evaluate(() => window.sokod.editor.rows());
  assert.ok(differ >= of * 0.02,
    `${theme}: the ${what} at (${sq}) is drawn like the floor at (${floor}): ${differ} of ${of} pixels differ; ` +
    `the board holds ${JSON.stringify(rows)}`);
}

test('the blank room and the Wall and Goal tools draw walls and goals in every theme', async () => {
  const { page, errors } = browser;
  await openEditor(page);
  await page.click('#ed-new');
  await page.click('.ed-tool:has(input[value="wall"])');
  await clickSquare(page, 2, 2);
  await page.click('.ed-tool:has(input[value="goal"])');
  await clickSquare(page, 4, 2);
  assert.deepEqual(await page.evaluate(() => window.sokod.editor.rows()),
    ['#########', '#-------#', '#-#-.---#', '#-------#', '#-------#', '#-------#', '#########']);
  for (const theme of THEMES) {
    await setTheme(page, theme);
    await settle(page);
    // (6, 2) is floor of the same shade as (0, 0), (2, 2) and (4, 2).
    await assertNotFloor(page, theme, 'wall of the room', [0, 0], [6, 2]);
    await assertNotFloor(page, theme, 'painted wall', [2, 2], [6, 2]);
    await assertNotFloor(page, theme, 'painted goal', [4, 2], [6, 2]);
    await assertNotFloor(page, theme, 'painted goal', [4, 2], [2, 2]);
  }
  await setTheme(page, 'classic');
  await page.screenshot({ path: screenshotPath('editor-walls-goals.png') });
  assert.deepEqual(errors, []);
});

test('an imported level shows its walls and goals, not only the player and the box', async () => {
  const { page, errors } = browser;
  await openEditor(page);
  await page.click('#ed-import');
  await page.fill('#ed-import-text', '#######|#@ $ .#|# #   #|#######');
  await page.click('#ed-import-read');
  await page.waitForSelector('#ed-import-dialog', { state: 'hidden' });
  assert.deepEqual(await page.evaluate(() => window.sokod.editor.rows()),
    ['#######', '#@-$-.#', '#-#---#', '#######']);
  for (const theme of THEMES) {
    await setTheme(page, theme);
    await settle(page);
    // (4, 2) is floor of the same shade as (2, 2) and (5, 1).
    await assertNotFloor(page, theme, 'inner wall', [2, 2], [4, 2]);
    await assertNotFloor(page, theme, 'goal', [5, 1], [4, 2]);
    await assertNotFloor(page, theme, 'outer wall', [6, 3], [4, 2]);
  }
  await setTheme(page, 'classic');
  assert.deepEqual(errors, []);
});
