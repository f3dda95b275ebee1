// The two storage backends hold one schema: migrations/ (SQLite) and
// migrations/postgresql/ must give, version by version, the same tables,
// columns, keys, constraints, indexes, views and triggers, with the
// differences of dialect only; and the same writes must leave the same rows
// on both (usernames regardless of case, ids never given twice, the
// leaderboards' triggers). The SQLite files are applied with the sqlite3 CLI
// and the PostgreSQL ones with psql, each in its own transaction, as the
// migration runner does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SOURCE, tempDir } from './harness.mjs';

const SQLITE_DIR = path.join(SOURCE, 'migrations');
const PG_DIR = path.join(SQLITE_DIR, 'postgresql');
const CLUSTER = process.env.SOKOD_TEST_PG_DIR;
const PG_CLUSTER = path.join(SOURCE, 'tests', 'support', 'pg_cluster.sh');

if (!CLUSTER || !fs.existsSync(CLUSTER)) {
  throw new Error(`SOKOD_TEST_PG_DIR must name a running cluster's folder (got ${CLUSTER}); ctest starts one`);
}

// The NNNN_name.sql files of a folder, in order.
function migrations(dir) {
  return fs.readdirSync(dir).filter((f) => /^\d{4}_[a-z0-9_-]+\.sql$/.test(f)).sort()
    .map((f) => ({ number: Number(f.slice(0, 4)), file: f, path: path.join(dir, f) }));
}

// Runs a program with `input` on stdin; returns {ok, out, err}.
function run(program, args, input = '') {
  const r = spawnSync(program, args, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return { ok: r.status === 0, out: r.stdout, err: r.stderr.trim() };
}

// A fresh SQLite database in a temporary folder.
class Sqlite {
  constructor() {
    this.file = path.join(tempDir('sokod-schema-'), 'sokod.db');
    this.name = 'SQLite';
  }

  // Runs statements in one transaction, foreign keys on as the server has
  // them; {ok, err}: a failing statement rolls back the whole batch.
  exec(sql) {
    return run('sqlite3', ['-bail', this.file], `PRAGMA foreign_keys = ON;\nBEGIN;\n${sql};\nCOMMIT;\n`);
  }

  // Runs a list of steps in order, each in a transaction of its own:
  // {exec: SQL}, {query: SQL} (its rows, as objects, are returned in a list)
  // or {migrate: m}, applied as the runner does, with foreign keys off when
  // its first line asks for it. Throws at the first step that fails.
  batch(steps) {
    const rows = [];
    for (const step of steps) {
      if (step.query !== undefined) {
        const r = run('sqlite3', ['-json', this.file, step.query]);
        assert.ok(r.ok, `sqlite3 "${step.query}" failed: ${r.err}`);
        rows.push(r.out.trim() === '' ? [] : JSON.parse(r.out));
      } else if (step.migrate !== undefined) {
        const m = step.migrate;
        const text = fs.readFileSync(m.path, 'utf8');
        const fk = text.startsWith('-- sokod: foreign keys off') ? 'OFF' : 'ON';
        const r = run('sqlite3', ['-bail', this.file],
          `PRAGMA foreign_keys = ${fk};\nBEGIN;\n${text}\n;PRAGMA user_version = ${m.number};\nCOMMIT;\n`);
        assert.ok(r.ok, `sqlite3 ${path.relative(SOURCE, m.path)} failed: ${r.err}`);
      } else {
        const r = this.exec(step.exec);
        assert.ok(r.ok, `SQLite: ${step.exec}\nfailed: ${r.err}`);
      }
    }
    return rows;
  }
}

// A fresh database in the test cluster. A connection costs a process on
// the server, so each batch is one psql.
let databases = 0;
class Postgres {
  constructor() {
    const db = `schema_${process.pid}_${++databases}`;
    const uri = (name) => run(PG_CLUSTER, ['uri', CLUSTER, name]).out.trim();
    const r = run('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', uri('postgres'), '-c', `CREATE DATABASE ${db}`]);
    assert.ok(r.ok, `CREATE DATABASE ${db} failed: ${r.err}`);
    this.uri = uri(db);
    this.name = 'PostgreSQL';
  }

  psql(args, input = '') {
    return run('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', this.uri, ...args], input);
  }

  exec(sql) {
    return this.psql(['-1'], `${sql};\n`);
  }

  // As Sqlite's batch; a migration is applied with \i in a transaction of
  // its own. Each query prints one line: its rows as one JSON array.
  batch(steps) {
    const script = steps.map((step) => {
      if (step.query !== undefined) return `SELECT coalesce(jsonb_agg(q), '[]') FROM (${step.query}) q;`;
      if (step.migrate !== undefined) return `BEGIN;\n\\i '${step.migrate.path}'\nCOMMIT;`;
      return `BEGIN;\n${step.exec};\nCOMMIT;`;
    }).join('\n');
    const r = this.psql([], `${script}\n`);
    assert.ok(r.ok, `PostgreSQL: a batch failed: ${r.err}`);
    return r.out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  }
}

