// Submitted solutions on a level's leaderboard: a guest is told to sign
// up; an account pastes a line or loads it from a file, the server checks
// it, and it is ranked on the submitted board; the best known counts show
// there and on the game screen, from the solution the level's file carried;
// the optimiser, from the replay of a player's own solution, finds a
// shorter line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, sendAccountForm, tutorialLevels, waitForGame, screenshotPath } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => closeAll(server, browser));

const status = (page, pattern, what) => page.waitForFunction((p) => new RegExp(p).test(document.getElementById('submit-status').textContent),
  pattern.source, { timeout: 10000 }).catch(async () => assert.fail(`${what}: the status says "${await page.textContent('#submit-status')}"`));

test('a pasted or loaded solution is checked and ranked apart; the best known shows', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const level = (await tutorialLevels(page))[1];
  const line = level.solution;
  const [moves, pushes] = [line.length, [...line].filter((c) => c === c.toUpperCase()).length];

  await page.goto(`${server.url}/#/board/${level.id}`);
  await page.waitForSelector('#submit-signin:not([hidden])');
  assert.equal(await page.isHidden('#submit-form'), true, 'a guest sees no form');
  await page.waitForSelector('#board-best:not([hidden])');
  assert.match(await page.textContent('#board-best'), new RegExp(`Best known: ${moves} moves, ${pushes} pushes`),
    'the best known comes from the solution in the level\'s file');

  await sendAccountForm(page, server.url, 'signup', 'paster', 'a password to paste with');
  await page.waitForFunction(() => window.sokod?.app?.account?.username === 'paster', null, { timeout: 10000 });
  await page.goto(`${server.url}/#/board/${level.id}`);
  await page.waitForSelector('#submit-form:not([hidden])');
  assert.match(await page.textContent('#board-submitted .board-total'), /None submitted yet/);

  await page.fill('#submit-lurd', `${line.slice(0, 2)}x`);
  await page.click('#submit-send');
  await status(page, /column 3/, 'a letter that is no step');
  await page.fill('#submit-lurd', line.slice(0, -1));
  await page.click('#submit-send');
  await status(page, /ends unsolved/, 'a line one step short');
  // The file's board and notes are left out: its LURD lines fill the box.
  await page.setInputFiles('#submit-file', {
    name: 'mine.sok', mimeType: 'text/plain',
    buffer: Buffer.from(`; ${level.title}\n#####\n#@$.#\n#####\nSolution\n${line.slice(0, 10)}\n${line.slice(10)}\n`),
  });
  await page.waitForFunction((s) => document.getElementById('submit-lurd').value === s, line, { timeout: 5000 });
  await page.click('#submit-send');
  await status(page, new RegExp(`Checked: it solves the level in ${moves} moves and ${pushes} pushes`), 'the loaded solution');
  await page.waitForFunction(() => document.querySelector('#board-submitted tbody tr .who')?.textContent === 'paster');
  const row = await page.$$eval('#board-submitted tbody tr:first-child td', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(row.slice(0, 4), ['1', 'paster', String(moves), String(pushes)], `the submitted board's first row: ${row}`);
  assert.equal(await page.$$eval('#board-plain tbody tr', (trs) => trs.length), 0, 'the witnessed board holds nothing submitted');
  await page.screenshot({ path: screenshotPath('submit-desktop.png'), fullPage: true });

  // Played with a detour (there and back first), then shortened by the
  // optimiser from the replay of that solution.
  const opposite = { l: 'r', r: 'l', u: 'd', d: 'u' };
  assert.ok(opposite[line[0]], `the line starts with a walk: ${line}`);
  const played = `${line[0]}${opposite[line[0]]}${line}`;
  const solutionId = await page.evaluate(async ({ id, steps }) => {
    const post = (p, b) => fetch(`/api/v1${p}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
    const g = (await post(`/levels/${id}/game`, {})).game;
    await post(`/games/${g.id}/log`, { seq: g.seq + 1, steps });
    const board = await fetch(`/api/v1/levels/${id}/leaderboard`).then((r) => r.json());
    return board.you?.solution_id ?? board.entries.find((e) => e.you)?.solution_id;
  }, { id: level.id, steps: played });
  assert.ok(solutionId, 'the played solution is on the board');
  await page.goto(`${server.url}/#/replay/${solutionId}`);
  await page.waitForSelector('#replay-optimise:not([hidden])');
  await page.click('#replay-opt-moves');
  await page.waitForFunction(() => /Found|Nothing/.test(document.getElementById('replay-opt-status').textContent), null, { timeout: 20000 });
  assert.match(await page.textContent('#replay-opt-status'), new RegExp(`Found ${moves} moves, ${pushes} pushes \\(this one: ${played.length}`),
    'the optimiser found the file\'s solution again');
  await page.screenshot({ path: screenshotPath('optimise-desktop.png') });

  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await page.waitForFunction((t) => document.getElementById('g-hint').textContent.includes(t),
    `best known ${moves} moves, ${pushes} pushes`, { timeout: 5000 })
    .catch(async () => assert.fail(`the game screen's line: "${await page.textContent('#g-hint')}"`));
  assert.deepEqual(errors, []);
});
