// The daily puzzle opens from the title screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, waitForGame, apiGet } from './harness.mjs';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the title screen opens today\'s daily puzzle', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  await page.click('#title-daily');
  const today = new Date().toISOString().slice(0, 10);
  await waitForGame(page, `Daily puzzle ${today}`);
  const daily = (await apiGet(page, '/daily')).body;
  assert.equal(daily.day, today);
  assert.equal(page.url().replace(/.*#/, '#'), `#/play/${daily.level.id}`, 'the play screen is on the daily level');
  const shown = await page.evaluate(() => window.sokod.position());
  assert.equal(shown.moves, 0, 'a fresh game on the daily level');
  assert.deepEqual(errors, [], 'no page errors');
});
