// core.js: the game core (core.wasm) behind a small JavaScript API.
// The page plays every step with the same C code the server judges with, so
// a step shows at once and the server's answer is, in the normal case, the
// same position. Memory is carved once from __heap_base by a bump allocator:
// one level and one game at a time, plus a scratch level for thumbnails.

// Copies of the core's C values (core/base.h, core/game.h): each NAME here
// is SOKO_NAME there, and tests/js/abi.test.mjs holds them equal.
export const UP = 0, RIGHT = 1, DOWN = 2, LEFT = 3;
export const WALL = 1, GOAL = 2, BOX = 4, OUTSIDE = 8;
export const MOVED = 0, PUSHED = 1;
export const E_PLAYERS = -4, E_OPEN = -7;
export const E_WALL = -9, E_BLOCKED = -10, E_FULL = -11, E_NOTHING = -12, E_NO_PATH = -14;
export const ENTRY_RESTART = 0xffff, ENTRY_DIR_MASK = 3, ENTRY_PUSHED_SHIFT = 2;
export const RULE_STANDARD = 0, RULE_MULTIPUSH = 1, RULE_REVERSE = 2, STEP_PULL = 4;
export const LURD_PUSH = 4;
export const MAX_CELLS = 128 * 128;

export const LETTERS = 'urdl';
// The page's own buffer for directions (paths, decoded LURD), not a core value.
const DIRS_CAP = 1 << 16;
const DX = [0, 1, 0, -1], DY = [-1, 0, 1, 0];

/** Loads core.wasm from url and returns a Core. */
export async function loadCore(url = '/core.wasm') {
  const response = fetch(url);
  let instance;
  if (WebAssembly.instantiateStreaming) {
    try {
      ({ instance } = await WebAssembly.instantiateStreaming(response, {}));
    } catch (e) {
      // A server that sends the wrong MIME type: fall back to bytes.
      ({ instance } = await WebAssembly.instantiate(await (await fetch(url)).arrayBuffer(), {}));
    }
  } else {
    ({ instance } = await WebAssembly.instantiate(await (await response).arrayBuffer(), {}));
  }
  return new Core(instance.exports);
}

/** Where direction d leads from (x, y). */
export function stepFrom(x, y, d) {
  return [x + DX[d], y + DY[d]];
}

/** The direction of a LURD letter (either case), or -1. */
export function dirOfLetter(ch) {
  return LETTERS.indexOf(ch.toLowerCase());
}

export class Core {
  constructor(x) {
    this.x = x;
    this.top = (x.__heap_base.value + 15) & ~15;
    this.err = this.alloc(x.soko_sizeof_error());
    this.scratchLevel = this.alloc(x.soko_sizeof_level());
    this.level = this.alloc(x.soko_sizeof_level());
    this.game = this.alloc(x.soko_sizeof_game());
    this.pathScratch = this.alloc(x.soko_sizeof_path_scratch());
    // The longest history, the server's too: a game the server holds fits.
    this.historyCap = x.soko_game_max_history() >>> 0;
    this.history = this.alloc(this.historyCap * 2);
    this.dirs = this.alloc(DIRS_CAP);
    this.marks = this.alloc(MAX_CELLS);
    this.dead = this.alloc(MAX_CELLS);
    this.text = 0;
    this.textCap = 0;
    this.mem().fill(0, this.pathScratch, this.pathScratch + x.soko_sizeof_path_scratch());
  }

  alloc(n) {
    const at = this.top;
    this.top = (this.top + n + 15) & ~15;
    const need = this.top - this.x.memory.buffer.byteLength;
    if (need > 0) this.x.memory.grow(Math.ceil(need / 65536));
    return at;
  }

  mem() {
    return new Uint8Array(this.x.memory.buffer);
  }

  /** Copies a string into wasm memory (UTF-8); returns [address, length]. */
  putText(s) {
    const bytes = new TextEncoder().encode(s);
    if (bytes.length + 1 > this.textCap) {
      this.textCap = Math.max(bytes.length + 1, 4096) * 2;
      this.text = this.alloc(this.textCap);
    }
    this.mem().set(bytes, this.text);
    return [this.text, bytes.length];
  }

  errorAt(code) {
    const x = this.x, mem = this.mem();
    const msgAt = x.soko_error_message(this.err);
    let end = msgAt;
    while (mem[end] !== 0 && end < msgAt + 160) end++;
    const message = new TextDecoder().decode(mem.subarray(msgAt, end));
    const e = new Error(message || 'invalid level');
    e.code = code;
    e.line = x.soko_error_line(this.err);
    e.col = x.soko_error_col(this.err);
    return e;
  }

