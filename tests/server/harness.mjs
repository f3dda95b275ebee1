// Starts a real sokod on a free loopback port with a fresh database in a
// temporary folder, and talks to it like a browser does (cookies, JSON).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

export const SOKOD = process.env.SOKOD_BIN;
export const SHARED = process.env.SOKOD_SHARED_DIR;
export const SOURCE = process.env.SOKOD_SOURCE_DIR;

if (!SOKOD || !fs.existsSync(SOKOD)) throw new Error(`SOKOD_BIN must name the sokod binary (got ${SOKOD})`);

// Levels written for these tests (sokod's own, not from ../shared).
export const TEST_LEVELS = `Collection: sokod tests

; Corridor
#######
#@ $ .#
#######

; Room
########
#      #
# $  . #
#@ $ . #
#      #
########

; Bend
  ####
###  #
#@ $ #
# #. #
#    #
######
`;

// What AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer print
// when they find a bug (the test build has them). A sokod that prints one
// fails the test that started it, even when every answer looked right.
export const SANITIZER_REPORT =
  /==\d+==ERROR: (AddressSanitizer|LeakSanitizer)|: runtime error: |SUMMARY: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)/;

// The report in a process's output, from its first line, or null.
export function sanitizerReport(text) {
  const m = SANITIZER_REPORT.exec(text ?? '');
  if (!m) return null;
  const start = text.lastIndexOf('\n', m.index) + 1;
  return text.slice(start, start + 6000);
}

// Throws when `text`, the output of `what`, holds a sanitizer report.
export function assertNoSanitizerReport(what, text) {
  const report = sanitizerReport(text);
  if (report !== null) throw new Error(`${what} printed a sanitizer report:\n${report}`);
}

