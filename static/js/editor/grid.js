// editor/grid.js: the level being drawn, as a grid of squares in the
// characters of the level format (' ' nothing, '-' floor, '#' wall, '.' goal,
// '$' box, '*' box on goal, '@' player, '+' player on goal). It knows how
// each tool changes a square, how the grid grows, shrinks and moves, and
// how it reads as level text. No DOM, no core: the screen and the core
// wrapper (levelio.js) do the rest.

export const MAX_SIZE = 128;

/** The tools, in toolbar order: id, name, keys that pick it. */
export const TOOLS = [
  { id: 'wall', name: 'Wall', keys: ['1', 'w', '#'] },
  { id: 'floor', name: 'Floor', keys: ['2', 'f', '-', '_'] },
  { id: 'goal', name: 'Goal', keys: ['3', 'g', '.'] },
  { id: 'box', name: 'Box', keys: ['4', 'b', '$'] },
  { id: 'boxOnGoal', name: 'Box on goal', keys: ['5', 'o', '*'] },
  { id: 'player', name: 'Player', keys: ['6', 'p', '@', '+'] },
  { id: 'erase', name: 'Erase', keys: ['7', 'e', '0', 'x'] },
];

const HAS_GOAL = new Set(['.', '*', '+']);
const HAS_BOX = new Set(['$', '*']);
const HAS_PLAYER = new Set(['@', '+']);
const ALL = new Set([' ', '-', '#', '.', '$', '*', '@', '+']);

/** The square with a goal (or without), keeping what stands on it. */
function withGoal(ch, goal) {
  if (HAS_BOX.has(ch)) return goal ? '*' : '$';
  if (HAS_PLAYER.has(ch)) return goal ? '+' : '@';
  if (goal) return '.';
  return ch === '.' ? '-' : ch;
}

export const isGoal = (ch) => HAS_GOAL.has(ch);
export const isBox = (ch) => HAS_BOX.has(ch);
export const isPlayer = (ch) => HAS_PLAYER.has(ch);

export class Grid {
  constructor(width, height, cells) {
    this.width = width;
    this.height = height;
    this.cells = cells ?? new Array(width * height).fill(' ');
  }

