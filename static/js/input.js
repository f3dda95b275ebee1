// input.js: turns keys, pointer taps and swipes, and gamepads into game
// actions. It knows nothing of the game: it calls handlers by action name
// (up, right, down, left, undo, redo, undoPush, restart, next, prev, hint,
// menu, keys, confirm) and point(clientX, clientY) for a tap or a click.

import { UP, RIGHT, DOWN, LEFT } from './core.js';

const CODES = { KeyW: 'up', KeyD: 'right', KeyS: 'down', KeyA: 'left' };
const KEYS = {
  ArrowUp: 'up', ArrowRight: 'right', ArrowDown: 'down', ArrowLeft: 'left',
  Backspace: 'undo', Escape: 'menu', Enter: 'confirm', '?': 'keys', F1: 'keys',
};
const LETTER_KEYS = { z: 'undo', u: 'undo', y: 'redo', r: 'restart', n: 'next', p: 'prev', h: 'hint' };
export const DIR_OF = { up: UP, right: RIGHT, down: DOWN, left: LEFT };

/** The action of a keydown event, or null. */
export function actionOfKey(e) {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (e.altKey) return null;
  if (e.ctrlKey || e.metaKey) {
    if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
    if (key === 'y') return 'redo';
    return null;
  }
  if (e.shiftKey && key === 'z') return 'redo';
  if (e.shiftKey && key === 'u') return 'undoPush';
  if (KEYS[e.key]) return KEYS[e.key];
  if (CODES[e.code]) return CODES[e.code];
  return LETTER_KEYS[key] ?? null;
}

/** Listens on `target` (the board's frame) for taps, clicks, swipes and
 * pinches: a tap calls point(x, y), a swipe calls action(direction), a
 * drag with the mouse calls drag(x0, y0, x1, y1) from where it started to
 * where it ended (without `drag`, point(x0, y0)), the
 * mouse wheel calls zoom(factor, x, y) (zoom by factor about the client
 * point (x, y)). Two fingers call pinch.begin(x, y) when they land, their
 * midpoint at (x, y), then pinch.move(scale, x, y) as they move: their
 * spread is `scale` times what it was when they landed and their midpoint
 * is at (x, y). Each move is measured from the landing, not from the move
 * before: a phone reports each finger's move on its own, and steps taken
 * one finger at a time must not add up to more than the fingers did. A
 * touch that was part of a pinch is never a tap or a swipe. */
export function watchPointer(target, { point, action, drag, hover, zoom, pinch: pinched }) {
  let start = null;
  const SWIPE = 24;
  const down = new Map(); // pointer id -> [x, y] of the pointers touching
  let pinch = null;       // {dist, x, y} of the two fingers when they landed
  const pinchOf = () => {
    const [[ax, ay], [bx, by]] = [...down.values()];
    return { dist: Math.hypot(bx - ax, by - ay) || 1, x: (ax + bx) / 2, y: (ay + by) / 2 };
  };
  const lift = (e) => {
    down.delete(e.pointerId);
    if (down.size < 2) pinch = null;
  };
  target.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    down.set(e.pointerId, [e.clientX, e.clientY]);
    if (down.size === 1) {
      start = { x: e.clientX, y: e.clientY, id: e.pointerId, type: e.pointerType };
    } else {
      start = null;
      if (down.size === 2 && pinched) {
        pinch = pinchOf();
        pinched.begin(pinch.x, pinch.y);
      }
    }
  });
  target.addEventListener('pointermove', (e) => {
    if (!start && e.pointerType === 'mouse') hover?.(e.clientX, e.clientY);
    if (!down.has(e.pointerId)) return;
    down.set(e.pointerId, [e.clientX, e.clientY]);
    if (!pinch || down.size !== 2) return;
    const now = pinchOf();
    pinched.move(now.dist / pinch.dist, now.x, now.y);
  });
  target.addEventListener('pointerleave', () => hover?.(-1, -1));
  target.addEventListener('pointercancel', (e) => {
    lift(e);
    start = null;
  });
  target.addEventListener('pointerup', (e) => {
    lift(e);
    if (!start || start.id !== e.pointerId) return;
    const dx = e.clientX - start.x, dy = e.clientY - start.y;
    const s = start;
    start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) >= SWIPE) {
      if (s.type === 'mouse') {
        if (drag) drag(s.x, s.y, e.clientX, e.clientY);
        else point(s.x, s.y);
      } else if (Math.abs(dx) > Math.abs(dy)) action(dx > 0 ? 'right' : 'left');
      else action(dy > 0 ? 'down' : 'up');
      return;
    }
    point(s.x, s.y);
  });
  if (zoom) {
    target.addEventListener('wheel', (e) => {
      e.preventDefault();
      zoom(Math.exp(-e.deltaY / 400), e.clientX, e.clientY);
    }, { passive: false });
  }
  // Touch screens scroll and zoom the page on swipes and pinches unless
  // told otherwise.
  target.style.touchAction = 'none';
}

/** Polls gamepads while one is connected: the d-pad and left stick step
 * (repeating while held), A confirms, B undoes, X redoes, Y restarts,
 * shoulders go to the previous and next level, Start opens the menu. */
export function watchGamepads(action) {
  const BUTTONS = { 0: 'confirm', 1: 'undo', 2: 'redo', 3: 'restart', 4: 'prev', 5: 'next', 9: 'menu',
    12: 'up', 13: 'down', 14: 'left', 15: 'right' };
  const held = new Map();
  let raf = 0;
  const poll = (now) => {
    raf = 0;
    const pads = navigator.getGamepads ? navigator.getGamepads() : [];
    let any = false;
    for (const pad of pads) {
      if (!pad) continue;
      any = true;
      const down = new Set();
      for (const [i, name] of Object.entries(BUTTONS)) if (pad.buttons[i]?.pressed) down.add(name);
      const [ax = 0, ay = 0] = pad.axes;
      if (ax < -0.6) down.add('left');
      if (ax > 0.6) down.add('right');
      if (ay < -0.6) down.add('up');
      if (ay > 0.6) down.add('down');
      for (const name of down) {
        const key = `${pad.index}:${name}`;
        const since = held.get(key);
        const repeats = DIR_OF[name] !== undefined || name === 'undo' || name === 'redo';
        if (since === undefined) {
          held.set(key, now + 260);
          action(name);
        } else if (repeats && now >= since) {
          held.set(key, now + 110);
          action(name);
        }
      }
      for (const key of [...held.keys()]) {
        if (key.startsWith(`${pad.index}:`) && !down.has(key.slice(key.indexOf(':') + 1))) held.delete(key);
      }
    }
    if (any) raf = requestAnimationFrame(poll);
  };
  window.addEventListener('gamepadconnected', () => { if (!raf) raf = requestAnimationFrame(poll); });
}