const migrate = (dir, from, to) => migrations(dir).filter((m) => m.number > from && m.number <= to)
  .map((m) => ({ migrate: m }));

// Both databases, migrated to `version` (all by default).
function pair(version = Infinity) {
  const dbs = { lite: new Sqlite(), pg: new Postgres() };
  dbs.lite.batch(migrate(SQLITE_DIR, 0, version));
  dbs.pg.batch(migrate(PG_DIR, 0, version));
  return dbs;
}

// ---- The schema of each side, in one shape ----
//
// { relations: {name: {kind, columns: [{name, type, notnull, default, identity}],
//   pk, uniques: [], fks: [], checks}}, indexes: {name: text},
//   triggers: {name: text} }, where type is a coarse class: integer
// (BIGINT on PostgreSQL), text, text nocase (citext), blob (BYTEA).

// An index's partial condition, without the brackets and spacing each
// engine writes its own way.
const predicate = (p) => (p ? p.replace(/[()]/g, '').replace(/\s+/g, ' ').trim().toLowerCase() : '');
const indexText = (table, cols, unique, pred) =>
  `ON ${table} (${cols})${unique ? ' UNIQUE' : ''}${pred ? ` WHERE ${predicate(pred)}` : ''}`;

// What a trigger fires on: "AFTER UPDATE OF first, listed ON board_entries".
function triggerText(sql) {
  const m = /CREATE\s+TRIGGER\s+\w+\s+(BEFORE|AFTER|INSTEAD\s+OF)\s+(INSERT|DELETE|UPDATE)(\s+OF\s+[\w\s,]+?)?\s+ON\s+(?:public\.)?(\w+)/i
    .exec(sql);
  if (!m) return `unreadable: ${sql}`;
  const of = m[3] ? ` OF ${m[3].replace(/^\s+OF\s+/i, '').split(',').map((c) => c.trim()).join(', ')}` : '';
  return `${m[1].replace(/\s+/g, ' ').toUpperCase()} ${m[2].toUpperCase()}${of} ON ${m[4]}`;
}

// The column definitions of a CREATE TABLE, split at top-level commas,
// without comments.
function definitions(sql) {
  const body = sql.replace(/--[^\n]*/g, '');
  const open = body.indexOf('(');
  const parts = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < body.length; i++) {
    if (body[i] === '(') depth++;
    else if (body[i] === ')' && depth-- === 0) {
      parts.push(body.slice(start, i));
      break;
    } else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  return parts.map((p) => p.trim());
}

// A column's default as both engines would agree on it: PostgreSQL adds
// casts ('none'::text) that SQLite does not write.
const defaultText = (d) => (d === null || d === undefined ? null : d.replace(/::[\w ]+/g, ''));

function sqliteClass(decl, nocase) {
  const t = decl.toUpperCase();
  if (t === 'INTEGER') return 'integer';
  if (t === 'TEXT') return nocase ? 'text nocase' : 'text';
  if (t === 'BLOB') return 'blob';
  return `${decl || 'untyped'} (not INTEGER, TEXT or BLOB)`;
}

function pgClass(type) {
  if (type === 'bigint') return 'integer';
  if (type === 'text') return 'text';
  if (type === 'citext') return 'text nocase';
  if (type === 'bytea') return 'blob';
  return `${type} (not BIGINT, TEXT, citext or BYTEA)`;
}

// What sqliteSchema reads: the objects, then every table's columns,
// indexes and foreign keys.
const SQLITE_SCHEMA = [
  "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'",
  `SELECT m.name AS tbl, p.name, p.type, p."notnull", p.dflt_value, p.pk FROM sqlite_master m
     JOIN pragma_table_info(m.name) p WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid`,
  `SELECT m.name AS tbl, il.name, il."unique", il.origin, il.partial,
       (SELECT group_concat(name, ', ') FROM (SELECT name FROM pragma_index_info(il.name) ORDER BY seqno)) AS cols
     FROM sqlite_master m JOIN pragma_index_list(m.name) il WHERE m.type = 'table'`,
  `SELECT m.name AS tbl, f.id, f."table" AS ref, f."from", f."to", f.on_delete, f.on_update FROM sqlite_master m
     JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table' ORDER BY m.name, f.id, f.seq`,
].map((query) => ({ query }));

