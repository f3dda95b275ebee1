// The router's reading of the location hash: which screen, with which
// arguments. (Showing the screen's section is left to the browser tests.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routeOf } from '../../static/js/router.js';

const TABLE = { title: {}, library: {}, play: {}, options: {}, race: {} };

test('a hash names its screen and the arguments after it', () => {
  assert.deepEqual(routeOf('#/play/17', TABLE), { name: 'play', args: ['17'] });
  assert.deepEqual(routeOf('#/library/3/page/2', TABLE), { name: 'library', args: ['3', 'page', '2'] });
  assert.deepEqual(routeOf('#/options', TABLE), { name: 'options', args: [] });
});

test('the leading slash is optional and empty parts are skipped', () => {
  assert.deepEqual(routeOf('#play/17', TABLE), { name: 'play', args: ['17'] });
  assert.deepEqual(routeOf('#//race//4/', TABLE), { name: 'race', args: ['4'] });
});

test('no hash is the title screen', () => {
  assert.deepEqual(routeOf('', TABLE), { name: 'title', args: [] });
  assert.deepEqual(routeOf('#/', TABLE), { name: 'title', args: [] });
  assert.deepEqual(routeOf('#//', TABLE), { name: 'title', args: [] });
});

test('a hash naming no screen is the missing screen, told the whole hash', () => {
  const table = { ...TABLE, missing: {} };
  assert.deepEqual(routeOf('#/nowhere/5', table), { name: 'missing', args: ['nowhere', '5'] });
  assert.deepEqual(routeOf('#/missing', table), { name: 'missing', args: ['missing'] });
  assert.deepEqual(routeOf('#/play/17', table), { name: 'play', args: ['17'] });
  // A table without one falls back to the title screen.
  assert.deepEqual(routeOf('#/nowhere/5', TABLE), { name: 'title', args: ['5'] });
});

test('names every object has are no screens', () => {
  const table = { ...TABLE, missing: {} };
  assert.equal(routeOf('#/constructor', table).name, 'missing');
  assert.equal(routeOf('#/__proto__/1', table).name, 'missing');
  assert.equal(routeOf('#/hasOwnProperty', table).name, 'missing');
  assert.equal(routeOf('#/constructor', TABLE).name, 'title');
});
