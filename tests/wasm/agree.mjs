// The agreement test between the native core and core.wasm: plays the same
// pseudo-random games on every level of a file through core.wasm under node,
// runs agree_native on the same file, and compares the two transcripts line
// by line. The scenario here and in agree_native.c must stay the same step
// for step. Usage: node agree.mjs AGREE_NATIVE CORE_WASM LEVELFILE...
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadCore } from '../support/wasm_core.mjs';

const OPS_PER_LEVEL = 400;
const HISTORY_CAP = 65536;
const DIRS_CAP = 65536;
const SOKO_BOX = 4;

function transcriptOf(core, text) {
  const { x, alloc, mem } = core;
  const out = [];
  const textAt = alloc(text.length);
  mem().set(text, textAt);
  const reader = alloc(x.soko_sizeof_reader());
  const entry = alloc(x.soko_sizeof_entry());
  const level = alloc(x.soko_sizeof_level());
  const game = alloc(x.soko_sizeof_game());
  const scratch = alloc(x.soko_sizeof_path_scratch());
  const history = alloc(HISTORY_CAP * 2);
  const dead = alloc(128 * 128);
  const frozen = alloc(128 * 128);
  const reach = alloc(128 * 128);
  const dirs = alloc(DIRS_CAP);
  const err = alloc(x.soko_sizeof_error());
  const u = (v) => v >>> 0;

  let rng = 0;
  const next = () => {
    let v = rng;
    v ^= v << 13; v >>>= 0;
    v ^= v >>> 17;
    v ^= v << 5; v >>>= 0;
    rng = v;
    return v;
  };
  const below = (n) => next() % n;
  const play = (n) => {
    for (let i = 0; i < n; i++) {
      const r = x.soko_game_step(game, mem()[dirs + i]);
      if (r < 0) return r;
    }
    return 0;
  };
  const state = () =>
    `  ${u(x.soko_game_player(game))} ${u(x.soko_game_moves(game))} ${u(x.soko_game_pushes(game))} ` +
    `${u(x.soko_game_boxes_on_goal(game))} ${u(x.soko_game_cursor(game))} ` +
    `${u(x.soko_game_history_len(game))} ${u(x.soko_game_hash_hi(game))} ${u(x.soko_game_hash_lo(game))} ` +
    `${u(x.soko_game_boxes_on_start(game))} ${x.soko_game_solved(game) ? 1 : 0}`;

  x.soko_reader_init(reader, textAt, text.length);
  for (let index = 0; x.soko_reader_next(reader, entry) === 1; index++) {
    rng = Number((BigInt(index + 1) * 2654435761n) & 0xffffffffn);
    if (rng === 0) rng = 1;
    const rc = x.soko_level_parse(level, textAt + x.soko_entry_board_off(entry),
      x.soko_entry_board_len(entry), x.soko_entry_board_line(entry), err);
    if (rc !== 0) {
      out.push(`level ${index} error ${rc} ${u(x.soko_error_line(err))} ${u(x.soko_error_col(err))}`);
      continue;
    }
    const canon = x.soko_level_canonical_hash(level);
    const w = x.soko_level_width(level), h = x.soko_level_height(level);
    const cells = w * h;
    const boxes = x.soko_level_boxes(level);
    out.push(`level ${index} ${w} ${h} ${boxes} ${Number(BigInt.asUintN(64, canon) >> 32n)} ` +
      `${Number(BigInt.asUintN(32, canon))}`);
    out.push(`dead ${x.soko_deadlock_dead_squares(level, dead)}`);
    out.push(`pull dead ${x.soko_deadlock_pull_dead_squares(level, reach)}`);
    // The standard, multi-push and reverse rules in turn.
    x.soko_game_init(game, level, index % 3, history, HISTORY_CAP);
    const gameCells = x.soko_game_cells(game);
    for (let op = 0; op < OPS_PER_LEVEL; op++) {
      const r = below(100);
      if (r < 55) {
        // A direction, and the bit that makes it a pull in reverse.
        const d = below(8);
        out.push(`step ${d} ${x.soko_game_play(game, d)}`);
      } else if (r < 65) {
        out.push(`undo ${x.soko_game_undo(game)}`);
      } else if (r < 71) {
        out.push(`redo ${x.soko_game_redo(game)}`);
      } else if (r < 73) {
        out.push(`restart ${x.soko_game_restart(game)}`);
      } else if (r < 85) {
        const target = below(cells);
        const n = x.soko_path_walk(game, target, scratch, dirs, DIRS_CAP);
        out.push(`walk ${target} ${n} ${n > 0 ? play(n) : 0}`);
      } else if (r < 97) {
        const start = below(cells);
        let box = cells;
        for (let k = 0; k < cells && box === cells; k++) {
          const c = (start + k) % cells;
          if (mem()[gameCells + c] & SOKO_BOX) box = c;
        }
        const count = x.soko_path_box_reach(game, box, scratch, reach);
        let pick = count > 0 ? below(count) : 0, target = 0;
        for (let c = 0; c < cells; c++) {
          if (mem()[reach + c] && pick-- === 0) { target = c; break; }
        }
        const n = x.soko_path_box_push(game, box, target, scratch, dirs, DIRS_CAP);
        out.push(`push ${box} ${target} ${count} ${n} ${n > 0 ? play(n) : 0}`);
      } else {
        out.push(`frozen ${x.soko_deadlock_frozen(game, dead, frozen)}`);
      }
      out.push(state());
    }
  }
  return out;
}

const [nativeBin, wasmPath, ...files] = process.argv.slice(2);
if (!nativeBin || !wasmPath || files.length === 0) {
  console.error('usage: node agree.mjs AGREE_NATIVE CORE_WASM LEVELFILE...');
  process.exit(2);
}
let passed = 0, failed = 0;
for (const file of files) {
  const core = await loadCore(wasmPath);
  const wasmLines = transcriptOf(core, readFileSync(file));
  const nativeLines = execFileSync(nativeBin, [file], { maxBuffer: 1 << 30 })
    .toString().split('\n');
  if (nativeLines.at(-1) === '') nativeLines.pop();
  let diff = -1;
  for (let i = 0; i < Math.max(wasmLines.length, nativeLines.length); i++) {
    if (wasmLines[i] !== nativeLines[i]) { diff = i; break; }
  }
  const levels = wasmLines.filter((l) => l.startsWith('level ')).length;
  if (diff < 0 && levels > 0) {
    passed++;
    console.log(`ok   ${file}: ${levels} levels, ${wasmLines.length} transcript lines identical`);
  } else {
    failed++;
    console.log(`FAIL ${file}: ${levels} levels read`);
    if (diff >= 0) {
      let lvl = '';
      for (let i = diff; i >= 0; i--) if (wasmLines[i]?.startsWith('level ')) { lvl = wasmLines[i]; break; }
      console.log(`  transcripts differ at line ${diff + 1} (in ${lvl || 'no level'}):`);
      console.log(`  native: ${nativeLines[diff] ?? '(end)'}`);
      console.log(`  wasm:   ${wasmLines[diff] ?? '(end)'}`);
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
