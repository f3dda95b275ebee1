// Managing the library never loses what players did: hidden or deleted
// levels and collections leave the players' lists, and come back with
// their games and solutions when shown, restored or imported again.
// Renaming, describing, crediting and reordering show in the catalogue,
// and every change is in the audit log.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { show, stopCleanly } from './harness.mjs';
import { importUpload, startAdminServer, upload } from './admin.mjs';

// Levels of this test, with the steps that solve the first two.
const FILE = [
  'Collection: Managed', 'Author: sokod tests', '',
  '; Long corridor', '########', '#@ $  .#', '########', '',
  '; Longer corridor', '#########', '#@ $   .#', '#########', '',
  '; Low room', '#######', '#@$  .#', '#  #  #', '#######', '',
  '; Wide room', '######', '#@$ .#', '#    #', '######', '',
].join('\n');
const SOLVE = { 0: 'rrrr', 1: 'rrrrr' };

let server;
let admin;
let player;
let collection;
let firstCollection;
let ids;
const games = {};

async function listedLevels(client, id) {
  const r = await client.get(`/api/v1/collections/${id}`);
  return r.status === 200 ? r.json.levels : null;
}

async function listedCollections(client) {
  return (await client.get('/api/v1/collections')).json.collections;
}

async function play(client, levelId, steps) {
  const opened = await client.post(`/api/v1/levels/${levelId}/game`);
  assert.ok(opened.status === 201 || opened.status === 200, show(opened));
  const game = opened.json.game;
  const r = await client.post(`/api/v1/games/${game.id}/log`, { seq: game.seq + 1, steps });
  assert.equal(r.status, 200, show(r));
  return r.json.game;
}

before(async () => {
  ({ server, admin } = await startAdminServer());
  const r = await upload(admin, 'managed.sok', Buffer.from(FILE));
  assert.equal(r.json.upload.report.summary.valid, 4, JSON.stringify(r.json.upload.report.summary));
  const imp = await importUpload(admin, r.id);
  assert.equal(imp.status, 201, show(imp));
  collection = imp.json.import.collection_id;
  firstCollection = collection;
  ids = (await admin.get(`/api/v1/admin/collections/${collection}`)).json.levels.map((l) => l.id);
  player = server.client();
  games.solved = await play(player, ids[0], SOLVE[0]);
  assert.equal(games.solved.solved, true, 'the player solves the first level');
  games.started = await play(player, ids[2], 'd');
});

after(() => stopCleanly(server));

test('hiding a level or a collection takes it out of the lists; showing it brings back the game and the solution', async () => {
  let r = await admin.req('PATCH', `/api/v1/admin/levels/${ids[0]}`, { hidden: true });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.level.hidden, true);
  let levels = await listedLevels(player, collection);
  assert.deepEqual(levels.map((l) => l.id), ids.slice(1), 'the hidden level is not listed');
  assert.equal((await listedCollections(player)).find((c) => c.id === collection).levels, 3);
  const progress = (await player.get('/api/v1/progress')).json;
  assert.ok(progress.solved.some((s) => s.level_id === ids[0]), 'the solution is still the player\'s');
  assert.equal((await player.get(`/api/v1/games/${games.solved.id}`)).status, 200, 'so is the game');

  r = await admin.req('PATCH', `/api/v1/admin/levels/${ids[0]}`, { hidden: false });
  assert.equal(r.status, 200, show(r));
  levels = await listedLevels(player, collection);
  assert.deepEqual(levels.map((l) => l.id), ids);
  assert.equal(levels[0].solved, true);
  assert.equal(levels[0].game_id, games.solved.id);

  r = await admin.req('PATCH', `/api/v1/admin/collections/${collection}`, { hidden: true });
  assert.equal(r.status, 200, show(r));
  assert.ok(!(await listedCollections(player)).some((c) => c.id === collection));
  assert.equal(await listedLevels(player, collection), null, 'a hidden collection is not found by players');
  r = await admin.req('PATCH', `/api/v1/admin/collections/${collection}`, { hidden: false });
  assert.equal(r.status, 200, show(r));
  assert.equal((await listedCollections(player)).find((c) => c.id === collection).solved, 1);
});