// The environment of every sokod a test starts: UBSan stops the process
// at its first report, with the stack, rather than going on.
export function sokodEnv(extra = {}) {
  return { UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1', ...process.env, ...extra };
}

export function tempDir(prefix = 'sokod-test-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

// Runs `sokod ARGS...` to its end; returns {status, stdout, stderr}.
export function runSokod(args, options = {}) {
  const r = spawnSync(SOKOD, args, { encoding: 'utf8', timeout: 120000, env: sokodEnv(), ...options });
  assertNoSanitizerReport(`sokod ${args.join(' ')}`, r.stderr);
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

// The backend the tests run on: SOKOD_TEST_BACKEND=postgresql (with
// SOKOD_TEST_PG_DIR, the socket folder of the cluster of tests/pg.cmake)
// gives every server a fresh PostgreSQL database instead of a SQLite file.
export const BACKEND = process.env.SOKOD_TEST_BACKEND === 'postgresql' ? 'postgresql' : 'sqlite';
const PG_DIR = process.env.SOKOD_TEST_PG_DIR;
if (BACKEND === 'postgresql' && !PG_DIR) throw new Error('SOKOD_TEST_PG_DIR must name the cluster\'s socket folder');

export function pgUri(name) {
  return `postgresql://postgres@/${name}?host=${PG_DIR}`;
}

// Runs SQL through psql's standard input, so that each of several
// statements prints its rows (as the sqlite3 CLI does), not the last only.
function psql(uri, sql) {
  return spawnSync('psql', ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', uri, '-f', '-'], { encoding: 'utf8', input: sql });
}

// Databases made by this test file, dropped when it ends.
const madeDatabases = [];
let databaseCount = 0;

// Where the tests' own SQL must differ between the backends: a blob as
// upper-case hexadecimal, a blob literal from such hexadecimal, the schema's
// version (read, and set on an empty database), the tables, and what a
// write must say first for foreign keys to act (SQLite's CLI has them off).
export const SQL = BACKEND === 'postgresql'
  ? {
    hex: (col) => `upper(encode(${col}, 'hex'))`,
    blob: (hex) => `decode('${hex}', 'hex')`,
    version: 'SELECT version FROM schema_version',
    setVersion: (n) => `CREATE TABLE schema_version (version BIGINT NOT NULL); INSERT INTO schema_version VALUES (${n})`,
    changeVersion: (n) => `UPDATE schema_version SET version = ${n}`,
    tables: "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    foreignKeysOn: '',
  }
  : {
    hex: (col) => `hex(${col})`,
    blob: (hex) => `x'${hex}'`,
    version: 'PRAGMA user_version',
    setVersion: (n) => `PRAGMA user_version = ${n}`,
    changeVersion: (n) => `PRAGMA user_version = ${n}`,
    tables: "SELECT name FROM sqlite_master WHERE type = 'table'",
    foreignKeysOn: 'PRAGMA foreign_keys = ON; ',
  };

// A fresh, empty PostgreSQL database; returns its URI.
export function freshPgDatabase() {
  const name = `t${process.pid}_${++databaseCount}`;
  const r = psql(pgUri('postgres'), `CREATE DATABASE ${name}`);
  if (r.status !== 0) throw new Error(`cannot create the database ${name}: ${r.stderr}`);
  madeDatabases.push(name);
  return pgUri(name);
}

process.on('exit', () => {
  for (const name of madeDatabases) psql(pgUri('postgres'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

// Runs SQL on a server's database (the sqlite3 CLI on a file, psql on a
// PostgreSQL URI); returns its trimmed output, rows by line and columns
// split by '|' either way.
export function sqlite(db, sql) {
  const postgres = /^postgres(ql)?:\/\//.test(db);
  const r = postgres ? psql(db, sql) : spawnSync('sqlite3', [db, sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${postgres ? 'psql' : 'sqlite3'} ${db} "${sql}" failed: ${r.stderr}`);
  return r.stdout.trim();
}

// A folder holding the migrations numbered up to n (PostgreSQL's in its
// subfolder, as sokod reads them): a database made with it has the
// schema of an older sokod.
export function migrationsUpTo(n) {
  const all = path.join(SOURCE, 'migrations');
  const dir = tempDir('sokod-migrations-');
  const copy = (from, to) => {
    for (const f of fs.readdirSync(from)) {
      if (/^\d{4}_.*\.sql$/.test(f) && Number(f.slice(0, 4)) <= n) fs.copyFileSync(path.join(from, f), path.join(to, f));
    }
  };
  copy(all, dir);
  fs.mkdirSync(path.join(dir, 'postgresql'));
  copy(path.join(all, 'postgresql'), path.join(dir, 'postgresql'));
  return dir;
}

// Starts sokod; resolves to a server handle once it prints the port.
// options: dir (temp folder), db, levels (folder; default: one with TEST_LEVELS),
// args (more flags), env (more variables), bin (another sokod binary).
export async function startServer(options = {}) {
  const dir = options.dir ?? tempDir();
  const db = options.db ?? (BACKEND === 'postgresql' ? freshPgDatabase() : path.join(dir, 'data', 'sokod.db'));
  let levels = options.levels;
  if (levels === undefined) {
    levels = path.join(dir, 'levels');
    fs.mkdirSync(levels, { recursive: true });
    fs.writeFileSync(path.join(levels, 'tests.sok'), TEST_LEVELS);
  }
  const args = ['serve', '--port', '0', '--db', db, '--levels', levels, ...(options.args ?? [])];
  const proc = spawn(options.bin ?? SOKOD, args, {
    env: sokodEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (d) => { stderr += d; });
  proc.stdout.setEncoding('utf8');
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  // Once the process is gone and its output read to the end.
  const closed = new Promise((resolve) => proc.on('close', resolve));
  watchForReports(proc, () => stderr);
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sokod did not print its port in 30 s; stderr:\n${stderr}`)), 30000);
    proc.stdout.on('data', (d) => {
      stdout += d;
      const m = /^sokod: listening on (http:\/\/\S+)$/m.exec(stdout);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`sokod exited (${code ?? signal}) before listening; stderr:\n${stderr}`));
    });
  });
  // A run that loses every other transaction to a conflict (see
  // tests/server.cmake) must be one: the server says so as it starts.
  const saysConflicts = () => /every other transaction ends in a conflict/.test(stderr);
  // (Written before the port, on another pipe, which may be read first.)
  for (let i = 0; i < 50 && process.env.SOKOD_TEST_CONFLICTS === '1' && !saysConflicts(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (process.env.SOKOD_TEST_CONFLICTS === '1' && !saysConflicts()) {
    proc.kill('SIGKILL');
    throw new Error(`SOKOD_TEST_CONFLICTS=1, yet sokod ${args.join(' ')} did not say it loses conflicts; stderr:\n${stderr}`);
  }
  const checkedEnd = async () => {
    const end = await exited;
    await closed;
    assertNoSanitizerReport(`sokod ${args.join(' ')} (pid ${proc.pid})`, stderr);
    return end;
  };
  const server = {
    url, dir, db, levels, proc, exited,
    port: Number(new URL(url).port),
    stderr: () => stderr,
    client: () => new Client(url),
    // SIGTERM, then waits; resolves to {code, signal}. Throws when sokod
    // printed a sanitizer report (LeakSanitizer's comes at the exit).
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      return checkedEnd();
    },
    async kill9() {
      proc.kill('SIGKILL');
      return checkedEnd();
    },
  };
  return server;
}

// Stops a server started by startServer (SIGTERM) and asserts that it ended
// with status 0: `what` heads the failure's message, before sokod's stderr.
// Resolves to {code, signal}.
export async function stopCleanly(server, what = 'sokod should stop cleanly') {
  const end = await server.stop();
  assert.equal(end.code, 0, `${what}; stderr:\n${server.stderr().slice(-3000)}`);
  return end;
}

// Every sokod started here is looked at once more when the test process
// ends: a report from a server whose test never called stop() (or did not
// look at its answer) still fails the test file.
const watched = [];
function watchForReports(proc, output) {
  watched.push({ proc, output });
}
process.on('exit', () => {
  for (const { proc, output } of watched) {
    const report = sanitizerReport(output());
    if (report !== null) {
      process.stderr.write(`sokod (pid ${proc.pid}) printed a sanitizer report:\n${report}\n`);
      process.exitCode = 1;
    }
  }
});

// A browser-like client: keeps its cookies, sends JSON.
export class Client {
  constructor(base) {
    this.base = base;
    this.cookies = new Map();
  }

  // A second device of the same user: a copy of the cookies.
  sameUser() {
    const c = new Client(this.base);
    c.cookies = new Map(this.cookies);
    return c;
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  // method, path, body (object, string or undefined), headers.
  // Resolves to {status, headers, json, text}.
  async req(method, p, body, headers = {}) {
    const h = { ...headers };
    if (this.cookies.size > 0 && !('Cookie' in h)) h.Cookie = this.cookieHeader();
    let payload;
    if (body !== undefined) {
      payload = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
    }
    if (method !== 'GET' && method !== 'HEAD' && !('Content-Type' in h)) h['Content-Type'] = 'application/json';
    const res = await fetch(this.base + p, { method, headers: h, body: payload });
    for (const sc of res.headers.getSetCookie()) {
      const [pair] = sc.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(sc)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let json;
    try { json = text.length > 0 ? JSON.parse(text) : undefined; } catch { json = undefined; }
    return { status: res.status, headers: res.headers, json, text };
  }

  get(p, headers) { return this.req('GET', p, undefined, headers); }
  post(p, body, headers) { return this.req('POST', p, body ?? {}, headers); }
}

// Sends a request with a path exactly as given (fetch would normalise "..");
// `options` go to http.request (a localAddress to send from, an agent).
export function rawRequest(base, method, rawPath, headers = {}, body, options = {}) {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path: rawPath, headers, ...options }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

// Describes a response for assertion messages.
export function show(r) {
  return `status ${r.status}: ${r.text?.slice(0, 600)}`;
}

// The whole game (board, history, redo stack, level) as GET returns it: the
// answer to a step carries only the game's summary.
export async function gameOf(client, id) {
  const r = await client.get(`/api/v1/games/${id}`);
  if (r.status !== 200) throw new Error(`GET /api/v1/games/${id}: ${show(r)}`);
  return r.json.game;
}

// Starts sokod (with startServer's options) and asks it for the ids of the
// tests collection's levels; resolves to {server, ids}. When the ids cannot
// be read, the server is stopped before the failure is passed on.
export async function startServerWithLevels(options = {}) {
  const server = await startServer(options);
  try {
    return { server, ids: await levelIds(server.client()) };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

// Opens the client's game on a level (or finds the one it has), asserting
// that the server answered 200 or 201; resolves to the game.
export async function openGame(client, levelId) {
  const r = await client.post(`/api/v1/levels/${levelId}/game`);
  assert.ok(r.status === 200 || r.status === 201, show(r));
  return r.json.game;
}

// The id of the tests collection's level at a position (1-based), via the API.
export async function levelIds(client, collectionName = 'sokod tests') {
  const list = await client.get('/api/v1/collections');
  const col = list.json.collections.find((c) => c.name === collectionName);
  if (!col) throw new Error(`no collection '${collectionName}' in ${list.text}`);
  const one = await client.get(`/api/v1/collections/${col.id}`);
  return one.json.levels.map((l) => l.id);
}
