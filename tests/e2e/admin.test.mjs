// The admin page in a real browser: hidden from guests and from accounts
// without the admin right (whom the API refuses too); an admin uploads real
// collections read from the shared folder (never copied), sees each
// report (counts, thumbnails, errors with line and column, duplicates) and
// imports; then manages the library (rename, describe, credit, reorder,
// hide, delete, restore) and reads the audit log. Screenshots in every theme.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { startServer, openBrowser, closeAll, createAdmin, sendAccountForm, screenshotPath, screenshotEachTheme, apiGet, holdAnswers, SOURCE_DIR } from './harness.mjs';

const SHARED = process.env.SOKOD_SHARED_DIR || join(SOURCE_DIR, '..', 'shared');
const MICROBAN = join(SHARED, 'levels', 'Microban_155.xsb');
const BOXOBAN = join(SHARED, 'levels', 'boxoban-medium-000.txt');

let server, admin, player;
before(async () => {
  assert.ok(existsSync(MICROBAN), `the shared collections are in ${SHARED} (SOKOD_SHARED_DIR)`);
  // The background solver gets a second a level: a thousand uploaded levels
  // should not keep the machine busy for the rest of the test.
  process.env.SOKOD_SOLVER_SECONDS = '1';
  server = await startServer();
  createAdmin(server.db, 'boss', 'correct horse battery');
  admin = await openBrowser({ viewport: { width: 1280, height: 900 } });
  player = await openBrowser({ viewport: { width: 1280, height: 900 } });
});
after(() => closeAll(server, admin, player));

/** Signs in through the account screen. */
async function signIn(page, name, password) {
  await sendAccountForm(page, server.url, 'login', name, password);
  await page.waitForFunction((n) => window.sokod?.app.account?.username === n, name);
}

