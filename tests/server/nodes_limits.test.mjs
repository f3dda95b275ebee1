// Rate limits hold across the nodes of one PostgreSQL database: log-in
// attempts, wrong passwords and new guests spread over two nodes are
// refused at the same total as on one node, and a right password on one
// node frees the name on the other. The device cookies' key is shared too
// (migration 0010): a browser trusted through one node logs in through the
// other while strangers lock its name. On SQLite (one process per
// database) there is nothing to share.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKEND, freshPgDatabase, levelIds, show, sqlite, startServer, stopCleanly } from './harness.mjs';

const skip = BACKEND !== 'postgresql' && 'several nodes share a PostgreSQL database only';

async function twoNodes(args) {
  const db = freshPgDatabase();
  const a = await startServer({ db, args });
  const b = await startServer({ db, args });
  return { db, nodes: [a, b] };
}

async function stopBoth(nodes) {
  for (const [i, node] of nodes.entries()) await stopCleanly(node, `node ${'AB'[i]} should stop cleanly`);
}

function expect429(r, what) {
  assert.equal(r.status, 429, `${what}: ${show(r)}`);
  assert.equal(r.json?.error?.code, 'rate_limited', `${what}: ${show(r)}`);
  const retry = Number(r.headers.get('retry-after'));
  assert.ok(Number.isInteger(retry) && retry >= 1, `${what}: Retry-After is ${r.headers.get('retry-after')}`);
}

async function signup(node, name, password) {
  const r = await node.client().post('/api/v1/account/signup', { username: name, password });
  assert.equal(r.status, 201, `sign-up of ${name}: ${show(r)}`);
}

test('wrong passwords for one name, half on each node, are refused after ten in all', { skip }, async () => {
  const { nodes } = await twoNodes(['--auth-per-minute', '10000']);
  try {
    await signup(nodes[0], 'victim', 'the right password');
    for (let i = 1; i <= 10; i++) {
      const node = nodes[i % 2];
      const r = await node.client().post('/api/v1/account/login', { username: 'victim', password: `guess ${i}` });
      assert.equal(r.status, 401, `wrong password ${i} through node ${'AB'[i % 2]}: ${show(r)}`);
    }
    for (const [i, node] of nodes.entries()) {
      const r = await node.client().post('/api/v1/account/login', { username: 'victim', password: 'guess 11' });
      expect429(r, `the 11th wrong password, through node ${'AB'[i]}`);
    }
  } finally {
    await stopBoth(nodes);
  }
});

test('a right password on one node frees the name on the other', { skip }, async () => {
  const { nodes } = await twoNodes(['--auth-per-minute', '10000']);
  const [a, b] = nodes;
  try {
    await signup(a, 'owner', 'the right password');
    for (let i = 1; i <= 9; i++) {
      const r = await a.client().post('/api/v1/account/login', { username: 'owner', password: `guess ${i}` });
      assert.equal(r.status, 401, `wrong password ${i} through node A: ${show(r)}`);
    }
    let r = await b.client().post('/api/v1/account/login', { username: 'owner', password: 'the right password' });
    assert.equal(r.status, 200, `the right password through node B: ${show(r)}`);
    for (let i = 1; i <= 10; i++) {
      r = await a.client().post('/api/v1/account/login', { username: 'owner', password: `again ${i}` });
      assert.equal(r.status, 401, `wrong password ${i} after the right one, through node A: ${show(r)}`);
    }
    r = await b.client().post('/api/v1/account/login', { username: 'owner', password: 'again 11' });
    expect429(r, 'the 11th wrong password after the right one, through node B');
  } finally {
    await stopBoth(nodes);
  }
});

test('a browser trusted through one node logs in through the other while strangers lock its name', { skip }, async () => {
  const { nodes } = await twoNodes(['--auth-per-minute', '10000']);
  const [a, b] = nodes;
  try {
    const owner = a.client();
    let r = await owner.post('/api/v1/account/signup', { username: 'homeowner', password: 'the owner password' });
    assert.equal(r.status, 201, show(r));
    assert.ok(owner.cookies.get('sokod_device'), `node A gives a device cookie: ${[...owner.cookies.keys()]}`);
    assert.equal((await owner.post('/api/v1/account/logout')).status, 200);
    for (let i = 1; i <= 10; i++) {
      r = await nodes[i % 2].client().post('/api/v1/account/login', { username: 'homeowner', password: `guess ${i}` });
      assert.equal(r.status, 401, `a stranger's wrong password ${i}: ${show(r)}`);
    }
    const right = { username: 'homeowner', password: 'the owner password' };
    expect429(await b.client().post('/api/v1/account/login', right), 'a browser new to the account, through node B');
    const ownerOnB = owner.sameUser();
    ownerOnB.base = b.url;
    r = await ownerOnB.post('/api/v1/account/login', right);
    assert.equal(r.status, 200, `the owner's browser, its cookie from node A, through node B: ${show(r)}`);
  } finally {
    await stopBoth(nodes);
  }
});

test('log-in attempts from one address, spread over two nodes, are refused at the limit of one', { skip }, async () => {
  const PER_MINUTE = 6;
  const { nodes } = await twoNodes(['--auth-per-minute', String(PER_MINUTE)]);
  try {
    for (let i = 1; i <= PER_MINUTE; i++) {
      const r = await nodes[i % 2].client().post('/api/v1/account/login', { username: `nobody${i}`, password: 'a password' });
      assert.equal(r.status, 401, `attempt ${i} through node ${'AB'[i % 2]}: ${show(r)}`);
    }
    for (const [i, node] of nodes.entries()) {
      const r = await node.client().post('/api/v1/account/login', { username: 'nobody', password: 'a password' });
      expect429(r, `attempt ${PER_MINUTE + 1} through node ${'AB'[i]}`);
    }
  } finally {
    await stopBoth(nodes);
  }
});

test('new guests from one address, spread over two nodes, are refused at the limit of one', { skip }, async () => {
  const PER_MINUTE = 4;
  const { db, nodes } = await twoNodes(['--guests-per-minute', String(PER_MINUTE)]);
  try {
    const [level] = await levelIds(nodes[0].client());
    for (let i = 1; i <= PER_MINUTE; i++) {
      const r = await nodes[i % 2].client().post(`/api/v1/levels/${level}/game`);
      assert.equal(r.status, 201, `guest ${i} through node ${'AB'[i % 2]}: ${show(r)}`);
    }
    for (const [i, node] of nodes.entries()) {
      const r = await node.client().post(`/api/v1/levels/${level}/game`);
      expect429(r, `guest ${PER_MINUTE + 1} through node ${'AB'[i]}`);
    }
    assert.equal(sqlite(db, 'SELECT count(*) FROM users WHERE guest = 1'), String(PER_MINUTE), 'guests made in all');
  } finally {
    await stopBoth(nodes);
  }
});
