// An uploaded collection in the library: its notes read without the file's
// "; " comment marks (as the server keeps them and as the page shows them),
// levels whose titles are bare numbers read "Level 1" rather than "1. 1",
// and a title too long for its card wraps and has a tooltip holding it all.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerAndBrowser, openBrowser, closeAll, importLevels, tempDir, apiGet, screenshotPath } from './harness.mjs';

const LONG = 'A title long enough that no card of the library can show it whole on a single line of its card';
const FILE = `; Numbered levels, set by a tester
; for the library's test.
;
; A second paragraph of notes.

; 1
#####
#@$.#
#####

; 2
######
#@ $.#
######

; ${LONG}
#######
#@  $.#
#######
`;

let server, browser, phone;
before(async () => {
  ({ server, browser } = await startServerAndBrowser({ viewport: { width: 1280, height: 800 } }));
  phone = await openBrowser({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
});
after(() => closeAll(server, browser, phone));

test('an uploaded collection shows its notes without "; " and its levels by sensible names', async () => {
  const { page, errors } = browser;
  const file = join(tempDir('sokod-names-'), 'numbered.sok');
  writeFileSync(file, FILE);
  importLevels(server.db, file, 'Numbered');
  await page.goto(`${server.url}/`);
  const list = await apiGet(page, '/collections');
  const col = list.body.collections.find((c) => c.name === 'Numbered');
  assert.ok(col, JSON.stringify(list.body));
  const notes = (await apiGet(page, `/collections/${col.id}`)).body.collection.notes;
  assert.doesNotMatch(notes, /^\s*;/m, `the server keeps the notes without their marks: ${JSON.stringify(notes)}`);
  assert.match(notes, /^Numbered levels, set by a tester$/m, JSON.stringify(notes));

  for (const [who, size] of [[browser, 'desktop'], [phone, 'phone']]) {
    await who.page.goto(`${server.url}/#/library/${col.id}`);
    await who.page.waitForFunction(() => document.querySelectorAll('#lib-levels .level-card').length === 3);
    const shown = await who.page.textContent('#lib-notes');
    assert.equal(shown, 'Numbered levels, set by a tester for the library\'s test. A second paragraph of notes.', `${size}: the notes as shown`);
    const cards = await who.page.$$eval('#lib-levels .level-card .t', (ts) => ts.map((t) => ({
      text: t.textContent, tip: t.title, height: t.getBoundingClientRect().height,
      line: parseFloat(getComputedStyle(t).lineHeight) || parseFloat(getComputedStyle(t).fontSize) * 1.2,
    })));
    assert.deepEqual(cards.map((c) => c.text), ['Level 1', 'Level 2', `3. ${LONG}`], `${size}: the cards' names`);
    assert.equal(cards[2].tip, `3. ${LONG}`, `${size}: the long title's tooltip holds it whole`);
    assert.ok(cards[2].height > cards[2].line * 1.5, `${size}: the long title wraps: ${JSON.stringify(cards[2])}`);
    await who.page.screenshot({ path: screenshotPath(`library-names-${size}.png`) });
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(phone.errors, []);
});
