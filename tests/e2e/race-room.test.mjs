// The race room's layout: a share link with a copy button, padding around
// what the room shows, and on a desktop the rival's live board beside the
// player's own while racing (in view, not below the fold); on a phone they
// stack. The watch screen has the same padding.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchChromium, closeAll, tutorialLevels, screenshotPath } from './harness.mjs';

const DESKTOP = { viewport: { width: 1280, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launchChromium();
});
after(() => closeAll(server, browser));

async function person(options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

const rect = (page, selector) => page.evaluate((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width };
}, selector);

/** How far the text of `selector` sits from the screen's left edge. */
const inset = (page, selector) => page.evaluate((s) => {
  const e = document.querySelector(s);
  const r = e.getBoundingClientRect();
  return r.left + parseFloat(getComputedStyle(e).paddingLeft);
}, selector);

test('the race room shares its link, pads its content and shows the rival beside the player on a desktop', async () => {
  const host = await person(DESKTOP), rival = await person(PHONE);
  await host.page.goto(`${server.url}/`);
  const level = (await tutorialLevels(host.page))[4];
  await host.page.goto(`${server.url}/#/play/${level.id}`);
  await host.page.waitForFunction(() => !/Loading/.test(document.getElementById('game-h').textContent));
  // An account, so that the watch screen can follow the host later.
  const signup = await host.page.evaluate(async () => (await fetch('/api/v1/account/signup', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'racer', password: 'a password of a racer' }),
  })).status);
  assert.equal(signup, 201);
  await host.page.goto(`${server.url}/#/rooms`);
  await host.page.click('#rooms-last');
  await host.page.waitForURL(/#\/race\/\d+$/);
  const link = await host.page.inputValue('#race-url');
  assert.match(link, /\/#\/race\/\d+$/);
  await host.page.click('#race-copy');
  assert.equal(await host.page.evaluate(() => navigator.clipboard.readText()), link, 'Copy link puts the room\'s link on the clipboard');
  assert.ok(await inset(host.page, '#race-link') >= 12, 'the share link is not against the screen\'s edge');

  await rival.page.goto(link);
  await rival.page.click('#race-join');
  await rival.page.waitForSelector('#race-leave', { state: 'visible', timeout: 15000 });
  const rivalId = await rival.page.evaluate(async () => (await (await fetch('/api/v1/account')).json()).user.id);
  await host.page.waitForSelector(`#race-players [data-user="${rivalId}"]`);
  await host.page.screenshot({ path: screenshotPath('race-lobby-desktop.png') });
  await host.page.click('#race-start');
  for (const { page } of [host, rival]) {
    await page.waitForFunction(() => document.body.dataset.race === 'racing' && !document.getElementById('race-own').hidden,
      null, { timeout: 15000 });
  }

  const own = await rect(host.page, '#race-own');
  const card = await rect(host.page, `#race-players [data-user="${rivalId}"]`);
  assert.ok(card.left >= own.right - 1, `the rival's board is beside the own one: own ${JSON.stringify(own)}, rival ${JSON.stringify(card)}`);
  assert.ok(card.top < own.bottom && card.bottom <= 800, `the rival's board is in view while racing: ${JSON.stringify(card)}`);
  assert.ok(await inset(host.page, '#race-own') >= 12, `the own board is not against the edge: ${JSON.stringify(own)}`);
  await host.page.screenshot({ path: screenshotPath('race-racing-desktop.png') });

  // On a phone the boards stack, the own one first, both padded.
  const phoneOwn = await rect(rival.page, '#race-own');
  const phoneCard = await rect(rival.page, '#race-players .race-card');
  assert.ok(phoneCard.top >= phoneOwn.bottom - 1, `on a phone the boards stack: ${JSON.stringify({ phoneOwn, phoneCard })}`);
  assert.ok(await inset(rival.page, '#race-link') >= 12, 'the phone\'s share link is padded');
  await rival.page.screenshot({ path: screenshotPath('race-racing-phone.png') });

  // The watch screen of the host, on both sizes.
  const hostId = await host.page.evaluate(async () => (await (await fetch('/api/v1/account')).json()).user.id);
  for (const [who, name] of [[rival, 'phone'], [host, 'desktop']]) {
    await who.page.goto(`${server.url}/#/watch/${hostId}`);
    await who.page.waitForFunction(() => document.getElementById('watch-state').textContent !== '');
    assert.ok(await inset(who.page, '#watch-state') >= 12, `the watch screen's text is padded (${name})`);
    await who.page.screenshot({ path: screenshotPath(`watch-${name}.png`) });
  }
  assert.deepEqual(host.errors, []);
  assert.deepEqual(rival.errors, []);
  await host.context.close();
  await rival.context.close();
});
