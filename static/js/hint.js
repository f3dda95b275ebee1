// hint.js: hints in the game screen. Asks the server for the next push from
// the position on screen, draws it on the board (the walk as dots, an arrow
// on the box to the square it goes to), plays it on a second press, and for
// a lost position offers the undo that saves it. The game screen calls
// initHints once, resetHints on each game, pressHint for the button and the
// H key, and hintsChanged after each change of the position.

import { api, errorMessage } from './api.js';
import { announce } from './a11y.js';
import { dirOfLetter } from './core.js';
import { $ } from './dom.js';
import { counted } from './words.js';

const DIR_NAMES = ['up', 'right', 'down', 'left'];
const DELTA_X = [0, 1, 0, -1], DELTA_Y = [-1, 0, 1, 0];

let play = null;
let view = null;
let shown = null;   // {hint, gameId, hash, cursor}: the last answer and the position it is for
let asking = 0;     // the request in flight, by number (0: none)
let hints = 0;      // the game's hint count as the server last said

/** Wires the buttons and the board's overlay. */
export function initHints(thePlay, theView) {
  play = thePlay;
  view = theView;
  view.overlay = drawHint;
  $('g-ask-hint').addEventListener('click', () => pressHint());
  $('hint-play').addEventListener('click', () => pressHint());
  $('hint-undo').addEventListener('click', undoToSafety);
  $('hint-close').addEventListener('click', () => { clear(); $('board').focus(); });
}

/** A new game on screen: forget the last hint, take the game's count. */
export function resetHints(state) {
  asking = 0;
  hints = state?.hints ?? 0;
  clear();
}

/** The hints the game on screen was given. */
export function hintCount() {
  return Math.max(hints, play?.state?.hints ?? 0);
}

/** The button or H: plays the hint on the board, or asks for one. */
export function pressHint() {
  if (!play?.game) return;
  if (current()?.hint.kind === 'push') playHint();
  else askHint();
}

/** After any change of the position: a hint for another position goes. */
export function hintsChanged() {
  if (shown && !current()) clear();
}

/** The shown hint when it is still for the position on screen, or null. */
function current() {
  const g = play?.game;
  if (!shown || !g || play.sync?.gameId !== shown.gameId) return null;
  return g.hash === shown.hash && g.cursor === shown.cursor ? shown : null;
}

function clear() {
  shown = null;
  $('hint-panel').hidden = true;
  view?.requestFrame();
}

/** Resolves once every step made here has reached the server, so that the
 * hint is for the position on screen (at most ten seconds). */
