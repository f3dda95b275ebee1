// Options follow the account: a theme chosen on one device is the theme of
// every device the player logs in on, and survives a reload there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, closeAll, apiGet, holdAnswers, routeNow } from './harness.mjs';

let server, phone, laptop;
before(async () => {
  server = await startServer();
  // One test holds back a theme file; a service worker would answer it
  // without the route seeing it (Playwright routes only the page's requests).
  phone = await openBrowser();
  laptop = await openBrowser();
});
after(() => closeAll(server, phone, laptop));

const themeOf = (page) => page.evaluate(() => document.documentElement.dataset.theme);

async function account(page, form, name) {
  await page.goto(`${server.url}/#/account`);
  await page.fill(`#acc-${form} input[name=username]`, name);
  await page.fill(`#acc-${form} input[name=password]`, 'correct horse battery');
  await page.click(`#acc-${form} button`);
  await page.waitForFunction((n) => document.getElementById('acc-status').textContent.includes(n), name);
}

test('a theme chosen on one device is used on another after logging in', async () => {
  const name = `themer${Date.now() % 100000}`;
  await account(phone.page, 'signup', name);
  await phone.page.goto(`${server.url}/#/options`);
  const before = await themeOf(phone.page);
  const wanted = before === 'midnight' ? 'garden' : 'midnight';
  await phone.page.check(`input[name=theme][value=${wanted}]`);
  await phone.page.waitForFunction((t) => document.documentElement.dataset.theme === t, wanted);
  // The choice reaches the server shortly after it is made.
  let saved;
  for (let i = 0; i < 50 && saved !== wanted; i++) {
    saved = (await apiGet(phone.page, '/account/settings')).body?.settings?.theme;
    if (saved !== wanted) await phone.page.waitForTimeout(100);
  }
  assert.equal(saved, wanted, 'the server keeps the theme chosen on the phone');

  await laptop.page.goto(`${server.url}/`);
  assert.notEqual(await themeOf(laptop.page), wanted, 'a new device starts on its own theme');
  await account(laptop.page, 'login', name);
  await laptop.page.waitForFunction((t) => document.documentElement.dataset.theme === t, wanted,
    { timeout: 10000 });
  await laptop.page.reload();
  await laptop.page.waitForFunction((t) => document.documentElement.dataset.theme === t, wanted,
    { timeout: 10000 });
  assert.deepEqual(phone.errors.concat(laptop.errors), [], 'no page errors');
});

test('an option changed while the options screen still fetches its themes is kept', async () => {
  const slow = await openBrowser();
  try {
    const { page } = slow;
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => window.sokod?.app);
    // The theme previews arrive late, as on a slow network: the boxes are
    // on the screen, and can be used, before the screen has all it shows.
    const themes = await holdAnswers(page, '**/themes/**', { method: 'GET', all: true });
    await page.goto(`${server.url}/#/options`);
    await themes.arrived;
    // Sound is off by default, and its box unticked in the page as sent.
    await page.check('input[name="sound"]');
    assert.equal(await page.evaluate(() => document.getElementById('options-form').dataset.ready), undefined,
      'the change was made while the themes were still on their way');
    assert.ok(themes.count() > 0, 'the theme requests were held back');
    await themes.release();
    await page.waitForFunction(() => document.getElementById('options-form').dataset.ready === '1',
      null, { timeout: 15000 });
    assert.equal(await page.isChecked('input[name="sound"]'), true,
      'the box still shows the change once the screen is ready');
    // A visitor without a session keeps options in the browser: the server
    // makes no guest for them. They reach it once the visitor plays.
    await page.waitForTimeout(600);
    assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('sokod.settings')).sound), true,
      'the browser keeps the change');
    assert.deepEqual((await apiGet(page, '/account/settings')).body?.settings, {},
      'the server keeps nothing for a visitor without a session');
    await page.goto(`${server.url}/#/play/1`);
    let saved;
    for (let i = 0; i < 50 && saved !== true; i++) {
      saved = (await apiGet(page, '/account/settings')).body?.settings?.sound;
      if (saved !== true) await page.waitForTimeout(100);
    }
    assert.equal(saved, true, 'the server keeps the change once the visitor has a session');
    assert.deepEqual(slow.errors, [], 'no page errors');
  } finally {
    await slow.close();
  }
});

test('options changed quickly reach the server in order, and the theme chosen last is the one shown', async () => {
  const { page, errors } = phone;
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => window.sokod?.app?.theme);
  const current = await themeOf(page);
  const themes = await page.evaluate(async () => (await (await fetch('/themes/index.json')).json()).themes);
  const [first, last] = themes.filter((t) => t !== current);
  assert.ok(first && last, `two themes besides ${current}: ${themes}`);

  // The first save is held before it reaches the server, as when it takes
  // the slower way there; the second choice is made meanwhile.
  let open, sent;
  const gate = new Promise((r) => { open = r; });
  const firstSent = new Promise((r) => { sent = r; });
  const puts = [];
  await routeNow(page, '**/api/v1/account/settings', async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    puts.push(route.request());
    if (puts.length === 1) {
      sent();
      await gate;
    }
    await route.continue();
  });
  // The first theme's file is held back too: it loads after the second's.
  let openTheme;
  const themeGate = new Promise((r) => { openTheme = r; });
  let themeHeld = null;
  await routeNow(page, `**/themes/${first}.json`, async (route) => {
    themeHeld = route.request();
    const response = await route.fetch();
    await themeGate;
    await route.fulfill({ response });
  });

  await page.evaluate((t) => window.sokod.settings.set('theme', t), first);
  await firstSent;
  await page.evaluate((t) => window.sokod.settings.set('theme', t), last);
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, last);
  // Longer than the page waits before saving a change: the second choice
  // waits for the first save's answer.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 600)));
  assert.equal(puts.length, 1, 'one save at a time');

  // The first theme's file arrives late: the theme chosen last stays.
  assert.ok(themeHeld, 'the first theme was asked for');
  const lateTheme = page.waitForEvent('requestfinished', (r) => r === themeHeld);
  openTheme();
  await lateTheme;
  await page.evaluate(() => new Promise((r) => setTimeout(r, 250)));
  assert.equal(await themeOf(page), last, 'the theme chosen last is shown, not the one that loaded last');

  // The first save goes through; the server ends with the choice made last.
  const firstDone = page.waitForEvent('requestfinished', (r) => r === puts[0]);
  open();
  await firstDone;
  let saved;
  for (let i = 0; i < 50 && saved !== last; i++) {
    saved = (await apiGet(page, '/account/settings')).body?.settings?.theme;
    if (saved !== last) await page.waitForTimeout(100);
  }
  await page.unroute('**/api/v1/account/settings');
  await page.unroute(`**/themes/${first}.json`);
  assert.equal(saved, last, `the server keeps the theme chosen last (saves sent: ${puts.length})`);
  assert.deepEqual(errors, [], 'no page errors');
});
