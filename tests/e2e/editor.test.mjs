// The level editor in a real browser: a level drawn by mouse and one by
// keyboard, the core's check naming a problem on its square and clearing
// once it is fixed, test play solved with the keys, undo and redo, the
// exported text read back by core.wasm here in node and compared square by
// square with the board the test drew, import by paste, and a reload that
// keeps the draft.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerAndBrowser, closeAll, screenshotPath, WASM, SOURCE_DIR } from './harness.mjs';
import { loadCore } from '../support/wasm_core.mjs';

const SHARED = process.env.SOKOD_SHARED_DIR || join(SOURCE_DIR, '..', 'shared');

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser({
  viewport: { width: 1280, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'],
})));
after(() => closeAll(server, browser));

// ---- The core, here in node, to read what the editor exports ------------------------------

const WALL = 1, GOAL = 2, BOX = 4, OUTSIDE = 8;

async function nodeCore() {
  const { x, alloc, mem } = await loadCore(WASM);
  const level = alloc(x.soko_sizeof_level()), err = alloc(x.soko_sizeof_error()), text = alloc(1 << 20);
  const reader = alloc(x.soko_sizeof_reader()), entry = alloc(x.soko_sizeof_entry());
  return {
    /** The first level of a file's text as rows: '#' wall, ' ' outside,
     * '-' floor, '.', '$', '*', '@', '+'. Throws the core's message. */
    firstLevelRows(source) {
      const bytes = new TextEncoder().encode(source);
      mem().set(bytes, text);
      x.soko_reader_init(reader, text, bytes.length);
      if (x.soko_reader_next(reader, entry) !== 1) throw new Error('no level in the text');
      const off = x.soko_entry_board_off(entry), len = x.soko_entry_board_len(entry);
      const rc = x.soko_level_parse(level, text + off, len, 1, err);
      if (rc !== 0) {
        const at = x.soko_error_message(err);
        let end = at;
        while (mem()[end]) end++;
        throw new Error(new TextDecoder().decode(mem().subarray(at, end)));
      }
      const w = x.soko_level_width(level), h = x.soko_level_height(level);
      const cells = mem().slice(x.soko_level_cells(level), x.soko_level_cells(level) + w * h);
      const player = x.soko_level_player(level);
      const rows = [];
      for (let y = 0; y < h; y++) {
        let row = '';
        for (let i = y * w; i < (y + 1) * w; i++) {
          const c = cells[i];
          let ch = c & WALL ? '#' : c & OUTSIDE ? ' ' : '-';
          if (c & BOX) ch = c & GOAL ? '*' : '$';
          else if (c & GOAL) ch = '.';
          if (i === player) ch = c & GOAL ? '+' : '@';
          row += ch;
        }
        rows.push(row);
      }
      return rows;
    },
  };
}

// ---- Driving the editor ----------------------------------------------------------------

async function openEditor(page) {
  await page.goto(`${server.url}/#/editor`);
  await page.waitForSelector('#ed-board');
  await page.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
}

/** Clicks the centre of square (x, y) of the editor's board. */
async function squareCentre(page, x, y) {
  const box = await page.locator('#ed-board').boundingBox();
  const [w, h] = await page.evaluate(() => {
    const rows = window.sokod.editor.rows();
    return [rows[0].length, rows.length];
  });
  return [box.x + ((x + 0.5) * box.width) / w, box.y + ((y + 0.5) * box.height) / h];
}

async function clickSquare(page, x, y) {
  const [px, py] = await squareCentre(page, x, y);
  await page.mouse.click(px, py);
}

async function dragSquares(page, from, to) {
  const [ax, ay] = await squareCentre(page, ...from);
  const [bx, by] = await squareCentre(page, ...to);
  await page.mouse.move(ax, ay);
  await page.mouse.down();
  await page.mouse.move(bx, by, { steps: 4 });
  await page.mouse.up();
}

async function chooseTool(page, id) {
  await page.click(`.ed-tool:has(input[value="${id}"])`);
}

