// harness.mjs: what every browser test needs: a real sokod on a free
// loopback port with a fresh database, Debian's chromium with a fresh
// profile, and small helpers to read the page and the server's answers.
// ctest sets SOKOD_BIN (the sokod binary), SOKOD_SOURCE_DIR (the checkout:
// static/, levels/, migrations/), SOKOD_WASM (core.wasm) and
// SOKOD_SCREENSHOTS (where screenshots go).

import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const here = new URL('.', import.meta.url).pathname;
export const SOURCE_DIR = process.env.SOKOD_SOURCE_DIR || resolve(here, '../..');
export const SOKOD = process.env.SOKOD_BIN || join(SOURCE_DIR, 'build/sokod');
export const WASM = process.env.SOKOD_WASM || join(SOURCE_DIR, 'build/core.wasm');
export const SHOTS = process.env.SOKOD_SCREENSHOTS || join(SOURCE_DIR, 'build/screenshots');
const MIGRATIONS = process.env.SOKOD_MIGRATIONS || join(SOURCE_DIR, 'migrations');

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** What AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer
 * print when they find a bug (the test build has them): a sokod that prints
 * one fails the test that started it. */
const SANITIZER_REPORT =
  /==\d+==ERROR: (AddressSanitizer|LeakSanitizer)|: runtime error: |SUMMARY: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)/;

/** The report in a process's output, from its first line, or null. */
function sanitizerReport(text) {
  const m = SANITIZER_REPORT.exec(text);
  if (!m) return null;
  const start = text.lastIndexOf('\n', m.index) + 1;
  return text.slice(start, start + 6000);
}

/** The environment of a sokod started now (a test may set variables such
 * as SOKOD_HEARTBEAT before): UBSan stops the process at its first report,
 * with the stack. */
function sokodEnv() {
  return { UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1', ...process.env };
}

/** A temporary folder removed when the process exits. */
export function tempDir(prefix = 'sokod-e2e-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function serverArgs(db, port, levels, staticDir) {
  return ['serve', '--port', String(port), '--db', db,
    '--static', staticDir, '--levels', levels,
    '--migrations', MIGRATIONS, '--wasm', WASM];
}

/** The levels folder a server imports on its first start: one holding only
 * the tutorial, as importing every bundled collection on each of the many
 * servers these tests start would cost seconds under the sanitizers; with
 * allLevels, the checkout's levels/ (one test imports it all). */
function levelsDir(allLevels) {
  if (allLevels) return join(SOURCE_DIR, 'levels');
  const dir = tempDir('sokod-levels-');
  copyFileSync(join(SOURCE_DIR, 'levels', 'tutorial.sok'), join(dir, 'tutorial.sok'));
  return dir;
}

/** Starts sokod; resolves to {url, port, db, stop(), restart()}. With no
 * port, --port 0 lets it pick one and its log says which; staticDir serves
 * another copy of the page than the checkout's; args are more flags. */
export async function startServer({ db = join(tempDir(), 'sokod.db'), port = 0, allLevels = false,
  staticDir = join(SOURCE_DIR, 'static'), args = [] } = {}) {
  const proc = spawn(SOKOD, [...serverArgs(db, port, levelsDir(allLevels), staticDir), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: sokodEnv() });
  let log = '';
  const closed = new Promise((r) => proc.once('close', r));
  const found = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`sokod did not say where it listens within 30 s; its log:\n${log}`)), 30000);
    const onData = (chunk) => {
      log += chunk;
      const m = log.match(/listening on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        res(m[1].replace(/\/$/, ''));
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`sokod exited (${code}) before listening; its log:\n${log}`));
    });
  });
  const url = found;
  const actualPort = Number(new URL(url).port);
  const server = {
    url, port: actualPort, db, proc,
    log: () => log,
    /** SIGTERM, then waits until sokod has ended and its output is read.
     * Throws when it printed a sanitizer report (LeakSanitizer's comes at
     * the exit). */
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await closed;
      const report = sanitizerReport(log);
      if (report !== null) throw new Error(`sokod (pid ${proc.pid}) printed a sanitizer report:\n${report}`);
    },
    /** Starts it again on the same port and database. */
    async restart() {
      await server.stop();
      return startServer({ db, port: actualPort, allLevels, staticDir, args });
    },
  };
  // A server its test never stopped is killed here, and its report (if
  // any) still fails the test file.
  process.on('exit', () => {
    if (proc.exitCode === null) proc.kill('SIGKILL');
    const report = sanitizerReport(log);
    if (report !== null) {
      process.stderr.write(`sokod (pid ${proc.pid}) printed a sanitizer report:\n${report}\n`);
      process.exitCode = 1;
    }
  });
  return server;
}

/** Imports a level file into a server's database (sokod import). */
export function importLevels(db, file, collection) {
  const args = ['import', file, '--db', db, '--migrations', MIGRATIONS];
  if (collection) args.push('--collection', collection);
  return execFileSync(SOKOD, args, { encoding: 'utf8' });
}

