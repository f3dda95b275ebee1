// thumb.js: small pictures of levels for the library and the theme chooser:
// squares in the theme's colours, whole device pixels per square so they
// stay crisp.

import { WALL, GOAL, BOX, OUTSIDE } from './core.js';

/** Draws a level (from core.parseLevel) into canvas, fitted and centred. */
export function drawThumb(canvas, level, theme, playerCell = level.player) {
  const dpr = window.devicePixelRatio || 1;
  const cssW = canvas.clientWidth || 160, cssH = canvas.clientHeight || 120;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  const ctx = canvas.getContext('2d');
  const b = theme.board, t = theme.thumb;
  ctx.fillStyle = b.background;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const pad = Math.round(6 * dpr);
  const s = Math.max(1, Math.floor(Math.min((canvas.width - 2 * pad) / level.width,
    (canvas.height - 2 * pad) / level.height)));
  const ox = Math.floor((canvas.width - s * level.width) / 2);
  const oy = Math.floor((canvas.height - s * level.height) / 2);
  const inset = s >= 6 ? Math.max(1, Math.round(s / 8)) : 0;
  for (let y = 0; y < level.height; y++) {
    for (let x = 0; x < level.width; x++) {
      const c = level.cells[y * level.width + x];
      if (c & OUTSIDE) continue;
      const px = ox + x * s, py = oy + y * s;
      if (c & WALL) {
        ctx.fillStyle = b.wall.fill;
        ctx.fillRect(px, py, s, s);
        continue;
      }
      ctx.fillStyle = b.floor;
      ctx.fillRect(px, py, s, s);
      if (c & BOX) {
        ctx.fillStyle = c & GOAL ? t.boxOnGoal : t.box;
        ctx.fillRect(px + inset, py + inset, s - 2 * inset, s - 2 * inset);
      } else if (c & GOAL) {
        ctx.fillStyle = t.goal;
        const g = Math.max(1, Math.round(s / 3));
        ctx.fillRect(px + ((s - g) >> 1), py + ((s - g) >> 1), g, g);
      }
      if (y * level.width + x === playerCell) {
        ctx.fillStyle = t.player;
        ctx.beginPath();
        ctx.arc(px + s / 2, py + s / 2, Math.max(1, s / 2 - inset), 0, Math.PI * 2);
        ctx.fill();
      }
    }
  }
}
