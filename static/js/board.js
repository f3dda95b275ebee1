// board.js: draws a game on a canvas. The still squares (floor, goals,
// walls, dead squares) are drawn once per size into a layer; each frame
// copies that layer and draws boxes, the player and point-mode marks on top.
// Tiles are whole device pixels, so the board stays sharp at any
// devicePixelRatio. Steps animate through a queue of transitions; a queue
// that grows (fast keys, long walks) plays faster so it never lags behind.
// A board may be zoomed in beyond the size that fits its frame: the frame
// then shows a part of it, moved by a pan, and follows the player.
// A wide board in a tall frame may be shown turned a quarter clockwise (see
// shouldTurn): positions, marks and directions stay the board's own in the
// interface, and are turned only where they are drawn or read from screen.

import { WALL, GOAL, OUTSIDE } from './core.js';
import { SpriteSheet } from './sprites.js';

const DX = [0, 1, 0, -1], DY = [-1, 0, 1, 0];
// The most pixels a board's canvas holds: a zoomed big board is drawn
// coarser beyond it rather than costing a phone hundreds of megabytes.
const MAX_PIXELS = 8e6;
// Squares zoom in up to this many CSS pixels.
const ZOOM_SQUARE = 56;
// A board whose squares are smaller than this may be turned to grow them.
const TURN_BELOW = 32;

export class BoardView {
  /** canvas: the <canvas>; frame: the element whose size the board fits. */
  constructor(canvas, frame) {
    this.canvas = canvas;
    this.frame = frame;
    this.ctx = canvas.getContext('2d', { alpha: false });
    this.theme = null;
    this.level = null;      // {width, height, start cells}
    this.grid = null;       // the level as drawn: turned when `turned`
    this.mayTurn = false;   // whether a wide board may be turned in a tall frame
    this.turned = false;
    this.shown = null;      // {player, boxes: Set, facing}
    this.queue = [];        // transitions waiting to play
    this.anim = null;       // the transition playing: {t0, duration, ...}
    this.stepMs = 120;      // one step's animation; 0 shows steps at once
    this.showDead = false;
    this.marks = { reach: null, select: -1, frozen: null, target: -1, path: null };
    this.tile = 0;
    this.layer = null;
    this.raf = 0;
    this.onFrame = null;    // called after each drawn frame with its time
    this.overlay = null;    // overlay(ctx, tile, width): draws on top when no step animates
    this.zoom = 1;          // squares' size over the size that fits the frame
    this.pan = [0, 0];      // CSS pixels the zoomed board is moved from the frame's centre
    this.playerAt = null;   // where the player was drawn, in squares from the top left
    this.followed = '';     // that place, when the view last followed it
    this.held = null;       // {zoom, at}: a pinch's zoom and board point when its fingers landed
    this.resizer = new ResizeObserver(() => this.resize());
    this.resizer.observe(frame);
  }

  setTheme(theme) {
    this.theme = theme;
    this.sheet = null;
    this.layer = null;
    this.requestFrame();
  }

  /** Shows a new level; state: {player, boxes (array of cells)}. */
  setLevel(level, state) {
    this.level = level;
    this.turned = false;
    this.grid = level;
    this.queue = [];
    this.anim = null;
    this.marks = { reach: null, select: -1, frozen: null, target: -1, path: null };
    this.shown = { player: state.player, boxes: new Set(state.boxes), facing: 2 };
    this.zoom = 1;
    this.pan = [0, 0];
    this.resize();
  }

  setDeadSquares(dead) {
    this.dead = dead;
    this.layer = null;
    this.requestFrame();
  }

  setShowDead(on) {
    if (this.showDead === on) return;
    this.showDead = on;
    this.layer = null;
    this.requestFrame();
  }

  setMarks(marks) {
    Object.assign(this.marks, marks);
    this.requestFrame();
  }

  /** Queues one step's transition: the player went from `from` in direction
   * dir (or against it, when undoing), the boxes in `moved` ([from, to]
   * pairs) with it; `after` is the position once it ends. */
  animate(transition) {
    if (this.stepMs <= 0) {
      this.snap(transition.after, transition.dir);
      return;
    }
    this.queue.push(transition);
    this.requestFrame();
  }

