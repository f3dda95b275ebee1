// Uploads through the API, checked on arrival: real collections from
// ../shared (the text format and SLC) come out with the right counts,
// titles, authors and reference solutions; broken levels are reported at
// their line and column; duplicates are caught under rotation and
// mirroring; limits answer 413 and 409; `sokod import` runs the same checks.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { SHARED, runSokod, show, stopCleanly, tempDir } from './harness.mjs';
import { boardsOf, importUpload, mirror, rotate, startAdminServer, upload } from './admin.mjs';

const LEVELS = path.join(SHARED, 'levels');
const MICROBAN = path.join(LEVELS, 'solutions', 'Microban_155.with-solutions.sok');
const MAX_UPLOAD = 400000;
const MAX_BODY = 16384;

let server;
let admin;
let microbanIds; // level ids by number, once imported

before(async () => {
  ({ server, admin } = await startAdminServer({
    args: ['--max-upload', String(MAX_UPLOAD), '--max-body', String(MAX_BODY)],
  }));
});

after(() => stopCleanly(server));

// The "Solution M/P" blocks after each board of the Microban file.
function solutionsOf(text) {
  const levels = [];
  const lines = text.split(/\r?\n/);
  let inBoard = false;
  for (let i = 0; i < lines.length; i++) {
    const isBoard = /^[ #@+$*.\-_]+$/.test(lines[i]) && lines[i].includes('#');
    if (isBoard && !inBoard) levels.push([]);
    inBoard = isBoard;
    const m = /^Solution (\d+)\/(\d+)$/.exec(lines[i]);
    if (m) {
      let lurd = '';
      const line = i + 2;
      while (i + 1 < lines.length && /^[lurdLURD]+$/.test(lines[i + 1])) lurd += lines[++i];
      levels.at(-1).push({ moves: Number(m[1]), pushes: Number(m[2]), lurd, line });
    }
  }
  return levels;
}

test('Microban with its solutions: every level, title and solution, in parts, then imported', async () => {
  const bytes = fs.readFileSync(MICROBAN);
  const text = bytes.toString('utf8');
  const boards = boardsOf(text);
  const solutions = solutionsOf(text);
  assert.equal(boards.length, 155, 'the test reads 155 boards from the file');
  const r = await upload(admin, 'Microban_155.with-solutions.sok', bytes);
  console.log(`${bytes.length} bytes in ${r.parts} parts`);
  assert.ok(r.parts > 1, 'a file larger than the body cap arrives in several parts');
  const report = r.json.upload.report;
  assert.equal(report.format, 'text');
  assert.equal(report.name, 'soukoban/Microban_155.xsb', 'the Collection: line names it');
  assert.deepEqual(report.summary, { levels: 155, valid: 155, invalid: 0, duplicates: 0 });
  let expectedReferences = 0;
  for (let k = 0; k < 155; k++) {
    const level = report.levels[k];
    assert.equal(level.number, k + 1);
    assert.equal(level.title, boards[k].title, `level ${k + 1}: its title`);
    assert.deepEqual(level.rows, boards[k].rows, `level ${k + 1}: its board`);
    assert.equal(level.boxes, boards[k].rows.join('').split('').filter((ch) => ch === '$' || ch === '*').length);
    assert.equal(level.solutions.length, solutions[k].length, `level ${k + 1}: its solutions`);
    solutions[k].forEach((s, i) => {
      const got = level.solutions[i];
      assert.equal(got.result, 'solved', `level ${k + 1} solution ${i + 1}: ${JSON.stringify(got)}`);
      assert.deepEqual([got.moves, got.pushes, got.line], [s.moves, s.pushes, s.line], `level ${k + 1} solution ${i + 1}`);
    });
    expectedReferences += new Set(solutions[k].map((s) => s.lurd)).size;
  }

  const imported = await importUpload(admin, r.id, { collection: 'Microban' });
  assert.equal(imported.status, 201, show(imported));
  assert.equal(imported.json.import.imported, 155);
  assert.equal(imported.json.import.references, expectedReferences);
  assert.equal(imported.json.upload.state, 'imported');
  const again = await importUpload(admin, r.id, { collection: 'Microban again' });
  assert.equal(again.status, 409, `an upload imports once: ${show(again)}`);
  assert.equal(again.json.error.code, 'already_imported');

  const player = server.client();
  const col = (await player.get('/api/v1/collections')).json.collections.find((c) => c.name === 'Microban');
  assert.ok(col, 'players see the new collection');
  assert.equal(col.levels, 155);
  const listed = (await player.get(`/api/v1/collections/${col.id}`)).json.levels;
  assert.deepEqual(listed.map((l) => l.title), boards.map((b) => b.title));
  microbanIds = listed.map((l) => l.id);

  const first = await admin.get(`/api/v1/admin/levels/${microbanIds[0]}`);
  assert.equal(first.status, 200, show(first));
  assert.deepEqual(first.json.level.references.map((x) => [x.lurd, x.moves, x.pushes]),
    solutions[0].map((s) => [s.lurd, s.moves, s.pushes]), 'level 1 keeps its solution as a reference');
});

// The Id attributes and the first level's rows of an SLC file.
function slcFacts(text) {
  const ids = [...text.matchAll(/<Level Id="([^"]*)"/g)].map((m) => m[1].replace('&#x26;', '&'));
  const firstLevel = /<Level [^>]*>([\s\S]*?)<\/Level>/.exec(text)[1];
  const rows = [...firstLevel.matchAll(/<L>([^<]*)<\/L>/g)].map((m) => m[1].trimEnd());
  const copyright = /<LevelCollection Copyright="([^"]*)"/.exec(text)[1];
  return { ids, rows, copyright };
}

