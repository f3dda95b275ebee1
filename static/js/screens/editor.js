// screens/editor.js: the level editor screen. Joins the grid (what is
// drawn), the canvas (editor/view.js), painting by pointer and keyboard,
// undo and redo, the core's live check, test play, export and import, and
// saving into a collection for admins. The draft lives in localStorage.

import { app } from '../app.js';
import { announce, toast } from '../a11y.js';
import { currentScreen } from '../router.js';
import { Grid, TOOLS } from '../editor/grid.js';
import { check } from '../editor/levelio.js';
import { showCheck } from '../editor/checkview.js';
import { EditorView } from '../editor/view.js';
import { History } from '../editor/history.js';
import { loadDraft, saveDraft } from '../editor/store.js';
import { watchPainting } from '../editor/paint.js';
import { drawToolIcon } from '../editor/icons.js';
import { editorMarkup } from '../editor/markup.js';
import { TestPlay } from '../editor/testplay.js';
import { Transfer } from '../editor/transfer.js';
import { SaveDialog } from '../editor/save.js';
import { PublishDialog } from '../editor/publish.js';
import { $ } from '../dom.js';

export const section = 'screen-editor';
export const focusHeading = false;

const TOOL_OF_KEY = new Map(TOOLS.flatMap((t) => t.keys.map((k) => [k, t.id])));
const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

const state = {
  core: null,
  grid: Grid.room(),
  meta: { title: '', author: '', comment: '' },
  tool: 'wall',
  cursor: { x: 1, y: 1 },
  history: new History(),
  result: null,        // the core's check of the grid
  solution: null,      // {key, lurd, moves, pushes}: found in test play on this very grid
  strokeStart: null,
  playing: false,
};
let view = null, testPlay = null, transfer = null, saver = null, publisher = null;
let checkQueued = false;

// ---- The draft ------------------------------------------------------------------------

function snapshot() {
  return { grid: state.grid.toJSON(), meta: { ...state.meta } };
}

function restore(s) {
  const g = Grid.fromJSON(s.grid);
  if (!g) return;
  state.grid = g;
  if (s.meta) state.meta = { ...state.meta, ...s.meta };
  state.cursor.x = Math.min(state.cursor.x, g.width - 1);
  state.cursor.y = Math.min(state.cursor.y, g.height - 1);
}

function save() {
  saveDraft({
    ...snapshot(), tool: state.tool, cursor: state.cursor, solution: state.solution,
    history: state.history.toJSON(),
  });
}

function loadSaved() {
  const d = loadDraft();
  if (!d) return;
  const g = Grid.fromJSON(d.grid);
  if (!g) return;
  state.grid = g;
  state.meta = { title: '', author: '', comment: '', ...(d.meta || {}) };
  if (TOOLS.some((t) => t.id === d.tool)) state.tool = d.tool;
  if (d.cursor) state.cursor = { x: Math.min(g.width - 1, d.cursor.x | 0), y: Math.min(g.height - 1, d.cursor.y | 0) };
  state.solution = d.solution?.key ? d.solution : null;
  state.history.restore(d.history, (s) => Grid.fromJSON(s?.grid) !== null);
}

// ---- Changes ----------------------------------------------------------------------------

/** Records the state before a change for undo; call change() after. */
function before() {
  state.history.push(snapshot());
}

/** After any change of the grid or its text: redraw, check, save. */
function change() {
  view.show(state.grid);
  view.setCursor(state.cursor.x, state.cursor.y);
  queueCheck();
  fillSize();
  fillButtons();
  save();
}

function queueCheck() {
  if (checkQueued) return;
  checkQueued = true;
  requestAnimationFrame(() => {
    checkQueued = false;
    runCheck();
  });
}

function undo() {
  const s = state.history.undo(snapshot());
  if (!s) return announce('Nothing to undo');
  restore(s);
  fillMeta();
  change();
  announce('Undone');
}