/** Creates an account with the admin right in a server's database (sokod
 * admin create), its password given on standard input. */
export function createAdmin(db, name, password) {
  execFileSync(SOKOD, ['admin', 'create', name, '--db', db, '--migrations', MIGRATIONS],
    { input: `${password}\n` });
}

/** A browser with a fresh profile (a persistent context in a new folder):
 * one per "device". Options go to launchPersistentContext. Service workers
 * are blocked unless the options allow them (serviceWorkers: 'allow'): a
 * page that one controls hides its requests from page.route, so a test that
 * holds answers back would hold nothing, depending on how soon the worker
 * took over. */
export async function openBrowser(options = {}) {
  const profile = tempDir('sokod-profile-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1200, height: 800 },
    serviceWorkers: 'block',
    ...options,
  });
  const page = context.pages()[0] ?? await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Whatever the Content-Security-Policy blocks is a bug of the client.
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text());
  });
  return { context, page, errors, close: () => context.close() };
}

/** Debian's chromium, headless, for tests that put several people in one
 * browser (a context each, from browser.newContext(), given
 * NO_SERVICE_WORKER's option as openBrowser's contexts are). */
export const NO_SERVICE_WORKER = Object.freeze({ serviceWorkers: 'block' });

export async function launchChromium() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

/** What most test files start before their tests: a sokod (with
 * startServer's options) and one browser (with openBrowser's options).
 * Resolves to {server, browser}; when the browser fails to open, the server
 * is stopped before the failure is passed on. */
