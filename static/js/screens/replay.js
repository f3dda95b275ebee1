// replay.js: plays a recorded solution back (#/replay/SOLUTION): play,
// pause, a step forward or back, a slider to scrub to any step, and a
// speed. The position comes from the same core the game uses, in an
// instance of its own so that the game being played is left untouched:
// the whole line is played once, then undone, and moving through it is
// redo and undo.

import { app } from '../app.js';
import { api, errorMessage } from '../api.js';
import { loadCore, dirOfLetter } from '../core.js';
import { BoardView, stepTransition, undoTransition } from '../board.js';
import { go } from '../router.js';
import * as settings from '../settings.js';
import { $, el, svgIcon } from '../dom.js';
import { copyWithToast } from '../clipboard.js';
import { movesPushes } from '../words.js';

const SPEEDS = [0.5, 1, 2, 4, 8];
const BASE_MS = 300; // one step at 1x

let built = false;
let core = null;
let view = null;
let game = null;
let total = 0;
let timer = 0;
let speed = 1;
let token = 0;
let lurd = ''; // the line shown, for Copy LURD

function build() {
  const speedSelect = el('select', { id: 'replay-speed' },
    ...SPEEDS.map((s) => el('option', { value: String(s), text: `${s}×` })));
  speedSelect.value = '1';
  $('screen-replay').replaceChildren(
    el('header', { class: 'hud' },
      el('a', { class: 'button icon', id: 'replay-back', href: '#/library', 'aria-label': 'Back to the leaderboard' },
        svgIcon('i-prev')),
      el('div', { class: 'hud-title' },
        el('h1', { id: 'replay-h', tabindex: '-1', text: 'Replay' }),
        el('span', { id: 'replay-sub', class: 'muted small' })),
      el('dl', { class: 'counters', 'aria-label': 'Counters' },
        el('div', {}, el('dt', { text: 'Moves' }), el('dd', { id: 'replay-moves', text: '0' })),
        el('div', {}, el('dt', { text: 'Pushes' }), el('dd', { id: 'replay-pushes', text: '0' })))),
    el('div', { id: 'replay-frame', class: 'board-frame' },
      el('canvas', { id: 'replay-board', role: 'img', 'aria-label': 'The replayed board' }),
      el('p', { id: 'replay-status', class: 'board-status', hidden: '' })),
    el('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': 'Replay' },
      el('button', { id: 'replay-prev', class: 'icon', 'aria-label': 'Step back', title: 'Step back (Left)' }, svgIcon('i-prev')),
      el('button', { id: 'replay-play', class: 'primary replay-play', text: 'Play' }),
      el('button', { id: 'replay-next', class: 'icon', 'aria-label': 'Step forward', title: 'Step forward (Right)' }, svgIcon('i-next')),
      el('label', { class: 'replay-scrub' }, el('span', { class: 'sr-only', text: 'Step' }),
        el('input', { id: 'replay-range', type: 'range', min: '0', max: '0', value: '0', step: '1' })),
      el('span', { id: 'replay-step', class: 'muted small replay-step', 'aria-live': 'off', text: '0 / 0' }),
      el('label', { class: 'replay-speed' }, el('span', { class: 'sr-only', text: 'Speed' }), speedSelect),
      el('button', { id: 'replay-copy', class: 'button small', title: 'Copy the solution as LURD text (pushes in upper case)', text: 'Copy LURD' })),
    // The player's own solution: the optimiser looks for a shorter one.
    el('div', { id: 'replay-optimise', class: 'replay-optimise', hidden: '' },
      el('span', { class: 'small', text: 'Look for a shorter solution near this one:' }),
      el('button', { id: 'replay-opt-moves', class: 'button small', 'data-metric': 'moves', text: 'Fewer moves' }),
      el('button', { id: 'replay-opt-pushes', class: 'button small', 'data-metric': 'pushes', text: 'Fewer pushes' }),
      el('p', { id: 'replay-opt-status', class: 'small', role: 'status' })));
  for (const b of [$('replay-opt-moves'), $('replay-opt-pushes')]) b.addEventListener('click', () => optimise(b.dataset.metric));
  view = new BoardView($('replay-board'), $('replay-frame'));
  $('replay-play').addEventListener('click', () => (timer ? pause() : play()));
  $('replay-next').addEventListener('click', () => { pause(); forward(true); });
  $('replay-prev').addEventListener('click', () => { pause(); back(true); });
  $('replay-copy').addEventListener('click', () => lurd && copyWithToast(lurd, 'LURD'));
  $('replay-range').addEventListener('input', (e) => { pause(); seek(Number(e.target.value)); });
  speedSelect.addEventListener('change', () => {
    speed = Number(speedSelect.value) || 1;
    if (timer) { pause(); play(); }
  });
  $('screen-replay').addEventListener('keydown', (e) => {
    if (e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT') return;
    if (e.key === 'ArrowRight') { e.preventDefault(); pause(); forward(true); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); pause(); back(true); }
    else if (e.key === ' ') { e.preventDefault(); timer ? pause() : play(); }
  });
  built = true;
}

function position() {
  return { player: game.player, boxes: game.boxes() };
}

function update() {
  $('replay-moves').textContent = String(game.moves);
  $('replay-pushes').textContent = String(game.pushes);
  $('replay-range').value = String(game.cursor);
  $('replay-step').textContent = `${game.cursor} / ${total}`;
  const done = game.cursor === total;
  $('replay-status').hidden = !(done && game.solved);
  $('replay-status').textContent = 'Solved';
  $('screen-replay').dataset.step = String(game.cursor);
  $('screen-replay').dataset.solved = String(game.solved);
}