async function synced() {
  for (let waited = 0; play.sync && play.sync.pending > 0 && waited < 10000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return play.sync && play.sync.pending === 0;
}

async function askHint() {
  if (asking) return;
  const token = Date.now();
  asking = token;
  shown = null;
  show('Looking for the next push…', {});
  $('g-ask-hint').setAttribute('aria-busy', 'true');
  try {
    if (!(await synced()) || asking !== token) return;
    const g = play.game, sync = play.sync;
    const at = { gameId: sync.gameId, hash: g.hash, cursor: g.cursor };
    const r = await api.hint(sync.gameId, sync.seq);
    if (asking !== token) return;
    if (play.sync?.gameId !== at.gameId || play.game.hash !== at.hash || play.game.cursor !== at.cursor) {
      clear(); // the player moved on while the server worked
      return;
    }
    if (!r.ok) {
      const text = r.status === 429 || r.status === 503
        ? 'The server is busy with other hints: try again in a moment.'
        : errorMessage(r, 'No hint now');
      show(text, {});
      announce(text);
      return;
    }
    hints = r.body.game?.hints ?? hints;
    shown = { hint: r.body.hint, ...at };
    describe(r.body.hint);
    view.requestFrame();
  } finally {
    if (asking === token) asking = 0;
    $('g-ask-hint').removeAttribute('aria-busy');
  }
}

/** Shows the panel with a message and the buttons that apply. */
function show(text, { playIt = false, undo = 0 }) {
  $('hint-text').textContent = text;
  $('hint-play').hidden = !playIt;
  $('hint-undo').hidden = !(undo > 0);
  $('hint-undo').textContent = `Undo ${counted(undo, 'step')}`;
  $('hint-undo').dataset.count = String(undo);
  $('hint-panel').hidden = false;
  $('hint-panel').dataset.kind = shown?.hint.kind ?? 'waiting';
}

function describe(h) {
  // Squares and ways as the board is drawn, which may be turned: the
  // player's keys and swipes go by the screen too.
  const square = (p) => {
    const cell = view.toGrid(p.y * view.level.width + p.x), w = view.grid.width;
    return `column ${(cell % w) + 1}, row ${Math.floor(cell / w) + 1}`;
  };
  if (h.kind === 'push') {
    const dir = DIR_NAMES[view.screenDir(dirOfLetter(h.steps[h.steps.length - 1]))];
    const walk = h.moves - 1;
    const text = `Next: push the box ${dir}` +
      (walk > 0 ? ` after a walk of ${counted(walk, 'step')}.` : '.');
    show(text, { playIt: true });
    announce(`Hint: ${walk > 0 ? `walk ${counted(walk, 'step')}, then ` : ''}push the box at ` +
      `${square(h.box)} ${dir}, to ${square(h.to)}. Press H again to play it.`);
  } else if (h.kind === 'lost') {
    const text = h.undo > 0
      ? `This position cannot be solved any more. Undo ${counted(h.undo, 'step')} to get back to one that can.`
      : 'This position cannot be solved any more, and no undo was found that saves it: restart.';
    show(text, { undo: h.undo ?? 0 });
    announce(text, true);
  } else if (h.kind === 'solved') {
    show('Every box is on a goal already.', {});
    announce('Every box is on a goal already.');
  } else {
    const text = 'No hint found in time for this position. Try again after a few more moves.';
    show(text, {});
    announce(text);
  }
}

/** Plays the shown push: the walk and the push, as one batch of steps. */
function playHint() {
  const h = shown.hint;
  clear();
  const dirs = [...h.steps].map(dirOfLetter);
  const goalsBefore = play.game.boxesOnGoal;
  const letters = play.playPath(dirs);
  if (!letters) return;
  play.queue({ kind: 'steps', steps: letters });
  play.feedback(true, play.game.boxesOnGoal > goalsBefore, null);
  play.afterChange();
}

function undoToSafety() {
  const n = Number($('hint-undo').dataset.count) || 0;
  clear();
  if (n > 0) play.undo(n);
  $('board').focus();
}

/** Draws the shown push on the board: called by the view after each frame
 * (not while a step animates). */
function drawHint(ctx, t, width) {
  const h = current()?.hint;
  if (!h || h.kind !== 'push') return;
  const b = view.theme.board;
  const centre = (x, y) => [x * t + t / 2, y * t + t / 2];
  // The walk: a dot on each square the player crosses.
  ctx.fillStyle = b.target;
  let x = play.game.player % width, y = Math.floor(play.game.player / width);
  for (const letter of h.steps.slice(0, -1)) {
    const d = dirOfLetter(letter);
    x += DELTA_X[d];
    y += DELTA_Y[d];
    const [cx, cy] = centre(x, y);
    ctx.beginPath();
    ctx.arc(cx, cy, Math.max(1.5, t * 0.09), 0, Math.PI * 2);
    ctx.fill();
  }
  // The push: an arrow from the box to the square it goes to, and that square framed.
  const [bx, by] = centre(h.box.x, h.box.y), [tx, ty] = centre(h.to.x, h.to.y);
  ctx.strokeStyle = b.select;
  ctx.fillStyle = b.select;
  ctx.lineWidth = Math.max(2, t * 0.12);
  ctx.lineCap = 'round';
  const len = Math.hypot(tx - bx, ty - by) || 1, ux = (tx - bx) / len, uy = (ty - by) / len;
  const head = t * 0.32, endX = tx - ux * head * 0.6, endY = ty - uy * head * 0.6;
  ctx.beginPath();
  ctx.moveTo(bx, by);
  ctx.lineTo(endX, endY);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(tx + ux * head * 0.4, ty + uy * head * 0.4);
  ctx.lineTo(endX - uy * head * 0.6, endY + ux * head * 0.6);
  ctx.lineTo(endX + uy * head * 0.6, endY - ux * head * 0.6);
  ctx.closePath();
  ctx.fill();
  ctx.setLineDash([t * 0.18, t * 0.1]);
  ctx.lineWidth = Math.max(2, t * 0.07);
  ctx.strokeRect(h.to.x * t + t * 0.08, h.to.y * t + t * 0.08, t * 0.84, t * 0.84);
  ctx.setLineDash([]);
}