test('SLC files: Original & Extra imported with titles and credit; Microban in SLC is all duplicates', async () => {
  const original = fs.readFileSync(path.join(LEVELS, 'slc', 'Original.slc'));
  const facts = slcFacts(original.toString('latin1'));
  const r = await upload(admin, 'Original.slc', original);
  const report = r.json.upload.report;
  assert.equal(report.format, 'slc');
  assert.equal(report.name, 'Original & Extra', 'the Title element, its entity decoded');
  assert.equal(report.author, facts.copyright);
  assert.equal(report.summary.levels, facts.ids.length);
  assert.equal(report.summary.valid, facts.ids.length);
  assert.deepEqual(report.levels.map((l) => l.title), facts.ids);
  assert.deepEqual(report.levels[0].rows, facts.rows);
  const imported = await importUpload(admin, r.id);
  assert.equal(imported.status, 201, show(imported));
  assert.equal(imported.json.import.imported, facts.ids.length);
  const col = await admin.get(`/api/v1/admin/collections/${imported.json.import.collection_id}`);
  assert.equal(col.json.collection.name, 'Original & Extra');
  assert.equal(col.json.collection.author, 'Thinking Rabbit');
  assert.match(col.json.collection.description, /The 50 original levels/);

  const microban = fs.readFileSync(path.join(LEVELS, 'slc', 'microban.slc'));
  const m = await upload(admin, 'microban.slc', microban);
  const mr = m.json.upload.report;
  assert.deepEqual(mr.summary, { levels: 155, valid: 155, invalid: 0, duplicates: 155 });
  mr.levels.forEach((l, k) => {
    assert.equal(l.duplicate?.where, 'library', `SLC level ${k + 1}: ${JSON.stringify(l.duplicate)}`);
    assert.equal(l.duplicate.collection, 'Microban');
    assert.equal(l.duplicate.level_id, microbanIds[k], `SLC level ${k + 1} is text level ${k + 1}`);
  });
  const none = await importUpload(admin, m.id);
  assert.equal(none.status, 422, show(none));
  assert.equal(none.json.error.code, 'nothing_to_import');
});

// A file of levels with known mistakes; each expectation is found from the
// text itself.
function brokenFile() {
  const fine = ['#######', '#@ $ .#', '#  #  #', '#######'];
  const lines = [
    'Collection: Broken', '',
    '; Fine', ...fine, '',
    '; Two players', '######', '#@$.@#', '######', '',
    '; Stray character', '######', '#@$X.#', '######', '',
    '; Counts', '######', '#@$$.#', '######', '',
    '; Open', '#####', '#@$.', '#####', '',
    '; Turned', ...rotate(fine), '',
    '; Bad solution', '########', '#@ $  .#', '########', 'Solution', 'rrrrr', '',
  ];
  const at = (text) => lines.indexOf(text) + 1;
  return {
    text: lines.join('\n'),
    expect: {
      two: { line: at('#@$.@#'), col: '#@$.@#'.lastIndexOf('@') + 1, code: 'players' },
      stray: { line: at('#@$X.#'), col: '#@$X.#'.indexOf('X') + 1, code: 'syntax' },
      counts: { line: at('; Counts') + 1, code: 'box_goal_count' },
      open: { lines: [at('; Open') + 1, at('; Open') + 2, at('; Open') + 3], code: 'open' },
      solutionLine: at('rrrrr'),
    },
  };
}

