// letters.js: a game's history as the API writes it, one letter an entry:
// 'u' 'r' 'd' 'l' a move, upper case a push (a pull in a reverse game), '*'
// a restart. Here the page
// turns letters into play on a core game, and rebuilds a game the server
// describes; the play screen, the race boards and the watch board share it.
// It touches no page, so node can test it with core.wasm.

import { LETTERS, dirOfLetter, BOX, GOAL } from './core.js';

export const RESTART_LETTER = '*';

/** The letter of a step in direction d: upper case when it pushed. */
export function letterOf(d, pushed) {
  return pushed ? LETTERS[d].toUpperCase() : LETTERS[d];
}

/** Plays history letters on a core game, without animation. Returns false
 * at the first letter the core refuses, leaving the rest unplayed. */
export function playLetters(game, letters) {
  for (const ch of letters || '') {
    // In a reverse game the case says whether a step pulls.
    const rc = ch === RESTART_LETTER ? game.restart() : game.play(dirOfLetter(ch), ch !== ch.toLowerCase());
    if (rc < 0) return false;
  }
  return true;
}

/** Plays one entry of a game's log ({kind, steps} or {kind, count}, as the
 * live events and the page's own outbox carry them) on a core game. Returns
 * false when a step was refused: the game no longer follows the server's. */
export function playEntry(game, e) {
  switch (e.kind) {
    case 'steps': case 'walk': case 'push': return playLetters(game, e.steps);
    case 'undo': for (let i = 0; i < e.count; i++) game.undo(); return true;
    case 'redo': for (let i = 0; i < e.count; i++) game.redo(); return true;
    case 'restart': game.restart(); return true;
    default: return true;
  }
}

/** Starts the core's one live game from a game object of the server ({level:
 * {rows}, rule, history, redo}): its history played, its redo stack put
 * back. Returns the core's Game. */
export function gameOfState(core, state) {
  const rule = state.rule ?? state.level.rule ?? 0;
  const start = state.start ? state.start.y * state.level.width + state.start.x : -1;
  const game = core.startGame(state.level.rows.join('\n'), rule, start);
  const redo = state.redo || '';
  playLetters(game, state.history);
  playLetters(game, redo);
  for (let i = 0; i < redo.length; i++) game.undo();
  return game;
}

/** The level's squares as a board draws them for a core game: its start;
 * for a reverse game the targets are the level's box squares (where the
 * boxes are pulled back to), drawn as goals. */
export function boardCells(game) {
  if (!game.reverse) return game.start;
  return game.start.map((c) => (c & ~(GOAL | BOX)) | (c & BOX ? GOAL : 0));
}