function sqliteSchema([objects, columns, indexes, fks]) {
  const schema = { relations: {}, indexes: {}, triggers: {} };
  const sqlOf = Object.fromEntries(objects.map((o) => [o.name, o.sql]));
  for (const o of objects.filter((x) => x.type === 'table' || x.type === 'view')) {
    const withoutRowid = /\)\s*WITHOUT\s+ROWID\s*$/i.test(o.sql);
    const nocase = new Set(definitions(o.sql).filter((d) => /\bCOLLATE\s+NOCASE\b/i.test(d))
      .map((d) => d.split(/\s+/)[0].toLowerCase()));
    const checks = (o.sql.replace(/--[^\n]*/g, '').match(/\bCHECK\s*\(/gi) ?? []).length;
    const info = columns.filter((c) => c.tbl === o.name);
    const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    // A rowid table's only INTEGER PRIMARY KEY is its rowid: never NULL,
    // and made by SQLite when an insert leaves it out.
    const rowid = o.type === 'table' && !withoutRowid && pk.length === 1 && pk[0].type.toUpperCase() === 'INTEGER';
    const fk = fks.filter((f) => f.tbl === o.name);
    schema.relations[o.name] = {
      kind: o.type,
      columns: info.map((c) => ({
        name: c.name,
        // A view's column has the type of the column it shows, or none.
        type: o.type === 'view' && c.type === '' ? '' : sqliteClass(c.type, nocase.has(c.name.toLowerCase())),
        notnull: c.notnull === 1 || (c.pk > 0 && (withoutRowid || rowid)),
        default: defaultText(c.dflt_value),
        identity: rowid && c.pk > 0,
      })),
      pk: pk.map((c) => c.name).join(', '),
      uniques: indexes.filter((ix) => ix.tbl === o.name && ix.origin === 'u').map((ix) => `(${ix.cols})`),
      fks: [...new Set(fk.map((f) => f.id))].map((id) => {
        const parts = fk.filter((f) => f.id === id);
        return `(${parts.map((f) => f.from).join(', ')}) REFERENCES ${parts[0].ref} ` +
          `(${parts.map((f) => f.to).join(', ')}) ON DELETE ${parts[0].on_delete} ON UPDATE ${parts[0].on_update}`;
      }),
      checks,
      autoincrement: /\bAUTOINCREMENT\b/i.test(o.sql),
    };
  }
  for (const ix of indexes.filter((x) => x.origin === 'c')) {
    const pred = ix.partial ? /\bWHERE\b([\s\S]*)$/i.exec(sqlOf[ix.name])[1] : '';
    schema.indexes[ix.name] = indexText(ix.tbl, ix.cols, ix.unique === 1, pred);
  }
  for (const o of objects.filter((x) => x.type === 'trigger')) schema.triggers[o.name] = triggerText(o.sql);
  return schema;
}

const PG_ACTIONS = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

// What pgSchema reads: the tables and views with their columns, the
// indexes (with what each backs: p primary key, u unique constraint, or
// nothing for CREATE INDEX), the CHECKs and foreign keys, the triggers.
const PUBLIC = "JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'";
const PG_SCHEMA = [
  `SELECT t.relname AS tbl, t.relkind, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull,
       a.attidentity, pg_get_expr(d.adbin, d.adrelid) AS dflt
     FROM pg_class t LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     ${PUBLIC} AND t.relkind IN ('r', 'v') ORDER BY t.relname, a.attnum`,
  `SELECT t.relname AS tbl, ic.relname AS idx, i.indisunique, pg_get_expr(i.indpred, i.indrelid) AS pred,
       (SELECT string_agg(a.attname, ', ' ORDER BY k.ord)
          FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k (attnum, ord)
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS cols,
       (SELECT co.contype FROM pg_constraint co
          WHERE co.conindid = i.indexrelid AND co.conrelid = i.indrelid AND co.contype IN ('p', 'u')) AS backs
     FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid ${PUBLIC}`,
  `SELECT co.contype, t.relname AS tbl, r.relname AS ref, co.confdeltype, co.confupdtype,
       (SELECT string_agg(a.attname, ', ' ORDER BY k.ord) FROM unnest(co.conkey) WITH ORDINALITY AS k (attnum, ord)
          JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = k.attnum) AS cols,
       (SELECT string_agg(a.attname, ', ' ORDER BY k.ord) FROM unnest(co.confkey) WITH ORDINALITY AS k (attnum, ord)
          JOIN pg_attribute a ON a.attrelid = co.confrelid AND a.attnum = k.attnum) AS refcols
     FROM pg_constraint co JOIN pg_class t ON t.oid = co.conrelid LEFT JOIN pg_class r ON r.oid = co.confrelid
     ${PUBLIC} AND co.contype IN ('c', 'f')`,
  `SELECT tg.tgname, pg_get_triggerdef(tg.oid) AS def FROM pg_trigger tg JOIN pg_class t ON t.oid = tg.tgrelid
     ${PUBLIC} AND NOT tg.tgisinternal`,
].map((query) => ({ query }));

