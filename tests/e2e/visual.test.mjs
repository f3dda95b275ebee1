// What a player sees, tested as pictures: every screen of the client in
// every theme, on a desktop window (1280 by 800, a mouse) and on a phone
// (390 by 844, touch), compared with the reference images kept in
// tests/e2e/visual/. A picture whose pixels differ from its reference by
// more than a small share fails the test; the actual picture and a diff
// image (differing pixels in red) are written to
// build/screenshots/visual/, named by screen, theme and size.
//
// The data is fixed: each size gets a fresh sokod with the bundled levels,
// and the test makes the rest (accounts, a solved level, a race room, an
// upload) the same way each time, and waits for what comes later (the
// solver's verdict on an upload). What still varies from run to run (the
// server's port in a share link, the dates on a leaderboard) is masked;
// toasts, which come and go on their own time, are hidden.
//
// Updating the references (after a change meant to alter what is drawn):
//   SOKOD_UPDATE_PICTURES=1 ctest --test-dir build -R e2e_visual
// writes every picture that differs from its reference by a pixel (and
// those without one), and leaves the others untouched.
// SOKOD_PICTURES=REGEX (on the screen's name, e.g. 'editor|options') takes
// and compares (or updates) only the screens it matches.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync, statSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { startServer, launchChromium, createAdmin, tutorialLevels, waitForGame, waitSynced, press, arrows, apiGet,
  SHOTS, THEMES, NO_SERVICE_WORKER } from './harness.mjs';

const here = new URL('.', import.meta.url).pathname;
const REFERENCES = join(here, 'visual');
const OUT = join(SHOTS, 'visual');
const UPDATE = process.env.SOKOD_UPDATE_PICTURES === '1';
/** pixelmatch's colour distance (0 to 1) under which two pixels count as
 * the same. Its default, 0.1, takes a panel for the page behind it in the
 * light themes (their colours are that close), so a card that grows or
 * goes would pass; pictures taken on one machine differ by none. */
const THRESHOLD = 0.03;
/** The share of a picture's pixels that may differ from its reference. */
const MAX_SHARE = 0.002;
const ONLY = process.env.SOKOD_PICTURES ? new RegExp(process.env.SOKOD_PICTURES) : null;

const SIZES = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  // Drawn at twice the density, kept at one pixel a CSS pixel: less than
  // half the bytes, and a missing wall or goal still shows.
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }, scale: 'css' },
];

// A level for the editor with every kind of square: walls, floor, goals,
// boxes (one on a goal) and the player.
const EDITOR_LEVEL = ['########', '#@ $  .#', '# ##*  #', '#  $ . #', '########'].join('|');

// An upload with a good and a broken level, for the admin's report.
const UPLOAD = ['; Good', '#####', '#@$.#', '#####', '', '; Bad', '######', '#@ $.#', '#  @ #', '######', ''].join('\n');

// A level Ada publishes to the Community collection.
const PUBLISHED = ['########', '#@ $  .#', '#  $  .#', '########'].join('\n');

const PASSWORD = 'correct horse battery';

// The rating pass runs once, as sokod starts (every level gets its
// prior), and not again during the test: no attempt is rated, so the
// difficulties, solve counts and levels for you drawn are the same at
// every run.
process.env.SOKOD_RATING_INTERVAL = '3600';

let browser;
let compared = 0, written = 0;

before(async () => {
  browser = await launchChromium();
  // Only this run's differing pictures, not an earlier run's.
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
});
after(async () => {
  await browser?.close();
  if (existsSync(REFERENCES)) {
    let bytes = 0, files = 0;
    for (const size of readdirSync(REFERENCES)) {
      for (const f of readdirSync(join(REFERENCES, size))) {
        bytes += statSync(join(REFERENCES, size, f)).size;
        files++;
      }
    }
    console.log(`references: ${files} pictures, ${(bytes / 1048576).toFixed(2)} MiB; this run compared ${compared}` +
      (UPDATE ? `, wrote ${written}` : ''));
  }
});

/** A person on their own device: a browser context of `size`, with a
 * fixed locale and time zone. */
