// The layering check itself, on small trees written for each case: it must
// pass a tree that keeps the rule and name each kind of break.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { check } from './layering.mjs';

function tree(files) {
    const root = mkdtempSync(join(tmpdir(), 'sokod-layering-'));
    for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
    }
    return root;
}

function problemsOf(files) {
    const root = tree(files);
    try {
        return check(root).problems;
    } finally {
        rmSync(root, { recursive: true });
    }
}

const clean = {
    'base/clock.h': '#include <stdint.h>\n',
    'base/clock.c': '#include "base/clock.h"\n',
    'play/games.h': '#include "base/clock.h"\n#include "soko.h"\n',
    'play/games.c': '#include "play/games.h"\n#include "play/commit.h"\n',
    'play/commit.h': '',
    'server.c': '#include "play/games.h"\n',
};

test('a tree that keeps the rule passes', () => {
    assert.deepEqual(problemsOf(clean), []);
});

test('an include of a wing above is named with its file and line', () => {
    const problems = problemsOf({ ...clean, 'base/clock.c': '#include "base/clock.h"\n#include "play/commit.h"\n' });
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /^base\/clock\.c:2: includes "play\/commit\.h" of the wing play, above base$/);
});

test('a circle between two modules of one wing is named', () => {
    const problems = problemsOf({ ...clean, 'play/commit.h': '#include "play/games.h"\n' });
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /circle between modules play\/commit, play\/games/);
});

test('a longer circle, through a header found beside its includer, is named', () => {
    const problems = problemsOf({
        ...clean,
        'live/a.c': '#include "b.h"\n',
        'live/b.c': '#include "live/c.h"\n',
        'live/c.h': '#include "a.h"\n',
        'live/a.h': '',
        'live/b.h': '',
    });
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /circle between modules live\/a, live\/b, live\/c; one loop: live\/a -> live\/b -> live\/c -> live\/a/);
});

test('a folder outside the wings is refused', () => {
    const problems = problemsOf({ ...clean, 'misc/x.c': '' });
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /the folder "misc" is not a wing/);
});

test('the deepest include chain is reported', () => {
    const root = tree(clean);
    try {
        assert.deepEqual(check(root).chain, ['play/games.c', 'play/games.h', 'base/clock.h']);
    } finally {
        rmSync(root, { recursive: true });
    }
});