function pgSchema([columns, indexes, constraints, triggers]) {
  const schema = { relations: {}, indexes: {}, triggers: {} };
  for (const c of columns) {
    schema.relations[c.tbl] ??= {
      kind: c.relkind === 'v' ? 'view' : 'table', columns: [], pk: '', uniques: [], fks: [], checks: 0,
    };
    if (c.attname === null) continue;
    schema.relations[c.tbl].columns.push({
      name: c.attname,
      type: pgClass(c.type),
      notnull: c.attnotnull,
      default: defaultText(c.dflt),
      identity: c.attidentity !== '',
      identityKind: c.attidentity,
    });
  }
  for (const ix of indexes) {
    if (ix.backs === 'p') schema.relations[ix.tbl].pk = ix.cols;
    else if (ix.backs === 'u') schema.relations[ix.tbl].uniques.push(`(${ix.cols})`);
    else schema.indexes[ix.idx] = indexText(ix.tbl, ix.cols, ix.indisunique, ix.pred);
  }
  for (const co of constraints) {
    if (co.contype === 'c') schema.relations[co.tbl].checks++;
    else {
      schema.relations[co.tbl].fks.push(`(${co.cols}) REFERENCES ${co.ref} (${co.refcols}) ` +
        `ON DELETE ${PG_ACTIONS[co.confdeltype]} ON UPDATE ${PG_ACTIONS[co.confupdtype]}`);
    }
  }
  for (const t of triggers) schema.triggers[t.tgname] = triggerText(t.def);
  return schema;
}

// Every difference between the two schemas, one line each, naming the
// table (and column) and both sides.
function differences(lite, pg) {
  const out = [];
  const differ = (what, a, b) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      out.push(`${what}: SQLite ${JSON.stringify(a)}, PostgreSQL ${JSON.stringify(b)}`);
    }
  };
  const names = (o) => Object.keys(o).sort();
  const sets = (what, a, b) => {
    const only = (x, y) => names(x).filter((n) => !(n in y));
    if (only(a, b).length || only(b, a).length) {
      out.push(`${what}: only in SQLite ${JSON.stringify(only(a, b))}, only in PostgreSQL ${JSON.stringify(only(b, a))}`);
    }
  };
  sets('tables and views', lite.relations, pg.relations);
  for (const name of names(lite.relations).filter((n) => pg.relations[n])) {
    const a = lite.relations[name];
    const b = pg.relations[name];
    const what = `${a.kind} ${name}`;
    differ(`${what}: kind`, a.kind, b.kind);
    differ(`${what}: columns`, a.columns.map((c) => c.name), b.columns.map((c) => c.name));
    for (const ca of a.columns) {
      const cb = b.columns.find((c) => c.name === ca.name);
      if (!cb) continue;
      // Where SQLite's view column has no type, PostgreSQL's still has one
      // of the four, as board_entries' columns do.
      if (ca.type !== '') differ(`${what}, column ${ca.name}: type`, ca.type, cb.type);
      else if (cb.type.includes('(not ')) out.push(`${what}, column ${ca.name}: type ${cb.type} on PostgreSQL`);
      if (a.kind === 'table') {
        differ(`${what}, column ${ca.name}: NOT NULL`, ca.notnull, cb.notnull);
        differ(`${what}, column ${ca.name}: default`, ca.default, cb.default);
      }
      // SQLite's rowid ids are identities BY DEFAULT, except a key that is
      // another table's id (user_settings.user_id): it is never made here.
      const foreign = a.fks.some((f) => f.startsWith(`(${ca.name}) `));
      differ(`${what}, column ${ca.name}: an identity`, ca.identity && !foreign, cb.identity);
      if (cb.identity) differ(`${what}, column ${ca.name}: identity kind (d: BY DEFAULT)`, 'd', cb.identityKind);
    }
    differ(`${what}: primary key`, a.pk, b.pk);
    differ(`${what}: unique constraints`, [...a.uniques].sort(), [...b.uniques].sort());
    differ(`${what}: foreign keys`, [...a.fks].sort(), [...b.fks].sort());
    differ(`${what}: CHECK constraints`, a.checks, b.checks);
  }
  sets('indexes', lite.indexes, pg.indexes);
  for (const name of names(lite.indexes).filter((n) => pg.indexes[n])) {
    differ(`index ${name}`, lite.indexes[name], pg.indexes[name]);
  }
  sets('triggers', lite.triggers, pg.triggers);
  for (const name of names(lite.triggers).filter((n) => pg.triggers[n])) {
    differ(`trigger ${name}`, lite.triggers[name], pg.triggers[name]);
  }
  return out;
}