  parseInto(at, text, firstLine = 1) {
    const [t, n] = this.putText(text);
    const rc = this.x.soko_level_parse(at, t, n, firstLine, this.err);
    if (rc !== 0) throw this.errorAt(rc);
    const x = this.x;
    const width = x.soko_level_width(at), height = x.soko_level_height(at);
    const cellsAt = x.soko_level_cells(at);
    return {
      width, height,
      boxes: x.soko_level_boxes(at),
      player: x.soko_level_player(at),
      cells: this.mem().slice(cellsAt, cellsAt + width * height),
      solved: x.soko_level_solved(at) !== 0,
    };
  }

  /** Reads a board whose first line is line firstLine of the caller's text:
   * {width, height, boxes, player, cells (a copy), solved}. Throws an Error
   * with line, col and message when the board is not valid. */
  parseLevel(text, firstLine = 1) {
    return this.parseInto(this.scratchLevel, text, firstLine);
  }

  /** Starts the one live game on a board under rule (0 standard, 1
   * multi-push, 2 reverse: from a reverse game's start square `start`, a
   * cell, when given and allowed); returns it. A previous Game object must
   * not be used again. */
  startGame(text, rule = 0, start = -1) {
    const info = this.parseInto(this.level, text);
    this.x.soko_game_init(this.game, this.level, rule, this.history, this.historyCap);
    if (rule === RULE_REVERSE && start >= 0) this.x.soko_game_set_start(this.game, start);
    // A reverse game's dead squares are those no pull brings back to a start square.
    const dead = rule === RULE_REVERSE
      ? this.x.soko_deadlock_pull_dead_squares(this.level, this.dead)
      : this.x.soko_deadlock_dead_squares(this.level, this.dead);
    return new Game(this, info, rule, dead);
  }

  /** Decodes LURD text into an array of directions with push flags (bit 2). */
  decodeLurd(text) {
    const [t, n] = this.putText(text);
    const count = this.x.soko_lurd_decode(t, n, 1, this.dirs, DIRS_CAP, this.err);
    if (count < 0) throw this.errorAt(count);
    return Array.from(this.mem().subarray(this.dirs, this.dirs + count));
  }
}

/** The live game: a level, its position and its history, all in wasm memory. */
export class Game {
  constructor(core, info, rule, deadCount) {
    this.core = core;
    this.x = core.x;
    this.g = core.game;
    this.width = info.width;
    this.height = info.height;
    this.boxCount = info.boxes;
    this.start = info.cells;
    this.rule = rule;
    this.deadCount = deadCount;
    this.deadSquares = core.mem().slice(core.dead, core.dead + info.width * info.height);
  }

  get player() { return this.x.soko_game_player(this.g); }
  get moves() { return this.x.soko_game_moves(this.g) >>> 0; }
  get pushes() { return this.x.soko_game_pushes(this.g) >>> 0; }
  get boxesOnGoal() { return this.x.soko_game_boxes_on_goal(this.g); }
  get boxesOnStart() { return this.x.soko_game_boxes_on_start(this.g); }
  /** The square the player starts on (a reverse game's chosen one). */
  get startSquare() { return this.x.soko_game_start(this.g) >>> 0; }
  get reverse() { return this.rule === RULE_REVERSE; }
  /** Boxes on their targets: goals, or in a reverse game the level's box squares. */
  get boxesHome() { return this.reverse ? this.boxesOnStart : this.boxesOnGoal; }
  get cursor() { return this.x.soko_game_cursor(this.g) >>> 0; }
  get historyLength() { return this.x.soko_game_history_len(this.g) >>> 0; }
  get redoCount() { return this.historyLength - this.cursor; }
  get solved() { return this.x.soko_game_solved(this.g) !== 0; }
  get hash() {
    const hi = this.x.soko_game_hash_hi(this.g) >>> 0, lo = this.x.soko_game_hash_lo(this.g) >>> 0;
    return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
  }

  /** The current squares (flags with BOX where boxes are now): a live view,
   * valid until the next call into the core. */
  cells() {
    const at = this.x.soko_game_cells(this.g);
    return this.core.mem().subarray(at, at + this.width * this.height);
  }

