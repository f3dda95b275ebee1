// The history letters: what the page plays from the server's letters must
// be the game the server describes, whichever screen rebuilds it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadTestCore, ROOM } from './support.mjs';
import { letterOf, playLetters, playEntry, gameOfState, boardCells, RESTART_LETTER } from '../../static/js/letters.js';
import { UP, LEFT, DOWN, GOAL, BOX } from '../../static/js/core.js';

let core;
before(async () => {
  core = await loadTestCore();
});

const start = () => core.startGame(ROOM.rows.join('\n'));
const state = (history, redo = '') => ({ level: ROOM, rule: 0, history, redo });

/** The letters of a game's applied entries, written back with letterOf. */
function lettersOf(game) {
  let out = '';
  for (let i = 0; i < game.cursor; i++) {
    const e = game.entry(i);
    out += e.restart ? RESTART_LETTER : letterOf(e.dir, e.pushed > 0);
  }
  return out;
}

test('a move is a lower-case letter and a push an upper-case one', () => {
  assert.equal(letterOf(UP, false), 'u');
  assert.equal(letterOf(LEFT, true), 'L');
  assert.equal(letterOf(DOWN, 0), 'd');
});

test('letters with a push and a restart play as the core steps them', () => {
  const g = start();
  assert.equal(playLetters(g, 'ulL*u'), true);
  assert.equal(g.moves, 1, 'the restart put the counts back');
  assert.equal(g.cursor, 5, 'four steps and the restart are entries');
  assert.deepEqual(g.entry(2), { dir: LEFT, pushed: 1 }, 'the upper-case L pushed the box');
  assert.deepEqual(g.entry(3), { restart: true });
  assert.equal(lettersOf(g), 'ulL*u');
});

test('playing stops at the first letter the core refuses', () => {
  const g = start();
  assert.equal(playLetters(g, 'rul'), false, 'r walks into the wall');
  assert.equal(g.moves, 0, 'nothing after the refusal was played');
});

test('no letters, or none at all, play nothing', () => {
  const g = start();
  assert.equal(playLetters(g, ''), true);
  assert.equal(playLetters(g, undefined), true);
  assert.equal(g.cursor, 0);
});

test('log entries of every kind play on the game', () => {
  const g = start();
  assert.equal(playEntry(g, { kind: 'steps', steps: 'ul' }), true);
  assert.equal(playEntry(g, { kind: 'walk', steps: 'd' }), true);
  assert.equal(g.moves, 3);
  assert.equal(playEntry(g, { kind: 'undo', count: 2 }), true);
  assert.equal(g.moves, 1);
  assert.equal(g.redoCount, 2);
  assert.equal(playEntry(g, { kind: 'redo', count: 1 }), true);
  assert.equal(g.moves, 2);
  assert.equal(playEntry(g, { kind: 'restart' }), true);
  assert.equal(g.moves, 0);
  assert.equal(playEntry(g, { kind: 'push', steps: 'r' }), false, 'a step into the wall is refused');
});

test('a game rebuilt from the server\'s state has its history and its redo stack', () => {
  const played = start();
  playLetters(played, 'ulL*uu');
  const hash = played.hash, player = played.player;
  played.undo();
  played.undo();
  const expected = { moves: played.moves, cursor: played.cursor, redo: played.redoCount, hash: played.hash };

  // The server writes the applied entries as history and the redo stack as redo.
  const g = gameOfState(core, state('ulL*', 'uu'));
  assert.deepEqual({ moves: g.moves, cursor: g.cursor, redo: g.redoCount, hash: g.hash }, expected);
  g.redo();
  g.redo();
  assert.equal(g.hash, hash, 'redoing the stack reaches the position the letters left');
  assert.equal(g.player, player);
});

test('a rebuilt game takes the rule of the state, else of its level', () => {
  assert.equal(gameOfState(core, { ...state(''), rule: 1 }).rule, 1);
  assert.equal(gameOfState(core, { level: { ...ROOM, rule: 1 }, history: '' }).rule, 1);
  assert.equal(gameOfState(core, { level: ROOM, history: '' }).rule, 0);
});

// A reverse game on a corridor: the box starts on its goal at (5,1), the
// level's box square (3,1) is the target, the player starts at (1,1).
const CORRIDOR = { width: 7, height: 3, rows: ['#######', '#@ $ .#', '#######'] };

test('a reverse game rebuilt from the server\'s letters pulls where the case says', () => {
  const g = gameOfState(core, { level: CORRIDOR, rule: 2, start: { x: 1, y: 1 }, history: 'rrrlrL', redo: 'L' });
  assert.equal(g.reverse, true);
  assert.equal(g.pushes, 1, 'the lower-case l only moved, the upper-case L pulled');
  assert.deepEqual(g.boxes(), [1 * 7 + 4]);
  assert.equal(g.redoCount, 1);
  assert.equal(g.redo(), 0);
  assert.deepEqual(g.boxes(), [1 * 7 + 3]);
  assert.equal(g.solved, true, 'the box back on its start, the player able to walk home');
  // A start the server names is the one the game starts from.
  const moved = gameOfState(core, { level: CORRIDOR, rule: 2, start: { x: 4, y: 1 }, history: '', redo: '' });
  assert.equal(moved.player, 1 * 7 + 4);
});

test('a reverse game\'s board marks the box squares as its targets, not the goals', () => {
  const g = gameOfState(core, { level: CORRIDOR, rule: 2, history: '', redo: '' });
  const cells = boardCells(g);
  assert.equal(cells[1 * 7 + 3] & GOAL, GOAL, 'the box\'s start square is a target');
  assert.equal(cells[1 * 7 + 5] & GOAL, 0, 'the goal, where the box stands at the start, is not');
  assert.equal(cells.some((c) => c & BOX), false, 'the board holds no box: the position draws them');
  const forward = gameOfState(core, { level: CORRIDOR, rule: 0, history: '', redo: '' });
  assert.equal(boardCells(forward), forward.start, 'a forward game draws its level as it is');
});