test('both folders hold the same migrations, by number and name', () => {
  const lite = migrations(SQLITE_DIR).map((m) => m.file);
  const pg = migrations(PG_DIR).map((m) => m.file);
  assert.ok(lite.length > 0, `no migrations in ${SQLITE_DIR}`);
  assert.deepEqual(pg, lite, `migrations/postgresql against migrations/`);
  // The runner applies each file in a transaction of its own and records
  // its version: a file that did either would break that. (Function bodies,
  // between $$, hold BEGIN and END of their own.)
  for (const m of migrations(PG_DIR)) {
    const text = fs.readFileSync(m.path, 'utf8').replace(/--[^\n]*/g, '').replace(/\$\$[\s\S]*?\$\$/g, '');
    assert.doesNotMatch(text, /^\s*(BEGIN|START\s+TRANSACTION|COMMIT|END|ROLLBACK)\s*;/im,
      `${m.file} ends or starts a transaction`);
    assert.doesNotMatch(text, /user_version|schema_version/i, `${m.file} keeps a version of its own`);
  }
});

test('each PostgreSQL migration gives the schema of its SQLite one', () => {
  const lite = new Sqlite();
  const pg = new Postgres();
  // Migrate one version at a time, reading the schema after each, in one
  // batch per database.
  const sqliteFiles = migrations(SQLITE_DIR);
  const pgFiles = migrations(PG_DIR);
  for (const m of sqliteFiles) assert.ok(pgFiles.some((x) => x.number === m.number), `no PostgreSQL migration ${m.file}`);
  const a = lite.batch(sqliteFiles.flatMap((m) => [{ migrate: m }, ...SQLITE_SCHEMA]));
  const b = pg.batch(pgFiles.flatMap((m) => [{ migrate: m }, ...PG_SCHEMA]));
  sqliteFiles.forEach((m, i) => {
    const found = differences(sqliteSchema(a.slice(i * SQLITE_SCHEMA.length, (i + 1) * SQLITE_SCHEMA.length)),
      pgSchema(b.slice(i * PG_SCHEMA.length, (i + 1) * PG_SCHEMA.length)));
    assert.deepEqual(found, [], `after ${m.file}, the schemas differ:\n${found.join('\n')}`);
  });
});

// Runs `sql` on both in one transaction; both must succeed, or both fail
// when `fails`.
function both(dbs, sql, fails = false) {
  for (const db of [dbs.lite, dbs.pg]) {
    const r = db.exec(sql);
    assert.equal(!r.ok, fails, `${db.name}: ${sql}\n${fails ? 'succeeded, but must fail' : `failed: ${r.err}`}`);
  }
}

// Runs the same steps on both (see Sqlite's batch); each query must give
// the same rows on both, in the same order. Returns SQLite's rows.
function same(dbs, steps) {
  const a = dbs.lite.batch(steps);
  const b = dbs.pg.batch(steps);
  let q = 0;
  let done = 'after the setup';
  for (const step of steps) {
    if (step.query === undefined) {
      done = `after ${step.exec ?? step.migrate.file}`;
      continue;
    }
    assert.deepEqual(b[q], a[q], `${done}, ${step.query}: PostgreSQL's rows (actual) against SQLite's (expected)`);
    q++;
  }
  return a;
}

const user = (name) => `INSERT INTO users (username, password_hash, guest, created_at) VALUES ('${name}', 'h', 0, 1)`;

test('usernames are unique and found regardless of case', () => {
  const dbs = pair();
  both(dbs, `${user('Alice')}; ${user('bob')}; ${user('Carol')}; ${user('dave')}`);
  both(dbs, user('alice'), true);
  both(dbs, user('BOB'), true);
  both(dbs, "UPDATE users SET username = 'CAROL' WHERE username = 'dave'", true);
  // Only the case is ignored: a space still makes another name.
  both(dbs, user('alice '));
  const [found] = same(dbs, [
    { query: "SELECT id, username FROM users WHERE username = 'aLiCe'" },
    { query: "SELECT username FROM users WHERE username IN ('BOB', 'carol') ORDER BY id" },
    { query: 'SELECT username FROM users ORDER BY username, id' },
    // Not the ids: a refused insert uses up an identity's value on
    // PostgreSQL (a gap, never a reuse), not an AUTOINCREMENT's on SQLite.
    { query: 'SELECT username, guest, admin, devices_epoch FROM users ORDER BY created_at, username' },
  ]);
  assert.deepEqual(found, [{ id: 1, username: 'Alice' }], 'the name found regardless of case');
});