function redo() {
  const s = state.history.redo(snapshot());
  if (!s) return announce('Nothing to redo');
  restore(s);
  fillMeta();
  change();
  announce('Redone');
}

function setTool(id, say = true) {
  state.tool = id;
  const input = document.querySelector(`input[name="ed-tool"][value="${id}"]`);
  if (input) input.checked = true;
  if (say) announce(`Tool: ${TOOLS.find((t) => t.id === id).name}`);
  save();
}

/** Loads another level into the editor (import, new): undo takes it back. */
function load({ grid, title = '', author = '', comment = '' }) {
  before();
  state.grid = grid;
  state.meta = { title, author, comment };
  state.cursor = { x: Math.min(1, grid.width - 1), y: Math.min(1, grid.height - 1) };
  fillMeta();
  change();
  $('ed-board').focus();
}

// ---- The core's check -------------------------------------------------------------------

function runCheck() {
  if (!state.core) return;
  const r = check(state.core, state.grid);
  state.result = r;
  view.setProblems(r.problems);
  showCheck(r, state.grid, (x, y) => {
    state.cursor = { x, y };
    view.setCursor(x, y, true);
    $('ed-board').focus();
  });
  fillButtons();
  describeBoard();
}

function describeBoard() {
  const { x, y } = state.cursor;
  const names = { ' ': 'empty', '-': 'floor', '#': 'wall', '.': 'goal', '$': 'box', '*': 'box on goal', '@': 'player', '+': 'player on goal' };
  $('ed-board').setAttribute('aria-label', `Level editor, ${state.grid.width} by ${state.grid.height} squares. ` +
    `Cursor at row ${y + 1}, column ${x + 1}: ${names[state.grid.get(x, y)] ?? 'outside'}. ` +
    `Tool: ${TOOLS.find((t) => t.id === state.tool).name}.`);
}

// ---- The panels -------------------------------------------------------------------------

function fillMeta() {
  $('ed-title').value = state.meta.title;
  $('ed-author').value = state.meta.author;
  $('ed-comment').value = state.meta.comment;
}

function fillSize() {
  if (document.activeElement !== $('ed-width')) $('ed-width').value = state.grid.width;
  if (document.activeElement !== $('ed-height')) $('ed-height').value = state.grid.height;
}

function fillButtons() {
  $('ed-undo').disabled = !state.history.canUndo;
  $('ed-redo').disabled = !state.history.canRedo;
  $('ed-play').disabled = !state.result?.ok;
  $('ed-save').hidden = !app.account?.admin;
  $('ed-save').disabled = !state.result?.ok;
  $('ed-publish').disabled = !state.result?.ok;
}

function drawIcons() {
  if (!app.theme) return;
  for (const c of document.querySelectorAll('#screen-editor canvas[data-tool]')) drawToolIcon(c, c.dataset.tool, app.theme);
}

// ---- Keyboard ---------------------------------------------------------------------------

function paintAtCursor(add = false) {
  const { x, y } = state.cursor;
  const remove = !add && state.grid.removes(state.tool, x, y);
  const next = state.grid.clone();
  if (!next.paint(state.tool, x, y, remove)) return;
  before();
  state.grid = next;
  change();
  announce(`${remove ? 'Removed' : 'Painted'} at row ${y + 1}, column ${x + 1}`);
}