  /** Squares of the boxes, in cell order. */
  boxes() {
    const c = this.cells(), out = [];
    for (let i = 0; i < c.length; i++) if (c[i] & BOX) out.push(i);
    return out;
  }

  /** History entry i: {restart} or {dir, pushed}. */
  entry(i) {
    const m = this.core.mem(), at = this.core.history + i * 2;
    const e = m[at] | (m[at + 1] << 8);
    if (e === ENTRY_RESTART) return { restart: true };
    return { dir: e & ENTRY_DIR_MASK, pushed: e >> ENTRY_PUSHED_SHIFT };
  }

  /** One step: MOVED, PUSHED, or a negative core error (nothing changed). */
  step(d) { return this.x.soko_game_step(this.g, d); }
  /** A reverse game's pull: a step that brings along the box behind the player. */
  pull(d) { return this.x.soko_game_pull(this.g, d); }
  /** A step as a letter reads: in a reverse game upper case pulls. */
  play(d, upper) { return this.x.soko_game_play(this.g, d | (upper ? STEP_PULL : 0)); }
  /** True when square c may be a reverse game's start square. */
  startAllowed(c) { return this.x.soko_reverse_start_allowed(this.core.level, c) !== 0; }
  undo() { return this.x.soko_game_undo(this.g); }
  redo() { return this.x.soko_game_redo(this.g); }
  restart() { return this.x.soko_game_restart(this.g); }

  /** Steps since the last applied restart as LURD. */
  lurd() {
    const out = this.core.dirs;
    const n = this.x.soko_lurd_encode(this.g, out, DIRS_CAP);
    if (n < 0) return null;
    return String.fromCharCode(...this.core.mem().subarray(out, out + n));
  }

  /** The counts of the forward solution a finished reverse game stands
   * for, the one the server stores and ranks (soko_reverse_forward, on the
   * line since the last restart): {moves, pushes}; null when the game is
   * not a finished reverse one, or its line does not fit the page's buffer. */
  forwardCounts() {
    const cursor = this.cursor;
    let from = cursor;
    while (from > 0 && !this.entry(from - 1).restart) from--;
    const n = this.x.soko_reverse_forward(this.g, this.core.history + from * 2, cursor - from,
      this.core.pathScratch, this.core.dirs, DIRS_CAP);
    if (n < 0) return null;
    let pushes = 0;
    for (const d of this.core.mem().subarray(this.core.dirs, this.core.dirs + n)) if (d & LURD_PUSH) pushes++;
    return { moves: n, pushes };
  }

  copyDirs(n) {
    return Array.from(this.core.mem().subarray(this.core.dirs, this.core.dirs + n));
  }

  /** The shortest walk to a square as directions, or null. */
  walkPath(target) {
    const n = this.x.soko_path_walk(this.g, target, this.core.pathScratch, this.core.dirs, DIRS_CAP);
    return n < 0 ? null : this.copyDirs(n);
  }

  /** Squares the box on `box` can be pushed to (a copy, 1 per square). */
  boxReach(box) {
    const n = this.x.soko_path_box_reach(this.g, box, this.core.pathScratch, this.core.marks);
    if (n < 0) return null;
    return this.core.mem().slice(this.core.marks, this.core.marks + this.width * this.height);
  }

  /** Steps that bring the box on `box` to `target`, or null. */
  pushPath(box, target) {
    const n = this.x.soko_path_box_push(this.g, box, target, this.core.pathScratch,
      this.core.dirs, DIRS_CAP);
    return n < 0 ? null : this.copyDirs(n);
  }

  /** Frozen boxes off goals (a copy, 1 per square) and their number. */
  frozen() {
    const m = this.core.mem();
    m.set(this.deadSquares, this.core.dead);
    const n = this.x.soko_deadlock_frozen(this.g, this.core.dead, this.core.marks);
    return { count: n, marks: this.core.mem().slice(this.core.marks, this.core.marks + this.width * this.height) };
  }

  /** Plays LURD text; returns the number of steps played before any refusal. */
  playLurd(text) {
    const steps = this.core.decodeLurd(text);
    for (let i = 0; i < steps.length; i++) {
      if (this.x.soko_game_play(this.g, steps[i]) < 0) return i;
    }
    return steps.length;
  }

  xy(cell) { return [cell % this.width, Math.floor(cell / this.width)]; }
  cellAt(x, y) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return -1;
    return y * this.width + x;
  }
}