const rowsNow = (page) => page.evaluate(() => window.sokod.editor.rows());

async function problems(page) {
  return page.$$eval('#ed-problems .ed-problem', (bs) => bs.map((b) =>
    `${b.querySelector('b').textContent} ${b.querySelector('.msg').textContent}`));
}

async function waitValid(page, valid) {
  await page.waitForFunction((v) => document.getElementById('ed-edit').dataset.valid === v, valid ? '1' : '0');
}

/** Opens the export dialog in a format and returns its text. */
async function exportText(page, format) {
  await page.click('#ed-export');
  await page.check(`input[name="ed-format"][value="${format}"]`, { force: true });
  const text = await page.inputValue('#ed-export-text');
  await page.click('#ed-export-dialog [data-close]');
  return text;
}

async function solveInTestPlay(page, keys) {
  await page.click('#ed-play');
  await page.waitForSelector('#ed-playing:not([hidden])');
  for (const k of keys) await page.keyboard.press(k);
  await page.waitForFunction(() => document.getElementById('ed-playing').dataset.solved === '1');
  const d = await page.evaluate(() => ({ ...document.getElementById('ed-playing').dataset }));
  await page.waitForSelector('#ed-solved:not([hidden])');
  return d;
}

const ARROW = { l: 'ArrowLeft', r: 'ArrowRight', u: 'ArrowUp', d: 'ArrowDown' };
const arrowsOf = (lurd) => [...lurd.toLowerCase()].map((c) => ARROW[c]);

// ---- The tests -------------------------------------------------------------------------