  /** A walled room of floor, the editor's blank page. */
  static room(width = 9, height = 7) {
    const g = new Grid(width, height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const edge = x === 0 || y === 0 || x === width - 1 || y === height - 1;
        g.cells[y * width + x] = edge ? '#' : '-';
      }
    }
    return g;
  }

  /** A grid from text rows (board characters, '-' or '_' for floor);
   * null when a row holds anything else or the rows are too large. */
  static fromRows(rows) {
    while (rows.length > 0 && rows[rows.length - 1].trim() === '') rows = rows.slice(0, -1);
    while (rows.length > 0 && rows[0].trim() === '') rows = rows.slice(1);
    const width = Math.max(1, ...rows.map((r) => r.replace(/\s+$/, '').length));
    const height = Math.max(1, rows.length);
    if (width > MAX_SIZE || height > MAX_SIZE) return null;
    const g = new Grid(width, height);
    const alias = { _: '-', p: '@', m: '@', P: '+', M: '+', b: '$', B: '*', o: '.' };
    for (let y = 0; y < rows.length; y++) {
      const row = rows[y].replace(/\s+$/, '');
      for (let x = 0; x < row.length; x++) {
        const ch = alias[row[x]] ?? row[x];
        if (!ALL.has(ch)) return null;
        g.cells[y * width + x] = ch;
      }
    }
    return g;
  }

  /** The same grid, from and to a plain object for storage. */
  toJSON() {
    return { width: this.width, height: this.height, rows: this.rows() };
  }

  static fromJSON(o) {
    const w = Number(o?.width), h = Number(o?.height);
    if (!Array.isArray(o?.rows) || !(w >= 1 && h >= 1 && w <= MAX_SIZE && h <= MAX_SIZE)) return null;
    const g = new Grid(w, h);
    for (let y = 0; y < h; y++) {
      const row = String(o.rows[y] ?? '');
      for (let x = 0; x < w; x++) {
        const ch = row[x] ?? ' ';
        g.cells[y * w + x] = ALL.has(ch) ? ch : ' ';
      }
    }
    return g;
  }

  clone() {
    return new Grid(this.width, this.height, this.cells.slice());
  }

  key() {
    return `${this.width}x${this.height}:${this.cells.join('')}`;
  }

  get(x, y) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return null;
    return this.cells[y * this.width + x];
  }

  set(x, y, ch) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return false;
    const i = y * this.width + x;
    if (this.cells[i] === ch) return false;
    this.cells[i] = ch;
    return true;
  }

  /** Each row as written, every square one character ('-' floor, ' ' nothing). */
  rows() {
    const out = [];
    for (let y = 0; y < this.height; y++) out.push(this.cells.slice(y * this.width, (y + 1) * this.width).join(''));
    return out;
  }

  /** The board as level text: line y + 1, column x + 1 is square (x, y), so
   * the core's error positions point straight at squares. */
  text() {
    return this.rows().map((r) => r.replace(/-/g, ' ').replace(/\s+$/, '')).join('\n');
  }

  /** Squares holding the player. */
  players() {
    const out = [];
    this.cells.forEach((ch, i) => { if (HAS_PLAYER.has(ch)) out.push(i); });
    return out;
  }

  /** Counts of players, boxes (on goals or not) and goals. */
  counts() {
    let players = 0, boxes = 0, goals = 0, walls = 0;
    for (const ch of this.cells) {
      if (HAS_PLAYER.has(ch)) players++;
      if (HAS_BOX.has(ch)) boxes++;
      if (HAS_GOAL.has(ch)) goals++;
      if (ch === '#') walls++;
    }
    return { players, boxes, goals, walls };
  }

  /** What tool `tool` would make of the square (x, y): its new character,
   * or `remove` mode's: the item the tool adds, taken away. */
  result(tool, x, y, remove = false) {
    const ch = this.get(x, y);
    if (ch === null) return null;
    const goal = HAS_GOAL.has(ch);
    if (remove) {
      switch (tool) {
        case 'wall': return ch === '#' ? '-' : ch;
        case 'goal': return withGoal(ch, false);
        case 'box': return HAS_BOX.has(ch) ? (goal ? '.' : '-') : ch;
        case 'boxOnGoal': return ch === '*' ? '-' : ch;
        case 'player': return HAS_PLAYER.has(ch) ? (goal ? '.' : '-') : ch;
        case 'floor': return ch === '-' ? ' ' : ch;
        default: return ch;
      }
    }
    switch (tool) {
      case 'wall': return '#';
      case 'floor': return '-';
      case 'erase': return ' ';
      case 'goal': return ch === '#' || ch === ' ' ? '.' : withGoal(ch, true);
      case 'box': return goal ? '*' : '$';
      case 'boxOnGoal': return '*';
      case 'player': return goal ? '+' : '@';
      default: return ch;
    }
  }

  /** Whether a stroke of `tool` starting on (x, y) takes its item away: a
   * square that already holds what the tool draws (a click on a goal with
   * the goal tool removes the goal). */
  removes(tool, x, y) {
    const ch = this.get(x, y);
    if (ch === null || tool === 'erase') return false;
    return this.result(tool, x, y) === ch;
  }

  /** Applies a tool to (x, y). The player tool moves the one player.
   * Returns true when something changed. */
  paint(tool, x, y, remove = false) {
    const next = this.result(tool, x, y, remove);
    if (next === null || next === this.get(x, y)) return false;
    if (!remove && tool === 'player') {
      for (const i of this.players()) {
        const old = this.cells[i];
        this.cells[i] = old === '+' ? '.' : '-';
      }
    }
    return this.set(x, y, next);
  }

  /** Grows or shrinks to width x height, keeping the top-left corner. */
  resize(width, height) {
    width = Math.max(1, Math.min(MAX_SIZE, Math.floor(width)));
    height = Math.max(1, Math.min(MAX_SIZE, Math.floor(height)));
    if (width === this.width && height === this.height) return false;
    const cells = new Array(width * height).fill(' ');
    for (let y = 0; y < Math.min(height, this.height); y++) {
      for (let x = 0; x < Math.min(width, this.width); x++) cells[y * width + x] = this.cells[y * this.width + x];
    }
    this.width = width;
    this.height = height;
    this.cells = cells;
    return true;
  }

  /** Adds (n > 0) or removes (n < 0) columns on the left or rows on top
   * (side 'left' or 'top'), moving the drawing with them. */
  grow(side, n) {
    const dx = side === 'left' ? n : 0, dy = side === 'top' ? n : 0;
    const width = this.width + dx, height = this.height + dy;
    if (width < 1 || height < 1 || width > MAX_SIZE || height > MAX_SIZE) return false;
    const cells = new Array(width * height).fill(' ');
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const ch = this.get(x - dx, y - dy);
        if (ch !== null) cells[y * width + x] = ch;
      }
    }
    this.width = width;
    this.height = height;
    this.cells = cells;
    return true;
  }

  /** Cuts the empty margin around the drawing. Returns true when it did. */
  crop() {
    let x0 = this.width, y0 = this.height, x1 = -1, y1 = -1;
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        if (this.get(x, y) === ' ') continue;
        x0 = Math.min(x0, x); y0 = Math.min(y0, y);
        x1 = Math.max(x1, x); y1 = Math.max(y1, y);
      }
    }
    if (x1 < 0 || (x0 === 0 && y0 === 0 && x1 === this.width - 1 && y1 === this.height - 1)) return false;
    const width = x1 - x0 + 1, height = y1 - y0 + 1;
    const cells = [];
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) cells.push(this.get(x, y));
    this.width = width;
    this.height = height;
    this.cells = cells;
    return true;
  }
}

/** The squares on a straight line from (x0, y0) to (x1, y1), ends included,
 * each touching the one before by a side, so a drag paints no gaps. */
export function lineCells(x0, y0, x1, y1) {
  const out = [[x0, y0]];
  let x = x0, y = y0;
  const dx = Math.abs(x1 - x0), dy = Math.abs(y1 - y0);
  const sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  let err = dx - dy;
  while (x !== x1 || y !== y1) {
    // Step along one axis at a time: the one that stays nearer the line.
    if (2 * err > -dy && (2 * err >= dx || y === y1) && x !== x1) {
      err -= dy;
      x += sx;
    } else {
      err += dx;
      y += sy;
    }
    out.push([x, y]);
  }
  return out;
}