async function device(size) {
  const context = await browser.newContext({ ...size.options, ...NO_SERVICE_WORKER, locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Calls the API from inside the page with a JSON body. */
function apiSend(page, method, path, body) {
  return page.evaluate(async ([m, p, b]) => {
    const r = await fetch(`/api/v1${p}`, { method: m, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
    return { status: r.status, body: await r.json() };
  }, [method, path, body]);
}

/** Takes the mouse and the focus off the page, hides the toasts (they come
 * and go on their own time) and waits for two frames, so that no hover,
 * focus ring, toast or pending redraw shows in a picture. A style sheet
 * would hide them too, but the page's Content-Security-Policy refuses
 * one added by the test. */
async function settle(page) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => {
    document.activeElement?.blur();
    document.getElementById('toasts').style.visibility = 'hidden';
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function useTheme(page, theme) {
  await page.evaluate((t) => window.sokod.settings.set('theme', t), theme);
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
  await settle(page);
}

/** Pixels of `actual` differing from `expected` (decoded PNGs): {share,
 * diff (a PNG) or null when the sizes differ}. */
function compare(expected, actual) {
  if (expected.width !== actual.width || expected.height !== actual.height) return { share: 1, diff: null };
  const { width, height } = actual;
  const diff = new PNG({ width, height });
  const n = pixelmatch(expected.data, actual.data, diff.data, width, height, { threshold: THRESHOLD });
  return { share: n / (width * height), diff };
}

/** Screenshots the page as `screen` in `theme` at `size` and compares it
 * with its reference; a difference beyond the tolerance is retried twice
 * (a redraw may still be on its way), then recorded with the actual picture
 * and a diff image. In update mode, the picture once stable (two shots
 * alike) replaces a reference it differs from by any pixel: a change
 * within the tolerance is kept too, so that tolerances do not add up. */
async function picture(page, screen, theme, size, failures, mask = []) {
  const name = `${screen}-${theme}`;
  const ref = join(REFERENCES, size.name, `${name}.png`);
  const shoot = async () => PNG.sync.read(await page.screenshot({
    animations: 'disabled', caret: 'hide', scale: size.scale ?? 'device',
    mask: mask.map((s) => page.locator(s)),
  }));
  compared++;
  let actual = await shoot();
  if (UPDATE) {
    for (let i = 0; i < 5; i++) {
      await page.waitForTimeout(200);
      const again = await shoot();
      const same = compare(actual, again).share === 0;
      actual = again;
      if (same) break;
    }
    if (!existsSync(ref) || compare(PNG.sync.read(readFileSync(ref)), actual).share > 0) {
      mkdirSync(join(REFERENCES, size.name), { recursive: true });
      writeFileSync(ref, PNG.sync.write(actual, { colorType: 2 }));
      written++;
    }
    return;
  }
  if (!existsSync(ref)) {
    const file = join(OUT, `${name}-${size.name}.actual.png`);
    writeFileSync(file, PNG.sync.write(actual));
    failures.push(`${screen} in ${theme} at ${size.name}: no reference ${ref} (actual in ${file})`);
    return;
  }
  const expected = PNG.sync.read(readFileSync(ref));
  let result = compare(expected, actual);
  for (let i = 0; i < 2 && result.share > MAX_SHARE; i++) {
    await page.waitForTimeout(500);
    actual = await shoot();
    result = compare(expected, actual);
  }
  if (result.share <= MAX_SHARE) return;
  const stem = join(OUT, `${name}-${size.name}`);
  writeFileSync(`${stem}.actual.png`, PNG.sync.write(actual));
  if (result.diff) writeFileSync(`${stem}.diff.png`, PNG.sync.write(result.diff));
  const what = result.diff ? `${(100 * result.share).toFixed(2)} % of the pixels differ`
    : `the picture is ${actual.width}x${actual.height}, the reference ${expected.width}x${expected.height}`;
  failures.push(`${screen} in ${theme} at ${size.name}: ${what} (${stem}.actual.png, ${stem}.diff.png, reference ${ref})`);
}

/** The same screen in every theme. */
async function everyTheme(page, screen, size, mask = []) {
  if (ONLY && !ONLY.test(screen)) return;
  for (const theme of THEMES) {
    await useTheme(page, theme);
    await picture(page, screen, theme, size, size.failures, mask);
  }
}

/** Signs up `name` from the page (its cookie), then reloads so the page
 * knows the account. */
async function signUp(page, url, name) {
  await page.goto(`${url}/`);
  await page.waitForFunction(() => window.sokod?.app);
  const r = await apiSend(page, 'POST', '/account/signup', { username: name, password: PASSWORD });
  assert.equal(r.status, 201, `signing up ${name}: ${JSON.stringify(r.body)}`);
}

async function logIn(page, url, name) {
  await page.goto(`${url}/`);
  await page.waitForFunction(() => window.sokod?.app);
  const r = await apiSend(page, 'POST', '/account/login', { username: name, password: PASSWORD });
  assert.equal(r.status, 200, `logging in ${name}: ${JSON.stringify(r.body)}`);
}

/** Opens a level on the game screen and waits until it is drawn. */
async function openLevel(page, url, level) {
  await page.goto(`${url}/#/play/${level.id}`);
  await waitForGame(page, level.title || undefined);
  await page.waitForLoadState('networkidle');
}

/** The largest bundled level (most squares), from the server's library. */
async function largestLevel(page) {
  const { collections } = (await apiGet(page, '/collections')).body;
  let best = null;
  for (const c of collections) {
    for (const l of (await apiGet(page, `/collections/${c.id}`)).body.levels) {
      if (!best || l.width * l.height > best.width * best.height) best = l;
    }
  }
  return best;
}

/** Every screen at one size, on a sokod of its own. */
async function picturesAt(size) {
  const t0 = Date.now();
  const server = await startServer({ allLevels: true });
  const people = [];
  try {
    createAdmin(server.db, 'boss', PASSWORD);
    const url = server.url;
    const guest = await device(size), ada = await device(size), boss = await device(size);
    people.push(guest, ada, boss);

    // Ada solves the tutorial's first level, so that its board has an
    // entry to replay, and opens a race room on it.
    await signUp(ada.page, url, 'ada');
    const tutorial = await tutorialLevels(ada.page);
    const [first, second] = tutorial;
    await openLevel(ada.page, url, first);
    await press(ada.page, arrows(first.solution));
    await ada.page.waitForSelector('#solved:not([hidden])');
    await waitSynced(ada.page);
    const room = await apiSend(ada.page, 'POST', '/rooms', { level: 'chosen', level_id: second.id });
    assert.equal(room.status, 201, `a race room: ${JSON.stringify(room.body)}`);

    // The admin plays a few steps of the second level, for Ada to watch.
    await logIn(boss.page, url, 'boss');
    await openLevel(boss.page, url, second);
    await press(boss.page, arrows(second.solution.slice(0, 3)));
    await waitSynced(boss.page);
    const bossId = (await apiGet(boss.page, '/account')).body.user.id;
    console.log(`${size.name}: sokod and the test's data ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // A guest's screens.
    const { page } = guest;
    await page.goto(`${url}/#/`);
    await page.waitForSelector('#title-play[data-ready]');
    await page.waitForFunction(() => document.getElementById('title-daily-state').textContent !== '');
    await page.waitForSelector('#title-foryou:not([hidden])');
    await everyTheme(page, 'title', size);

    await page.goto(`${url}/#/library`);
    await page.waitForSelector('.level-card canvas');
    await page.waitForSelector('.level-card .difficulty');
    await page.waitForLoadState('networkidle');
    await everyTheme(page, 'library', size);

    await openLevel(page, url, first);
    await everyTheme(page, 'game-small', size);

    // The list of keys, as "?" opens it over the game.
    if (!ONLY || ONLY.test('keys')) {
      await page.focus('#board');
      await page.keyboard.press('?');
      await page.waitForSelector('#keys[open]');
      await everyTheme(page, 'keys', size);
      await page.keyboard.press('Escape');
      await page.waitForSelector('#keys', { state: 'hidden' });
    }

    await openLevel(page, url, await largestLevel(page));
    await everyTheme(page, 'game-large', size);

    // The first level in reverse: its boxes on their goals, the squares
    // they start on marked as the targets.
    await page.goto(`${url}/#/play/${first.id}/reverse`);
    await waitForGame(page, first.title || undefined);
    await page.waitForFunction(() => / · Reverse$/.test(document.getElementById('g-sub').textContent));
    await page.waitForLoadState('networkidle');
    await everyTheme(page, 'game-reverse', size);

    // The first level solved in reverse, on a device of its own (a guest's
    // solution would change the guest's screens below): the card counts
    // the forward solution stored. In "#@ $ .#" the player walks right of
    // the box (rrr) and pulls it home (LL).
    if (!ONLY || ONLY.test('solved-reverse')) {
      const puller = await device(size);
      people.push(puller);
      await puller.page.goto(`${url}/#/play/${first.id}/reverse`);
      await waitForGame(puller.page, first.title || undefined);
      await puller.page.waitForFunction(() => / · Reverse$/.test(document.getElementById('g-sub').textContent));
      await press(puller.page, arrows('rrrLL'));
      await puller.page.waitForSelector('#solved:not([hidden])');
      await puller.page.waitForSelector('#solved-foryou:not([hidden])');
      await waitSynced(puller.page);
      await puller.page.waitForLoadState('networkidle');
      await everyTheme(puller.page, 'solved-reverse', size);
      assert.deepEqual(puller.errors, [], `script errors on the puller's page at ${size.name}`);
    }

    await openLevel(page, url, first);
    await press(page, arrows(first.solution));
    await page.waitForSelector('#solved:not([hidden])');
    await page.waitForSelector('#solved-foryou:not([hidden])');
    await waitSynced(page);
    await page.waitForLoadState('networkidle');
    await everyTheme(page, 'solved', size);

    await page.goto(`${url}/#/editor`);
    await page.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
    await page.click('#ed-import');
    await page.fill('#ed-import-text', EDITOR_LEVEL);
    await page.click('#ed-import-read');
    await page.waitForSelector('#ed-import-dialog', { state: 'hidden' });
    await everyTheme(page, 'editor', size);

    await page.goto(`${url}/#/options`);
    await page.waitForSelector('#options-form .check input');
    await everyTheme(page, 'options', size);

    await page.goto(`${url}/#/credits`);
    await page.waitForLoadState('networkidle');
    await everyTheme(page, 'credits', size);

    await page.goto(`${url}/#/rooms`);
    await page.waitForLoadState('networkidle');
    await everyTheme(page, 'rooms', size);

    await page.goto(`${url}/#/account`);
    await page.waitForSelector('#acc-signup');
    await page.waitForLoadState('networkidle');
    await everyTheme(page, 'account-guest', size);

    await page.goto(`${url}/#/play/999999`);
    await page.waitForFunction(() => document.getElementById('game-h').textContent === 'Level not found');
    await everyTheme(page, 'level-not-found', size);

    await page.goto(`${url}/#/no-such-screen`);
    await page.waitForSelector('#screen-missing:not([hidden])');
    await everyTheme(page, 'unknown-route', size);

    // Ada's screens: her account, the board, the replay, the race room
    // (before and during a race with the guest), and watching the admin.
    const p = ada.page;
    await p.goto(`${url}/#/account`);
    await p.waitForSelector('#acc-signed-in:not([hidden])');
    await p.waitForLoadState('networkidle');
    await everyTheme(p, 'account', size);

    // Her statistics: the days and the time played move with the clock, so
    // the totals, the charts' bars and their dates are masked.
    await p.goto(`${url}/#/stats`);
    await p.waitForSelector('#stats-collections li');
    await p.waitForLoadState('networkidle');
    await everyTheme(p, 'stats', size, ['#stats-status', '#stats-totals', '.stats-plot', '.stats-dates']);

    await p.goto(`${url}/#/board/${first.id}`);
    await p.waitForSelector('#board-plain tr.you a.replay-link');
    await p.waitForLoadState('networkidle');
    await everyTheme(p, 'leaderboard', size, ['#board-plain td.when']);

    await p.click('#board-plain tr.you a.replay-link');
    await p.waitForFunction(() => {
      const s = document.getElementById('screen-replay');
      return s && !s.hidden && s.dataset.step === '0' && document.getElementById('replay-board').width > 0;
    });
    await p.waitForLoadState('networkidle');
    await everyTheme(p, 'replay', size);

    await p.goto(`${url}/#/race/${room.body.room.id}`);
    await p.waitForSelector('#race-url');
    await p.waitForLoadState('networkidle');
    await everyTheme(p, 'race-room', size, ['#race-url']);

    // The guest joins and Ada starts: her board beside (or above) the guest's.
    await page.goto(`${url}/#/race/${room.body.room.id}`);
    await page.click('#race-join');
    await page.waitForSelector('#race-leave', { state: 'visible' });
    await p.waitForFunction(() => document.querySelectorAll('#race-players .race-card').length === 2);
    await p.click('#race-start');
    await p.waitForFunction(() => document.body.dataset.race === 'racing' && !document.getElementById('race-own').hidden &&
      document.getElementById('race-countdown').hidden && document.querySelector('#race-players canvas')?.width > 0,
    null, { timeout: 15000 });
    await everyTheme(p, 'race-racing', size, ['#race-url']);

    await p.goto(`${url}/#/watch/${bossId}`);
    await p.waitForFunction(() => document.body.dataset.watch === 'live');
    await everyTheme(p, 'watch', size);

    // Ada publishes a level from the editor: the dialog, the Community
    // collection with its likes and author, and the level's game screen
    // with its like and report bar. She reports it, for the admin's list.
    await p.goto(`${url}/#/editor`);
    await p.waitForFunction(() => window.sokod?.editor && document.getElementById('ed-board').width > 0);
    await p.click('#ed-import');
    await p.fill('#ed-import-text', PUBLISHED);
    await p.click('#ed-import-read');
    await p.waitForSelector('#ed-import-dialog', { state: 'hidden' });
    await p.click('#ed-publish');
    await p.waitForSelector('#ed-publish-form:not([hidden])');
    await p.fill('#ed-publish-title', 'Two rows');
    await everyTheme(p, 'editor-publish', size);
    await p.click('#ed-publish-go');
    await p.waitForSelector('#ed-publish-done:not([hidden])', { timeout: 30000 });
    const published = Number(/(\d+)$/.exec(await p.getAttribute('#ed-publish-play', 'href'))[1]);
    const community = (await apiGet(p, '/collections')).body.collections.find((c) => c.source === 'community');
    await p.goto(`${url}/#/library/${community.id}`);
    await p.waitForSelector('#lib-levels .level-author');
    await p.waitForSelector('.level-card canvas');
    await p.waitForLoadState('networkidle');
    await everyTheme(p, 'library-community', size);
    await p.goto(`${url}/#/play/${published}`);
    await waitForGame(p, 'Two rows');
    await p.waitForSelector('#g-community:not([hidden])');
    await p.waitForLoadState('networkidle');
    await everyTheme(p, 'game-community', size);
    const reported = await apiSend(p, 'POST', `/community/levels/${published}/reports`, { reason: 'a copy of a level of a book' });
    assert.equal(reported.status, 201, `a report: ${JSON.stringify(reported.body)}`);

    // The admin's upload report.
    const b = boss.page;
    await b.goto(`${url}/#/admin`);
    await b.waitForSelector('#adm-body:not([hidden]) #adm-drop');
    await b.click('.adm-paste summary');
    await b.fill('#adm-paste-name', 'mixed.sok');
    await b.fill('#adm-paste-text', UPLOAD);
    await b.click('#adm-paste-go');
    await b.waitForFunction(() => [...document.querySelectorAll('.adm-upload')].some((li) => li.dataset.state === 'checked'));
    // The background solver's verdict on the good level, not its progress.
    await b.waitForFunction(() => {
      const lines = [...document.querySelectorAll('.adm-upload .solver')];
      return lines.length > 0 && lines.every((e) => !/waiting|working/.test(e.textContent));
    }, null, { timeout: 60000 });
    await b.click('.adm-paste summary');
    await b.evaluate(() => document.querySelector('.adm-upload').scrollIntoView({ block: 'start' }));
    await b.waitForLoadState('networkidle');
    await everyTheme(b, 'admin-report', size);

    // The admin's moderation list: the report, the level, no blocked author.
    // Their dates move with the clock: masked.
    await b.goto(`${url}/#/admin/community`);
    await b.waitForSelector('#adm-reports-rows tr');
    await b.waitForLoadState('networkidle');
    await everyTheme(b, 'admin-community', size, ['.adm-community td:first-child']);

    for (const [who, { errors }] of [['the guest', guest], ['ada', ada], ['the admin', boss]]) {
      assert.deepEqual(errors, [], `script errors on ${who}'s page at ${size.name}`);
    }
  } finally {
    for (const d of people) await d.context.close();
    await server.stop();
  }
}

// The sizes run side by side, each with its own sokod and contexts.
describe('pictures', { concurrency: SIZES.length }, () => {
  for (const size of SIZES) {
    test(`every screen in every theme at ${size.name} size matches its reference picture`, async () => {
      size.failures = [];
      const t0 = Date.now();
      await picturesAt(size);
      console.log(`${size.name}: pictures taken and compared in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      const mine = size.failures;
      assert.deepEqual(mine, [], `${mine.length} pictures differ from their references ` +
        '(to accept a change meant to alter them: SOKOD_UPDATE_PICTURES=1 ctest --test-dir build -R e2e_visual):\n' +
        mine.join('\n'));
    });
  }
});