test('a level drawn with the mouse: a problem named on its square, fixed, test-played, exported', async () => {
  const { page, errors } = browser;
  const core = await nodeCore();
  await openEditor(page);
  await page.click('#ed-new');
  // The blank page is a 9x7 walled room.
  assert.deepEqual(await rowsNow(page), ['#########', '#-------#', '#-------#', '#-------#', '#-------#', '#-------#', '#########']);

  await chooseTool(page, 'player');
  await clickSquare(page, 1, 1);
  await chooseTool(page, 'box');
  await clickSquare(page, 3, 3);
  // The board was invalid before the box too: wait for the check that counts it.
  await page.waitForFunction(() => / 1 box · 0 goals$/.test(document.getElementById('ed-counts').textContent));
  await waitValid(page, false);
  assert.deepEqual(await problems(page), ['The whole board: 1 box but 0 goals: they must be as many'],
    'one box and no goal: the check says so');
  await chooseTool(page, 'goal');
  await clickSquare(page, 5, 3);
  await chooseTool(page, 'boxOnGoal');
  await clickSquare(page, 7, 1);
  await chooseTool(page, 'wall');
  await dragSquares(page, [2, 5], [6, 5]);
  await waitValid(page, true);

  // A hole in the wall: the core names the square, the board marks it.
  await chooseTool(page, 'erase');
  await clickSquare(page, 0, 2);
  await waitValid(page, false);
  const shown = await problems(page);
  assert.deepEqual(shown, ['Row 3, column 1: the board is not closed: the player can walk off it here'],
    `a hole at column 1 of row 3; the check shows ${JSON.stringify(shown)}`);
  const marked = await page.evaluate(() => window.sokod.editor.result().problems.map((p) => [p.x, p.y]));
  assert.deepEqual(marked, [[0, 2]], 'the hole is the square the board highlights');
  assert.match(await page.textContent('#ed-state'), /1 problem/);
  assert.equal(await page.textContent('#ed-problems .hint'), 'Close the wall here (1), or erase the floor that leads out.',
    'with what to do about it');
  await page.screenshot({ path: screenshotPath('editor-problem.png') });
  await chooseTool(page, 'wall');
  await clickSquare(page, 0, 2);
  await waitValid(page, true);
  assert.deepEqual(await problems(page), []);

  const drawn = [
    '#########',
    '#@-----*#',
    '#-------#',
    '#--$-.--#',
    '#-------#',
    '#-#####-#',
    '#########',
  ];
  assert.deepEqual(await rowsNow(page), drawn, 'the editor holds what was drawn');
  await page.fill('#ed-title', 'Mouse made');
  await page.fill('#ed-author', 'The e2e test');
  await page.screenshot({ path: screenshotPath('editor.png') });

  const played = await solveInTestPlay(page, arrowsOf('ddrRR'));
  assert.deepEqual([played.moves, played.pushes], ['5', '2'], 'solved in ddrRR: 5 moves, 2 pushes');
  await page.screenshot({ path: screenshotPath('editor-testplay.png') });
  await page.click('#ed-solved-edit');
  await page.waitForSelector('#ed-edit:not([hidden])');

  for (const format of ['plain', 'rle']) {
    const text = await exportText(page, format);
    if (format === 'rle') assert.match(text.split('\n')[0], /^[0-9#@$.*+\-|]+$/, `one run-length line: ${text}`);
    assert.match(text, /^Title: Mouse made$/m, `the title goes with the ${format} export`);
    assert.match(text, /^Author: The e2e test$/m);
    assert.match(text, /^Solution 5\/2\nddrRR$/m, 'the test-play solution goes with it');
    assert.deepEqual(core.firstLevelRows(text), drawn, `the ${format} export read back by the core:\n${text}`);
  }

  // Copy puts the text on the clipboard; Download saves it as a .sok file.
  await page.click('#ed-export');
  await page.check('input[name="ed-format"][value="plain"]', { force: true });
  const shownText = await page.inputValue('#ed-export-text');
  await page.click('#ed-copy');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, shownText, 'the clipboard holds the exported text');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#ed-download')]);
  assert.equal(download.suggestedFilename(), 'mouse-made.sok');
  const saved = readFileSync(await download.path(), 'utf8');
  assert.deepEqual(core.firstLevelRows(saved), drawn, `the downloaded file read back by the core:\n${saved}`);
  await page.click('#ed-export-dialog [data-close]');
  assert.deepEqual(errors, [], 'no script errors');
});

test('a level drawn with the keyboard alone, with undo and redo', async () => {
  const { page, errors } = browser;
  const core = await nodeCore();
  await openEditor(page);
  await page.click('#ed-new');
  await page.focus('#ed-board');
  const cursor = () => page.evaluate(() => window.sokod.editor.cursor());
  assert.deepEqual(await cursor(), { x: 1, y: 1 }, 'a new level puts the cursor inside the room');
  const keys = async (...ks) => { for (const k of ks) await page.keyboard.press(k); };
  await keys('6', 'Space');                                // the player on (1, 1)
  await keys('ArrowRight', 'ArrowRight', 'ArrowDown', 'b', 'Enter'); // a box on (3, 2)
  await keys('ArrowRight', 'ArrowRight', '3', 'Space');     // a goal on (5, 2)
  assert.deepEqual(await cursor(), { x: 5, y: 2 });
  await keys('ArrowDown', 'ArrowDown', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'w', 'Space',
    'Shift+ArrowRight', 'Shift+ArrowRight', 'Shift+ArrowRight'); // a wall line (2..5, 4)
  assert.equal(await page.evaluate(() => window.sokod.editor.tool()), 'wall');
  const drawn = [
    '#########',
    '#@------#',
    '#--$-.--#',
    '#-------#',
    '#-####--#',
    '#-------#',
    '#########',
  ];
  assert.deepEqual(await rowsNow(page), drawn);
  await waitValid(page, true);

  // Undo takes back the last wall square, redo puts it back; Space on a
  // wall with the wall tool takes it away.
  await keys('z');
  assert.equal((await rowsNow(page))[4], '#-###---#', 'undo removed the last square of the line');
  await keys('y');
  assert.equal((await rowsNow(page))[4], '#-####--#', 'redo put it back');
  await keys('Space');
  assert.equal((await rowsNow(page))[4], '#-###---#', 'Space on a wall with the wall tool takes it away');
  await keys('Control+z');
  assert.deepEqual(await rowsNow(page), drawn);

  await keys('t');
  await page.waitForSelector('#ed-playing:not([hidden])');
  await keys(...arrowsOf('drR'));
  await keys('z'); // undo in test play
  await page.waitForFunction(() => document.getElementById('ed-playing').dataset.moves === '2');
  await keys('ArrowRight', 'ArrowRight');
  await page.waitForFunction(() => document.getElementById('ed-playing').dataset.solved === '1');
  const d = await page.evaluate(() => ({ ...document.getElementById('ed-playing').dataset }));
  assert.deepEqual([d.moves, d.pushes], ['4', '2']);
  await keys('Escape');
  await page.waitForSelector('#ed-edit:not([hidden])');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'ed-board', 'back to editing, on the board');

  const text = await exportText(page, 'rle');
  assert.deepEqual(core.firstLevelRows(text), drawn, `the export read back by the core:\n${text}`);

  // A reload keeps the draft.
  await page.reload();
  await page.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
  assert.deepEqual(await rowsNow(page), drawn, 'the draft survives a reload');
  assert.deepEqual(errors, [], 'no script errors');
});