  /** Shows a position at once, dropping queued animations. */
  snap(state, facing) {
    this.queue = [];
    this.anim = null;
    this.shown = {
      player: state.player,
      boxes: new Set(state.boxes),
      facing: facing ?? this.shown?.facing ?? 2,
    };
    this.requestFrame();
  }

  get animating() {
    return this.anim !== null || this.queue.length > 0;
  }

  /** The board's size in the frame at a zoom: the squares' size in device
   * pixels as shown and as drawn (a canvas holds at most MAX_PIXELS; beyond,
   * squares are drawn smaller and stretched), and the board's CSS size. */
  geometry(zoom) {
    const dpr = window.devicePixelRatio || 1;
    const rect = this.frame.getBoundingClientRect();
    const { width, height } = this.grid;
    const fit = Math.min((rect.width * dpr) / width, (rect.height * dpr) / height, 96 * dpr);
    const shown = Math.max(2, Math.floor(fit * Math.min(zoom, this.maxZoom(fit / dpr))));
    const tile = Math.min(shown, Math.max(2, Math.floor(Math.sqrt(MAX_PIXELS / (width * height)))));
    return { rect, dpr, shown, tile, w: (shown * width) / dpr, h: (shown * height) / dpr };
  }

  /** How far a board whose squares fit at `fit` CSS pixels may zoom in:
   * until its squares are ZOOM_SQUARE pixels, a finger's width. */
  maxZoom(fit) {
    return Math.max(1, ZOOM_SQUARE / fit);
  }

