// core.js copies values of the core's C headers (square flags, directions,
// error codes, the layout of a history entry): each NAME it exports is
// SOKO_NAME in core/*.h, and must be equal, or the page reads core.wasm's
// memory and results wrongly without any error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as core from '../../static/js/core.js';

const CORE_DIR = new URL('../../core/', import.meta.url);
const CORE_JS = new URL('../../static/js/core.js', import.meta.url);

// Numbers of core.js that are the page's own, with no C counterpart.
const PAGE_OWN = new Set(['DIRS_CAP']);

/** The value of a C constant expression of the headers: integers (with u
 * suffixes), casts, other SOKO_ names, and the operators they use. */
function evaluate(expr, known, where) {
  const js = expr.replace(/\((?:soko_\w+|u?int\d+_t|unsigned|int)\)/g, '')
    .replace(/\b(0x[0-9a-fA-F]+|\d+)[uU]?[lL]*\b/g, '$1')
    .replace(/\bSOKO_\w+\b/g, (name) => {
      if (!known.has(name)) throw new Error(`${where}: ${name} is used before it is known`);
      return `(${known.get(name).value})`;
    });
  if (!/^[\s\d()xa-fA-F+\-*/<>|&~^]*$/.test(js)) throw new Error(`${where}: cannot read "${expr}"`);
  return Number(Function(`"use strict"; return (${js});`)());
}

/** Every SOKO_ constant of core/*.h: enum members and object-like
 * #defines whose value is a number. Maps name -> {value, file}. */
function cConstants() {
  const known = new Map();
  const files = readdirSync(CORE_DIR).filter((f) => f.endsWith('.h')).sort();
  // Headers include one another: read until no new name can be evaluated.
  const pending = [];
  for (const file of files) {
    const text = readFileSync(new URL(file, CORE_DIR), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/gm, '');
    for (const m of text.matchAll(/^#define\s+(SOKO_\w+)[ \t]+(.+)$/gm)) pending.push({ name: m[1], expr: m[2], file });
    for (const body of text.matchAll(/\benum\b[^{;]*\{([^}]*)\}/g)) {
      for (const m of body[1].matchAll(/\b(SOKO_\w+)\s*=\s*([^,]+)/g)) pending.push({ name: m[1], expr: m[2].trim(), file });
    }
  }
  for (let progress = true; progress;) {
    progress = false;
    for (const p of pending) {
      if (known.has(p.name)) continue;
      const uses = p.expr.match(/\bSOKO_\w+\b/g) ?? [];
      if (!uses.every((u) => known.has(u))) continue;
      try {
        known.set(p.name, { value: evaluate(p.expr, known, `core/${p.file}`), file: p.file });
        progress = true;
      } catch {
        // Not a number (a string, a type): not a value core.js can copy.
      }
    }
  }
  return known;
}

test('the headers are read: values core.js depends on are found', () => {
  const c = cConstants();
  assert.equal(c.get('SOKO_E_NO_PATH')?.value, -14);
  assert.equal(c.get('SOKO_MAX_CELLS')?.value, 128 * 128);
  assert.equal(c.get('SOKO_ENTRY_RESTART')?.value, 0xffff);
});

test('every number core.js exports is its SOKO_ value in core/*.h', () => {
  const c = cConstants();
  const wrong = [];
  for (const [name, value] of Object.entries(core)) {
    if (typeof value !== 'number') continue;
    const cv = c.get(`SOKO_${name}`);
    if (!cv) wrong.push(`${name} = ${value} in core.js has no SOKO_${name} in core/*.h`);
    else if (cv.value !== value) wrong.push(`${name}: core.js has ${value}, core/${cv.file} has SOKO_${name} = ${cv.value}`);
  }
  assert.deepEqual(wrong, []);
});

test('core.js keeps no private copy of a core value', () => {
  // A number kept unexported would escape the comparison above: the
  // history cap once did. The page's own numbers are listed in PAGE_OWN.
  const source = readFileSync(CORE_JS, 'utf8');
  const hidden = [];
  for (const m of source.matchAll(/^const\s+([A-Z][A-Z0-9_]*)\s*=\s*([^;]+);/gm)) {
    if (!PAGE_OWN.has(m[1]) && !/^\[/.test(m[2].trim())) hidden.push(`${m[1]} = ${m[2].trim()}`);
  }
  assert.deepEqual(hidden, [], 'export it (and give it a SOKO_ twin) or, if it is the page\'s own, list it in PAGE_OWN');
});
