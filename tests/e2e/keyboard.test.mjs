// Every screen by keyboard alone: the menus, the options (theme, sound),
// the credits and the in-game menu (which Escape opens while a level loads
// and after one cannot be opened), with a visible focus throughout; Next,
// Back and Prev while a level loads keep the board and the address together.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServerAndBrowser, closeAll, waitForGame, tutorialLevels, press, arrows, localPosition, apiGet, holdAnswers } from './harness.mjs';

let server, browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => closeAll(server, browser));

/** Tabs forward until the focused element's text matches, at most 30 times. */
async function tabTo(page, pattern) {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const text = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (pattern.test(text)) return text;
  }
  throw new Error(`no focusable element matching ${pattern} within 30 tabs`);
}

async function focusVisible(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    const target = el.matches('input') ? el.nextElementSibling ?? el : el;
    const s = getComputedStyle(target);
    return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
  });
}

test('options by keyboard: theme, sound; Escape goes back', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  await tabTo(page, /^Options$/);
  assert.ok(await focusVisible(page), 'the focused link shows a focus ring');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#screen-options:not([hidden]) #options-form[data-ready]');
  const before = await page.evaluate(() => document.documentElement.dataset.theme);
  await page.keyboard.press('Tab'); // from the heading to the chosen theme
  assert.equal(await page.evaluate(() => document.activeElement.name), 'theme');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((t) => document.documentElement.dataset.theme !== t, before);
  const after = await page.evaluate(() => document.documentElement.dataset.theme);
  assert.notEqual(after, before, 'an arrow key picks the next theme at once');
  for (let i = 0; i < 10; i++) {
    const name = await page.evaluate(() => document.activeElement.name);
    if (name === 'sound') break;
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.evaluate(() => document.activeElement.name), 'sound');
  await page.keyboard.press('Space');
  assert.equal(await page.evaluate(() => window.sokod.settings.get('sound')), true, 'Space turns sound on');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#screen-title:not([hidden])');
  // The theme is remembered across a reload.
  await page.reload();
  await page.waitForSelector('#screen-title:not([hidden])');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), after);
  assert.deepEqual(errors, []);
});

test('credits by keyboard show the level authors', async () => {
  const { page } = browser;
  await page.goto(`${server.url}/#/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  await page.focus('#title-h');
  await tabTo(page, /^Credits$/);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /level/.test(document.getElementById('credits-list').textContent));
  const text = await page.textContent('#credits-list');
  assert.match(text, /First Steps/);
  assert.match(text, /sokod: 10 levels/, `authors with their levels: ${text}`);
});

test('the game by keyboard: steps with sound on, Escape opens and closes the menu', async () => {
  const { page, errors } = browser;
  const level = (await tutorialLevels(page))[2];
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows('lldR'));
  assert.deepEqual([(await localPosition(page)).moves, (await localPosition(page)).pushes], [4, 1]);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.getElementById('game-menu').open);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Resume', 'the menu takes the focus');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await localPosition(page)).moves, 4, 'keys do not play behind the menu');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.getElementById('game-menu').open);
  await page.keyboard.press('ArrowRight');
  assert.equal((await localPosition(page)).moves, 5, 'play goes on after the menu');
  await page.keyboard.press('n');
  await page.waitForFunction((t) => document.getElementById('game-h').textContent !== t, level.title);
  assert.deepEqual(errors, []);
});

test('Escape opens the menu while a level loads, and after a level cannot be opened', async () => {
  const { page, errors } = browser;
  // A level this page has not opened yet: the screen keeps the last one's game.
  await page.goto(`${server.url}/#/`);
  await page.waitForSelector('#screen-title:not([hidden])');
  const level = (await tutorialLevels(page))[0];
  const hold = await holdAnswers(page, new RegExp(`/api/v1/levels/${level.id}/game$`));
  await page.evaluate((id) => { location.hash = `#/play/${id}`; }, level.id);
  await hold.arrived;
  assert.equal(await page.textContent('#game-h'), 'Loading…', 'the level is still loading');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.getElementById('game-menu').open, null, { timeout: 5000 })
    .catch(() => assert.fail('Escape pressed during "Loading…" did not open the menu'));
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.getElementById('game-menu').open);
  await hold.release();
  await waitForGame(page, level.title);

  // A level that does not exist: the heading says so, and Escape still
  // opens the menu, whose Levels item leads out.
  await page.evaluate(() => { location.hash = '#/play/987654'; });
  await page.waitForFunction(() => document.getElementById('game-h').textContent === 'Level not found');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.getElementById('game-menu').open, null, { timeout: 5000 })
    .catch(() => assert.fail('Escape pressed after "Level not found" did not open the menu'));
  await page.click('#game-menu [data-menu="levels"]');
  await page.waitForSelector('#screen-library:not([hidden])');
  assert.deepEqual(errors, []);
});

