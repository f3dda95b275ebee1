// A server that imports every bundled collection (the one browser test that
// does: the others start with the tutorial only) lists them all in the
// library, the tutorial first, and a collection of hundreds of levels draws
// thumbnails only for the levels in view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SOURCE_DIR, startServer, openBrowser, apiGet } from './harness.mjs';

let server, browser;
before(async () => {
  const started = Date.now();
  server = await startServer({ allLevels: true });
  console.log(`sokod started and imported levels/ in ${Date.now() - started} ms`);
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

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