// One user, collection, level, game, room and solution, a reference
// solution, an audit entry and an upload: a row of each table with ids of
// its own but the jobs (an upload's).
const WORLD = `INSERT INTO users (guest, created_at) VALUES (1, 1);
  INSERT INTO collections (name, source, created_at) VALUES ('c', 'c.sok', 1);
  INSERT INTO levels (collection_id, position, board, width, height, boxes, canonical_hash, created_at)
    VALUES (1, 1, '#', 1, 1, 1, '0000000000000001', 1);
  INSERT INTO games (user_id, level_id, created_at, updated_at) VALUES (1, 1, 1, 1);
  INSERT INTO rooms (host_id, level_id, source, created_at) VALUES (1, 1, 'chosen', 1);
  INSERT INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at) VALUES (1, 1, 1, 1, 'r', 1);
  INSERT INTO reference_solutions (level_id, lurd, moves, pushes, created_at) VALUES (1, 'r', 1, 1, 1);
  INSERT INTO audit_log (at, actor, action) VALUES (1, 'command line', 'test');
  INSERT INTO staged_uploads (owner_id, filename, format, size, state, created_at, used_at) VALUES (1, 'w', 'auto', 1, 'receiving', 1, 1)`;

// Another row of each table with ids, beside the rows of WORLD.
const ROW = {
  users: 'INSERT INTO users (guest, created_at) VALUES (1, 2)',
  collections: "INSERT INTO collections (name, source, created_at) VALUES ('n' || (SELECT count(*) FROM collections), 'c.sok', 1)",
  levels: `INSERT INTO levels (collection_id, position, board, width, height, boxes, canonical_hash, created_at)
    VALUES (1, 10 + (SELECT count(*) FROM levels), '#', 1, 1, 1, '0000000000000002', 1)`,
  games: `INSERT INTO games (user_id, level_id, room_id, round, created_at, updated_at)
    VALUES (1, 1, 1, 2 + (SELECT count(*) FROM games), 1, 1)`,
  rooms: "INSERT INTO rooms (host_id, level_id, source, created_at) VALUES (1, 1, 'random', 1)",
  solutions: `INSERT INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at)
    VALUES (1, 1, 1, 1, 'r' || (SELECT count(*) FROM solutions), 1)`,
  // PostgreSQL's alone, as the tables without AUTOINCREMENT are.
  submitted_solutions: `INSERT INTO submitted_solutions (user_id, level_id, moves, pushes, lurd, lurd_hash, submitted_at)
    SELECT 1, 1, 1, 1, l, sha256(convert_to(l, 'UTF8')), 1
    FROM (SELECT 'r' || (SELECT count(*) FROM submitted_solutions) AS l) AS line`,
  reference_solutions: `INSERT INTO reference_solutions (level_id, lurd, moves, pushes, created_at)
    VALUES (1, 'x' || (SELECT count(*) FROM reference_solutions), 1, 1, 1)`,
  audit_log: "INSERT INTO audit_log (at, actor, action) VALUES (2, 'command line', 'test')",
  snapshots: "INSERT INTO snapshots (game_id, name, lurd, moves, pushes, solved, created_at) VALUES (1, 's', '', 0, 0, 0, 1)",
  // One report per player and level: each by a new player.
  community_reports: `INSERT INTO community_levels (level_id, author_id, canonical_hash, bytes, published_at)
    VALUES (1, 1, '0000000000000001', 0, 1) ON CONFLICT DO NOTHING;
    INSERT INTO users (guest, created_at) VALUES (1, 3);
    INSERT INTO community_reports (level_id, user_id, reason, created_at)
    VALUES (1, (SELECT max(id) FROM users), 'r', 1)`,
  staged_uploads: "INSERT INTO staged_uploads (owner_id, filename, format, size, state, created_at, used_at) VALUES (1, 'f', 'auto', 1, 'receiving', 1, 1)",
  jobs: "INSERT INTO jobs (kind, upload_id, created_at) VALUES ('upload_check', (SELECT min(id) FROM staged_uploads), 1)",
};

