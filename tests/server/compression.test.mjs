// Static files go out gzip-compressed to clients that accept it, byte for
// byte the same once decompressed, with their own etag, and plain to the rest.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { SOKOD, SOURCE, startServer } from './harness.mjs';

let server;
const staticDir = path.join(SOURCE, 'static');
const wasmFile = path.join(path.dirname(SOKOD), 'core.wasm');

before(async () => {
  server = await startServer({ args: ['--static', staticDir] });
});

after(async () => {
  await server.stop();
});

function get(urlPath, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: server.port, path: urlPath, headers }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

for (const [urlPath, file] of [['/core.wasm', wasmFile], ['/', path.join(staticDir, 'index.html')]]) {
  test(`${urlPath} is sent gzip-compressed to a client that accepts gzip`, async () => {
    const original = fs.readFileSync(file);
    const r = await get(urlPath, { 'Accept-Encoding': 'gzip, deflate' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'gzip', `headers: ${JSON.stringify(r.headers)}`);
    assert.match(r.headers.vary ?? '', /Accept-Encoding/);
    assert.ok(r.body.length < original.length,
      `compressed ${r.body.length} bytes should be fewer than the file's ${original.length}`);
    assert.ok(zlib.gunzipSync(r.body).equals(original), 'decompressed body differs from the file');
    console.log(`${urlPath}: ${original.length} bytes sent as ${r.body.length}`);

    const again = await get(urlPath, { 'Accept-Encoding': 'gzip', 'If-None-Match': r.headers.etag });
    assert.equal(again.status, 304, `revalidating with the gzip etag ${r.headers.etag}`);
  });

  test(`${urlPath} is sent as it is to a client that does not accept gzip`, async () => {
    const original = fs.readFileSync(file);
    for (const accept of [undefined, 'identity', 'gzip;q=0', 'br']) {
      const r = await get(urlPath, accept === undefined ? {} : { 'Accept-Encoding': accept });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], undefined, `Accept-Encoding: ${accept}`);
      assert.ok(r.body.equals(original), `Accept-Encoding: ${accept}: body differs from the file`);
    }
  });
}

test('the plain and the gzip copies of a file have different etags', async () => {
  const plain = await get('/core.wasm');
  const gz = await get('/core.wasm', { 'Accept-Encoding': 'gzip' });
  assert.ok(plain.headers.etag && gz.headers.etag);
  assert.notEqual(plain.headers.etag, gz.headers.etag);
});