/** A write to the API from inside the page (its cookie, its origin). */
async function apiSend(page, method, path, body) {
  return page.evaluate(async ([m, p, b]) => {
    const r = await fetch(`/api/v1${p}`, { method: m, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
    return { status: r.status, body: await r.json() };
  }, [method, path, body]);
}

const upload = (page, name) => page.locator('.adm-upload', { has: page.locator('h3', { hasText: name }) });

async function waitUploadState(page, name, state) {
  await page.waitForFunction(([n, s]) => [...document.querySelectorAll('.adm-upload')]
    .some((li) => li.querySelector('h3').textContent === n && li.dataset.state === s), [name, state], { timeout: 60000 });
}

const chips = (loc) => loc.locator('.report > .adm-summary .chip').allTextContents();

test('guests and players see no admin page, and the API refuses them', async () => {
  const { page, errors } = player;
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  assert.equal(await page.isVisible('#title-admin'), false, 'no Admin button on the title screen for a guest');
  let r = await apiGet(page, '/admin/collections');
  assert.equal(r.status, 401, `a guest asking for the admin collections: ${JSON.stringify(r.body)}`);
  assert.equal(r.body.error.code, 'sign_in_required');

  await sendAccountForm(page, server.url, 'signup', 'player1', 'hunter22hunter');
  await page.waitForFunction(() => window.sokod?.app.account?.username === 'player1');
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  assert.equal(await page.isVisible('#title-admin'), false, 'no Admin button for an account that is not an admin');
  await page.goto(`${server.url}/#/admin`);
  await page.waitForSelector('#adm-denied:not([hidden])');
  assert.equal(await page.isVisible('#adm-body'), false, 'the admin tools stay hidden');
  r = await apiGet(page, '/admin/collections');
  assert.equal(r.status, 403, `an account without the right: ${JSON.stringify(r.body)}`);
  assert.equal(r.body.error.code, 'admin_required');
  r = await apiSend(page, 'POST', '/admin/uploads', { filename: 'x.sok', size: 12, data: btoa('#####\n#@$.#\n') });
  assert.equal(r.status, 403, `an upload by an account without the right: ${JSON.stringify(r.body)}`);

  // The level editor is for everyone, but saving into a collection is not.
  await page.goto(`${server.url}/#/editor`);
  await page.waitForFunction(() => window.sokod?.editor);
  assert.equal(await page.isVisible('#ed-save'), false, 'no "Save to a collection" for a player');
  assert.deepEqual(errors, [], 'no script errors');
});

test('an admin uploads shared collections, reads the reports and imports one', async () => {
  const { page, errors } = admin;
  await signIn(page, 'boss', 'correct horse battery');
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#title-admin:not([hidden])');
  await page.click('#title-admin');
  await page.waitForSelector('#adm-body:not([hidden]) #adm-drop');

  const parts = [];
  page.on('request', (req) => { if (/\/admin\/uploads\/\d+\/parts$/.test(req.url())) parts.push(req.url()); });
  // Every value the progress bars take on the way.
  await page.evaluate(() => {
    window.progressSeen = [];
    new MutationObserver((list) => {
      for (const m of list) if (m.attributeName === 'aria-valuenow') window.progressSeen.push(Number(m.target.getAttribute('aria-valuenow')));
    }).observe(document.getElementById('adm-uploads'), { subtree: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  // Two files at once, straight from the shared folder.
  await page.setInputFiles('#adm-files', [MICROBAN, BOXOBAN]);
  await waitUploadState(page, 'Microban_155.xsb', 'checked');
  await waitUploadState(page, 'boxoban-medium-000.txt', 'checked');
  assert.ok(parts.length >= 2, `the 117 KB file went in several parts: ${parts.length} part requests after the first`);
  const box = upload(page, 'boxoban-medium-000.txt');
  assert.equal(await box.locator('.adm-bar').getAttribute('aria-valuenow'), '100', 'its progress bar is full');
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.some((v) => v > 0 && v < 100), `the progress bar moved through values on the way: ${JSON.stringify(seen)}`);

  const micro = upload(page, 'Microban_155.xsb');
  assert.deepEqual(await chips(micro), ['text', '155 levels', '155 valid'], 'the Microban report summary');
  const cards = micro.locator('.adm-level');
  assert.equal(await cards.count(), 60, 'the first page of level cards');
  assert.match(await micro.locator('.adm-more').textContent(), /Show 60 more of 95/);
  const first = await cards.first().textContent();
  assert.match(first, /^1\. 1\s*6×7, 2 boxes/, `the first card: ${first}`);
  const colours = await cards.first().locator('canvas').evaluate((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4) seen.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
    return seen.size;
  });
  assert.ok(colours >= 4, `the thumbnail is drawn from the rows (${colours} colours)`);

  // A file dropped on the drop zone: an SLC collection.
  const twisty = readFileSync(join(SHARED, 'levels', 'slc', 'Twisty.slc'), 'utf8');
  await page.evaluate(([name, text]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name, { type: 'application/xml' }));
    const zone = document.getElementById('adm-drop');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, ['Twisty.slc', twisty]);
  await waitUploadState(page, 'Twisty.slc', 'checked');
  assert.deepEqual(await chips(upload(page, 'Twisty.slc')), ['slc', '3 levels', '3 valid'], 'the dropped SLC file is checked');

  // A pasted file with a broken level: its error with line and column.
  await page.click('.adm-paste summary');
  await page.fill('#adm-paste-name', 'mixed.sok');
  await page.fill('#adm-paste-text', ['; Good', '#####', '#@$.#', '#####', '', '; Bad', '######', '#@ $.#', '#  @ #', '######', ''].join('\n'));
  await page.click('#adm-paste-go');
  await waitUploadState(page, 'mixed.sok', 'checked');
  const mixed = upload(page, 'mixed.sok');
  assert.deepEqual(await chips(mixed), ['text', '2 levels', '1 valid', '1 invalid']);
  const bad = await mixed.locator('.adm-level.invalid .err').textContent();
  assert.equal(bad, 'Line 9, column 4: a second player; the board already has one at line 8, column 2',
    'the second player is named at its line and column');
  await page.click('.adm-paste summary');
  await mixed.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('admin-upload.png') });
  await screenshotEachTheme(page, 'admin');

  // Import Microban into a new collection with a name of our own.
  await micro.locator('input[name="name"]').fill('Microban (upload)');
  await micro.locator('input[name="author"]').fill('David W. Skinner');
  await micro.locator('button[type="submit"]').click();
  await waitUploadState(page, 'Microban_155.xsb', 'imported');
  assert.match(await micro.locator('.adm-result').textContent(), /^155 levels imported into the new collection/);
  const list = (await apiGet(page, '/collections')).body.collections;
  const made = list.find((c) => c.name === 'Microban (upload)');
  assert.ok(made, `the collection is in the library: ${JSON.stringify(list.map((c) => c.name))}`);
  assert.equal(made.levels, 155);

  // Discarding the other: the server forgets it.
  await box.locator('.discard').click();
  await page.waitForFunction(() => ![...document.querySelectorAll('.adm-upload h3')].some((h) => h.textContent === 'boxoban-medium-000.txt'));
  const waiting = (await apiGet(page, '/admin/uploads')).body.uploads.map((u) => u.file);
  assert.ok(!waiting.includes('boxoban-medium-000.txt'), `discarded: ${JSON.stringify(waiting)}`);

  // The same file again: every level is a duplicate of the library's.
  await page.setInputFiles('#adm-files', [MICROBAN]);
  await page.waitForFunction(() => [...document.querySelectorAll('.adm-upload')]
    .filter((li) => li.querySelector('h3').textContent === 'Microban_155.xsb').some((li) => li.dataset.state === 'checked'));
  const again = page.locator('.adm-upload[data-state="checked"]', { has: page.locator('h3', { hasText: 'Microban_155.xsb' }) });
  assert.deepEqual(await chips(again), ['text', '155 levels', '155 valid', '155 duplicates']);
  assert.match(await again.locator('.adm-level .note').first().textContent(), /Already in the library: “1” in Microban \(upload\)/);
  assert.deepEqual(errors, [], 'no script errors');
});

test('an admin manages the library and reads the audit log', async () => {
  const { page, errors } = admin;
  const id = (await apiGet(page, '/collections')).body.collections.find((c) => c.name === 'Microban (upload)').id;
  // The library tab opens the collection just imported, and the admin
  // clicks it too. The tab's own request is answered last, after the admin
  // has begun to type: that late answer must not overwrite the form.
  const early = await holdAnswers(page, new RegExp(`/api/v1/admin/collections/${id}$`));
  await page.goto(`${server.url}/#/admin/library`);
  await page.click(`.adm-coll[data-id="${id}"]`);
  await page.waitForFunction((n) => document.getElementById('adm-coll-h').textContent === n, 'Microban (upload)');
  await page.waitForSelector('.adm-row');
  assert.ok(early.count() >= 2, `the library tab asked for the collection, then the click did: ${early.count()} requests`);

  // Rename, credit and describe.
  await page.fill('#adm-coll-form input[name="name"]', 'Microban');
  await early.release();
  assert.equal(await page.inputValue('#adm-coll-form input[name="name"]'), 'Microban',
    'the late answer to the earlier request left the name the admin typed');
  await page.fill('#adm-coll-form input[name="author"]', 'David W. Skinner');
  await page.fill('#adm-coll-form textarea[name="description"]', 'Small puzzles, each with one idea.');
  await page.click('#adm-coll-form button[type="submit"]');
  await page.waitForFunction(() => document.getElementById('adm-coll-h').textContent === 'Microban');
  let c = (await apiGet(page, `/collections/${id}`)).body;
  assert.equal(c.collection.name, 'Microban');
  const before = c.levels.map((l) => l.id);

  // Level 2 moves up.
  await page.click(`.adm-row[data-id="${before[1]}"] button[aria-label$="up"]`);
  await page.waitForFunction((x) => document.querySelector('.adm-row')?.dataset.id === String(x), before[1]);
  c = (await apiGet(page, `/collections/${id}`)).body;
  assert.deepEqual(c.levels.slice(0, 3).map((l) => l.id), [before[1], before[0], before[2]], 'the second level is first now');

  // Level 6 dragged onto the first place.
  await page.locator(`.adm-row[data-id="${before[5]}"]`).dragTo(page.locator(`.adm-row[data-id="${before[1]}"]`));
  await page.waitForFunction((x) => document.querySelector('.adm-row')?.dataset.id === String(x), before[5]);
  c = (await apiGet(page, `/collections/${id}`)).body;
  assert.deepEqual(c.levels.slice(0, 4).map((l) => l.id), [before[5], before[1], before[0], before[2]], 'the dragged level is first');

  // Another collection clicked, and while it is on its way a level of the
  // one still on screen moves up: the move is made in that one.
  const other = (await apiGet(page, '/collections')).body.collections.find((x) => x.id !== id);
  let slow = await holdAnswers(page, new RegExp(`/api/v1/admin/collections/${other.id}$`), { method: 'GET' });
  await page.click(`.adm-coll[data-id="${other.id}"]`);
  await slow.arrived;
  const ordered = page.waitForResponse((r) => /\/order$/.test(r.url()));
  await page.click(`.adm-row[data-id="${before[1]}"] button[aria-label$="up"]`);
  await ordered;
  c = (await apiGet(page, `/collections/${id}`)).body;
  assert.deepEqual(c.levels.slice(0, 3).map((l) => l.id), [before[1], before[5], before[0]],
    'the level moved up in the collection it was shown in');
  await slow.release();
  assert.equal(await page.textContent('#adm-coll-h'), other.name, 'the collection clicked is shown');
  await page.click(`.adm-coll[data-id="${id}"]`);
  await page.waitForFunction((x) => document.querySelector('.adm-row')?.dataset.id === String(x), before[1]);

  // ↑ pressed twice before the first move is answered: two places up.
  slow = await holdAnswers(page, new RegExp(`/collections/${id}/order$`), { method: 'PUT' });
  const up = page.locator(`.adm-row[data-id="${before[2]}"] button[aria-label$="up"]`);
  await up.click();
  await slow.arrived;
  await up.click();
  await slow.release();
  const firstTwo = [before[1], before[2]].join();
  await page.waitForFunction((want) => [...document.querySelectorAll('.adm-row')].slice(0, 2)
    .map((r) => r.dataset.id).join() === want, firstTwo, { timeout: 5000 }).catch(async () => {
    const shown = await page.evaluate(() => [...document.querySelectorAll('.adm-row')].slice(0, 4).map((r) => r.dataset.id));
    assert.fail(`level ${before[2]}, fourth, after ↑ twice: the first rows show ${shown}`);
  });
  c = (await apiGet(page, `/collections/${id}`)).body;
  assert.deepEqual(c.levels.slice(0, 4).map((l) => l.id), [before[1], before[2], before[5], before[0]],
    'two presses of ↑, two places up');

  // Retitle level 3 and give it an author.
  const third = page.locator(`.adm-row[data-id="${before[2]}"]`);
  await third.locator('button', { hasText: 'Edit' }).click();
  await third.locator('input[name="title"]').fill('The third');
  await third.locator('input[name="author"]').fill('Someone');
  await third.locator('button[type="submit"]').click();
  await page.waitForFunction((x) => document.querySelector(`.adm-row[data-id="${x}"] .t`)?.textContent === 'The third', before[2]);
  const level3 = (await apiGet(page, `/levels/${before[2]}`)).body.level;
  assert.deepEqual([level3.title, level3.author], ['The third', 'Someone']);

  // Hide level 3, delete level 4: players no longer see them.
  await page.locator(`.adm-row[data-id="${before[2]}"] button`, { hasText: 'Hide' }).click();
  await page.waitForSelector(`.adm-row.is-hidden[data-id="${before[2]}"]`);
  await page.locator(`.adm-row[data-id="${before[3]}"] button`, { hasText: 'Delete' }).click();
  await page.waitForSelector(`.adm-row.is-deleted[data-id="${before[3]}"]`);
  c = (await apiGet(page, `/collections/${id}`)).body;
  const seen = c.levels.map((l) => l.id);
  assert.equal(seen.length, 153, 'two levels fewer for players');
  assert.ok(!seen.includes(before[2]) && !seen.includes(before[3]), 'the hidden and the deleted level are not listed');
  await page.screenshot({ path: screenshotPath('admin-library.png') });
  // Restore brings the deleted one back.
  await page.locator(`.adm-row[data-id="${before[3]}"] button`, { hasText: 'Restore' }).click();
  await page.waitForSelector(`.adm-row:not(.is-deleted)[data-id="${before[3]}"]`);
  assert.equal((await apiGet(page, `/collections/${id}`)).body.levels.length, 154);

  // Hide the whole collection, then show it again.
  await page.check('#adm-coll-form input[name="hidden"]');
  await page.click('#adm-coll-form button[type="submit"]');
  await page.waitForSelector(`.adm-coll.is-hidden[data-id="${id}"]`);
  let names = (await apiGet(page, '/collections')).body.collections.map((x) => x.name);
  assert.ok(!names.includes('Microban'), `hidden from players: ${JSON.stringify(names)}`);
  await page.uncheck('#adm-coll-form input[name="hidden"]');
  await page.click('#adm-coll-form button[type="submit"]');
  await page.waitForSelector(`.adm-coll:not(.is-hidden)[data-id="${id}"]`);
  names = (await apiGet(page, '/collections')).body.collections.map((x) => x.name);
  assert.ok(names.includes('Microban'));
  await screenshotEachTheme(page, 'admin-library');

  // Microban moves before the tutorial.
  const order = async () => (await apiGet(page, '/collections')).body.collections.map((x) => x.id);
  const was = await order();
  assert.equal(was.indexOf(id), was.length - 1, `Microban is last: ${JSON.stringify(was)}`);
  await page.click(`.adm-coll[data-id="${id}"] + button[aria-label$="up"]`);
  await page.waitForFunction((x) => document.querySelector('.adm-coll')?.dataset.id === String(x), id);
  const now = await order();
  assert.equal(now.indexOf(id), was.length - 2, `Microban moved up one place: ${JSON.stringify(now)}`);

  // The tabs answer the arrow keys, faster than the server answers: from
  // Library, two presses go back through Upload round to the audit log, and
  // the visit to Upload, answered last, does not take its tab back.
  slow = await holdAnswers(page, /\/api\/v1\/account\/settings$/, { method: 'GET' });
  await page.focus('#adm-tab-library');
  await page.keyboard.press('ArrowLeft');
  await slow.arrived;
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#adm-panel-audit:not([hidden])');
  await slow.release();
  assert.equal(await page.isVisible('#adm-panel-upload'), false, 'the Upload tab answered late stays hidden');
  assert.equal(await page.isVisible('#adm-panel-audit'), true, 'the audit log stays shown');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'adm-tab-audit', 'ArrowLeft goes round to the audit log tab');
  assert.equal(await page.getAttribute('#adm-tab-audit', 'aria-selected'), 'true');

  // The audit log lists it all, newest first.
  await page.waitForSelector('#adm-audit-rows tr');
  const actions = await page.$$eval('#adm-audit-rows tr', (rows) => rows.map((r) => r.dataset.action));
  for (const a of ['collections.order', 'collection.update', 'collection.order', 'level.update', 'level.delete', 'level.restore', 'library.import']) {
    assert.ok(actions.includes(a), `the audit log has ${a}: ${JSON.stringify(actions)}`);
  }
  assert.equal(actions[0], 'collections.order', 'newest first');
  await page.screenshot({ path: screenshotPath('admin-audit.png') });

  // A hundred more changes: the log takes two pages now.
  await page.evaluate(async (level) => {
    for (let i = 0; i < 100; i++) {
      await fetch(`/api/v1/admin/levels/${level}`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ comment: `Note ${i}` }) });
    }
  }, before[0]);
  const total = (await apiGet(page, '/admin/audit?limit=1000')).body.entries.length;
  assert.ok(total > 100 && total <= 200, `the log takes two pages: ${total} entries`);
  const rows = () => page.locator('#adm-audit-rows tr').count();
  const firstPage = () => page.waitForFunction(() => document.querySelectorAll('#adm-audit-rows tr').length === 100 &&
    !document.getElementById('adm-audit-more').hidden && !document.getElementById('adm-audit-more').disabled);
  // Each visit to the tab (a click on it too) reads the log from the top.
  await page.click('#adm-tab-audit');
  await firstPage();
  // Older entries asked for, then the tab opened again before they arrive:
  // the log is read from the top, and the older page is dropped.
  slow = await holdAnswers(page, /\/api\/v1\/admin\/audit\?before=/, { method: 'GET' });
  await page.click('#adm-audit-more');
  await slow.arrived;
  const top = page.waitForResponse((r) => /\/api\/v1\/admin\/audit$/.test(r.url()));
  await page.click('#adm-tab-audit');
  await top;
  await firstPage();
  await slow.release();
  assert.equal(await rows(), 100, 'the older page asked for before the tab was opened again is not added');
  // A double click on Older entries adds the page once.
  slow = await holdAnswers(page, /\/api\/v1\/admin\/audit\?before=/, { method: 'GET' });
  await page.dblclick('#adm-audit-more');
  await slow.arrived;
  await slow.release();
  assert.equal(await rows(), total, 'every entry once after a double click on Older entries');
  assert.equal(await page.isVisible('#adm-audit-more'), false, 'no older entries left');
  assert.deepEqual(errors, [], 'no script errors');
});
