// wasm_core.mjs: core.wasm under node, for the tests that run the browser's
// rules outside a browser. The module imports nothing and exports the core's
// functions; its memory is handed out here by a bump allocator, as nothing
// is ever freed in a test's short life.
import { readFileSync } from 'node:fs';

/** Instantiates the core.wasm at `path`. Resolves to {x: its exports,
 * alloc(n): the address of n fresh bytes, 16-aligned (the memory grows as
 * needed), mem(): the memory's bytes now (a new view after each growth)}. */
export async function loadCore(path) {
  const { instance } = await WebAssembly.instantiate(readFileSync(path), {});
  const x = instance.exports;
  let top = (x.__heap_base.value + 15) & ~15;
  const alloc = (n) => {
    const at = top;
    top = (top + n + 15) & ~15;
    const need = top - x.memory.buffer.byteLength;
    if (need > 0) x.memory.grow(Math.ceil(need / 65536));
    return at;
  };
  return { x, alloc, mem: () => new Uint8Array(x.memory.buffer) };
}