function onKey(e) {
  if (currentScreen() !== 'editor' || e.defaultPrevented) return;
  if (document.querySelector('#screen-editor dialog[open]')) return;
  if (state.playing) {
    if (testPlay.key(e)) e.preventDefault();
    return;
  }
  if (e.target.closest?.('input, textarea, select')) return;
  const onBoard = e.target === $('ed-board');
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (e.ctrlKey || e.metaKey) {
    if (key === 'z') { e.preventDefault(); return e.shiftKey ? redo() : undo(); }
    if (key === 'y') { e.preventDefault(); return redo(); }
    return;
  }
  if (e.altKey) return;
  if (key === 'Escape') {
    e.preventDefault();
    location.hash = '#/';
    return;
  }
  if (onBoard && ARROWS[e.key]) {
    e.preventDefault();
    const [dx, dy] = ARROWS[e.key];
    const x = Math.max(0, Math.min(state.grid.width - 1, state.cursor.x + dx));
    const y = Math.max(0, Math.min(state.grid.height - 1, state.cursor.y + dy));
    state.cursor = { x, y };
    view.setCursor(x, y, true);
    if (e.shiftKey) paintAtCursor(true);
    describeBoard();
    save();
    return;
  }
  if (onBoard && (key === ' ' || key === 'Enter')) {
    e.preventDefault();
    view.setCursor(state.cursor.x, state.cursor.y, true);
    return paintAtCursor();
  }
  if (onBoard && (key === 'Delete' || key === 'Backspace')) {
    e.preventDefault();
    const tool = state.tool;
    state.tool = 'erase';
    paintAtCursor(true);
    state.tool = tool;
    return;
  }
  if (key === 'z' && !e.shiftKey) { e.preventDefault(); return undo(); }
  if (key === 'y' || (key === 'z' && e.shiftKey)) { e.preventDefault(); return redo(); }
  if (key === 't') { e.preventDefault(); return startPlay(); }
  const tool = TOOL_OF_KEY.get(e.key) ?? TOOL_OF_KEY.get(key);
  if (tool && (onBoard || !e.target.closest?.('button, a, [role="radio"]') || e.target.name === 'ed-tool')) {
    e.preventDefault();
    setTool(tool);
  }
}

// ---- Test play --------------------------------------------------------------------------

function startPlay() {
  if (!state.result?.ok) {
    toast('Fix the problems first: the check lists them', 'warn');
    return;
  }
  state.playing = true;
  $('ed-edit').hidden = true;
  $('ed-playing').hidden = false;
  $('ed-play').disabled = true;
  document.querySelector('.ed-actions').hidden = true;
  testPlay.start(state.core, app.theme, state.grid.text(), state.meta.title);
  $('ed-play-board').focus();
}

function stopPlay() {
  if (!state.playing) return;
  state.playing = false;
  testPlay.stop();
  $('ed-playing').hidden = true;
  $('ed-edit').hidden = false;
  document.querySelector('.ed-actions').hidden = false;
  view.resize();
  fillButtons();
  $('ed-board').focus();
  announce('Back to editing');
}

// ---- Set-up -----------------------------------------------------------------------------

