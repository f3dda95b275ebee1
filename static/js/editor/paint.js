// editor/paint.js: painting with a mouse, a pen or a finger. A press starts
// a stroke and a drag paints every square it crosses (no gaps however fast
// the pointer moves); with Shift held the stroke is a straight row or
// column from where it started. A stroke that starts on a square which
// already holds what the tool draws takes it away instead. The right mouse
// button erases. The screen gets one callback per stroke, for undo.

import { lineCells } from './grid.js';

/** Wires painting on the view's canvas. editor: {grid(), tool(),
 * begin(), changed(), end(changedAnything), cursor(x, y)}. */
export function watchPainting(view, editor) {
  const canvas = view.canvas;
  let stroke = null;

  const paintTo = (sq, shift) => {
    const g = editor.grid();
    let cells;
    if (shift) {
      // A straight line from the start: put back the squares of the last
      // try, then paint the row or the column toward the pointer.
      for (const [i, ch] of stroke.saved) g.cells[i] = ch;
      stroke.saved = new Map();
      const dx = Math.abs(sq.x - stroke.start.x), dy = Math.abs(sq.y - stroke.start.y);
      const end = dx >= dy ? { x: sq.x, y: stroke.start.y } : { x: stroke.start.x, y: sq.y };
      cells = lineCells(stroke.start.x, stroke.start.y, end.x, end.y);
    } else {
      cells = lineCells(stroke.last.x, stroke.last.y, sq.x, sq.y);
    }
    for (const [x, y] of cells) {
      if (shift) {
        const i = y * g.width + x;
        if (!stroke.saved.has(i)) stroke.saved.set(i, g.cells[i]);
      }
      if (stroke.tool === 'player' && !stroke.remove) {
        // Only the last square of a player stroke matters: it moves the player.
        continue;
      }
      if (g.paint(stroke.tool, x, y, stroke.remove)) stroke.changed = true;
    }
    if (stroke.tool === 'player') {
      if (g.paint(stroke.tool, sq.x, sq.y, stroke.remove)) stroke.changed = true;
    }
    stroke.last = sq;
    editor.cursor(sq.x, sq.y);
    editor.changed();
  };

  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 && e.button !== 2) return;
    const sq = view.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    e.preventDefault();
    canvas.focus({ preventScroll: true });
    canvas.setPointerCapture(e.pointerId);
    const g = editor.grid();
    const tool = e.button === 2 ? 'erase' : editor.tool();
    editor.begin();
    stroke = {
      id: e.pointerId, tool, start: sq, last: sq, changed: false, saved: new Map(),
      remove: g.removes(tool, sq.x, sq.y),
    };
    if (e.shiftKey) stroke.saved.set(sq.y * g.width + sq.x, g.cells[sq.y * g.width + sq.x]);
    if (g.paint(tool, sq.x, sq.y, stroke.remove)) stroke.changed = true;
    editor.cursor(sq.x, sq.y);
    editor.changed();
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!stroke && e.pointerType === 'mouse') view.setHover(view.squareAt(e.clientX, e.clientY));
    if (!stroke || stroke.id !== e.pointerId) return;
    const sq = view.squareAt(e.clientX, e.clientY);
    if (!sq || (sq.x === stroke.last.x && sq.y === stroke.last.y)) return;
    paintTo(sq, e.shiftKey);
  });
  const finish = (e) => {
    if (!stroke || stroke.id !== e.pointerId) return;
    const changed = stroke.changed;
    stroke = null;
    editor.end(changed);
  };
  canvas.addEventListener('pointerup', finish);
  canvas.addEventListener('pointercancel', finish);
  canvas.addEventListener('pointerleave', () => view.setHover(null));
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.style.touchAction = 'none';
}
