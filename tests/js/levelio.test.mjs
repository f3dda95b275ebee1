// The editor reads pasted level files with the core's reader: each level's
// board, title and author come from core.wasm, not from a second parser.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadTestCore } from './support.mjs';
import { readLevels } from '../../static/js/editor/levelio.js';

let core;
before(async () => {
  core = await loadTestCore();
});

const FILE = [
  '; First', '#####', '#@$.#', '#####', 'Author: Ann Example', 'Comment: easy', '',
  '; Second', '#####', '#.$@#', '#####', '',
  'Title: Third', '#####', '#@$.#', '#####', 'author:   Bo  ', 'Comment:', 'Author: not this one', 'Comment-End:',
].join('\n');

test('each level of a file gets the author the core\'s reader found', () => {
  const levels = readLevels(core, FILE);
  assert.deepEqual(levels.map((l) => [l.number, l.title, l.author, l.line]), [
    [1, 'First', 'Ann Example', 2],
    [2, 'Second', '', 9],
    [3, 'Third', 'Bo', 14],
  ]);
  assert.ok(levels.every((l) => l.level && l.error === null), 'every board is valid');
});

test('an invalid board keeps its author and gets a located error', () => {
  const [l] = readLevels(core, '; Broken\n#####\n#@$ #\n#####\nAuthor: Cy\n');
  assert.equal(l.author, 'Cy');
  assert.equal(l.level, null);
  assert.equal(typeof l.error.message, 'string');
  assert.ok(l.error.line >= 2, `the error points into the file (line ${l.error.line})`);
});