function wire() {
  const sec = $(section);
  sec.innerHTML = editorMarkup();
  view = new EditorView($('ed-board'), $('ed-frame'));
  watchPainting(view, {
    grid: () => state.grid,
    tool: () => state.tool,
    begin: () => { state.strokeStart = snapshot(); },
    changed: () => { view.show(state.grid); queueCheck(); },
    end: () => {
      const start = state.strokeStart;
      state.strokeStart = null;
      if (start && Grid.fromJSON(start.grid).key() !== state.grid.key()) state.history.push(start);
      change();
    },
    cursor: (x, y) => { state.cursor = { x, y }; view.setCursor(x, y, false); },
  });
  $('ed-board').addEventListener('focus', () => view.setCursor(state.cursor.x, state.cursor.y, true));
  $('ed-board').addEventListener('blur', () => view.setCursor(state.cursor.x, state.cursor.y, false));
  sec.querySelector('.ed-tools').addEventListener('change', (e) => {
    if (e.target.name === 'ed-tool') setTool(e.target.value);
  });
  $('ed-undo').addEventListener('click', undo);
  $('ed-redo').addEventListener('click', redo);
  $('ed-play').addEventListener('click', startPlay);
  $('ed-new').addEventListener('click', () => {
    load({ grid: Grid.room() });
    toast('A new level: undo brings the last one back');
  });
  for (const [id, key] of [['ed-title', 'title'], ['ed-author', 'author'], ['ed-comment', 'comment']]) {
    const el = $(id);
    el.addEventListener('focus', () => { el.dataset.before = JSON.stringify(snapshot()); });
    el.addEventListener('input', () => { state.meta[key] = el.value; save(); });
    el.addEventListener('change', () => {
      if (el.dataset.before) state.history.push(JSON.parse(el.dataset.before));
      el.dataset.before = JSON.stringify(snapshot());
      fillButtons();
    });
  }
  const resize = () => {
    const w = Number($('ed-width').value), h = Number($('ed-height').value);
    if (!(w >= 1 && h >= 1)) return;
    const next = state.grid.clone();
    if (!next.resize(w, h)) return;
    before();
    state.grid = next;
    state.cursor = { x: Math.min(state.cursor.x, next.width - 1), y: Math.min(state.cursor.y, next.height - 1) };
    change();
  };
  $('ed-width').addEventListener('change', resize);
  $('ed-height').addEventListener('change', resize);
  sec.querySelector('.ed-grow').addEventListener('click', (e) => {
    const what = e.target.closest('[data-grow]')?.dataset.grow;
    if (!what) return;
    const next = state.grid.clone();
    let done;
    if (what === 'crop') done = next.crop();
    else {
      const [side, n] = what.split(':');
      done = next.grow(side, Number(n));
    }
    if (!done) return announce('Nothing to change');
    before();
    state.grid = next;
    state.cursor = { x: Math.min(state.cursor.x, next.width - 1), y: Math.min(state.cursor.y, next.height - 1) };
    change();
    announce(`${next.width} by ${next.height} squares`);
  });
  testPlay = new TestPlay({
    solved: (lurd, moves, pushes) => {
      state.solution = { key: state.grid.key(), lurd, moves, pushes };
      save();
    },
    leave: stopPlay,
  });
  const editorApi = {
    core: () => state.core,
    theme: () => app.theme,
    grid: () => state.grid,
    meta: () => ({ ...state.meta }),
    solution: () => (state.solution?.key === state.grid.key() ? state.solution : null),
    result: () => state.result,
    load,
  };
  transfer = new Transfer(editorApi);
  saver = new SaveDialog(editorApi);
  $('ed-export').addEventListener('click', () => transfer.openExport());
  $('ed-import').addEventListener('click', () => transfer.openImport());
  $('ed-save').addEventListener('click', () => saver.open());
  publisher = new PublishDialog(editorApi);
  $('ed-publish').addEventListener('click', () => publisher.open());
  document.addEventListener('keydown', onKey);
  $('ed-board').addEventListener('paste', (e) => {
    const text = e.clipboardData?.getData('text/plain');
    if (!text || state.playing) return;
    e.preventDefault();
    transfer.pasteText(text);
  });
  window.addEventListener('storage', (e) => {
    // Another tab changed the draft: follow it, unless this tab is playing.
    if (e.key !== 'sokod.editor' || state.playing || currentScreen() !== 'editor') return;
    loadSaved();
    fillMeta();
    change();
  });
}

export async function enter() {
  const first = !view;
  if (first) {
    loadSaved();
    wire();
  }
  state.core = await app.core();
  view.setTheme(app.theme);
  testPlay.setTheme(app.theme);
  drawIcons();
  setTool(state.tool, false);
  fillMeta();
  change();
  runCheck();
  if (first) $('editor-h').focus({ preventScroll: true });
  else if (!state.playing) $('ed-board').focus();
  window.sokod.editor = {
    rows: () => state.grid.rows(),
    result: () => state.result,
    cursor: () => ({ ...state.cursor }),
    tool: () => state.tool,
  };
  app.refreshAccount().then(fillButtons);
}

export function leave() {
  stopPlay();
  for (const d of document.querySelectorAll('#screen-editor dialog[open]')) d.close();
}

export function redraw() {
  if (!view) return;
  view.setTheme(app.theme);
  testPlay.setTheme(app.theme);
  drawIcons();
}