  resize() {
    if (!this.level) return;
    const rect = this.frame.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1) return;
    const turn = this.mayTurn && shouldTurn(this.level, rect);
    if (turn !== this.turned) this.turn(turn);
    const { dpr, shown, tile, w, h } = this.geometry(this.zoom);
    const { width, height } = this.grid;
    if (tile !== this.tile || this.canvas.width !== tile * width || this.canvas.height !== tile * height) {
      this.tile = tile;
      this.canvas.width = tile * width;
      this.canvas.height = tile * height;
      this.sheet = null;
      this.layer = null;
    }
    this.canvas.style.width = `${(shown * width) / dpr}px`;
    this.canvas.style.height = `${(shown * height) / dpr}px`;
    this.placeBoard(rect, w, h);
    this.requestFrame();
  }

  /** Shows the board turned a quarter clockwise, or not, from the zoom
   * that fits. */
  turn(on) {
    this.turned = on;
    this.grid = on ? turnedLevel(this.level) : this.level;
    this.zoom = 1;
    this.pan = [0, 0];
    this.layer = null;
    this.tile = 0;
  }

  /** A square of the board as drawn (turned or not), and back. */
  toGrid(cell) {
    if (!this.turned || cell < 0) return cell;
    const { width, height } = this.level;
    return (cell % width) * height + (height - 1 - Math.floor(cell / width));
  }

  toBoard(cell) {
    if (!this.turned || cell < 0) return cell;
    const { width, height } = this.level;
    return (height - 1 - (cell % height)) * width + Math.floor(cell / height);
  }

  /** The direction a player's key or swipe means on the board, for one
   * given as seen on screen (UP, RIGHT, DOWN, LEFT = 0..3). */
  boardDir(dir) {
    return this.turned ? (dir + 3) % 4 : dir;
  }

  /** The direction on screen of one on the board. */
  screenDir(dir) {
    return this.turned ? (dir + 1) % 4 : dir;
  }

  /** Keeps the pan inside the board (a board smaller than its frame stays
   * centred) and moves the canvas by it. */
  placeBoard(rect, w, h) {
    const room = [Math.max(0, (w - rect.width) / 2), Math.max(0, (h - rect.height) / 2)];
    this.pan = this.pan.map((p, i) => Math.round(Math.min(room[i], Math.max(-room[i], p))));
    const [x, y] = this.pan;
    this.canvas.style.transform = x || y ? `translate(${x}px, ${y}px)` : '';
    // Only a board larger than its frame is clipped: what else the frame
    // holds may reach beyond it. Clipped, not hidden: a frame that could
    // scroll would scroll to show the focused board, undoing the pan.
    this.frame.style.overflow = room[0] || room[1] ? 'clip' : '';
  }

  /** Where the client point (x, y) falls on the board, as fractions of
   * its width and height, or null when it is not shown. */
  boardPoint(x, y) {
    const r = this.canvas.getBoundingClientRect();
    if (!this.level || r.width < 1) return null;
    return [(x - r.left) / r.width, (y - r.top) / r.height];
  }

  /** Zooms by `factor` about the client point (x, y), the board under it
   * staying there (the mouse wheel). */
  zoomAt(factor, x, y) {
    const at = this.boardPoint(x, y);
    if (at) this.place(this.zoom * factor, at, x, y);
  }

  /** Two fingers landed with their midpoint at the client point (x, y):
   * the board point under it is held there for the whole gesture. */
  pinchBegin(x, y) {
    const at = this.boardPoint(x, y);
    this.held = at && { zoom: this.zoom, at };
  }

  /** The fingers' spread is `scale` times what it was when they landed
   * and their midpoint is at (x, y): the board is zoomed by `scale` from
   * its zoom then, the point held put under (x, y). Each step starts from
   * the landing, so bounds met along the way (the zoom's, the pan's) and
   * the fingers' separate moves never add up. */
  pinchMove(scale, x, y) {
    if (this.level && this.held) this.place(this.held.zoom * scale, this.held.at, x, y);
  }

  /** Sets the zoom (within its bounds) and pans so that the board point
   * `at` (fractions of its width and height) shows at the client point
   * (x, y), as far as the pan's bounds allow. */
  place(zoom, [u, v], x, y) {
    const rect = this.frame.getBoundingClientRect();
    const fit = this.geometry(1);
    this.zoom = Math.min(this.maxZoom(fit.shown / fit.dpr), Math.max(1, zoom));
    const { w, h } = this.geometry(this.zoom);
    // The board's left edge, unpanned, is the frame's centre less half its width.
    this.pan = [x - u * w - (rect.left + rect.width / 2 - w / 2), y - v * h - (rect.top + rect.height / 2 - h / 2)];
    // Where the player stands now is where the user put it: not followed.
    this.followed = String(this.playerAt);
    this.resize();
  }

  /** Pans a zoomed board so that the player, who moved since the last
   * call, stays at least a few squares inside the frame. */
  follow() {
    const key = String(this.playerAt);
    if (this.zoom <= 1 || !this.playerAt || key === this.followed) return;
    this.followed = key;
    const rect = this.frame.getBoundingClientRect();
    const board = this.canvas.getBoundingClientRect();
    const scale = board.width / this.canvas.width, square = this.tile * scale;
    const shift = [0, 0];
    for (let i = 0; i < 2; i++) {
      const lo = i ? rect.top : rect.left, size = i ? rect.height : rect.width;
      const at = (i ? board.top : board.left) + this.playerAt[i] * square;
      const margin = Math.min(2.5 * square, (size - square) / 2);
      if (at < lo + margin) shift[i] = lo + margin - at;
      else if (at + square > lo + size - margin) shift[i] = lo + size - margin - at - square;
    }
    if (!shift[0] && !shift[1]) return;
    this.pan = [this.pan[0] + shift[0], this.pan[1] + shift[1]];
    this.placeBoard(rect, board.width, board.height);
  }

  /** The square under a point in client coordinates, or -1. */
  cellAt(clientX, clientY) {
    if (!this.level) return -1;
    const r = this.canvas.getBoundingClientRect(), { width, height } = this.grid;
    const x = Math.floor(((clientX - r.left) / r.width) * width);
    const y = Math.floor(((clientY - r.top) / r.height) * height);
    if (x < 0 || y < 0 || x >= width || y >= height) return -1;
    return this.toBoard(y * width + x);
  }

  /** Where a square's centre is, in client coordinates. */
  clientPoint(cell) {
    const r = this.canvas.getBoundingClientRect();
    const w = this.grid.width, h = this.grid.height, c = this.toGrid(cell);
    return [r.left + ((c % w) + 0.5) * (r.width / w), r.top + (Math.floor(c / w) + 0.5) * (r.height / h)];
  }

  requestFrame() {
    if (!this.raf) this.raf = requestAnimationFrame((t) => this.frameAt(t));
  }

  frameAt(now) {
    this.raf = 0;
    if (!this.level || !this.theme || this.tile === 0) return;
    const t0 = performance.now();
    this.advance(now);
    this.draw(now);
    this.follow();
    this.drawMs = performance.now() - t0;
    if (this.onFrame) this.onFrame(now);
    if (this.animating) this.requestFrame();
  }

  advance(now) {
    for (;;) {
      if (!this.anim) {
        const next = this.queue.shift();
        if (!next) return;
        // Keys pressed faster than steps animate catch up; a walk keeps a
        // steady pace unless keys wait behind it.
        const keys = this.queue.filter((q) => !q.paced).length;
        const speedUp = next.paced ? (keys > 0 ? 5 : 1.6) : Math.min(6, 1 + this.queue.length / 2);
        // Start one frame in, so the frame after a key press already shows the step.
        this.anim = { ...next, t0: now - 16, duration: this.stepMs / speedUp };
        this.shown.facing = next.dir;
      }
      if (now - this.anim.t0 < this.anim.duration) return;
      this.shown = { player: this.anim.after.player, boxes: new Set(this.anim.after.boxes), facing: this.anim.dir };
      this.anim = null;
    }
  }

  buildLayer() {
    const { width, height, cells } = this.grid, t = this.tile, b = this.theme.board;
    const layer = document.createElement('canvas');
    layer.width = width * t;
    layer.height = height * t;
    const g = layer.getContext('2d');
    g.fillStyle = b.background;
    g.fillRect(0, 0, layer.width, layer.height);
    const isWall = (x, y) => x >= 0 && y >= 0 && x < width && y < height && (cells[y * width + x] & WALL);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const c = cells[y * width + x];
        if (c & (WALL | OUTSIDE)) continue;
        g.fillStyle = (x + y) % 2 ? b.floorAlt || b.floor : b.floor;
        g.fillRect(x * t, y * t, t, t);
        if (b.grid) {
          g.strokeStyle = b.grid;
          g.lineWidth = Math.max(1, Math.round(t / 32));
          g.strokeRect(x * t + 0.5, y * t + 0.5, t - 1, t - 1);
        }
        if (this.showDead && this.dead && this.dead[this.toBoard(y * width + x)] && !(c & GOAL)) {
          g.fillStyle = b.dead;
          g.fillRect(x * t, y * t, t, t);
        }
        if (c & GOAL) g.drawImage(this.sheet.get('goal'), x * t, y * t);
      }
    }
    const w = b.wall;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (!isWall(x, y)) continue;
        if (w.pattern === 'blocks') drawBlock(g, w, x * t, y * t, t);
        else drawBrick(g, w, x * t, y * t, t, y, (dx, dy) => isWall(x + dx, y + dy));
      }
    }
    this.layer = layer;
  }

  draw(now) {
    const t = this.tile, ctx = this.ctx, { width, cells } = this.grid, b = this.theme.board;
    const at = (cell) => this.toGrid(cell);
    if (!this.sheet) {
      this.sheet = new SpriteSheet(this.theme.sprites, t);
      // Render every sprite now, so the first step of each kind costs nothing.
      for (const name of ['goal', 'box', 'boxOnGoal']) this.sheet.get(name);
      for (let d = 0; d < 4; d++) this.sheet.get('player', d);
    }
    if (!this.layer) this.buildLayer();
    ctx.drawImage(this.layer, 0, 0);

    const a = this.anim;
    let k = 1;
    if (a) k = Math.min(1, Math.max(0, (now - a.t0) / a.duration));
    const ease = k < 1 ? k * (2 - k) : 1;
    const boxes = [...(a ? a.after.boxes : this.shown.boxes)].map(at);
    const moving = new Map();
    if (a) for (const [from, to] of a.moved) moving.set(at(to), at(from));

    const m = this.marks, select = at(m.select);
    if (m.reach) {
      ctx.fillStyle = b.reach;
      for (let i = 0; i < m.reach.length; i++) {
        if (!m.reach[this.toBoard(i)] || i === select) continue;
        const x = (i % width) * t, y = Math.floor(i / width) * t;
        ctx.beginPath();
        ctx.arc(x + t / 2, y + t / 2, t * 0.18, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    if (m.path && !a) {
      ctx.fillStyle = b.target;
      for (const c of m.path.map(at)) {
        const x = (c % width) * t, y = Math.floor(c / width) * t;
        ctx.beginPath();
        ctx.arc(x + t / 2, y + t / 2, Math.max(1.5, t * 0.08), 0, Math.PI * 2);
        ctx.fill();
      }
    }
    if (m.target >= 0) {
      ctx.strokeStyle = b.target;
      ctx.lineWidth = Math.max(2, t * 0.08);
      const target = at(m.target);
      const x = (target % width) * t, y = Math.floor(target / width) * t;
      ctx.strokeRect(x + t * 0.1, y + t * 0.1, t * 0.8, t * 0.8);
    }

    const place = (to, from) => {
      if (from === undefined) return [(to % width) * t, Math.floor(to / width) * t];
      const fx = from % width, fy = Math.floor(from / width);
      const tx = to % width, ty = Math.floor(to / width);
      return [(fx + (tx - fx) * ease) * t, (fy + (ty - fy) * ease) * t];
    };
    for (const box of boxes) {
      const from = moving.get(box);
      const [x, y] = place(box, from);
      // The box turns "on goal" when it arrives, not when it leaves.
      const onGoal = cells[box] & GOAL && (from === undefined || ease >= 1);
      ctx.drawImage(this.sheet.get(onGoal ? 'boxOnGoal' : 'box'), Math.round(x), Math.round(y));
      if (m.frozen && m.frozen[this.toBoard(box)] && !a) this.drawFrozen(x, y);
      if (box === select) this.drawSelect(x, y);
    }
    const [px, py] = a ? place(at(a.after.player), at(a.from)) : place(at(this.shown.player));
    this.playerAt = [px / t, py / t];
    ctx.drawImage(this.sheet.get('player', this.screenDir(this.shown.facing)), Math.round(px), Math.round(py));
    if (this.overlay && !a) this.drawOverlay(t);
  }

  /** The overlay draws on the board's own squares: a turned board turns
   * its drawing with it. */
  drawOverlay(t) {
    const ctx = this.ctx;
    ctx.save();
    // A quarter turn clockwise: the board's (x, y) is drawn at (height - y, x).
    if (this.turned) ctx.setTransform(0, 1, -1, 0, this.level.height * t, 0);
    this.overlay(ctx, t, this.level.width);
    ctx.restore();
  }

  drawFrozen(x, y) {
    const t = this.tile, ctx = this.ctx;
    ctx.strokeStyle = this.theme.board.frozen;
    ctx.lineWidth = Math.max(2, t * 0.1);
    ctx.beginPath();
    ctx.moveTo(x + t * 0.25, y + t * 0.25); ctx.lineTo(x + t * 0.75, y + t * 0.75);
    ctx.moveTo(x + t * 0.75, y + t * 0.25); ctx.lineTo(x + t * 0.25, y + t * 0.75);
    ctx.stroke();
  }

  drawSelect(x, y) {
    const t = this.tile, ctx = this.ctx;
    ctx.strokeStyle = this.theme.board.select;
    ctx.lineWidth = Math.max(2, t * 0.09);
    ctx.setLineDash([t * 0.2, t * 0.12]);
    ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, t - ctx.lineWidth, t - ctx.lineWidth);
    ctx.setLineDash([]);
  }
}

/** A wall square as one stone block (or bush): its own rounded shape. */
function drawBlock(g, w, px, py, t) {
  g.fillStyle = w.mortar || w.edge;
  g.fillRect(px, py, t, t);
  const m = Math.max(1, Math.round(t / 20)), r = (w.radius ?? 0.12) * t;
  g.beginPath();
  g.roundRect(px + m, py + m, t - 2 * m, t - 2 * m, r);
  g.fillStyle = w.fill;
  g.fill();
  if (t >= 10) {
    g.beginPath();
    g.roundRect(px + m * 2, py + m * 2, t - 4 * m, Math.max(1, t * 0.12), r / 2);
    g.fillStyle = w.top;
    g.fill();
    g.beginPath();
    g.roundRect(px + m * 2, py + t - m * 2 - Math.max(1, t * 0.1), t - 4 * m, Math.max(1, t * 0.1), r / 2);
    g.fillStyle = w.edge;
    g.fill();
  }
}

/** A wall square of a continuous brick wall: mortar lines, and light and
 * shade on the sides that face floor. */
function drawBrick(g, w, px, py, t, row, isWall) {
  const band = Math.max(1, Math.round(t * 0.14)), side = Math.max(1, band >> 1);
  g.fillStyle = w.fill;
  g.fillRect(px, py, t, t);
  if (w.mortar && t >= 12) {
    g.fillStyle = w.mortar;
    const m = Math.max(1, Math.round(t / 24));
    g.fillRect(px, py + Math.round(t / 2) - (m >> 1), t, m);
    const off = row % 2 ? 0.25 : 0.75;
    g.fillRect(px + Math.round(t * off), py, m, Math.round(t / 2));
    g.fillRect(px + Math.round(t * (1 - off)), py + Math.round(t / 2), m, Math.ceil(t / 2));
  }
  if (!isWall(0, -1)) { g.fillStyle = w.top; g.fillRect(px, py, t, band); }
  if (!isWall(0, 1)) { g.fillStyle = w.edge; g.fillRect(px, py + t - band, t, band); }
  if (!isWall(-1, 0)) { g.fillStyle = w.top; g.fillRect(px, py, side, t); }
  if (!isWall(1, 0)) { g.fillStyle = w.edge; g.fillRect(px + t - side, py, side, t); }
}

/** The transition of one step: the player on `from` took direction dir and
 * pushed `pushed` boxes ahead; `after` is the position it led to. */
export function stepTransition(width, from, dir, pushed, after, pull = false) {
  const delta = DY[dir] * width + DX[dir];
  const to = from + delta, moved = [];
  // A reverse game's pull: the box behind the player follows it.
  if (pull && pushed) moved.push([from - delta, from]);
  else for (let i = 0; i < pushed; i++) moved.push([to + i * delta, to + (i + 1) * delta]);
  return { from, dir, moved, after };
}

/** The transition of undoing that step: everything slides back. */
export function undoTransition(width, stepFrom, dir, pushed, after, pull = false) {
  const delta = DY[dir] * width + DX[dir];
  const to = stepFrom + delta, moved = [];
  if (pull && pushed) moved.push([stepFrom, stepFrom - delta]);
  else for (let i = 0; i < pushed; i++) moved.push([to + (i + 1) * delta, to + i * delta]);
  return { from: to, dir, moved, after };
}

/** Whether a board shows larger turned a quarter in a frame of this size:
 * only a wide board in a tall frame, whose squares would be smaller than a
 * finger (TURN_BELOW pixels) and grow by a quarter or more turned. */
function shouldTurn(level, rect) {
  const { width, height } = level;
  if (width <= height || rect.height <= rect.width) return false;
  const straight = Math.min(rect.width / width, rect.height / height);
  const turned = Math.min(rect.width / height, rect.height / width);
  return straight < TURN_BELOW && turned >= 1.25 * straight;
}

/** The level turned a quarter clockwise: its square (x, y) becomes
 * (height - 1 - y, x) of a level `height` wide. */
function turnedLevel(level) {
  const { width, height, cells } = level;
  const turned = new cells.constructor(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) turned[x * height + (height - 1 - y)] = cells[y * width + x];
  }
  return { ...level, width: height, height: width, cells: turned };
}
