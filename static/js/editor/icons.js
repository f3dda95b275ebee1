// editor/icons.js: the pictures on the editor's tool buttons, drawn with the
// theme in use (its floor, walls and sprites), so a tool looks like what it
// paints.

import { drawSprite } from '../sprites.js';

/** Draws the icon of tool `id` into canvas (sized by CSS), in theme. */
export function drawToolIcon(canvas, id, theme) {
  const dpr = window.devicePixelRatio || 1;
  const size = Math.round((canvas.clientWidth || 32) * dpr);
  canvas.width = canvas.height = size;
  const ctx = canvas.getContext('2d');
  const b = theme.board;
  ctx.clearRect(0, 0, size, size);
  if (id === 'erase') {
    ctx.fillStyle = b.background;
    ctx.fillRect(0, 0, size, size);
    ctx.strokeStyle = theme.ui.muted;
    ctx.lineWidth = Math.max(1, size / 20);
    ctx.setLineDash([size / 8, size / 10]);
    ctx.strokeRect(size * 0.12, size * 0.12, size * 0.76, size * 0.76);
    ctx.setLineDash([]);
    ctx.lineWidth = Math.max(1.5, size / 12);
    ctx.lineCap = 'round';
    ctx.beginPath();
    ctx.moveTo(size * 0.34, size * 0.34); ctx.lineTo(size * 0.66, size * 0.66);
    ctx.moveTo(size * 0.66, size * 0.34); ctx.lineTo(size * 0.34, size * 0.66);
    ctx.stroke();
    return;
  }
  if (id === 'wall') {
    const w = b.wall;
    ctx.fillStyle = w.mortar || w.edge;
    ctx.fillRect(0, 0, size, size);
    ctx.fillStyle = w.fill;
    const m = Math.max(1, Math.round(size / 16));
    ctx.fillRect(m, m, size - 2 * m, size - 2 * m);
    ctx.fillStyle = w.top;
    ctx.fillRect(m, m, size - 2 * m, Math.max(1, size * 0.16));
    ctx.fillStyle = w.edge;
    ctx.fillRect(m, size - m - Math.max(1, size * 0.12), size - 2 * m, Math.max(1, size * 0.12));
    return;
  }
  ctx.fillStyle = b.floor;
  ctx.fillRect(0, 0, size, size);
  const s = theme.sprites;
  if (id === 'goal') drawSprite(ctx, s.goal, size);
  else if (id === 'box') drawSprite(ctx, s.box, size);
  else if (id === 'boxOnGoal') drawSprite(ctx, s.boxOnGoal, size);
  else if (id === 'player') drawSprite(ctx, s.player, size);
}