test('import by paste: a file of several levels, pick one', async () => {
  const { page, errors } = browser;
  await openEditor(page);
  const pasted = [
    'Collection: two rooms', '',
    '; First', '#####', '#@$.#', '#####', '',
    '; Second', '  ####', '###  #', '#@ $.#', '######', 'Author: Someone',
  ].join('\n');
  await page.click('#ed-import');
  await page.fill('#ed-import-text', pasted);
  await page.click('#ed-import-read');
  const picks = await page.$$eval('#ed-import-list .ed-pick .t', (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(picks, ['1. First', '2. Second'], 'both levels are offered');
  await page.screenshot({ path: screenshotPath('editor-import.png') });
  await page.click('#ed-import-list .ed-pick[data-index="1"]');
  await page.waitForSelector('#ed-import-dialog', { state: 'hidden' });
  assert.deepEqual(await rowsNow(page), ['  ####', '###--#', '#@-$.#', '######']);
  assert.equal(await page.inputValue('#ed-title'), 'Second');
  assert.equal(await page.inputValue('#ed-author'), 'Someone');
  await waitValid(page, true);

  // One run-length line, pasted: read at once.
  await page.click('#ed-import');
  await page.fill('#ed-import-text', '6#|#@$-.#|6#');
  await page.click('#ed-import-read');
  await page.waitForSelector('#ed-import-dialog', { state: 'hidden' });
  assert.deepEqual(await rowsNow(page), ['######', '#@$-.#', '######']);
  // Ctrl+V on the board reads the clipboard's level at once.
  await page.evaluate(() => navigator.clipboard.writeText('5#|#@$.#|5#'));
  await page.focus('#ed-board');
  await page.keyboard.press('Control+v');
  await page.waitForSelector('#ed-import-dialog', { state: 'hidden' });
  assert.deepEqual(await rowsNow(page), ['#####', '#@$.#', '#####'], 'the pasted level is on the board');
  await page.keyboard.press('z');

  // A file: an SLC collection from the shared folder, through the file picker.
  await page.click('#ed-import');
  await page.setInputFiles('#ed-import-file', join(SHARED, 'levels', 'slc', 'Twisty.slc'));
  await page.waitForSelector('#ed-import-list .ed-pick');
  const slcPicks = await page.$$eval('#ed-import-list .ed-pick .t', (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(slcPicks, ['1. #1', '2. #2', '3. #3'], 'the three levels of Twisty.slc are offered');
  await page.click('#ed-import-list .ed-pick[data-index="1"]');
  await page.waitForSelector('#ed-import-dialog', { state: 'hidden' });
  assert.equal(await page.inputValue('#ed-title'), '#2');
  await waitValid(page, true);
  await page.keyboard.press('z');

  // Undo brings the level before the import back.
  await page.focus('#ed-board');
  await page.keyboard.press('z');
  assert.deepEqual(await rowsNow(page), ['  ####', '###--#', '#@-$.#', '######']);
  assert.deepEqual(errors, [], 'no script errors');
});
