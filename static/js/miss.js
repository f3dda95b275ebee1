// miss.js: a point-mode click that leads nowhere (a wall, a square out of
// reach, a box that cannot move) is marked on its square for a moment,
// with a word saying why: the bump alone is easy to miss.

const SHOWN_MS = 900;

let mark = null;
let timer = 0;

/** Marks square `cell` of the board `view` shows with `text`, replacing
 * the mark before. */
export function showMiss(view, cell, text) {
  if (!view.level || cell < 0) return;
  mark?.remove();
  clearTimeout(timer);
  const [cx, cy] = view.clientPoint(cell);
  const frame = view.frame.getBoundingClientRect();
  const size = view.canvas.getBoundingClientRect().width / view.level.width;
  mark = document.createElement('div');
  mark.className = 'point-miss';
  mark.setAttribute('aria-hidden', 'true'); // announced by the caller
  // Set through the DOM: the Content-Security-Policy refuses style attributes in markup.
  mark.style.left = `${cx - frame.left}px`;
  mark.style.top = `${cy - frame.top}px`;
  mark.style.setProperty('--square', `${size}px`);
  const label = document.createElement('span');
  label.textContent = text;
  mark.append(label);
  view.frame.append(mark);
  const shown = mark;
  timer = setTimeout(() => {
    shown.remove();
    if (mark === shown) mark = null;
  }, SHOWN_MS);
}