test('ids are never given twice, even after the newest row is deleted', () => {
  const dbs = pair();
  both(dbs, WORLD);
  const lite = sqliteSchema(dbs.lite.batch(SQLITE_SCHEMA));
  const pg = pgSchema(dbs.pg.batch(PG_SCHEMA));
  const identities = Object.keys(pg.relations).filter((t) => pg.relations[t].columns.some((c) => c.identity)).sort();
  assert.deepEqual(identities, Object.keys(ROW).sort(), 'the tables with ids of their own (ROW needs a row of each)');
  // Each table: two rows, the newest deleted, one more, each step in a
  // transaction of its own.
  const steps = (table) => [
    { exec: ROW[table] }, { exec: ROW[table] },
    { query: `SELECT max(id) AS id FROM ${table}` },
    { exec: `DELETE FROM ${table} WHERE id = (SELECT max(id) FROM ${table})` },
    { exec: ROW[table] },
    { query: `SELECT max(id) AS id FROM ${table}` },
  ];
  // SQLite keeps the promise for its AUTOINCREMENT tables only: in the
  // others it gives the newest id again once its row is deleted, which
  // PostgreSQL's identities never do.
  const kept = identities.filter((t) => lite.relations[t].autoincrement);
  for (const table of ['games', 'rooms', 'users']) {
    assert.ok(kept.includes(table), `SQLite's ${table} has AUTOINCREMENT (migration 0012)`);
  }
  const a = same(dbs, kept.flatMap(steps));
  const b = dbs.pg.batch(identities.filter((t) => !kept.includes(t)).flatMap(steps));
  for (const [rows, tables, name] of [[a, kept, 'both'], [b, identities.filter((t) => !kept.includes(t)), 'PostgreSQL']]) {
    tables.forEach((table, i) => {
      const [[{ id: deleted }], [{ id: next }]] = rows.slice(2 * i, 2 * i + 2);
      assert.equal(next, deleted + 1, `${name}: the ${table} row made after deleting id ${deleted}`);
    });
  }
});

// ---- The leaderboards' triggers ----

// 2026-01-02 (UTC), the day level 2 is the puzzle of, and the day after.
const DAY = 1767315600;
const NEXT = DAY + 86400;
const ANN = 1, GUEST = 2, BOB = 3, HAL = 4, CAT = 5;
const BOARD_WORLD = `INSERT INTO collections (name, source, created_at) VALUES ('boards', 'boards.sok', 0);
  INSERT INTO levels (collection_id, position, board, width, height, boxes, canonical_hash, created_at)
    VALUES (1, 1, '#', 1, 1, 1, '0000000000000001', 0), (1, 2, '#', 1, 1, 1, '0000000000000002', 0);
  INSERT INTO daily (day, level_id, created_at) VALUES ('2026-01-02', 2, 0);
  INSERT INTO users (username, password_hash, guest, created_at)
    VALUES ('ann', 'x', 0, 0), (NULL, NULL, 1, 0), ('bob', 'x', 0, 0), (NULL, NULL, 1, 0), ('cat', 'x', 0, 0)`;
const solution = (u, level, moves, pushes, lurd, at, hints = 0, rule = 0) =>
  'INSERT INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at, hints, rule) ' +
  `VALUES (${u}, ${level}, ${moves}, ${pushes}, '${lurd}', ${at}, ${hints}, ${rule})`;

// Each case of the triggers of 0007 and the claims of 0013, in order.
const BOARD_STEPS = [
  solution(ANN, 1, 10, 4, 'a', DAY), // a first solution
  solution(ANN, 1, 12, 3, 'b', DAY + 1), // fewer pushes, more moves
  solution(ANN, 1, 10, 4, 'c', DAY + 2), // the same counts later
  solution(ANN, 1, 10, 4, 'd', DAY), // the same counts at the same time
  solution(ANN, 1, 10, 4, 'e', DAY - 5), // the same counts earlier
  solution(ANN, 1, 13, 5, 'f', DAY + 3), // worse
  solution(ANN, 1, 8, 2, 'g', DAY + 4, 2), // hinted
  solution(ANN, 1, 5, 1, 'h', DAY + 5, 0, 1), // multi-push
  solution(ANN, 2, 20, 6, 'a', DAY), // on the daily puzzle's day
  solution(ANN, 2, 18, 5, 'b', NEXT), // the day after
  solution(ANN, 2, 30, 9, 'c', DAY + 6, 1), // hinted, on the day
  solution(CAT, 1, 10, 3, 'c', DAY), // into the buckets of ann's first counts
  solution(GUEST, 1, 9, 5, 'g', DAY), // a guest: ranked, not listed
  solution(GUEST, 2, 15, 7, 'g', DAY),
  solution(GUEST, 2, 16, 6, 'g2', DAY + 10),
  solution(GUEST, 2, 14, 8, 'g3', NEXT),
  solution(BOB, 1, 7, 6, 'b1', DAY),
  solution(BOB, 2, 30, 9, 'g', DAY),
  solution(GUEST, 2, 40, 10, 'gt', DAY, 1),
  solution(BOB, 2, 40, 10, 'bt', DAY, 1), // a tie with the guest's
  // The guest's solutions join the account, but for a line it has.
  `UPDATE solutions SET user_id = ${BOB} WHERE user_id = ${GUEST} AND NOT EXISTS (SELECT 1 FROM solutions o
     WHERE o.user_id = ${BOB} AND o.level_id = solutions.level_id AND o.lurd = solutions.lurd)`,
  'UPDATE solutions SET user_id = user_id', // no solution changes user
  `DELETE FROM solutions WHERE user_id = ${BOB} AND lurd = 'b1'`,
  `INSERT INTO board_claims (solution_id) SELECT id FROM solutions WHERE user_id = ${BOB}`,
  `DELETE FROM users WHERE id = ${GUEST}`,
  solution(HAL, 1, 11, 2, 'x', DAY),
  `UPDATE users SET guest = 0, username = 'hal', password_hash = 'x' WHERE id = ${HAL}`, // listed from now
  solution(HAL, 1, 6, 1, 'y', DAY + 20), // moves a listed player's bucket
  // No request turns an account back into a guest, but the trigger holds
  // both ways.
  `UPDATE users SET guest = 1, username = NULL, password_hash = NULL WHERE id = ${CAT}`,
  `DELETE FROM users WHERE id = ${ANN}`,
  'DELETE FROM levels WHERE id = 1',
];

