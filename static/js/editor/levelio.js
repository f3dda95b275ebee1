// editor/levelio.js: what the editor asks of the core (core.wasm), through
// the page's one Core: checking a drawn board with soko_level_parse (and
// finding more than the first problem), writing a level back as plain or
// run-length text with soko_level_write, and reading the levels out of
// pasted text (soko_reader) or a SokoPy binary pack (soko_pack).

import { WALL, GOAL, BOX, OUTSIDE, E_PLAYERS, E_OPEN } from '../core.js';
import { Grid, isPlayer } from './grid.js';

const OUT_CAP = 4 * 129 * 128 + 64;
const MAX_PROBLEMS = 8;
const scratch = new WeakMap();

/** Memory of our own in the core's heap, carved once per Core. */
function mine(core) {
  let m = scratch.get(core);
  if (!m) {
    const x = core.x;
    m = {
      out: core.alloc(OUT_CAP),
      reader: core.alloc(x.soko_sizeof_reader()),
      entry: core.alloc(x.soko_sizeof_entry()),
      pack: core.alloc(x.soko_sizeof_pack()),
      bytes: 0,
      bytesCap: 0,
    };
    scratch.set(core, m);
  }
  return m;
}

function decode(core, at, len) {
  return new TextDecoder().decode(core.mem().subarray(at, at + len));
}

/** Checks the grid's board with the core. Returns {ok, level, problems}:
 * each problem {message, line, col, x, y} (x and y -1 for the whole board).
 * The core stops at the first problem; a second player or a hole in the
 * wall is set aside on a copy and the board read again, so every player
 * too many and every hole shows at once. */
export function check(core, grid) {
  const problems = [];
  const work = grid.clone();
  for (let round = 0; round < MAX_PROBLEMS; round++) {
    try {
      const level = core.parseLevel(work.text());
      return { ok: problems.length === 0, level: problems.length === 0 ? level : null, problems };
    } catch (e) {
      if (e.line === undefined) throw e;
      const x = e.col > 0 ? e.col - 1 : -1, y = e.col > 0 ? e.line - 1 : -1;
      problems.push({ message: e.message, code: e.code, line: e.line, col: e.col, x, y });
      const ch = work.get(x, y);
      if (e.code === E_PLAYERS && isPlayer(ch)) work.set(x, y, ch === '+' ? '.' : '-');
      else if (e.code === E_OPEN && ch !== null && !isPlayer(ch)) work.set(x, y, '#');
      else break;
    }
  }
  return { ok: false, level: null, problems };
}

/** The level in text (a valid board) written back by the core: plain rows,
 * or one run-length line. Throws the core's error for an invalid board. */
export function write(core, text, rle = false) {
  core.parseLevel(text);
  const m = mine(core);
  const n = core.x.soko_level_write(core.scratchLevel, rle ? 1 : 0, m.out, OUT_CAP);
  if (n < 0) throw new Error('the level is too large to write');
  return decode(core, m.out, n).replace(/\n+$/, '');
}

/** A grid of a valid level's squares as the core read them. */
export function gridOfLevel(level) {
  const g = new Grid(level.width, level.height);
  for (let i = 0; i < level.cells.length; i++) {
    const c = level.cells[i];
    let ch = ' ';
    if (c & WALL) ch = '#';
    else if ((c & BOX) && (c & GOAL)) ch = '*';
    else if (c & BOX) ch = '$';
    else if (c & GOAL) ch = '.';
    else if (!(c & OUTSIDE)) ch = '-';
    if (i === level.player) ch = c & GOAL ? '+' : '@';
    g.cells[i] = ch;
  }
  return g;
}

/** Expands run-length counts, groups and '|' rows of one board text into
 * plain rows, for boards the core refuses (so they can still be edited). */
