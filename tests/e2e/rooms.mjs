// rooms.mjs: what the phone and desktop screen tests share: big empty
// rooms to zoom and turn, and a leaderboard with an entry on it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitForGame, waitSynced, tutorialLevels, press, arrows, importLevels, tempDir, apiGet, sendAccountForm } from './harness.mjs';

/** A walled room `w` by `h` with the player at (2, 2), a box at (5, 9)
 * and its goal at (20, 12), in the .sok format. */
export function room(w, h, title) {
  const rows = [];
  for (let y = 0; y < h; y++) {
    let row = '';
    for (let x = 0; x < w; x++) row += x === 0 || y === 0 || x === w - 1 || y === h - 1 ? '#' : ' ';
    rows.push(row);
  }
  const put = (x, y, ch) => { rows[y] = rows[y].slice(0, x) + ch + rows[y].slice(x + 1); };
  put(2, 2, '@');
  put(5, 9, '$');
  put(20, 12, '.');
  return `${rows.join('\n')}\nTitle: ${title}\n`;
}

/** Imports a room into a collection named after it, on `server`, and opens
 * it on the game screen. */
export async function openRoom(page, server, w, h, title) {
  const file = join(tempDir(), 'room.sok');
  writeFileSync(file, room(w, h, title));
  importLevels(server.db, file, title);
  await page.goto(`${server.url}/`);
  const list = (await apiGet(page, '/collections')).body.collections;
  const mine = list.find((c) => c.name === title);
  const id = (await apiGet(page, `/collections/${mine.id}`)).body.levels[0].id;
  await page.goto(`${server.url}/#/play/${id}`);
  await waitForGame(page, title);
}

/** Signs up as `name`, solves the tutorial's first level and opens its
 * leaderboard, where the player's entry then stands. */
export async function leaderboardWithEntry(page, url, name) {
  await sendAccountForm(page, url, 'signup', name, 'correct horse battery');
  await page.waitForSelector('#acc-signed-in:not([hidden])');
  const level = (await tutorialLevels(page))[0];
  await page.goto(`${url}/#/play/${level.id}`);
  await waitForGame(page, level.title);
  await press(page, arrows(level.solution));
  await page.waitForSelector('#solved:not([hidden])');
  await waitSynced(page);
  await page.goto(`${url}/#/board/${level.id}`);
  await page.waitForSelector('#board-plain .board-table tbody tr');
}