test('deleting keeps the history: restoring, or importing the same levels again, brings it back', async () => {
  let r = await admin.req('DELETE', `/api/v1/admin/levels/${ids[0]}`, {});
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.level.deleted, true);
  assert.deepEqual([r.json.level.games, r.json.level.player_solutions], [1, 1], 'the level keeps its game and solution');
  assert.deepEqual((await listedLevels(player, collection)).map((l) => l.id), ids.slice(1));
  r = await admin.post(`/api/v1/admin/levels/${ids[0]}/restore`);
  assert.equal(r.status, 200, show(r));
  assert.equal((await listedLevels(player, collection))[0].solved, true, 'restored with its solution');

  r = await admin.req('DELETE', `/api/v1/admin/collections/${collection}`, {});
  assert.equal(r.status, 200, show(r));
  assert.equal(r.json.collection.deleted, true);
  assert.ok(!(await listedCollections(player)).some((c) => c.id === collection));
  const gone = await fetch(`${server.url}/api/v1/admin/collections/${collection}/export`, { headers: { Cookie: admin.cookieHeader() } });
  assert.equal(gone.status, 404, 'a deleted collection is not exported');

  // The same file again: its levels are not duplicates but deleted levels coming back.
  const again = await upload(admin, 'managed-again.sok', Buffer.from(FILE));
  const report = again.json.upload.report;
  assert.deepEqual(report.levels.map((l) => l.restores), ids);
  assert.ok(report.levels.every((l) => l.duplicate === null));
  const imp = await importUpload(admin, again.id, { collection: 'Managed again' });
  assert.equal(imp.status, 201, show(imp));
  assert.deepEqual([imp.json.import.imported, imp.json.import.restored], [4, 4]);
  const back = await listedLevels(player, imp.json.import.collection_id);
  assert.deepEqual(back.map((l) => l.id), ids, 'the same levels, with the same ids');
  assert.equal(back[0].solved, true, 'the solution came back');
  assert.equal(back[0].game_id, games.solved.id);
  assert.equal(back[2].game_id, games.started.id, 'the game in progress came back');
  const old = (await admin.get(`/api/v1/admin/collections/${collection}`)).json;
  assert.equal(old.levels.length, 0, 'the levels moved out of the deleted collection');
  collection = imp.json.import.collection_id;
});

test('rename, describe, credit and reorder show in the catalogue; the audit log has every change', async () => {
  let r = await admin.req('PATCH', `/api/v1/admin/collections/${collection}`,
    { name: 'Renamed', description: 'Four corridors and rooms', author: 'The tests' });
  assert.equal(r.status, 200, show(r));
  const listed = (await listedCollections(player)).find((c) => c.id === collection);
  assert.deepEqual([listed.name, listed.notes, listed.author], ['Renamed', 'Four corridors and rooms', 'The tests']);
  assert.equal(r.json.collection.author, 'The tests');
  r = await admin.req('PATCH', `/api/v1/admin/collections/${collection}`, { name: 'sokod tests' });
  assert.equal(r.status, 409, show(r));
  assert.equal(r.json.error.code, 'collection_name_taken');
  r = await admin.req('PATCH', `/api/v1/admin/collections/${collection}`, { name: '' });
  assert.equal(r.status, 400, show(r));

  r = await admin.req('PATCH', `/api/v1/admin/levels/${ids[1]}`, { title: 'The long one', comment: 'Push all the way.', author: 'A. Tester' });
  assert.equal(r.status, 200, show(r));
  const level = (await player.get(`/api/v1/levels/${ids[1]}`)).json.level;
  assert.deepEqual([level.title, level.comment, level.author], ['The long one', 'Push all the way.', 'A. Tester']);

  const reversed = [...ids].reverse();
  r = await admin.req('PUT', `/api/v1/admin/collections/${collection}/order`, { levels: reversed });
  assert.equal(r.status, 200, show(r));
  const order = await listedLevels(player, collection);
  assert.deepEqual(order.map((l) => l.id), reversed);
  assert.deepEqual(order.map((l) => l.position), [1, 2, 3, 4]);
  assert.equal(order.at(-1).solved, true, 'reordering keeps the solution');
  r = await admin.req('PUT', `/api/v1/admin/collections/${collection}/order`, { levels: reversed.slice(1) });
  assert.equal(r.status, 400, `a list without every level: ${show(r)}`);

  const all = (await listedCollections(player)).map((c) => c.id);
  r = await admin.req('PUT', '/api/v1/admin/collections/order', { collections: [...all].reverse() });
  assert.equal(r.status, 200, show(r));
  assert.deepEqual((await listedCollections(player)).map((c) => c.id), [...all].reverse());

  const audit = (await admin.get('/api/v1/admin/audit?limit=1000')).json.entries;
  const seen = audit.map((e) => `${e.action} ${e.target}`);
  console.log(`audit log:\n  ${seen.join('\n  ')}`);
  for (const expected of [
    `level.update level ${ids[0]}`, `level.delete level ${ids[0]}`, `level.restore level ${ids[0]}`,
    `collection.delete collection ${firstCollection}`,
    `collection.update collection ${collection}`, `level.update level ${ids[1]}`,
    `collection.order collection ${collection}`, 'collections.order collections',
  ]) assert.ok(seen.includes(expected), `the audit log has "${expected}"`);
  const renamed = audit.find((e) => e.action === 'collection.update' && e.details.name);
  assert.deepEqual(renamed.details.name, { from: 'Managed again', to: 'Renamed' });
  assert.equal(renamed.actor, 'root');
  const restored = audit.find((e) => e.action === 'library.import' && e.details.restored === 4);
  assert.ok(restored, 'the import that brought the levels back');
});