export function plainRows(text) {
  const rows = [];
  for (const line of text.split(/\r?\n/)) {
    let i = 0;
    const group = () => {
      let out = '';
      while (i < line.length && line[i] !== ')' && line[i] !== '|') {
        let count = 0, digits = false;
        while (i < line.length && line[i] >= '0' && line[i] <= '9') {
          count = count * 10 + Number(line[i++]);
          digits = true;
        }
        if (!digits) count = 1;
        count = Math.min(count, 128);
        if (line[i] === '(') {
          i++;
          const inner = group();
          if (line[i] === ')') i++;
          out += inner.repeat(count);
        } else if (i < line.length && line[i] !== '|') {
          out += line[i++].repeat(count);
        }
      }
      return out;
    };
    while (i <= line.length) {
      rows.push(group());
      if (line[i] === ')') i++;
      if (line[i] !== '|') break;
      i++;
      if (i === line.length) break;
    }
  }
  return rows;
}

/** A grid from one board's text: the core's reading when the board is
 * valid, else the rows as written (null when they are not board rows). */
export function gridOfText(core, text) {
  try {
    return gridOfLevel(core.parseLevel(text));
  } catch {
    return Grid.fromRows(plainRows(text));
  }
}

/** A level found in a file ({board, line, ...}) with the core's reading of
 * its board added: `level`, or null and the located `error`. Returns f. */
function withLevel(core, f) {
  try {
    f.level = core.parseLevel(f.board, f.line);
    f.error = null;
  } catch (err) {
    f.level = null;
    f.error = { message: err.message, line: err.line, col: err.col };
  }
  return f;
}

/** Every level of a level file's text: [{number, title, board, line,
 * level, error}], level being the core's reading or null with its error. */
export function readLevels(core, text) {
  const m = mine(core), x = core.x;
  const [t, n] = core.putText(text);
  x.soko_reader_init(m.reader, t, n);
  const found = [];
  while (x.soko_reader_next(m.reader, m.entry) === 1 && found.length < 10000) {
    const e = m.entry;
    found.push({
      number: found.length + 1,
      title: decode(core, t + x.soko_entry_title_off(e), x.soko_entry_title_len(e)).trim(),
      board: decode(core, t + x.soko_entry_board_off(e), x.soko_entry_board_len(e)),
      line: x.soko_entry_board_line(e),
      author: decode(core, t + x.soko_entry_author_off(e), x.soko_entry_author_len(e)),
    });
  }
  return found.map((f) => withLevel(core, f));
}

/** Whether bytes are a SokoPy binary pack. */
export function isPack(bytes) {
  return bytes.length >= 4 && bytes[0] === 0x53 && bytes[1] === 0x4b && bytes[2] === 0x42 && bytes[3] === 0x4e;
}

/** Every level of a SokoPy pack, in the shape readLevels gives. Throws the
 * core's error for a pack it cannot read. */
export function readPack(core, bytes) {
  const m = mine(core), x = core.x;
  if (bytes.length > m.bytesCap) {
    m.bytesCap = bytes.length;
    m.bytes = core.alloc(bytes.length);
  }
  core.mem().set(bytes, m.bytes);
  const rc = x.soko_pack_open(m.pack, m.bytes, bytes.length, core.err);
  if (rc !== 0) throw core.errorAt(rc);
  const out = [];
  const count = x.soko_pack_count(m.pack);
  for (let i = 0; i < count; i++) {
    const n = x.soko_pack_level(m.pack, i, m.out, OUT_CAP, core.err);
    if (n < 0) {
      out.push({ number: i + 1, title: `Level ${i + 1}`, board: '', line: 0, level: null,
        error: { message: core.errorAt(n).message, line: 0, col: 0 }, author: '' });
      continue;
    }
    const board = decode(core, m.out, n);
    out.push(withLevel(core, { number: i + 1, title: `Level ${i + 1}`, board, line: 1, author: '' }));
  }
  return out;
}

/** The levels of an SLC XML file (YASC, JSoko, sokoban.be), read with the
 * browser's XML parser, each board checked by the core. */
export function readSlc(core, text) {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.querySelector('parsererror')) throw new Error('this is not well-formed XML');
  const out = [];
  for (const el of doc.querySelectorAll('Level')) {
    const rows = [...el.querySelectorAll('L')].map((l) => l.textContent.replace(/\s+$/, ''));
    const board = rows.join('\n');
    out.push(withLevel(core, { number: out.length + 1, title: el.getAttribute('Id') || `Level ${out.length + 1}`,
      board, line: 1, author: el.getAttribute('Copyright') || '' }));
  }
  return out;
}
