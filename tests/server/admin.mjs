// Helpers of the admin tests: a server with an admin account, uploads sent
// in parts as the admin page sends them, and boards turned and mirrored.
import assert from 'node:assert/strict';
import path from 'node:path';
import { BACKEND, freshPgDatabase, runSokod, show, startServer, tempDir } from './harness.mjs';

export const ADMIN = 'root';
export const ADMIN_PASSWORD = 'correct horse battery';

// Creates the admin account with `sokod admin create` (password on
// standard input), starts sokod on that database and signs the admin in.
// Resolves to {server, admin} (a signed-in client).
export async function startAdminServer(options = {}) {
  const dir = options.dir ?? tempDir('sokod-admin-');
  const db = BACKEND === 'postgresql' ? freshPgDatabase() : path.join(dir, 'data', 'sokod.db');
  const made = runSokod(['admin', 'create', ADMIN, '--db', db], { input: `${ADMIN_PASSWORD}\n` });
  assert.equal(made.status, 0, `sokod admin create: ${made.stdout}${made.stderr}`);
  const server = await startServer({ dir, db, ...options, args: ['--solver-seconds', '0', ...(options.args ?? [])] });
  const admin = server.client();
  const login = await admin.post('/api/v1/account/login', { username: ADMIN, password: ADMIN_PASSWORD });
  assert.equal(login.status, 200, show(login));
  assert.equal(login.json.user.admin, true, 'the account made by sokod admin create is an admin');
  return { server, admin };
}

// A signed-in account that is not an admin.
export async function signedUpPlayer(server, name) {
  const c = server.client();
  const r = await c.post('/api/v1/account/signup', { username: name, password: 'a password of a player' });
  assert.equal(r.status, 201, show(r));
  return c;
}

// Uploads bytes as the admin page does: a first request with the size (and
// the first part when `first`), then parts of `partBytes` (default: the
// server's part_bytes). Resolves to the last answer (the checked report).
export async function upload(client, filename, bytes, options = {}) {
  const data = Buffer.from(bytes);
  const body = { filename, size: data.length };
  if (options.format) body.format = options.format;
  let r = await client.post('/api/v1/admin/uploads', body);
  assert.equal(r.status, 201, `starting the upload of ${filename}: ${show(r)}`);
  const id = r.json.upload.id;
  const part = options.partBytes ?? r.json.upload.part_bytes;
  let offset = 0;
  let parts = 0;
  while (offset < data.length) {
    const chunk = data.subarray(offset, offset + part);
    r = await client.post(`/api/v1/admin/uploads/${id}/parts`, { offset, data: chunk.toString('base64') });
    assert.equal(r.status, 200, `part ${parts + 1} of ${filename} at ${offset}: ${show(r)}`);
    offset += chunk.length;
    parts++;
  }
  assert.equal(r.json.upload.state, 'checked', `after the last part of ${filename}: ${show(r)}`);
  r.parts = parts;
  r.id = id;
  return r;
}

// Imports a checked upload; resolves to the answer.
export function importUpload(client, id, body = {}) {
  return client.post(`/api/v1/admin/uploads/${id}/import`, body);
}

// Board rows turned a quarter clockwise.
export function rotate(rows) {
  const width = Math.max(...rows.map((r) => r.length));
  const padded = rows.map((r) => r.padEnd(width, ' '));
  const out = [];
  for (let x = 0; x < width; x++) {
    let line = '';
    for (let y = padded.length - 1; y >= 0; y--) line += padded[y][x];
    out.push(line.trimEnd());
  }
  return out;
}

// Board rows mirrored left to right.
export function mirror(rows) {
  const width = Math.max(...rows.map((r) => r.length));
  return rows.map((r) => [...r.padEnd(width, ' ')].reverse().join('').trimEnd());
}

// The boards of a text level file with their title lines (the line before
// the board), read the simple way the shared files allow, floor as spaces.
export function boardsOf(text) {
  const levels = [];
  const lines = text.split(/\r?\n/);
  let board = null;
  let previous = '';
  for (const line of lines) {
    const isBoard = /^[ #@+$*.\-_]+$/.test(line) && line.includes('#');
    if (isBoard) {
      if (!board) {
        board = { title: previous.trim().replace(/^;\s*/, ''), rows: [] };
        levels.push(board);
      }
      board.rows.push(line.replace(/[-_]/g, ' ').trimEnd());
    } else {
      board = null;
    }
    if (line.trim() !== '') previous = line;
  }
  // The core drops a left margin that every row shares.
  for (const level of levels) {
    const margin = Math.min(...level.rows.map((r) => r.length - r.trimStart().length));
    level.rows = level.rows.map((r) => r.slice(margin));
  }
  return levels;
}