const ENTRIES = { query: 'SELECT * FROM board_entries ORDER BY level_id, board, hinted, user_id' };
const BUCKETS = { query: 'SELECT * FROM board_buckets ORDER BY level_id, board, hinted, first' };
const CLAIMS = { query: 'SELECT * FROM board_claims ORDER BY solution_id, board' };

// The steps on both databases at `version`, comparing the boards after each.
function boardSteps(version) {
  const dbs = pair(version);
  both(dbs, BOARD_WORLD);
  const steps = BOARD_STEPS.filter((sql) => version >= 13 || !sql.includes('board_claims'));
  const claims = version >= 13 ? [CLAIMS] : [];
  const rows = same(dbs, steps.flatMap((exec) => [{ exec }, ENTRIES, BUCKETS, ...claims]));
  assert.ok(rows.some((r) => r.some((b) => b.players > 1)), 'some bucket holds two players');
  assert.ok(rows.some((r) => r.some((e) => e.board === 3 && e.hinted === 1)), 'a hinted daily board has a row');
}

test('the leaderboards\' triggers write the same rows on both', () => boardSteps(Infinity));

test('the triggers of 0007, before 0013 replaced them, write the same rows on both', () => boardSteps(12));

test('rows written before the leaderboards are carried through every later migration', () => {
  // At version 6: solutions without hints or rule, games with hints, and a
  // daily puzzle; migrations 0007 on must rank them the same way.
  const dbs = pair(6);
  both(dbs, `${BOARD_WORLD};
    INSERT INTO games (user_id, level_id, hints, created_at, updated_at) VALUES (${ANN}, 1, 0, 0, 0), (${ANN}, 2, 3, 0, 0),
      (${GUEST}, 1, 1, 0, 0);
    INSERT INTO solutions (user_id, level_id, game_id, moves, pushes, lurd, solved_at) VALUES
      (${ANN}, 1, 1, 10, 4, 'a', ${DAY}), (${ANN}, 1, 1, 12, 3, 'b', ${DAY}), (${ANN}, 2, 2, 20, 6, 'c', ${DAY}),
      (${ANN}, 2, 2, 18, 5, 'd', ${NEXT}), (${GUEST}, 1, 3, 9, 5, 'e', ${DAY}), (${BOB}, 2, NULL, 21, 6, 'f', ${DAY})`);
  dbs.lite.batch(migrate(SQLITE_DIR, 6, Infinity));
  dbs.pg.batch(migrate(PG_DIR, 6, Infinity));
  // A line's hash (0019) is sokod's to compute on SQLite, which the CLI
  // here is not: every other column must match.
  const solutionColumns = 'id, user_id, level_id, game_id, moves, pushes, lurd, solved_at, hints, rule, legacy';
  const rows = same(dbs, ['users', 'games', 'solutions', 'board_entries', 'board_buckets']
    .map((table) => ({
      query: `SELECT ${table === 'solutions' ? solutionColumns : '*'} FROM ${table} ORDER BY 1, 2, 3, 4`,
    })));
  assert.ok(rows[3].length > 0, 'the old solutions are on the boards');
  assert.ok(rows[3].some((e) => e.board === 2 && e.hinted === 1), 'the hints of an old game count');
});
