// editor/view.js: the editor's canvas. The game's board renderer draws the
// squares with the theme's walls and sprites; on top go what only an
// editor needs: the outline of empty squares, every player beyond the
// first, the squares the core complains about, and the keyboard cursor.

import { BoardView } from '../board.js';
import { WALL, GOAL, BOX, OUTSIDE } from '../core.js';
import { isBox, isGoal, isPlayer } from './grid.js';

/** The grid as the board renderer reads it: square flags, boxes, player. */
export function levelOfGrid(grid) {
  const cells = new Uint8Array(grid.width * grid.height);
  const boxes = [];
  let player = -1;
  grid.cells.forEach((ch, i) => {
    if (ch === '#') cells[i] = WALL;
    else if (ch === ' ') cells[i] = OUTSIDE;
    if (isGoal(ch)) cells[i] |= GOAL;
    if (isBox(ch)) {
      cells[i] |= BOX;
      boxes.push(i);
    }
    if (isPlayer(ch) && player < 0) player = i;
  });
  return { width: grid.width, height: grid.height, cells, boxes, player };
}

export class EditorView extends BoardView {
  constructor(canvas, frame) {
    super(canvas, frame);
    this.stepMs = 0;
    // The editor's Grid (characters). Not `grid`: the board renderer's
    // `grid` is the level as drawn (square flags), and one written over the
    // other draws every wall and goal as floor.
    this.drawing = null;
    this.cursor = { x: 0, y: 0 };
    this.showCursor = false;
    this.problems = [];
    this.hover = null;
  }

  /** The square under the mouse ({x, y} or null), outlined lightly. */
  setHover(sq) {
    if (sq?.x === this.hover?.x && sq?.y === this.hover?.y) return;
    this.hover = sq;
    this.requestFrame();
  }

  /** Shows the grid as it is now. */
  show(grid) {
    this.drawing = grid;
    const lvl = levelOfGrid(grid);
    const resized = !this.level || this.level.width !== lvl.width || this.level.height !== lvl.height;
    this.level = { width: lvl.width, height: lvl.height, cells: lvl.cells };
    this.grid = this.level; // never turned: mayTurn stays false here
    this.shown = { player: lvl.player, boxes: new Set(lvl.boxes), facing: 2 };
    this.layer = null;
    if (resized) this.resize();
    else this.requestFrame();
  }

  setCursor(x, y, visible = this.showCursor) {
    this.cursor = { x, y };
    this.showCursor = visible;
    this.requestFrame();
  }

  setProblems(problems) {
    this.problems = problems.filter((p) => p.x >= 0);
    this.requestFrame();
  }

  /** The square under a point as {x, y}, or null. */
  squareAt(clientX, clientY) {
    const c = this.cellAt(clientX, clientY);
    if (c < 0) return null;
    return { x: c % this.level.width, y: Math.floor(c / this.level.width) };
  }

  draw(now) {
    super.draw(now);
    const t = this.tile, ctx = this.ctx, { width, height, cells } = this.level;
    const ui = getComputedStyle(document.documentElement);
    // Empty squares: a faint dotted outline, so the drawing area shows.
    ctx.save();
    ctx.strokeStyle = this.theme.board.grid || ui.getPropertyValue('--line') || '#999';
    ctx.globalAlpha = 0.7;
    ctx.lineWidth = Math.max(1, Math.round(t / 40));
    ctx.setLineDash([Math.max(2, t / 10), Math.max(2, t / 10)]);
    for (let i = 0; i < cells.length; i++) {
      if (!(cells[i] & OUTSIDE)) continue;
      const x = (i % width) * t, y = Math.floor(i / width) * t;
      ctx.strokeRect(x + 0.5, y + 0.5, t - 1, t - 1);
    }
    ctx.restore();
    // Players beyond the first (a board with two is refused, but shown).
    const players = this.drawing ? this.drawing.players() : [];
    for (const p of players.slice(1)) {
      ctx.drawImage(this.sheet.get('player', 2), (p % width) * t, Math.floor(p / width) * t);
    }
    // Squares the core names in its errors.
    const warn = ui.getPropertyValue('--warn').trim() || '#b3261e';
    for (const p of this.problems) {
      if (p.x >= width || p.y >= height) continue;
      const x = p.x * t, y = p.y * t, lw = Math.max(2, Math.round(t * 0.08));
      ctx.save();
      ctx.fillStyle = warn;
      ctx.globalAlpha = 0.28;
      ctx.fillRect(x, y, t, t);
      ctx.globalAlpha = 1;
      ctx.strokeStyle = warn;
      ctx.lineWidth = lw;
      ctx.strokeRect(x + lw / 2, y + lw / 2, t - lw, t - lw);
      ctx.restore();
    }
    if (this.hover && this.hover.x < width && this.hover.y < height) {
      const focus = ui.getPropertyValue('--focus').trim() || '#1f5fbf';
      const lw = Math.max(1, Math.round(t * 0.05));
      ctx.save();
      ctx.strokeStyle = focus;
      ctx.globalAlpha = 0.6;
      ctx.lineWidth = lw;
      ctx.strokeRect(this.hover.x * t + lw / 2, this.hover.y * t + lw / 2, t - lw, t - lw);
      ctx.restore();
    }
    if (this.showCursor) {
      const focus = ui.getPropertyValue('--focus').trim() || '#1f5fbf';
      const x = this.cursor.x * t, y = this.cursor.y * t, lw = Math.max(2, Math.round(t * 0.1));
      ctx.save();
      ctx.strokeStyle = '#fff';
      ctx.lineWidth = lw + 2;
      ctx.strokeRect(x + lw / 2, y + lw / 2, t - lw, t - lw);
      ctx.strokeStyle = focus;
      ctx.lineWidth = lw;
      ctx.strokeRect(x + lw / 2, y + lw / 2, t - lw, t - lw);
      ctx.restore();
    }
  }
}