export async function startServerAndBrowser(browserOptions = {}, serverOptions = {}) {
  const server = await startServer(serverOptions);
  try {
    return { server, browser: await openBrowser(browserOptions) };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** What a test file ends with: closes its browsers, then stops its server.
 * Each may be undefined, when the hook that starts them failed part way. */
export async function closeAll(server, ...browsers) {
  for (const browser of browsers) await browser?.close();
  await server?.stop();
}

/** Opens the account screen of the server at `url` and sends its sign-up
 * or log-in form (`form`: 'signup' or 'login') with a name and a password.
 * Returns once it is sent: the caller waits for what should follow. */
export async function sendAccountForm(page, url, form, name, password) {
  await page.goto(`${url}/#/account`);
  await page.fill(`#acc-${form} input[name="username"]`, name);
  await page.fill(`#acc-${form} input[name="password"]`, password);
  await page.click(`#acc-${form} button[type="submit"]`);
}

/** Waits until the game screen shows a level and the board is drawn. */
export async function waitForGame(page, title) {
  await page.waitForFunction((t) => {
    const h = document.getElementById('game-h');
    const s = document.getElementById('screen-game');
    return s && !s.hidden && h && (t ? h.textContent === t : !/Loading/.test(h.textContent)) &&
      document.getElementById('board').width > 0 && window.sokod?.app;
  }, title ?? null, { timeout: 15000 });
}

/** The counters as the page shows them. */
export async function counters(page) {
  return page.evaluate(() => ({
    moves: Number(document.getElementById('g-moves').textContent),
    pushes: Number(document.getElementById('g-pushes').textContent),
  }));
}

/** Waits until every queued entry has reached the server. */
export async function waitSynced(page, timeout = 15000) {
  await page.waitForFunction(() => (document.body.dataset.pending ?? '0') === '0', null, { timeout });
}

/** The local game's position: {player, boxes, moves, pushes, cursor, redo, hash}. */
export async function localPosition(page) {
  return page.evaluate(() => window.sokod.position());
}

/** Calls the API from inside the page (its cookie, its origin). */
export async function apiGet(page, path) {
  return page.evaluate(async (p) => {
    const r = await fetch(`/api/v1${p}`);
    return { status: r.status, body: await r.json() };
  }, path);
}

/** Keys pressed one after another, each a Playwright key name. */
export async function press(page, keys) {
  for (const k of keys) await page.keyboard.press(k);
}

/** LURD letters as arrow keys. */
export function arrows(lurd) {
  const map = { l: 'ArrowLeft', u: 'ArrowUp', r: 'ArrowRight', d: 'ArrowDown' };
  return [...lurd].map((c) => map[c.toLowerCase()]);
}

export function screenshotPath(name) {
  mkdirSync(SHOTS, { recursive: true });
  return join(SHOTS, name);
}

/** The themes the client offers, as static/themes/ names them. */
export const THEMES = ['classic', 'midnight', 'contrast', 'retro', 'garden'];

/** Switches the page to a theme and waits until it is drawn in it. */
export async function setTheme(page, theme) {
  await page.evaluate((t) => window.sokod.settings.set('theme', t), theme);
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
  await page.waitForTimeout(250);
}

/** A screenshot of the page in each of `themes`, named `${prefix}-${theme}.png`;
 * then the page goes back to the classic theme. */
export async function screenshotEachTheme(page, prefix, themes = THEMES) {
  for (const theme of themes) {
    await setTheme(page, theme);
    await page.screenshot({ path: screenshotPath(`${prefix}-${theme}.png`) });
  }
  await setTheme(page, 'classic');
}

/** The server's game of the level the page shows. */
export async function serverGame(page) {
  return page.evaluate(async () => {
    const id = window.sokod.gameId();
    const r = await fetch(`/api/v1/games/${id}`);
    return (await r.json()).game;
  });
}

/** The tutorial's levels as the server lists them, each with the
 * solution written under it in levels/tutorial.sok. */
export async function tutorialLevels(page) {
  const { readFileSync } = await import('node:fs');
  const text = readFileSync(join(SOURCE_DIR, 'levels/tutorial.sok'), 'utf8');
  const solutions = [...text.matchAll(/^Solution\s*\n([lurdLURD]+)\s*$/gm)].map((m) => m[1]);
  const list = await apiGet(page, '/collections');
  const tutorial = list.body.collections.find((c) => /tutorial/.test(c.source)) ?? list.body.collections[0];
  const levels = (await apiGet(page, `/collections/${tutorial.id}`)).body.levels;
  return levels.map((l, i) => ({ ...l, solution: solutions[i] }));
}

/** Clicks (or taps, with tap = true) the centre of square (x, y) of the board. */
export async function clickSquare(page, x, y, tap = false) {
  const box = await page.locator('#board').boundingBox();
  const { width, height } = await localPosition(page);
  const px = box.x + ((x + 0.5) * box.width) / width;
  const py = box.y + ((y + 0.5) * box.height) / height;
  if (tap) await page.touchscreen.tap(px, py);
  else await page.mouse.click(px, py);
}

/** Resolves once the routes set on `page` see the page's own requests.
 * page.route returns when the browser has been told to intercept (the
 * first route turns interception on), but the page takes that change a
 * moment later: a request it makes in that moment goes straight to the
 * server, unseen by the route, and a test that holds or alters it waits in
 * vain. A probe is asked for until a route answers it. */
export async function routesLive(page) {
  const probe = '**/__sokod-test-route-probe*';
  let seen = false;
  await page.route(probe, (route) => {
    seen = true;
    return route.fulfill({ status: 204 });
  });
  try {
    for (let i = 0; i < 200 && !seen; i++) {
      await page.evaluate((u) => fetch(u, { cache: 'no-store' }).then(() => {}, () => {}), `/__sokod-test-route-probe?${i}`);
      if (!seen) await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    // Other routes stay, so interception stays on: removing this one
    // changes nothing in the page.
    await page.unroute(probe);
  }
  if (!seen) throw new Error('the page\'s requests did not reach the test\'s routes within 200 probes');
}

/** page.route(url, handler, options), resolved once the route sees the
 * page's requests (see routesLive). */
export async function routeNow(page, url, handler, options) {
  await page.route(url, handler, options);
  await routesLive(page);
}

/** Holds back the page's answers to requests matching url (with `method`,
 * or any), to build a race on purpose: the first such request only, or
 * every one with `all`. Each held request reaches the server at once; only
 * its answer waits. Returns {held: the requests held, arrived: resolves with
 * the first once it is held (fails after 30 s without one: on a loaded
 * machine a page may take long to get there), count(): requests matched so
 * far, release()}: release() lets the answers through, waits until the page
 * has them, gives the page's own code a moment to act on them, and stops
 * holding. */
export async function holdAnswers(page, url, { method = null, all = false } = {}) {
  if (await page.evaluate(() => !!navigator.serviceWorker?.controller)) {
    throw new Error('a service worker controls the page, and page.route does not see its requests: ' +
      'open the context with NO_SERVICE_WORKER');
  }
  const held = [];
  let open, first, n = 0;
  const gate = new Promise((r) => { open = r; });
  const arrived = new Promise((r, fail) => {
    first = r;
    setTimeout(() => fail(new Error(`the page did not ask for ${url} within 30 s`)), 30000).unref();
  });
  arrived.catch(() => {}); // a failure reaches those who wait for it, and only them
  await routeNow(page, url, async (route) => {
    const req = route.request();
    if (method && req.method() !== method) return route.continue();
    n++;
    if (held.length > 0 && !all) return route.continue();
    held.push(req);
    first(req);
    const response = await route.fetch();
    await gate;
    await route.fulfill({ response });
  });
  return {
    held,
    arrived,
    count: () => n,
    async release() {
      try {
        if (held.length === 0) await arrived;
        const done = held.map((req) => page.waitForEvent('requestfinished', (r) => r === req));
        open();
        await Promise.all(done);
        await page.evaluate(() => new Promise((r) => setTimeout(r, 250)));
      } finally {
        // Failed or not, later tests on this page are not held.
        open();
        await page.unroute(url);
      }
    },
  };
}
