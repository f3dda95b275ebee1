// Ratings in the client: the library shows each level's difficulty and
// solve count, and its filters and sorts list what the server answers
// (within a collection, across every one, a page at a time); the title
// screen and the solved card offer a level for you, within the band the
// server says, with "Another" to draw again; the statistics draw the
// rating; on a desktop and on a phone, where the library's tools fit the
// screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, tutorialLevels, apiGet, waitForGame, press, arrows, screenshotPath } from './harness.mjs';

let server, browser;
// The rating pass every second, so that a solve is counted at once.
before(async () => {
  process.env.SOKOD_RATING_INTERVAL = '1';
  ({ server, browser } = await startServerAndBrowser());
});
after(() => closeAll(server, browser));

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

const LABEL = /^(beginner|easy|medium|hard|expert) (\d+) · (\d+) solves?$/;

/** The cards on screen: id, difficulty rating and solves. */
function cards(page) {
  return page.$$eval('#lib-levels .level-card', (as) => as.map((a) => ({
    id: Number(a.dataset.level), difficulty: a.querySelector('.difficulty')?.textContent ?? '',
  })));
}

async function choose(page, select, value) {
  const before = await page.$eval('#lib-levels', (ol) => ol.dataset.renders ?? '');
  await page.selectOption(select, value);
  return before;
}

/** Waits until the list shows `n` cards and every one has its difficulty. */
async function listed(page, n) {
  await page.waitForFunction((n) => {
    const cs = [...document.querySelectorAll('#lib-levels .level-card')];
    return cs.length === n && cs.every((c) => c.querySelector('.difficulty'));
  }, n, { timeout: 15000 });
  return cards(page);
}

