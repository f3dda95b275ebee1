// Health and metrics: GET /healthz, GET /readyz (the database answers with
// the schema this node knows) and GET /metrics in the Prometheus text
// format (0.0.4), read here by a small parser of that format, with counters
// that move with the requests, and readable only by --metrics-allow.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BACKEND, SOURCE, SQL, openGame, rawRequest, show, sqlite, startServerWithLevels, stopCleanly } from './harness.mjs';
import { EventStream } from './sse.mjs';

// The newest migration this checkout knows: what /readyz expects.
const NEWEST = fs.readdirSync(path.join(SOURCE, 'migrations')).filter((f) => /^\d{4}_.*\.sql$/.test(f)).length;

// Reads the text exposition format (version 0.0.4) into families by name:
// {type, help, samples: [{name, labels, value}]}. Throws, naming the line,
// on anything the format does not allow: a sample before its TYPE, a
// malformed label set or value, a TYPE given twice.
function parseExposition(text) {
  const families = new Map();
  const familyOf = (sample) => {
    if (families.has(sample)) return families.get(sample);
    for (const suffix of ['_bucket', '_sum', '_count']) {
      const base = sample.endsWith(suffix) ? sample.slice(0, -suffix.length) : null;
      if (base !== null && families.get(base)?.type === 'histogram') return families.get(base);
    }
    return undefined;
  };
  const lines = text.split('\n');
  assert.equal(lines.pop(), '', 'the text ends with a newline');
  lines.forEach((line, i) => {
    const where = `line ${i + 1}: ${line}`;
    let m = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (m) {
      const f = families.get(m[2]) ?? { type: undefined, help: undefined, samples: [] };
      families.set(m[2], f);
      if (m[1] === 'HELP') f.help = m[3];
      else {
        assert.equal(f.type, undefined, `TYPE given twice, ${where}`);
        assert.ok(['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(m[3]), `unknown type, ${where}`);
        f.type = m[3];
      }
      return;
    }
    assert.ok(!line.startsWith('#') || line.startsWith('# '), `a comment, ${where}`);
    if (line.startsWith('#') || line === '') return;
    m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ([^ ]+)$/.exec(line);
    assert.ok(m, `not a sample, ${where}`);
    const labels = {};
    if (m[2] !== undefined && m[2] !== '') {
      const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;
      let at = 0;
      while (at < m[2].length) {
        re.lastIndex = at;
        const l = re.exec(m[2]);
        assert.ok(l, `a bad label set, ${where}`);
        labels[l[1]] = l[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
        at = re.lastIndex;
      }
    }
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    assert.ok(!Number.isNaN(value) || m[3] === 'NaN', `a bad value, ${where}`);
    const f = familyOf(m[1]);
    assert.ok(f?.type !== undefined, `a sample with no TYPE before it, ${where}`);
    f.samples.push({ name: m[1], labels, value });
  });
  return families;
}

// Checks what Prometheus expects of each family's samples: counters named
// *_total, and histograms with cumulative buckets ending at +Inf that equal
// _count, and a _sum.
function checkFamilies(families) {
  for (const [name, f] of families) {
    assert.ok(f.help && f.type, `${name} has HELP and TYPE`);
    if (f.type === 'counter') assert.match(name, /_total$/, `the counter ${name}`);
    if (f.type !== 'histogram') continue;
    const buckets = f.samples.filter((s) => s.name === `${name}_bucket`);
    assert.ok(buckets.length >= 2, `${name} has buckets`);
    let last = -1;
    let lastLe = -Infinity;
    for (const b of buckets) {
      const le = b.labels.le === '+Inf' ? Infinity : Number(b.labels.le);
      assert.ok(le > lastLe, `${name}: buckets in increasing le, ${b.labels.le} after ${lastLe}`);
      assert.ok(b.value >= last, `${name}: bucket le=${b.labels.le} holds ${b.value}, fewer than the one before (${last})`);
      last = b.value;
      lastLe = le;
    }
    assert.equal(buckets.at(-1).labels.le, '+Inf', `${name}: the last bucket is +Inf`);
    const count = f.samples.find((s) => s.name === `${name}_count`);
    const sum = f.samples.find((s) => s.name === `${name}_sum`);
    assert.ok(count && sum, `${name} has _count and _sum`);
    assert.equal(count.value, last, `${name}: _count equals the +Inf bucket`);
  }
}

// Scrapes /metrics from loopback: the families, checked.
async function scrape(server) {
  const r = await rawRequest(server.url, 'GET', '/metrics');
  assert.equal(r.status, 200, show(r));
  assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  const families = parseExposition(r.text);
  checkFamilies(families);
  return families;
}

// The value of one sample (0 when the series is absent).
function valueOf(families, family, name, labels = {}) {
  const f = families.get(family);
  assert.ok(f, `no family ${family}`);
  const s = f.samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return s ? s.value : 0;
}

const requests = (fam, labels) => valueOf(fam, 'sokod_http_requests_total', 'sokod_http_requests_total', labels);

test('/healthz and /readyz answer a probe without a session, and 200s stay out of the access log', async () => {
  const { server } = await startServerWithLevels();
  try {
    const alive = await rawRequest(server.url, 'GET', '/healthz');
    assert.equal(alive.status, 200, show(alive));
    assert.deepEqual(alive.json, { status: 'ok' });
    assert.equal(alive.headers['set-cookie'], undefined, 'a probe gets no session');
    assert.equal((await rawRequest(server.url, 'HEAD', '/healthz')).status, 200);
    const ready = await rawRequest(server.url, 'GET', '/readyz');
    assert.equal(ready.status, 200, show(ready));
    assert.deepEqual(ready.json, { status: 'ready', schema: NEWEST });
    // Load balancers probing fast are never refused: 300 probes, 30 at a time.
    const statuses = new Set();
    for (let round = 0; round < 10; round++) {
      const some = await Promise.all(Array.from({ length: 30 }, (_, i) => rawRequest(server.url, 'GET', i % 2 ? '/healthz' : '/readyz')));
      for (const r of some) statuses.add(r.status);
    }
    assert.deepEqual([...statuses], [200], 'every probe of 300 is answered 200');
    // Another request's line is written; wait for it, as the log is written in the background.
    await rawRequest(server.url, 'GET', '/api/v1/no-such-route');
    for (let i = 0; i < 200 && !server.stderr().includes('GET /api/v1/no-such-route 404'); i++) await new Promise((r) => setTimeout(r, 25));
    assert.match(server.stderr(), /GET \/api\/v1\/no-such-route 404/);
    assert.doesNotMatch(server.stderr(), /(GET|HEAD) \/(healthz|readyz) 200/, 'probes answered 200 are not logged');
  } finally {
    await stopCleanly(server);
  }
});

test('/readyz answers 503 while the database holds another schema than the node knows, and 200 again once it does', async () => {
  const { server } = await startServerWithLevels();
  try {
    sqlite(server.db, SQL.changeVersion(NEWEST + 1));
    let r = await rawRequest(server.url, 'GET', '/readyz');
    assert.equal(r.status, 503, `a database newer than the node: ${show(r)}`);
    assert.equal(r.json?.error?.code, 'unavailable', show(r));
    assert.equal(r.json?.reason, 'schema_newer', show(r));
    assert.match(r.json.error.message, new RegExp(`version ${NEWEST + 1}, this node's is ${NEWEST}`));
    sqlite(server.db, SQL.changeVersion(NEWEST - 1));
    r = await rawRequest(server.url, 'GET', '/readyz');
    assert.equal(r.status, 503, `a database older than the node: ${show(r)}`);
    assert.equal(r.json?.reason, 'schema_older', show(r));
    // The process is still alive meanwhile.
    assert.equal((await rawRequest(server.url, 'GET', '/healthz')).status, 200);
    sqlite(server.db, SQL.changeVersion(NEWEST));
    r = await rawRequest(server.url, 'GET', '/readyz');
    assert.equal(r.status, 200, `once the schema is the node's again: ${show(r)}`);
    for (let i = 0; i < 200 && !server.stderr().includes('GET /readyz 503'); i++) await new Promise((res) => setTimeout(res, 25));
    assert.match(server.stderr(), /GET \/readyz 503/, 'a failing probe is logged');
  } finally {
    await stopCleanly(server);
  }
});

test('/metrics parses as the text format, and its counters move with the requests', async () => {
  // A heartbeat each second finds a closed stream's client gone.
  const { server, ids } = await startServerWithLevels({ args: ['--heartbeat', '1'] });
  try {
    const player = server.client();
    const game = await openGame(player, ids[0]);
    const before = await scrape(server);
    const families = [...before.keys()].sort();
    assert.deepEqual(families, ['sokod_commit_batch_jobs', 'sokod_commit_queued_jobs', 'sokod_commit_round_trips',
      'sokod_database_errors_total', 'sokod_db_round_trips_total', 'sokod_game_cache_bytes', 'sokod_guests_storage_bytes',
      'sokod_http_requests_total', 'sokod_live_streams', 'sokod_room_lists_made_total', 'sokod_step_seconds']);
    const step = await player.post(`/api/v1/games/${game.id}/log`, { seq: game.seq + 1, steps: 'r' });
    assert.equal(step.status, 200, show(step));
    const bad = await rawRequest(server.url, 'GET', '/api/v1/no-such-route');
    assert.equal(bad.status, 404, show(bad));
    // A request is counted once it has ended on the server's side, which
    // may come a moment after its client read the answer.
    const logRoute = { method: 'POST', route: '/api/v1/games/{id}/log', code: '200' };
    const unmatched = { method: 'GET', route: 'unmatched', code: '404' };
    let after = await scrape(server);
    for (let i = 0; i < 100 && (requests(after, logRoute) === requests(before, logRoute) ||
      requests(after, unmatched) === requests(before, unmatched)); i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = await scrape(server);
    }
    const stepCount = (f) => valueOf(f, 'sokod_step_seconds', 'sokod_step_seconds_count');
    assert.equal(stepCount(after) - stepCount(before), 1, 'one step moves the step histogram\'s count by one');
    assert.ok(valueOf(after, 'sokod_step_seconds', 'sokod_step_seconds_sum') > valueOf(before, 'sokod_step_seconds', 'sokod_step_seconds_sum'), 'and its sum');
    const batches = (f) => valueOf(f, 'sokod_commit_batch_jobs', 'sokod_commit_batch_jobs_count');
    assert.equal(batches(after) - batches(before), 1, 'the step was committed in one batch');
    assert.equal(requests(after, logRoute) - requests(before, logRoute), 1, 'the step moves its route\'s series');
    assert.equal(requests(after, unmatched) - requests(before, unmatched), 1, 'the 404 moves its series');
    assert.ok(valueOf(after, 'sokod_game_cache_bytes', 'sokod_game_cache_bytes') > 0, 'the played game is in the cache');

    // Unknown paths, however many, add no series.
    const series = (f) => f.get('sokod_http_requests_total').samples.length;
    const seriesBefore = series(after);
    await Promise.all(Array.from({ length: 50 }, (_, i) => rawRequest(server.url, 'GET', `/api/v1/junk-${i}`)));
    await Promise.all(Array.from({ length: 20 }, (_, i) => rawRequest(server.url, 'BREW', `/pot-${i}`)));
    let flooded = await scrape(server);
    for (let i = 0; i < 100 && requests(flooded, unmatched) - requests(after, unmatched) < 50; i++) {
      await new Promise((r) => setTimeout(r, 20));
      flooded = await scrape(server);
    }
    assert.equal(requests(flooded, unmatched) - requests(after, unmatched), 50);
    // The BREW requests and the previous scrape's own series at most.
    assert.ok(series(flooded) <= seriesBefore + 2, `${series(flooded)} series after 70 odd requests, ${seriesBefore} before`);

    // A live stream counts while it is open.
    const stream = new EventStream(player, `?game=${game.id}`);
    await stream.opened;
    await stream.next('ready');
    assert.equal(valueOf(await scrape(server), 'sokod_live_streams', 'sokod_live_streams'), 1, 'one stream open');
    stream.close();
    let open = 1;
    for (let i = 0; i < 400 && open !== 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      open = valueOf(await scrape(server), 'sokod_live_streams', 'sokod_live_streams');
    }
    assert.equal(open, 0, 'the stream is no longer counted once closed');
  } finally {
    await stopCleanly(server);
  }
});

test('a database locked by another process moves the busy series of the database errors', async () => {
  const { server, ids } = await startServerWithLevels();
  let holder = null;
  try {
    const player = server.client();
    const game = await openGame(player, ids[0]);
    const busy = (f) => valueOf(f, 'sokod_database_errors_total', 'sokod_database_errors_total', { code: 'busy' });
    const before = await scrape(server);
    // Another process holds what a step must write: SQLite's write lock, or
    // on PostgreSQL the games table (a step reads its game's row FOR UPDATE).
    const postgres = BACKEND === 'postgresql';
    holder = spawn(postgres ? 'psql' : 'sqlite3', postgres ? ['-X', '-q', '-At', '-d', server.db] : [server.db],
      { stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    holder.stdout.on('data', (d) => { said += d; });
    holder.stdin.write(postgres
      ? "BEGIN; LOCK TABLE games IN EXCLUSIVE MODE; SELECT 'locked';\n"
      : "BEGIN EXCLUSIVE; INSERT INTO users (guest, created_at) VALUES (1, 0); SELECT 'locked';\n");
    while (!said.includes('locked')) await new Promise((r) => setTimeout(r, 20));
    const r = await player.post(`/api/v1/games/${game.id}/log`, { seq: game.seq + 1, steps: 'r' });
    assert.equal(r.status, 503, `a step while locked: ${show(r)}`);
    // Reads go on (SQLite's WAL mode; PostgreSQL's row versions): the node
    // stays ready.
    assert.equal((await rawRequest(server.url, 'GET', '/readyz')).status, 200);
    holder.stdin.end('ROLLBACK;\n');
    await new Promise((res) => holder.on('exit', res));
    holder = null;
    const after = await scrape(server);
    assert.ok(busy(after) > busy(before), `busy errors: ${busy(before)} before, ${busy(after)} after`);
    const unavailable = { method: 'POST', route: '/api/v1/games/{id}/log', code: '503' };
    assert.equal(requests(after, unavailable), 1, 'the refused step is counted as a 503');
  } finally {
    holder?.kill();
    await stopCleanly(server);
  }
});

test('/metrics is refused to clients outside --metrics-allow, and behind an unlisted proxy', async () => {
  const { server } = await startServerWithLevels({ args: ['--metrics-allow', '127.0.0.2', '--trusted-proxies', '127.0.0.3'] });
  try {
    let r = await rawRequest(server.url, 'GET', '/metrics');
    assert.equal(r.status, 403, `from 127.0.0.1: ${show(r)}`);
    assert.equal(r.json?.error?.code, 'forbidden', show(r));
    assert.doesNotMatch(r.text, /sokod_/, 'a refusal shows no metric');
    r = await rawRequest(server.url, 'GET', '/metrics', {}, undefined, { localAddress: '127.0.0.2' });
    assert.equal(r.status, 200, `from 127.0.0.2: ${show(r)}`);
    assert.match(r.text, /^# HELP sokod_/m);
    // From an allowed address, but forwarded by a proxy sokod does not trust:
    // the client is unknown.
    r = await rawRequest(server.url, 'GET', '/metrics', { 'X-Forwarded-For': '127.0.0.2' }, undefined, { localAddress: '127.0.0.2' });
    assert.equal(r.status, 403, `forwarded by an unlisted proxy: ${show(r)}`);
    // Through the trusted proxy, the client it names decides.
    r = await rawRequest(server.url, 'GET', '/metrics', { 'X-Forwarded-For': '203.0.113.9' }, undefined, { localAddress: '127.0.0.3' });
    assert.equal(r.status, 403, `a public client through the proxy: ${show(r)}`);
    r = await rawRequest(server.url, 'GET', '/metrics', { 'X-Forwarded-For': '127.0.0.2' }, undefined, { localAddress: '127.0.0.3' });
    assert.equal(r.status, 200, `an allowed client through the proxy: ${show(r)}`);
    // The probes are for everyone.
    assert.equal((await rawRequest(server.url, 'GET', '/healthz')).status, 200);
    assert.equal((await rawRequest(server.url, 'GET', '/readyz')).status, 200);
  } finally {
    await stopCleanly(server);
  }
});

test('--metrics-allow none refuses every client', async () => {
  const { server } = await startServerWithLevels({ args: ['--metrics-allow', 'none'] });
  try {
    const r = await rawRequest(server.url, 'GET', '/metrics');
    assert.equal(r.status, 403, show(r));
  } finally {
    await stopCleanly(server);
  }
});
