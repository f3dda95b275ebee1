// Shared by the JavaScript unit tests: the page's modules and a Core on the
// core.wasm of the build (SOKOD_WASM, set by ctest), as the page has it.
import { readFileSync } from 'node:fs';
import { Core } from '../../static/js/core.js';

/** A fresh Core on the built core.wasm. */
export async function loadTestCore() {
  const path = process.env.SOKOD_WASM;
  if (!path) throw new Error('SOKOD_WASM must name the built core.wasm');
  const { instance } = await WebAssembly.instantiate(readFileSync(path), {});
  return new Core(instance.exports);
}

/** A small level with room to walk: the box at (2, 2), its goal at (3, 3),
 * the player at (4, 3). */
export const ROOM = {
  id: 7,
  rows: ['######', '#    #', '# $  #', '#  .@#', '######'],
  width: 6,
  height: 5,
};