function stepMs() {
  const anim = settings.SPEEDS[settings.get('speed')] ?? 120;
  return anim === 0 ? 0 : Math.min(anim, (BASE_MS / speed) * 0.9);
}

function forward(animate) {
  if (!game || game.cursor >= total) return false;
  const from = game.player;
  if (game.redo() < 0) return false;
  const e = game.entry(game.cursor - 1);
  view.stepMs = animate ? stepMs() : 0;
  if (e.restart) view.snap(position());
  else view.animate(stepTransition(game.width, from, e.dir, e.pushed, position()));
  update();
  return true;
}

function back(animate) {
  if (!game || game.cursor === 0) return false;
  const e = game.entry(game.cursor - 1);
  if (game.undo() < 0) return false;
  view.stepMs = animate ? stepMs() : 0;
  if (e.restart) view.snap(position());
  else view.animate(undoTransition(game.width, game.player, e.dir, e.pushed, position()));
  update();
  return true;
}

/** Jumps to step n at once. */
function seek(n) {
  if (!game) return;
  const target = Math.max(0, Math.min(total, n));
  while (game.cursor < target && game.redo() >= 0);
  while (game.cursor > target && game.undo() >= 0);
  view.snap(position());
  update();
}

function play() {
  if (!game) return;
  if (game.cursor >= total) seek(0);
  $('replay-play').textContent = 'Pause';
  const tick = () => {
    if (!forward(true)) return pause();
    timer = setTimeout(tick, BASE_MS / speed);
  };
  timer = setTimeout(tick, 0);
}

function pause() {
  if (timer) clearTimeout(timer);
  timer = 0;
  if (built) $('replay-play').textContent = 'Play';
}

function fail(message) {
  $('replay-h').textContent = 'Replay';
  $('replay-sub').textContent = message;
  for (const id of ['replay-play', 'replay-next', 'replay-prev', 'replay-range']) $(id).disabled = true;
}

// The solution shown, when it is the player's own.
let own = null;

async function optimise(metric) {
  const s = own, mine = token;
  if (!s) return;
  for (const b of ['replay-opt-moves', 'replay-opt-pushes']) $(b).disabled = true;
  $('replay-opt-status').textContent = 'Looking for a shorter solution…';
  const r = await api.optimise(s.id, metric);
  if (mine !== token) return;
  for (const b of ['replay-opt-moves', 'replay-opt-pushes']) $(b).disabled = false;
  const status = $('replay-opt-status');
  if (!r.ok) {
    status.textContent = errorMessage(r, 'The optimiser could not run');
    return;
  }
  if (!r.body.improved) {
    status.textContent = `Nothing shorter found: ${r.body.reason}.`;
    return;
  }
  const found = r.body.solution;
  status.replaceChildren(`Found ${movesPushes(found.moves, found.pushes)} (this one: ${s.moves}, ${s.pushes}). ` +
    'It is on the level\'s submitted board as yours: ', el('a', { href: `#/board/${s.level_id}`, text: 'see the board' }), '.');
}

export async function enter(args) {
  if (!built) build();
  own = null;
  $('replay-optimise').hidden = true;
  $('replay-opt-status').textContent = '';
  pause();
  const id = Number(args[0]);
  if (!id) return go('#/library');
  const mine = ++token;
  $('replay-h').textContent = 'Loading…';
  $('replay-sub').textContent = '';
  lurd = '';
  $('replay-copy').disabled = true;
  const r = await api.solution(id);
  if (mine !== token) return;
  if (!r.ok) return fail(errorMessage(r, 'This solution cannot be shown'));
  const s = r.body.solution;
  lurd = s.lurd;
  $('replay-copy').disabled = false;
  const [lr, c] = await Promise.all([api.level(s.level_id), core ?? loadCore('/core.wasm')]);
  if (mine !== token) return;
  core = c;
  if (!lr.ok) return fail(errorMessage(lr, 'The level of this solution cannot be shown'));
  const lv = lr.body.level;
  game = core.startGame(lv.rows.join('\n'), s.rule ?? 0);
  let played = 0;
  for (const ch of s.lurd) {
    if (game.step(dirOfLetter(ch)) < 0) break;
    played++;
  }
  total = played;
  while (game.cursor > 0 && game.undo() >= 0);
  for (const bid of ['replay-play', 'replay-next', 'replay-prev', 'replay-range']) $(bid).disabled = false;
  $('replay-range').max = String(total);
  $('replay-back').href = `#/board/${lv.id}`;
  const title = lv.title || `Level ${lv.position}`;
  $('replay-h').textContent = `Replay: ${title}`;
  $('replay-sub').textContent = `${s.user ?? 'your guest solution'} · ${movesPushes(s.moves, s.pushes)}` +
    `${s.rule === 1 ? ' · multi-push' : ''}${s.hinted ? ' · hinted' : ''}`;
  view.setTheme(app.theme);
  view.setLevel({ width: game.width, height: game.height, cells: game.start }, position());
  update();
  if (played !== s.lurd.length) fail(`The line stops at step ${played + 1}: it does not fit this level`);
  const who = app.account ?? (await api.account()).body?.user ?? null;
  if (mine !== token) return;
  own = who && !who.guest && s.user === who.username && !s.rule ? s : null;
  $('replay-optimise').hidden = !own;
  $('replay-play').focus();
}

export function leave() {
  pause();
}

export function redraw() {
  if (view) view.setTheme(app.theme);
}
