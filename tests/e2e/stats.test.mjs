// The statistics screen (#/stats), reached from the title screen: a player
// who solved three tutorial levels today, two of them in the moves of the
// solutions the level file carries (the best known) and one with a detour,
// sees those figures in the totals, on today's bar of the daily chart,
// on this week's bar and on the tutorial's collection bar; on a desktop
// in every theme and on a phone, where nothing runs off the screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, sendAccountForm, tutorialLevels, screenshotPath, screenshotEachTheme } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => closeAll(server, browser));

// Opens the player's game on a level and sends one entry: the line.
function solve(page, level, steps) {
  return page.evaluate(async ({ level, steps }) => {
    const post = (path, body) => fetch(`/api/v1${path}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const open = await post(`/levels/${level}/game`, {});
    const log = await post(`/games/${open.body.game.id}/log`, { seq: open.body.game.seq + 1, steps });
    return { status: log.status, solved: log.body?.game?.solved };
  }, { level, steps });
}

const OPPOSITE = { l: 'r', r: 'l', u: 'd', d: 'u' };

test('the statistics screen draws what the player did today', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  await sendAccountForm(page, server.url, 'signup', 'statsfan', 'a password for statistics');
  await page.waitForFunction(() => window.sokod?.app?.account?.username === 'statsfan', null, { timeout: 10000 });
  const levels = (await tutorialLevels(page)).filter((l) => l.solution);
  const detoured = levels.find((l) => /^[lurd]/.test(l.solution));
  const straight = levels.filter((l) => l !== detoured).slice(0, 2);
  for (const l of straight) {
    const r = await solve(page, l.id, l.solution);
    assert.deepEqual(r, { status: 200, solved: true }, `level ${l.id} with its file's solution ${l.solution}`);
  }
  const c = detoured.solution[0];
  const r = await solve(page, detoured.id, `${c}${OPPOSITE[c]}${detoured.solution}`);
  assert.deepEqual(r, { status: 200, solved: true }, `level ${detoured.id} with a detour first`);

  await page.goto(`${server.url}/`);
  await page.click('#title-stats');
  await page.waitForFunction(() => location.hash === '#/stats');
  await page.waitForSelector('#stats-days svg');
  assert.equal(await page.textContent('#stats-solved'), '3', 'levels solved');
  assert.match(await page.textContent('#stats-window'), /^3 levels, /, 'the last twelve weeks');
  const days = await page.$$eval('#stats-days rect', (rs) => rs.map((r) => r.getAttribute('aria-label')));
  assert.equal(days.length, 84, 'a bar a day for twelve weeks');
  const today = new Date().toISOString().slice(0, 10);
  assert.equal(days.at(-1), `${today}: 3 levels solved`, 'today\'s bar, the last');
  assert.ok(days.slice(0, -1).every((d) => / 0 levels solved$/.test(d)), `the other days: ${days.filter((d) => !/ 0 levels/.test(d))}`);
  const weeks = await page.$$eval('#stats-weeks rect', (rs) => rs.map((r) => r.getAttribute('aria-label')));
  assert.equal(weeks.length, 12);
  assert.match(weeks.at(-1), /: 3 levels solved$/, 'this week\'s bar');
  assert.equal(await page.$$eval('#stats-time rect', (rs) => rs.length), 12, 'time played per week');
  // The today's bar is drawn the tallest; an empty day is drawn as nothing.
  const heights = await page.$$eval('#stats-days rect', (rs) => rs.map((r) => r.getBoundingClientRect().height));
  assert.ok(heights.at(-1) > 50 && heights.slice(0, -1).every((h) => h === 0), `bar heights ${heights.slice(-3)}`);

  const tutorial = await page.$eval('#stats-collections li:first-child svg', (s) => s.getAttribute('aria-label'));
  const total = (await tutorialLevels(page)).length;
  assert.equal(tutorial, `${await page.textContent('#stats-collections li:first-child a')}: 3 of ${total} solved, 2 in the best known moves`,
    'the tutorial: the detour is not the best known');
  const [solvedWidth, bestWidth] = await page.$$eval('#stats-collections li:first-child svg rect',
    (rs) => [rs[1], rs[2]].map((r) => r.getBoundingClientRect().width));
  assert.ok(bestWidth > 0 && bestWidth < solvedWidth, `the best known bar (${bestWidth}) is shorter than the solved one (${solvedWidth})`);

  await page.screenshot({ path: screenshotPath('stats-desktop.png'), fullPage: true });
  await page.$eval('#stats-collections', (e) => e.scrollIntoView());
  await page.screenshot({ path: screenshotPath('stats-collections-desktop.png') });
  await page.$eval('#stats-h', (e) => e.scrollIntoView());
  await screenshotEachTheme(page, 'stats');

  // The account screen links here too; on a phone nothing runs off the screen.
  await page.goto(`${server.url}/#/account`);
  await page.click('#acc-stats');
  await page.waitForFunction(() => location.hash === '#/stats');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForSelector('#stats-days svg');
  const overflow = await page.evaluate(() => [...document.querySelectorAll('#screen-stats *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.id || e.className?.baseVal || e.className || e.tagName));
  assert.deepEqual(overflow, [], 'nothing wider than the phone');
  await page.screenshot({ path: screenshotPath('stats-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1200, height: 800 });
  assert.deepEqual(errors, []);
});
