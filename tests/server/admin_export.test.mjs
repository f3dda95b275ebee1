// Export in the three formats, and back: a SokoPy binary pack of XSokoban
// round-trips through export and upload (in either byte order); the .sok
// text keeps titles, authors, comments and reference solutions; SLC keeps
// titles and boards. Formats that cannot hold a collection say so.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { SHARED, SOURCE, show, stopCleanly } from './harness.mjs';
import { importUpload, startAdminServer, upload } from './admin.mjs';

const LEVELS = path.join(SHARED, 'levels');

let server;
let admin;
let xsokoban; // {id, levels} once imported

before(async () => {
  ({ server, admin } = await startAdminServer());
  const r = await upload(admin, 'XSokoban_90.xsb', fs.readFileSync(path.join(LEVELS, 'XSokoban_90.xsb')));
  const imp = await importUpload(admin, r.id, { collection: 'XSokoban' });
  assert.equal(imp.status, 201, show(imp));
  const id = imp.json.import.collection_id;
  xsokoban = { id, levels: (await admin.get(`/api/v1/admin/collections/${id}`)).json.levels };
  assert.equal(xsokoban.levels.length, 90);
});

after(() => stopCleanly(server));

// GET as the admin, the body as bytes.
async function download(p) {
  const res = await fetch(server.url + p, { headers: { Cookie: admin.cookieHeader() } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

test('a SokoPy pack round-trips through export and upload, in either byte order', async () => {
  const d = await download(`/api/v1/admin/collections/${xsokoban.id}/export?format=pack`);
  assert.equal(d.status, 200);
  assert.match(d.headers.get('content-disposition'), /filename="XSokoban\.skbn"/);
  const pack = d.bytes;
  assert.equal(pack.subarray(0, 4).toString('latin1'), 'SKBN');
  const titleEnd = pack.indexOf(10, 4);
  assert.equal(pack.subarray(4, titleEnd).toString(), 'XSokoban');
  const descEnd = pack.indexOf(10, titleEnd + 1);
  const count = pack[descEnd + 1];
  assert.equal(count, 90);
  const table = descEnd + 2;
  assert.equal(pack.readUInt16LE(table), table + 2 * count, 'offsets are little-endian; level 1 follows the table');
  for (let i = 1; i < count; i++) assert.ok(pack.readUInt16LE(table + 2 * i) > pack.readUInt16LE(table + 2 * (i - 1)));

  const swapped = Buffer.from(pack);
  for (let i = 0; i < count; i++) swapped.writeUInt16BE(pack.readUInt16LE(table + 2 * i), table + 2 * i);
  for (const [name, bytes] of [['xsokoban.skbn', pack], ['big-endian.skbn', swapped]]) {
    const r = await upload(admin, name, bytes);
    const report = r.json.upload.report;
    assert.equal(report.format, 'pack', name);
    assert.equal(report.name, 'XSokoban', name);
    assert.deepEqual(report.summary, { levels: 90, valid: 90, invalid: 0, duplicates: 90 }, name);
    report.levels.forEach((l, k) => {
      assert.deepEqual(l.rows, xsokoban.levels[k].rows, `${name}: level ${k + 1} has the board it was exported with`);
      assert.equal(l.duplicate.level_id, xsokoban.levels[k].id, `${name}: level ${k + 1} is the same level`);
    });
  }

  const cut = await upload(admin, 'cut.skbn', pack.subarray(0, table + 10));
  const error = cut.json.upload.report.error;
  assert.equal(error?.code, 'pack', JSON.stringify(cut.json.upload.report));
  assert.match(error.message, /announces 90 levels but ends inside their offsets/);
  const bad = Buffer.from(pack);
  bad[pack.readUInt16LE(table)] = 0x99;
  const coded = await upload(admin, 'bad-code.skbn', bad);
  assert.match(coded.json.upload.report.error?.message ?? '', /level 1: unknown code 9/);
  assert.equal((await importUpload(admin, coded.id)).status, 422);
});

test('a pack cannot hold more than 255 levels: the export says so', async () => {
  const r = await upload(admin, 'boxoban.txt', fs.readFileSync(path.join(LEVELS, 'boxoban-medium-000.txt')));
  assert.equal(r.json.upload.report.summary.levels, 1000);
  const imp = await importUpload(admin, r.id, { collection: 'Boxoban' });
  assert.equal(imp.status, 201, show(imp));
  const d = await download(`/api/v1/admin/collections/${imp.json.import.collection_id}/export?format=pack`);
  assert.equal(d.status, 422);
  const body = JSON.parse(d.bytes.toString());
  assert.equal(body.error.code, 'export_impossible');
  assert.match(body.error.message, /1 to 255 levels/);
  assert.equal((await download(`/api/v1/admin/collections/${xsokoban.id}/export?format=zip`)).status, 400);
  assert.equal((await download('/api/v1/admin/collections/9999/export?format=sok')).status, 404);
});

test('the .sok export keeps titles, authors, comments and reference solutions', async () => {
  const sources = [
    ['Microban_155.with-solutions.sok', path.join(LEVELS, 'solutions', 'Microban_155.with-solutions.sok')],
    ['tutorial.sok', path.join(SOURCE, 'levels', 'tutorial.sok')],
  ];
  for (const [name, file] of sources) {
    const first = await upload(admin, name, fs.readFileSync(file));
    const original = first.json.upload.report;
    // The tutorial's first level is the test levels' Corridor: keep it.
    const imp = await importUpload(admin, first.id, { collection: `Exported ${name}`, keep_duplicates: true });
    assert.equal(imp.status, 201, show(imp));
    const d = await download(`/api/v1/admin/collections/${imp.json.import.collection_id}/export?format=sok`);
    assert.equal(d.status, 200);
    assert.match(d.headers.get('content-type'), /^text\/plain/);
    const back = (await upload(admin, `back-${name}`, d.bytes)).json.upload.report;
    assert.equal(back.name, `Exported ${name}`);
    assert.equal(back.author, original.author, `${name}: the collection's credit`);
    assert.equal(back.description, original.description, `${name}: the collection's notes`);
    assert.equal(back.levels.length, original.levels.length);
    original.levels.forEach((l, k) => {
      const b = back.levels[k];
      const what = `${name} level ${k + 1}`;
      assert.deepEqual([b.title, b.author, b.comment, b.rows], [l.title, l.author, l.comment, l.rows], what);
      assert.equal(b.duplicate?.where, 'library', what);
      const kept = [...new Set(l.solutions.filter((s) => s.result === 'solved').map((s) => s.lurd))];
      assert.ok(b.solutions.every((s) => s.result === 'solved'), `${what}: ${JSON.stringify(b.solutions)}`);
      assert.deepEqual(b.solutions.map((s) => s.lurd).sort(), kept.sort(), `${what}: its reference solutions`);
    });
  }
});

test('the SLC export reads back with the same titles and boards', async () => {
  const d = await download(`/api/v1/admin/collections/${xsokoban.id}/export?format=slc`);
  assert.equal(d.status, 200);
  assert.match(d.bytes.toString(), /^<\?xml version="1.0" encoding="UTF-8"\?>\n<!DOCTYPE SokobanLevels/);
  const back = (await upload(admin, 'xsokoban.slc', d.bytes)).json.upload.report;
  assert.equal(back.format, 'slc');
  assert.equal(back.name, 'XSokoban');
  assert.deepEqual(back.levels.map((l) => l.title), xsokoban.levels.map((l) => l.title));
  back.levels.forEach((l, k) => assert.deepEqual(l.rows, xsokoban.levels[k].rows, `level ${k + 1}`));
});
