// input.js: turns keys, pointer taps and swipes, and gamepads into game
// actions. It knows nothing of the game: it calls handlers by action name
// (up, right, down, left, undo, redo, undoPush, restart, next, prev, hint,
// menu, confirm) and point(clientX, clientY) for a tap or a click.

import { UP, RIGHT, DOWN, LEFT } from './core.js';

const CODES = { KeyW: 'up', KeyD: 'right', KeyS: 'down', KeyA: 'left' };
const KEYS = {
  ArrowUp: 'up', ArrowRight: 'right', ArrowDown: 'down', ArrowLeft: 'left',
  Backspace: 'undo', Escape: 'menu', Enter: 'confirm',
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

/** Listens on `target` (the board's frame) for taps, clicks and swipes:
 * a tap calls point(x, y), a swipe calls action(direction). */
export function watchPointer(target, { point, action, hover }) {
  let start = null;
  const SWIPE = 24;
  target.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    start = { x: e.clientX, y: e.clientY, id: e.pointerId, type: e.pointerType };
  });
  target.addEventListener('pointermove', (e) => {
    if (!start && e.pointerType === 'mouse') hover?.(e.clientX, e.clientY);
  });
  target.addEventListener('pointerleave', () => hover?.(-1, -1));
  target.addEventListener('pointercancel', () => { start = null; });
  target.addEventListener('pointerup', (e) => {
    if (!start || start.id !== e.pointerId) return;
    const dx = e.clientX - start.x, dy = e.clientY - start.y;
    const s = start;
    start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) >= SWIPE && s.type !== 'mouse') {
      if (Math.abs(dx) > Math.abs(dy)) action(dx > 0 ? 'right' : 'left');
      else action(dy > 0 ? 'down' : 'up');
      return;
    }
    point(s.x, s.y);
  });
  // Touch screens scroll and zoom on swipes unless told otherwise.
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
