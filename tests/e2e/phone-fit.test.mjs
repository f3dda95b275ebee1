// Screens that must fit a phone (390 by 844 upright, 844 by 390 sideways,
// touch): the options' checkboxes keep their size, the leaderboard breaks
// no word in two, the editor's panels show whole.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, screenshotPath } from './harness.mjs';
import { leaderboardWithEntry } from './rooms.mjs';

let server, phone;
before(async () => ({ server, browser: phone } = await startServerAndBrowser({
  viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
})));
after(() => closeAll(server, phone));

test('the options checkboxes keep their size when their labels wrap', async () => {
  const { page, errors } = phone;
  await page.goto(`${server.url}/#/options`);
  await page.waitForSelector('#options-form .check input');
  const sizes = await page.evaluate(() => [...document.querySelectorAll('#options-form .check')].map((l) => {
    const r = l.querySelector('input').getBoundingClientRect();
    return { label: l.textContent.trim().slice(0, 30), width: r.width, height: r.height };
  }));
  for (const s of sizes) {
    assert.ok(s.width >= 20 && s.height >= 20, `the checkbox of "${s.label}" is ${s.width}x${s.height} px, not 20x20`);
  }
  await page.screenshot({ path: screenshotPath('phone-options.png') });
  assert.deepEqual(errors, []);
});

/** The words of the text under `selector` that the layout breaks over two
 * lines (a word whose text gets more than one line box). */
async function brokenWords(page, selector) {
  return page.evaluate((sel) => {
    const broken = [];
    for (const root of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (const m of n.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(n, m.index);
          range.setEnd(n, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  }, selector);
}

test('the leaderboard breaks no word in two on a phone', async () => {
  const { page, errors } = phone;
  await leaderboardWithEntry(page, server.url, 'Bartholomew');
  await page.screenshot({ path: screenshotPath('phone-leaderboard.png') });
  const broken = await brokenWords(page, '.board-table');
  assert.deepEqual(broken, [], `words broken over two lines in the leaderboard at 390 px: ${broken.join(', ')}`);
  const table = await page.locator('#board-plain .board-table').boundingBox();
  assert.ok(table.x >= 0 && table.x + table.width <= 390.5, `the table (${JSON.stringify(table)}) fits the screen`);
  assert.deepEqual(errors, []);
});

/** Each editor panel: whether it lies inside the screen's width without
 * scrolling sideways, shows its content whole, and can be scrolled into
 * view from its top to its bottom. */
async function panelsFit(page) {
  return page.evaluate(() => [...document.querySelectorAll('.ed-side > .ed-panel')].map((p) => {
    const name = p.querySelector('h2, summary').textContent;
    const r = p.getBoundingClientRect();
    const across = r.left >= 0 && r.right <= innerWidth + 0.5;
    const whole = p.scrollHeight <= p.clientHeight + 1 && p.scrollWidth <= p.clientWidth + 1;
    p.scrollIntoView({ block: 'end', inline: 'nearest' });
    const end = p.getBoundingClientRect();
    p.scrollIntoView({ block: 'start', inline: 'nearest' });
    const start = p.getBoundingClientRect();
    const reachable = end.bottom <= innerHeight + 0.5 && start.top >= -0.5;
    return { name, across, whole, reachable, rect: [r.left, r.top, r.width, r.height].map(Math.round) };
  }));
}

for (const [w, h, name] of [[390, 844, 'upright'], [844, 390, 'sideways']]) {
  test(`the editor's panels show whole on a phone held ${name}`, async () => {
    const { page, errors } = phone;
    await page.setViewportSize({ width: w, height: h });
    try {
      await page.goto(`${server.url}/#/editor`);
      await page.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
      await page.waitForTimeout(300);
      await page.screenshot({ path: screenshotPath(`phone-editor-${name}.png`) });
      for (const p of await panelsFit(page)) {
        assert.ok(p.across, `the ${p.name} panel (${p.rect}) lies inside the ${w} px wide screen`);
        assert.ok(p.whole, `the ${p.name} panel (${p.rect}) shows its content whole`);
        assert.ok(p.reachable, `the ${p.name} panel (${p.rect}) scrolls into view from top to bottom`);
      }
      // The tools scroll along their strip, but none is cut across it.
      const cut = await page.evaluate(() => {
        const strip = document.querySelector('.ed-tools').getBoundingClientRect();
        const across = strip.width > strip.height ? ['top', 'bottom'] : ['left', 'right'];
        return [...document.querySelectorAll('.ed-tool span')].map((t) => t.getBoundingClientRect())
          .filter((r) => r[across[0]] < strip[across[0]] - 0.5 || r[across[1]] > strip[across[1]] + 0.5).length;
      });
      assert.equal(cut, 0, `${cut} tools are cut across their strip`);
      const board = await page.locator('#ed-board').boundingBox();
      assert.ok(board.width >= 0.5 * Math.min(w, h), `the board (${JSON.stringify(board)}) keeps room to draw`);
      assert.deepEqual(errors, []);
    } finally {
      await page.setViewportSize({ width: 390, height: 844 });
    }
  });
}
