// snapshots.js: the "Saved positions" dialog of the game screen. The
// player names the position on the board and saves it on the server, lists
// the game's saved positions (from any device), goes back to one (a
// restart and its steps, played and queued like any others, so undo takes
// them back) and deletes them.

import { api, errorMessage } from './api.js';
import { announce, toast } from './a11y.js';
import { $, el } from './dom.js';
import { movesPushes } from './words.js';

let play = null;
let max = 50;

const counts = (s) => movesPushes(s.moves, s.pushes) +
  (s.solved ? ', solved' : '');

function status(text) {
  $('positions-status').textContent = text;
}

function gameId() {
  return play?.sync?.gameId ?? 0;
}

/** Lists the game's saved positions in the dialog. */
async function refresh() {
  const id = gameId();
  const r = await api.snapshots(id);
  if (id !== gameId()) return;
  const list = $('positions-list');
  if (!r.ok) {
    status(errorMessage(r, 'The saved positions cannot be read'));
    return;
  }
  max = r.body.max ?? max;
  const items = r.body.snapshots;
  list.replaceChildren(...items.map((s) => el('li', { 'data-id': String(s.id) },
    el('span', { class: 'pos-name', text: s.name }),
    el('span', { class: 'pos-counts muted small', text: counts(s) }),
    el('button', { class: 'button', type: 'button', 'data-go': String(s.id), text: 'Go back' }),
    el('button', { class: 'icon', type: 'button', 'data-delete': String(s.id), 'aria-label': `Delete ${s.name}`, title: 'Delete', text: '×' }))));
  status(items.length === 0 ? 'No saved positions yet in this game.'
    : `${items.length} of ${max} saved positions`);
}

async function save(e) {
  e.preventDefault();
  const g = play?.game;
  const name = $('positions-name').value.trim();
  if (!g || !name) return;
  const line = g.lurd();
  const r = await api.saveSnapshot(gameId(), { name, lurd: line ?? '' });
  if (!r.ok) {
    status(errorMessage(r, 'The position could not be saved'));
    return;
  }
  $('positions-name').value = '';
  announce(`Saved "${r.body.snapshot.name}"`);
  await refresh();
}

async function goBack(id) {
  const game = gameId();
  const r = await api.snapshot(game, id);
  if (game !== gameId()) return;
  if (!r.ok) {
    status(errorMessage(r, 'That position cannot be read'));
    return;
  }
  const s = r.body.snapshot;
  if (!play.goToLine(s.lurd)) {
    status('That position does not replay on this board');
    return;
  }
  $('positions').close();
  $('board').focus();
  toast(`Back to "${s.name}": undo takes it back`);
}

async function remove(id) {
  const r = await api.deleteSnapshot(gameId(), id);
  if (!r.ok) status(errorMessage(r, 'That position could not be deleted'));
  await refresh();
}

/** Opens the dialog for the game on the board. */
export function openSnapshots() {
  if (!play?.game || !gameId()) return;
  const d = $('positions');
  $('positions-list').replaceChildren();
  status('Reading…');
  if (!d.open) d.showModal();
  $('positions-name').focus();
  refresh();
}

/** Wires the dialog to the game screen's Play; call once. */
export function initSnapshots(p) {
  play = p;
  $('positions-save').addEventListener('submit', save);
  $('positions-close').addEventListener('click', () => {
    $('positions').close();
    $('board').focus();
  });
  $('positions-list').addEventListener('click', (e) => {
    const go = e.target.closest('[data-go]')?.dataset.go;
    const del = e.target.closest('[data-delete]')?.dataset.delete;
    if (go) goBack(Number(go));
    else if (del) remove(Number(del));
  });
}
