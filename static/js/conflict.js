// conflict.js: the player's choice when their game moved on on another
// device while moves waited here. "Keep mine" plays those moves on from the
// other device's game when they replay there (the position they had led to
// kept as a saved position); when they do not, the
// position they led to is brought back (a restart and its steps, which undo
// takes back) and the other device's position, the one left, is saved as a
// saved position (and this one's too, in case the player undoes it before
// it reaches the server). "Take the other device's" keeps the other game and saves
// this one's position as a saved position: either way, the one left is
// among the saved positions, as the dialog says.
// Until the player chooses, the moves stay in localStorage: a reload asks
// again.

import { api, errorMessage } from './api.js';
import { announce, toast } from './a11y.js';
import { $ } from './dom.js';
import { entryMoves } from './sync.js';

const storeKey = (gameId) => `sokod.conflict.${gameId}`;

// The longest line a saved position holds (the server's bound).
const LINE_KEPT_MAX = 50000;

/** The choice a page left open for a game: {entries, line}, or null. */
export function keptConflict(gameId) {
  try {
    const kept = JSON.parse(localStorage.getItem(storeKey(gameId)) || 'null');
    return kept && Array.isArray(kept.entries) ? kept : null;
  } catch {
    return null;
  }
}

/** Keeps the entries of game `gameId` that wait for the player's choice,
 * and `line`, the LURD of the position they led to (or null). */
export function keepConflict(gameId, entries, line) {
  localStorage.setItem(storeKey(gameId), JSON.stringify({ entries, line }));
}

function forget(gameId) {
  localStorage.removeItem(storeKey(gameId));
}


/** The name a kept position gets: whose it was, and the time it was kept. */
function keptName(whose) {
  const t = new Date();
  const hh = String(t.getHours()).padStart(2, '0'), mm = String(t.getMinutes()).padStart(2, '0');
  return `${whose}, kept ${hh}:${mm}`;
}

/** Saves `line` as a saved position of game `gameId` named for `whose`;
 * resolves to its name, or throws with a message for the player. */
async function saveLine(gameId, line, whose = 'Mine') {
  const r = await api.saveSnapshot(gameId, { name: keptName(whose), lurd: line });
  if (!r.ok) throw new Error(errorMessage(r, 'the server did not keep it'));
  return r.body.snapshot.name;
}

let open = null; // {play, gameId, entries, line} while the dialog asks

/** Asks the player of `play` what to keep: the server's game `state` (already
 * on the board) or the queued `entries` of this page, which led to the
 * position `line` (LURD, or null when it is not known). */
export function askConflict(play, state, entries, line) {
  const gameId = state.id;
  keepConflict(gameId, entries, line);
  open = { play, gameId, entries, line };
  const n = entries.reduce((sum, e) => sum + entryMoves(e), 0);
  $('conflict-text').textContent = `Another device played this level while ${n} ${n === 1 ? 'move' : 'moves'} ` +
    'of yours waited here. The board shows the other device\'s game now. Keep yours, or take the other device\'s?' +
    (line !== null ? ' The one you leave is kept in Saved positions.' : '');
  const d = $('conflict');
  if (!d.open) d.showModal();
  $('conflict-mine').focus();
  announce('This level moved on on another device: keep yours, or take the other device\'s?', true);
}

/** True while the choice is open for the game `play` shows. */
function current(play) {
  return open && open.play === play && play.sync?.gameId === open.gameId;
}

async function keepMine() {
  const { play, gameId, entries, line } = open;
  if (!current(play)) return close();
  if (play.playOn(entries)) {
    forget(gameId);
    close();
    // Played on from the other game, the moves reach another position than
    // the one the player stood on: that one is kept too.
    let name = null;
    if (line !== null && line !== '') name = await saveLine(gameId, line).catch(() => null);
    toast(name ? `Your moves were played on from the other device's game; where you stood is kept as "${name}"`
      : 'Your moves were played on from the other device\'s game');
    return;
  }
  if (line === null) {
    toast('Your moves do not follow the other device\'s game, and their position is not known here', 'warn', 6000);
    return;
  }
  // The board shows the other device's game: its line is the one left.
  // Mine is kept too, until its moves reach the server as the game's.
  const theirs = play.game.moves > 0 && play.game.moves <= LINE_KEPT_MAX ? play.game.lurd() : null;
  let name = null;
  try {
    if (theirs !== null) name = await saveLine(gameId, theirs, 'Other device');
    await saveLine(gameId, line);
  } catch (e) {
    // The dialog stays: the player may take the other device's instead.
    toast(`The positions could not be kept: ${e.message}`, 'warn', 6000);
    return;
  }
  if (!current(play)) return;
  if (!play.goToLine(line)) {
    toast('Your position does not replay on this level', 'warn', 6000);
    return;
  }
  forget(gameId);
  close();
  toast(name ? `Your moves do not follow the other device's game: your position is back, and the other device's is kept as "${name}"`
    : 'Your position is back', 'info', 6000);
}

async function takeTheirs() {
  const { play, gameId, line } = open;
  if (!current(play)) return close();
  let name = null;
  if (line !== null && line !== '') {
    try {
      name = await saveLine(gameId, line);
    } catch (e) {
      // The dialog stays: the player may keep theirs instead.
      toast(`Your position could not be kept: ${e.message}`, 'warn', 6000);
      return;
    }
  }
  forget(gameId);
  close();
  toast(name ? `Playing on from the other device; yours is kept as "${name}"` : 'Playing on from the other device');
}

/** Closes the dialog without a choice, the moves kept (the player left the
 * level: the dialog would hold the next screen). Returns true when one was
 * open; the caller asks again when the level shows. */
export function putAsideConflict() {
  if (!open) return false;
  open = null;
  if ($('conflict').open) $('conflict').close();
  return true;
}

function close() {
  open = null;
  if ($('conflict').open) $('conflict').close();
  $('board')?.focus();
}

/** Wires the dialog's buttons; call once. */
export function initConflict() {
  $('conflict-mine').addEventListener('click', () => open && keepMine());
  $('conflict-theirs').addEventListener('click', () => open && takeTheirs());
  // Escape leaves the choice open: the moves stay kept, and the next visit asks again.
  $('conflict').addEventListener('cancel', () => {
    open = null;
    toast('Your moves stay kept here until you choose');
  });
}
