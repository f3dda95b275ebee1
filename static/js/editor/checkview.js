// editor/checkview.js: the editor's "Check" panel and its status chip: the
// counts of players, boxes and goals, each problem the core found (where,
// what, and what to do about it, a button that moves the cursor there), or
// a word that the level is valid.

import { $ } from '../dom.js';
import { counted } from '../words.js';

/** What to do about each kind of problem (the core's error codes). */
const HINTS = {
  '-1': 'Draw the level: walls around floor, boxes, goals and the player.',
  '-2': 'Make the board smaller: at most 128 by 128 squares.',
  '-3': 'Choose the player (6) and put it on a floor square.',
  '-4': 'Keep one: the player tool moves the player, erase or floor removes this one.',
  '-5': 'Choose the box (4) and put at least one on the floor.',
  '-6': 'Add or remove goals (3) or boxes (4) until they are as many.',
  '-7': 'Close the wall here (1), or erase the floor that leads out.',
  '-8': 'Open a way to this box, or put it on a goal.',
};

/** Where a problem is, in the author's words. */
const placeOf = (p) => (p.x >= 0 ? `Row ${p.y + 1}, column ${p.x + 1}` : 'The whole board');

/** The core's message with "line" as "row": the editor's board starts at row 1. */
const plain = (message) => message.replace(/\bline (\d+)/g, 'row $1');

function problemItem(p, jump) {
  const li = document.createElement('li');
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'ed-problem';
  b.innerHTML = '<b></b> <span class="msg"></span><small class="hint"></small>';
  b.querySelector('b').textContent = `${placeOf(p)}:`;
  b.querySelector('.msg').textContent = plain(p.message);
  b.querySelector('.hint').textContent = HINTS[p.code] ?? '';
  if (p.x >= 0) b.addEventListener('click', () => jump(p.x, p.y));
  else b.disabled = true;
  li.append(b);
  return li;
}

/** Shows the check `r` (from levelio.check) of `grid`; jump(x, y) is called
 * when the author picks a problem. */
export function showCheck(r, grid, jump) {
  const c = grid.counts();
  $('ed-counts').textContent = `${grid.width}×${grid.height} · ${counted(c.players, 'player', 'players')} · ` +
    `${counted(c.boxes, 'box', 'boxes')} · ${counted(c.goals, 'goal', 'goals')}`;
  $('ed-problems').replaceChildren(...r.problems.map((p) => problemItem(p, jump)));
  const ok = $('ed-ok');
  ok.hidden = !r.ok;
  if (r.ok) {
    ok.textContent = r.level.solved ? 'A valid level, but every box starts on a goal: it is solved before the first move.'
      : `A valid level: ${r.level.width}×${r.level.height} as the core reads it, ${counted(r.level.boxes, 'box', 'boxes')}. Test play it!`;
  }
  const chip = $('ed-state');
  chip.className = `ed-state ${r.ok ? 'good' : 'bad'}`;
  chip.textContent = r.ok ? 'Valid' : counted(r.problems.length, 'problem', 'problems');
  $('ed-edit').dataset.valid = r.ok ? '1' : '0';
}