test('Next, then Back, Prev or away while the next level loads: the board, the address and the game stay together', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/`);
  const levels = await tutorialLevels(page);
  const gameOf = (l) => new RegExp(`/api/v1/levels/${l.id}/game$`);
  const [two, three] = [levels[6], levels[7]];
  const state = () => page.evaluate(() => ({
    hash: location.hash, title: document.getElementById('game-h').textContent, game: window.sokod.gameId(),
  }));
  await page.goto(`${server.url}/#/play/${two.id}`);
  await waitForGame(page, two.title);
  const shown = await state();
  const movesOf = async (game) => (await apiGet(page, `/games/${game}`)).body.game.moves;
  const moves = await movesOf(shown.game);

  // Back before the next level's game arrives, with arrow keys pressed
  // during "Loading…": the level shown stays, and its game moves not.
  let hold = await holdAnswers(page, gameOf(three));
  await page.keyboard.press('n');
  await hold.arrived;
  await press(page, arrows('lrud'));
  await page.goBack();
  await page.waitForFunction((h) => location.hash === h, shown.hash);
  await hold.release();
  assert.deepEqual(await state(), shown, 'the late answer for the next level did not replace the level shown');
  assert.equal(await movesOf(shown.game), moves, 'keys pressed while the next level loaded did not play');

  // Prev pressed while the next level loads waits for it: it is not the
  // previous level of the one shown before.
  hold = await holdAnswers(page, gameOf(three));
  await page.keyboard.press('n');
  await hold.arrived;
  await page.keyboard.press('p');
  await hold.release();
  await waitForGame(page);
  const next = await state();
  assert.deepEqual([next.hash, next.title], [`#/play/${three.id}`, three.title], 'Next went to the next level, and only there');
  assert.notEqual(next.game, shown.game, 'the next level plays its own game');

  // Away to the title screen before the level arrives: nothing of it follows there.
  hold = await holdAnswers(page, gameOf(levels[8]));
  await page.keyboard.press('n');
  await hold.arrived;
  await page.evaluate(() => { location.hash = '#/'; });
  await page.waitForSelector('#screen-title:not([hidden])');
  await hold.release();
  assert.equal(await page.evaluate(() => window.sokod.live.query), '', 'the event stream stays closed');
  assert.equal(await page.evaluate(() => localStorage.getItem('sokod.last')), String(three.id), 'the last level played');

  // The collection's answer for the next level (not cached: solving a level
  // forgets them) comes after Back: the buttons are the first level's.
  await page.goto(`${server.url}/#/play/${levels[0].id}`);
  await waitForGame(page, levels[0].title);
  await page.evaluate(() => window.sokod.app.invalidate());
  hold = await holdAnswers(page, new RegExp(`/api/v1/collections/${levels[0].collection_id}$`));
  await page.keyboard.press('n');
  await waitForGame(page, levels[1].title);
  await hold.arrived;
  await page.goBack();
  await waitForGame(page, levels[0].title);
  await page.waitForFunction(() => !document.getElementById('g-next').disabled);
  await hold.release();
  assert.equal(await page.isDisabled('#g-prev'), true, 'the first level has no previous level');

  // Next pressed the moment a level shows, before its collection's answer
  // says which level is next: the key waits for it rather than being lost.
  await page.evaluate(() => window.sokod.app.invalidate());
  hold = await holdAnswers(page, new RegExp(`/api/v1/collections/${levels[2].collection_id}$`));
  await page.evaluate((id) => { location.hash = `#/play/${id}`; }, levels[2].id);
  await waitForGame(page, levels[2].title);
  await hold.arrived;
  await page.keyboard.press('n');
  await hold.release();
  await waitForGame(page, levels[3].title)
    .catch(() => assert.fail('n pressed before the collection arrived did not open the next level'));
  assert.deepEqual(errors, []);
});

test('a gamepad plays: the d-pad steps, B undoes', async () => {
  const { context } = browser;
  const page = await context.newPage();
  // A pretend gamepad the test holds buttons on.
  await page.addInitScript(() => {
    const buttons = Array.from({ length: 17 }, () => ({ pressed: false, touched: false, value: 0 }));
    window.testPad = { id: 'test pad', index: 0, connected: true, mapping: 'standard', buttons, axes: [0, 0, 0, 0], timestamp: 0 };
    navigator.getGamepads = () => [window.testPad];
  });
  const level = (await tutorialLevels(browser.page))[2];
  await page.goto(`${server.url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await page.evaluate(() => window.dispatchEvent(new Event('gamepadconnected')));
  const before = (await localPosition(page)).moves;
  // A press lasts one animation frame: the page polls the pad once per frame,
  // and a callback asked for now runs after the poll already waiting for
  // that frame, so the poll sees the button down exactly once however slow
  // the machine is (held longer than 260 ms, a button repeats, as it should).
  const tap = (button) =>
    page.evaluate((b) => new Promise((resolve) => {
      window.testPad.buttons[b].pressed = true;
      requestAnimationFrame(() => {
        window.testPad.buttons[b].pressed = false;
        requestAnimationFrame(() => resolve());
      });
    }), button);
  const press = async (button, moves, what) => {
    await tap(button);
    await page.waitForFunction((m) => window.sokod.position().moves === m, moves, { timeout: 5000 })
      .catch(async () => assert.fail(`${what}: expected ${moves} moves, the board has ${(await localPosition(page)).moves}`));
  };
  await press(14, before + 1, 'd-pad left'); // d-pad left
  await press(14, before + 2, 'd-pad left again');
  await press(1, before + 1, 'B (undo)');
  await page.waitForTimeout(100);
  assert.equal((await localPosition(page)).moves, before + 1, 'one press, one action');
  await page.close();
});
