// lesson.js: a tutorial level's lesson, shown on the board beside the square
// it talks about (the box, in every lesson of First Steps) with an arrow to
// it, until the player dismisses it or makes the first push. A dismissed
// lesson stays dismissed on this device.

const KEY = 'sokod.lessons';
const GAP = 14; // between the square and the bubble: room for the arrow

let bubble = null;
let shown = null; // {view, cell, levelId}
let watching = false;

function dismissed() {
  try {
    return new Set(JSON.parse(localStorage.getItem(KEY) || '[]'));
  } catch {
    return new Set();
  }
}

function element() {
  if (bubble) return bubble;
  bubble = document.createElement('div');
  bubble.id = 'lesson';
  bubble.className = 'lesson';
  bubble.setAttribute('role', 'note');
  bubble.hidden = true;
  const text = document.createElement('p');
  text.id = 'lesson-text';
  const close = document.createElement('button');
  close.id = 'lesson-close';
  close.className = 'button';
  close.type = 'button';
  close.textContent = 'Got it';
  close.addEventListener('click', dismissLesson);
  bubble.append(text, close);
  // A tap on the lesson is not a tap on the board under it.
  for (const type of ['pointerdown', 'pointerup']) bubble.addEventListener(type, (e) => e.stopPropagation());
  return bubble;
}

/** Shows `text` on the board `view` shows, pointing at square `cell`, unless
 * the player dismissed the lesson of `levelId` before. */
export function showLesson(view, levelId, text, cell) {
  hideLesson();
  if (!text || cell < 0 || dismissed().has(levelId)) return;
  const b = element();
  b.querySelector('p').textContent = text;
  view.frame.append(b);
  shown = { view, cell, levelId };
  b.hidden = false;
  place();
  if (!watching) {
    // The board is sized after the level is shown, and again with the window.
    watching = true;
    const observer = new ResizeObserver(() => place());
    observer.observe(view.frame);
    observer.observe(view.canvas);
  }
}

/** Takes the lesson off the board (it may come back on the next visit). */
export function hideLesson() {
  shown = null;
  if (bubble) bubble.hidden = true;
}

/** The player's "Got it": the lesson of this level is not shown again here. */
export function dismissLesson() {
  if (!shown) return;
  const ids = dismissed();
  ids.add(shown.levelId);
  localStorage.setItem(KEY, JSON.stringify([...ids]));
  const view = shown.view;
  hideLesson();
  view.canvas.focus();
}

/** The bubble's top for each place it may take, best first: above the board
 * or below it when the frame has room there (the board stays clear), else
 * just above or below the square, on the side away from the player. */
function places(frame, board, squareTop, squareBottom, playerY, h) {
  const out = [];
  if (board.top - frame.top >= h + GAP) out.push({ side: 'above', top: board.top - frame.top - h - GAP });
  if (frame.bottom - board.bottom >= h + GAP) out.push({ side: 'below', top: board.bottom - frame.top + GAP });
  const above = { side: 'above', top: squareTop - GAP - h }, below = { side: 'below', top: squareBottom + GAP };
  const near = playerY < squareTop ? [below, above] : [above, below];
  out.push(...near.filter((p) => p.top >= 0), near[0]);
  return out;
}

/** Puts the bubble by the square with a line from it to the square's
 * centre, kept inside the frame. */
function place() {
  if (!shown || !bubble || bubble.hidden) return;
  const { view, cell } = shown;
  const frame = view.frame.getBoundingClientRect();
  const board = view.canvas.getBoundingClientRect();
  if (!view.level || board.width === 0) return;
  const size = board.width / view.level.width;
  const [cx, cy] = view.clientPoint(cell);
  const playerY = view.clientPoint(view.shown?.player ?? cell)[1] - frame.top;
  const x = cx - frame.left, y = cy - frame.top;
  const w = bubble.offsetWidth, h = bubble.offsetHeight;
  const [{ side, top }] = places(frame, board, y - size / 2, y + size / 2, playerY, h);
  const left = Math.max(4, Math.min(frame.width - w - 4, x - w / 2));
  // The line runs from the bubble's edge to 2 px short of the square.
  const reach = side === 'above' ? y - size / 2 - (top + h) - 2 : top - (y + size / 2) - 2;
  // Set through the DOM: the Content-Security-Policy refuses style attributes in markup.
  bubble.style.left = `${left}px`;
  bubble.style.top = `${top}px`;
  bubble.style.setProperty('--arrow-x', `${x - left}px`);
  bubble.style.setProperty('--reach', `${Math.max(0, reach)}px`);
  bubble.dataset.side = side;
}
