// CPU abuse, measured: how long a log-in waits while (1) four admins'
// uploads of ~120 KB run-length bombs are checked, and (2) thirty client
// addresses ask for 300 past days' daily puzzles. Run against a Release
// build: node bench/bench_cpu_abuse.mjs build-rel/sokod
// Each figure is printed; nothing is asserted (the tests do that).
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
process.env.SOKOD_BIN = path.resolve(process.argv[2] ?? 'build-rel/sokod');
process.env.SOKOD_SHARED_DIR ??= path.join(here, '..', '..', 'shared');
const { ADMIN, ADMIN_PASSWORD, startAdminServer, upload } = await import('../tests/server/admin.mjs');

// ~120 KB: 300 corridors, each with 16 solutions of 1,000,000 steps.
function bomb() {
  let text = 'Collection: bombs\n\n';
  for (let i = 1; i <= 300; i++) {
    text += `; Bomb ${i}\n#######\n#@ $ .#\n#######\n`;
    for (let s = 1; s <= 16; s++) text += `Solution ${s}\n500000(rl)\n`;
    text += '\n';
  }
  return Buffer.from(text);
}

async function timedLogin(server) {
  const c = server.client();
  const t = Date.now();
  const r = await c.post('/api/v1/account/login', { username: ADMIN, password: ADMIN_PASSWORD });
  return { status: r.status, ms: Date.now() - t };
}

// GET path from a given loopback address; resolves to the status.
function getFrom(url, localAddress, p) {
  return new Promise((resolve) => {
    const req = http.get(new URL(p, url), { localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve('error'));
  });
}

const { server, admin } = await startAdminServer({ args: ['--solver-seconds', '0'] });
try {
  const bytes = bomb();
  const t0 = Date.now();
  const checks = [1, 2, 3, 4].map((i) => upload(admin, `bomb-${i}.sok`, bytes).then((r) => ({ i, ms: Date.now() - t0, r })));
  for (;;) {
    const list = await admin.get('/api/v1/admin/uploads');
    const states = list.json.uploads.map((u) => u.state);
    if (states.length === 4 && !states.includes('receiving')) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const login = await timedLogin(server);
  const done = await Promise.all(checks);
  const over = done[0].r.json.upload.report.levels.flatMap((l) => l.solutions).filter((s) => s.result === 'over_budget').length;
  console.log(`uploads: 4 x ${bytes.length} bytes; checks answered after ${done.map((d) => d.ms).join(', ')} ms; ${over} of 4800 solutions over budget`);
  console.log(`log-in during the checks: ${login.status} in ${login.ms} ms`);

  // 30 addresses x 10 past days each, all at once, then a log-in.
  const asked = [];
  let n = 0;
  for (let a = 0; a < 30; a++) {
    for (let k = 0; k < 10; k++) {
      const day = new Date(Date.UTC(2001, 0, 1) + (n++) * 86400000).toISOString().slice(0, 10);
      asked.push(getFrom(server.url, `127.0.0.${a + 2}`, `/api/v1/daily?day=${day}`));
    }
  }
  await new Promise((r) => setTimeout(r, 200));
  const login2 = await timedLogin(server);
  const statuses = await Promise.all(asked);
  const counts = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  console.log(`300 past days from 30 addresses: ${JSON.stringify(counts)}`);
  console.log(`log-in during them: ${login2.status} in ${login2.ms} ms`);
} finally {
  await server.stop();
}