test('a file with broken levels: every error at its line and column, the same through sokod import', async () => {
  const { text, expect } = brokenFile();
  const r = await upload(admin, 'broken.sok', Buffer.from(text));
  const report = r.json.upload.report;
  const byTitle = Object.fromEntries(report.levels.map((l) => [l.title, l]));
  console.log(report.levels.map((l) => `${l.number} ${l.title}: ${JSON.stringify(l.errors)}`).join('\n'));
  assert.equal(byTitle.Fine.valid, true);
  for (const [title, e] of [['Two players', expect.two], ['Stray character', expect.stray]]) {
    const err = byTitle[title].errors[0];
    assert.equal(byTitle[title].valid, false, title);
    assert.deepEqual([err.line, err.col, err.code], [e.line, e.col, e.code], `${title}: ${JSON.stringify(err)}`);
  }
  const counts = byTitle.Counts.errors[0];
  assert.deepEqual([counts.line, counts.code], [expect.counts.line, expect.counts.code], JSON.stringify(counts));
  assert.match(counts.message, /2 boxes but 1 goal/);
  const open = byTitle.Open.errors[0];
  assert.equal(open.code, 'open');
  assert.ok(expect.open.lines.includes(open.line) && open.col >= 1, `Open: ${JSON.stringify(open)}`);
  assert.deepEqual(byTitle.Turned.duplicate, { where: 'file', number: 1 }, 'a turned copy of level 1');
  const sol = byTitle['Bad solution'].solutions[0];
  assert.deepEqual([sol.result, sol.step, sol.line], ['failed', 5, expect.solutionLine], JSON.stringify(sol));
  assert.deepEqual(report.summary, { levels: 7, valid: 3, invalid: 4, duplicates: 1 });

  // The command line says the same, at the same places, and ends with the counts.
  const dir = tempDir();
  const file = path.join(dir, 'broken.sok');
  fs.writeFileSync(file, text);
  const cli = runSokod(['import', file, '--db', path.join(dir, 'cli.db')]);
  console.log(cli.stdout);
  assert.equal(cli.status, 1);
  assert.ok(cli.stdout.includes(`${file}:${expect.two.line}:${expect.two.col}: level 2 (Two players): `), 'the two players');
  assert.ok(cli.stdout.includes(`${file}:${expect.stray.line}:${expect.stray.col}: level 3 (Stray character): `), 'the stray character');
  assert.ok(cli.stdout.includes(`${file}:${expect.counts.line}: level 4 (Counts): `), 'the counts');
  assert.ok(cli.stdout.includes(`${file}:${expect.solutionLine}: level 7 (Bad solution), solution 1 (Solution): fails at step 5`), 'the solution');
  assert.match(cli.stdout, /\nimported: 2, invalid: 4, duplicates: 1\n$/);
});

test('SLC errors: malformed XML and a bad row are located in the file', async () => {
  const lines = [
    '<?xml version="1.0" encoding="ISO-8859-1"?>',
    '<SokobanLevels>',
    '  <Title>Caf\xe9 levels</Title>',
    '  <Description>Two levels</Description>',
    '  <LevelCollection Copyright="sokod tests">',
    '    <Level Id="fine">',
    '      <L>#####</L>', '      <L>#@$.#</L>', '      <L>#####</L>',
    '    </Level>',
    '    <Level Id="two players">',
    '      <L>######</L>', '      <L>  #@$.@#</L>', '      <L>######</L>',
    '    </Level>',
    '  </LevelCollection>',
    '</SokobanLevels>',
  ];
  const bad = '      <L>  #@$.@#</L>';
  const r = await upload(admin, 'errors.slc', Buffer.from(lines.join('\n'), 'latin1'));
  const report = r.json.upload.report;
  assert.equal(report.name, 'Café levels', 'ISO-8859-1 read as such');
  const err = report.levels[1].errors[0];
  const expected = { line: lines.indexOf(bad) + 1, col: bad.indexOf('<L>') + 3 + '  #@$.@#'.lastIndexOf('@') + 1 };
  assert.deepEqual([err.line, err.col, err.code], [expected.line, expected.col, 'players'], JSON.stringify(err));

  const broken = [...lines];
  broken[7] = '      <L>#@$.#</Level>';
  const b = await upload(admin, 'malformed.slc', Buffer.from(broken.join('\n'), 'latin1'));
  const fileError = b.json.upload.report.error;
  assert.equal(fileError.code, 'xml');
  assert.equal(fileError.line, 8, JSON.stringify(fileError));
  assert.match(fileError.message, /not well-formed XML/);
  const refused = await importUpload(admin, b.id);
  assert.equal(refused.status, 422);
  assert.equal(refused.json.error.code, 'unreadable_file');
});

