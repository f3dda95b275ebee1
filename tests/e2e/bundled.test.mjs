// A server that imports every bundled collection (the one browser test that
// does: the others start with the tutorial only) lists them all in the
// library, the tutorial first, and a collection of hundreds of levels draws
// thumbnails only for the levels in view. The library shows what was asked
// for last, whatever order the server's answers arrive in.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SOURCE_DIR, startServer, openBrowser, closeAll, apiGet, holdAnswers } from './harness.mjs';

let server, browser;
before(async () => {
  const started = Date.now();
  server = await startServer({ allLevels: true });
  console.log(`sokod started and imported levels/ in ${Date.now() - started} ms`);
  browser = await openBrowser();
});
after(() => closeAll(server, browser));

const heading = (page) => page.textContent('#lib-heading');

// The title screen reads the collections for its Play button; its reads
// done, they race none of the library's.
const titleDone = (page) => page.waitForSelector('#title-play[data-ready]', { state: 'attached' });

test('every bundled collection is listed, and a long one draws only the thumbnails in view', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const files = readdirSync(join(SOURCE_DIR, 'levels')).filter((f) => f.endsWith('.sok'));
  const listed = (await apiGet(page, '/collections')).body.collections;
  assert.equal(listed.length, files.length, `one collection per file of levels/ (${files.join(', ')})`);
  const total = listed.reduce((n, c) => n + c.levels, 0);
  console.log(`bundled: ${listed.map((c) => `${c.name} ${c.levels}`).join(', ')}; ${total} levels`);
  assert.ok(total >= 2000, `at least 2,000 bundled levels, got ${total}`);
  assert.equal(listed[0].name, 'First Steps', 'the tutorial comes first');

  const biggest = listed.reduce((a, b) => (b.levels > a.levels ? b : a));
  const asked = [];
  page.on('request', (r) => { if (/\/api\/v1\/levels\/\d+$/.test(r.url())) asked.push(r.url()); });
  const started = Date.now();
  await page.goto(`${server.url}/#/library/${biggest.id}`);
  await page.waitForFunction((n) => document.querySelectorAll('#lib-levels .level-card').length === n,
    biggest.levels, { timeout: 30000 });
  console.log(`${biggest.name}: ${biggest.levels} cards in ${Date.now() - started} ms`);
  // The first thumbnails get drawn (some pixel of the first card's canvas is set).
  await page.waitForFunction(() => {
    const c = document.querySelector('#lib-levels canvas');
    if (!c || c.width === 0) return false;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    return d.some((v) => v !== 0);
  }, null, { timeout: 15000 });
  const inView = await page.evaluate(() => [...document.querySelectorAll('#lib-levels canvas')]
    .filter((c) => c.getBoundingClientRect().top < innerHeight + 400).length);
  assert.ok(asked.length <= inView + 8,
    `boards fetched only for levels in view: ${asked.length} fetched, ${inView} near the view, of ${biggest.levels}`);
  assert.ok(asked.length < biggest.levels / 4, `${asked.length} of ${biggest.levels} boards fetched`);
  assert.deepEqual(errors, [], 'no page errors');
});

test('the library shows the collection asked for last, whatever order the answers come in', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  await titleDone(page);
  const listed = (await apiGet(page, '/collections')).body.collections;
  const [first, second] = listed, last = listed[listed.length - 1];
  await page.goto(`${server.url}/#/library/${first.id}`);
  await page.waitForFunction((n) => document.getElementById('lib-heading').textContent === n, first.name);

  // A search reads every collection in turn; the last one is answered only
  // after the box has been cleared again and the collection is back.
  let late = await holdAnswers(page, new RegExp(`/api/v1/collections/${last.id}$`));
  await page.fill('#lib-search', 'a');
  await late.arrived;
  await page.fill('#lib-search', '');
  await page.waitForFunction(([n, count]) => document.getElementById('lib-heading').textContent === n &&
    document.querySelectorAll('#lib-levels .level-card').length === count, [first.name, first.levels]);
  await late.release();
  assert.equal(await heading(page), first.name, 'the search answered late did not retitle the collection on screen');
  assert.equal(await page.locator('#lib-levels .level-card').count(), first.levels);

  // A second visit: while its list is on its way the buttons of the first
  // are still there, and the collection clicked meanwhile is the one shown.
  await page.goto(`${server.url}/#/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  // Or the list held could be the title screen's, and the collection it
  // reads could come back into the cache after the library emptied it.
  await titleDone(page);
  late = await holdAnswers(page, /\/api\/v1\/collections$/);
  await page.goto(`${server.url}/#/library`);
  await late.arrived;
  await page.click(`#lib-collections .collection[data-id="${second.id}"]`);
  await page.waitForFunction((n) => document.getElementById('lib-heading').textContent === n, second.name);
  await late.release();
  assert.equal(await heading(page), second.name, 'the list of the visit, answered late, did not open its own choice');
  assert.equal(await page.evaluate(() => location.hash), `#/library/${second.id}`);
  assert.equal(await page.getAttribute(`#lib-collections .collection[data-id="${second.id}"]`, 'aria-current'), 'true',
    'the collection clicked stays the current one');

  // Two clicks in a row, the first answered last: its heading never shows.
  await page.evaluate(() => {
    window.headings = [];
    new MutationObserver((list) => {
      for (const m of list) for (const n of m.addedNodes) window.headings.push(n.textContent);
    }).observe(document.getElementById('lib-heading'), { childList: true });
  });
  late = await holdAnswers(page, new RegExp(`/api/v1/collections/${first.id}$`));
  await page.click(`#lib-collections .collection[data-id="${first.id}"]`);
  await late.arrived;
  await page.click(`#lib-collections .collection[data-id="${last.id}"]`);
  await page.waitForFunction((n) => document.getElementById('lib-heading').textContent === n, last.name);
  await late.release();
  const seen = await page.evaluate(() => window.headings);
  assert.ok(!seen.includes(first.name), `the first click's late answer wrote no heading: ${JSON.stringify(seen)}`);
  assert.equal(await heading(page), last.name);
  assert.deepEqual(errors, [], 'no page errors');
});

test('a collection read before the library was entered is read again there, not taken from before', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  await titleDone(page);
  const [first, second] = (await apiGet(page, '/collections')).body.collections;
  await page.goto(`${server.url}/#/library/${second.id}`);
  await page.waitForFunction((n) => document.getElementById('lib-heading').textContent === n, second.name);

  // The title screen reads the first collection for its Play button; its
  // answer arrives once the library has been entered again and has
  // forgotten the collections it held (solved marks may have changed).
  const late = await holdAnswers(page, new RegExp(`/api/v1/collections/${first.id}$`));
  await page.goto(`${server.url}/#/`);
  await late.arrived;
  const entered = page.waitForRequest((r) => /\/api\/v1\/collections$/.test(r.url()));
  await page.goto(`${server.url}/#/library/${second.id}`);
  await entered;
  await late.release();
  await titleDone(page);

  const asked = [];
  page.on('request', (r) => { if (r.url().endsWith(`/api/v1/collections/${first.id}`)) asked.push(r.url()); });
  await page.click(`#lib-collections .collection[data-id="${first.id}"]`);
  await page.waitForFunction((n) => document.getElementById('lib-heading').textContent === n, first.name);
  assert.equal(asked.length, 1, `a click on ${first.name} asked the server for it once, not the title screen's ` +
    `answer from before the library was entered: ${JSON.stringify(asked)}`);
  assert.deepEqual(errors, [], 'no page errors');
});