test('the library filters and sorts by difficulty, and a level for you is offered', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const tutorial = await tutorialLevels(page);
  const first = tutorial[0];
  assert.deepEqual(await solve(page, first.id, first.solution), { status: 200, solved: true });
  // The pass counts the solve (and rates it).
  for (const end = Date.now() + 15000; ;) {
    const r = await apiGet(page, '/levels?filter=solved');
    if (r.body.levels.some((l) => l.id === first.id && l.solves === 1)) break;
    assert.ok(Date.now() < end, `the solve counted within 15 s: ${JSON.stringify(r.body)}`);
    await new Promise((done) => setTimeout(done, 300));
  }

  // The statistics draw the rating: one day, the line ending where the
  // answer says.
  await page.goto(`${server.url}/#/stats`);
  await page.waitForSelector('#stats-rating svg');
  const stats = await apiGet(page, '/account/stats');
  assert.ok(stats.body.rating.rating > 1500, `a quick solve raised the rating: ${JSON.stringify(stats.body.rating)}`);
  assert.equal(await page.$eval('#stats-rating path.stats-rating', (p) => p.dataset.points), '1');
  assert.match(await page.textContent('#stats-rating-note'),
    new RegExp(`^${stats.body.rating.rating} \\(${stats.body.rating.label}\\), give or take ${stats.body.rating.deviation}, after 1 rated level\\.`));
  await page.$eval('#stats-rating-h', (e) => e.scrollIntoView());
  await page.screenshot({ path: screenshotPath('stats-rating-desktop.png') });

  // The title: a level for you, within the band the server says.
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#title-foryou:not([hidden])');
  const shown = Number(await page.$eval('#title-foryou-link', (a) => a.dataset.level));
  const asked = await apiGet(page, '/levels/next?exclude=0&draw=0');
  assert.equal(shown, asked.body.level.id, 'the title shows the server\'s draw');
  const d = asked.body.level.difficulty;
  assert.ok(d.rating >= asked.body.band.low && d.rating <= asked.body.band.high, JSON.stringify(asked.body));
  assert.equal(await page.textContent('#title-foryou-difficulty'), `${d.label} ${d.rating}`);
  await page.click('#title-foryou-another');
  await page.waitForFunction((s) => Number(document.getElementById('title-foryou-link').dataset.level) !== s, shown);
  const again = await apiGet(page, `/levels/next?exclude=${shown}&draw=1`);
  assert.equal(Number(await page.$eval('#title-foryou-link', (a) => a.dataset.level)), again.body.level.id, '"Another" draws again');
  await page.screenshot({ path: screenshotPath('title-foryou-desktop.png') });

  // The tutorial in the library: every card says its difficulty and solves.
  await page.goto(`${server.url}/#/library/${first.collection_id}`);
  let list = await listed(page, tutorial.length);
  for (const c of list) assert.match(c.difficulty, LABEL, `card of level ${c.id}`);
  assert.match(list.find((c) => c.id === first.id).difficulty, / · 1 solve$/);
  await choose(page, '#lib-filter', 'solved');
  list = await listed(page, 1);
  assert.deepEqual(list.map((c) => c.id), [first.id]);
  await choose(page, '#lib-filter', 'unsolved');
  list = await listed(page, tutorial.length - 1);
  assert.ok(!list.some((c) => c.id === first.id));
  await choose(page, '#lib-sort', 'difficulty');
  await page.waitForFunction(() => document.querySelector('#lib-sort').value === 'difficulty');
  const server1 = await apiGet(page, `/levels?collection=${first.collection_id}&filter=unsolved&sort=difficulty&limit=100`);
  await page.waitForFunction((ids) => JSON.stringify([...document.querySelectorAll('#lib-levels .level-card')]
    .map((a) => Number(a.dataset.level))) === JSON.stringify(ids), server1.body.levels.map((l) => l.id), { timeout: 15000 });
  const ratings = (await cards(page)).map((c) => Number(LABEL.exec(c.difficulty)[2]));
  assert.deepEqual(ratings, [...ratings].sort((a, b) => a - b), `easiest first: ${ratings}`);
  await page.screenshot({ path: screenshotPath('library-ratings-desktop.png') });

  // Every collection: a page of 100, then "Show more".
  await page.check('#lib-all');
  const all = await apiGet(page, '/levels?filter=unsolved&sort=difficulty&limit=1');
  await page.waitForFunction((t) => document.getElementById('lib-heading').textContent === `Every collection: ${t} levels`, all.body.total);
  await listed(page, Math.min(100, all.body.total));
  if (all.body.total > 100) {
    await page.click('#lib-more');
    await listed(page, Math.min(200, all.body.total));
  }
  await page.uncheck('#lib-all');
  await choose(page, '#lib-filter', 'all');
  await choose(page, '#lib-sort', 'order');

  // The solved card offers a level for you too, not the one just solved.
  const second = tutorial[1];
  await page.goto(`${server.url}/#/play/${second.id}`);
  await waitForGame(page);
  await press(page, arrows(second.solution));
  await page.waitForSelector('#solved:not([hidden])');
  await page.waitForSelector('#solved-foryou:not([hidden])');
  const offered = Number(await page.$eval('#solved-foryou-link', (a) => a.dataset.level));
  assert.ok(offered > 0 && offered !== second.id, `offered level ${offered}`);
  assert.match(await page.textContent('#solved-foryou-difficulty'), /^(beginner|easy|medium|hard|expert) \d+$/);
  await page.screenshot({ path: screenshotPath('solved-foryou-desktop.png') });

  // On a phone, the library's tools fit the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/#/library/${first.collection_id}`);
  await listed(page, tutorial.length);
  const overflow = await page.evaluate(() => [...document.querySelectorAll('#screen-library *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.id || e.className || e.tagName));
  assert.deepEqual(overflow, [], 'nothing wider than the phone');
  await page.selectOption('#lib-filter', 'unsolved');
  await listed(page, tutorial.length - 2);
  await page.screenshot({ path: screenshotPath('library-ratings-phone.png') });
  await page.setViewportSize({ width: 1200, height: 800 });
  assert.deepEqual(errors, []);
});