test('duplicates under rotation and mirroring, in the library and in the file', async () => {
  const boards = boardsOf(fs.readFileSync(MICROBAN, 'utf8'));
  const rows = boards[2].rows;
  const variants = [rotate(rows), rotate(rotate(rows)), rotate(rotate(rotate(rows))), mirror(rows), mirror(rotate(rows))];
  const other = ['######', '#@ $.#', '#    #', '######'];
  const text = [variants[0], ...variants.slice(1), other].map((v, i) => `; V${i + 1}\n${v.join('\n')}\n`).join('\n');
  const r = await upload(admin, 'turned.sok', Buffer.from(text));
  const levels = r.json.upload.report.levels;
  assert.equal(levels.length, 6);
  assert.equal(levels[0].duplicate?.where, 'library', JSON.stringify(levels[0]));
  assert.equal(levels[0].duplicate.level_id, microbanIds[2], 'a turned Microban 3 is Microban 3');
  for (let k = 1; k < 5; k++) assert.deepEqual(levels[k].duplicate, { where: 'file', number: 1 }, `variant ${k + 1}`);
  assert.equal(levels[5].duplicate, null, 'a different level is no duplicate');
  const imp = await importUpload(admin, r.id, { collection: 'Turned' });
  assert.equal(imp.status, 201, show(imp));
  assert.deepEqual([imp.json.import.imported, imp.json.import.duplicates], [1, 5]);
  const kept = await importUpload(admin, (await upload(admin, 'turned-again.sok', Buffer.from(text))).id,
    { collection: 'Turned, all of them', keep_duplicates: true });
  assert.equal(kept.json.import.imported, 6, 'keep_duplicates imports them anyway');
});

test('limits: 413 for a file over the cap or a body over its cap, 409 for parts out of order, too-big levels refused', async () => {
  let r = await admin.post('/api/v1/admin/uploads', { filename: 'huge.sok', size: MAX_UPLOAD + 1 });
  assert.equal(r.status, 413, show(r));
  assert.equal(r.json.error.code, 'upload_too_large');
  assert.match(r.json.error.message, new RegExp(String(MAX_UPLOAD)));

  r = await admin.post('/api/v1/admin/uploads', { filename: 'small.sok', size: 100 });
  assert.equal(r.status, 201);
  const id = r.json.upload.id;
  assert.ok(r.json.upload.part_bytes * 4 / 3 < MAX_BODY, 'the advertised part fits the body cap in base64');
  r = await admin.post(`/api/v1/admin/uploads/${id}/parts`, { offset: 0, data: Buffer.alloc(MAX_BODY).toString('base64') });
  assert.equal(r.status, 413, `a body over --max-body: ${show(r)}`);
  assert.equal(r.json.error.code, 'body_too_large');
  r = await admin.post(`/api/v1/admin/uploads/${id}/parts`, { offset: 10, data: 'AAAA' });
  assert.equal(r.status, 409, show(r));
  assert.equal(r.json.error.code, 'upload_incomplete');
  r = await admin.post(`/api/v1/admin/uploads/${id}/parts`, { offset: 0, data: Buffer.alloc(101).toString('base64') });
  assert.equal(r.status, 409, `past the declared size: ${show(r)}`);
  r = await admin.post(`/api/v1/admin/uploads/${id}/parts`, { offset: 0, data: 'not base64!' });
  assert.equal(r.status, 400, show(r));
  r = await importUpload(admin, id);
  assert.equal(r.status, 409, `an import before the last byte: ${show(r)}`);
  r = await admin.req('DELETE', `/api/v1/admin/uploads/${id}`, {});
  assert.equal(r.status, 200, show(r));
  assert.equal((await admin.get(`/api/v1/admin/uploads/${id}`)).status, 404);

  // A board wider than the core's maximum, sent in one request.
  const wide = `; Wide\n${'#'.repeat(130)}\n#@$.${' '.repeat(125)}#\n${'#'.repeat(130)}\n`;
  r = await admin.post('/api/v1/admin/uploads', { filename: 'wide.sok', size: wide.length, data: Buffer.from(wide).toString('base64') });
  assert.equal(r.status, 201, show(r));
  const level = r.json.upload.report.levels[0];
  assert.equal(level.valid, false);
  assert.equal(level.errors[0].code, 'too_big', JSON.stringify(level.errors));
  assert.match(level.errors[0].message, /128/);
});
