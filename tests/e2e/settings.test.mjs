// Options follow the account: a theme chosen on one device is the theme of
// every device the player logs in on, and survives a reload there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, apiGet } from './harness.mjs';

let server, phone, laptop;
before(async () => {
  server = await startServer();
  phone = await openBrowser();
  laptop = await openBrowser();
});
after(async () => {
  await phone?.close();
  await laptop?.close();
  await server?.stop();
});

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
