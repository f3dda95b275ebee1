// No move is lost, as a property: seeded random sequences drive two
// devices of one account and a guest's through steps, undo, redo, restart,
// going offline and online, reloads (offline too), a log-out everywhere or
// a password change from another device, a log-in as another account on a
// device, server restarts, and the conflicts all this makes. Every line a
// player saw after an action (the game's steps since its last restart) is
// owed: once the sequence settles (everyone online, back on their own
// account, every conflict chosen), each must be a line the server's log of
// that game passed through, or one of its saved positions; a conflict that
// offers the line the player last saw answers for what led there. Lines in
// the games of single-device players that no player saw there are moves
// given to the wrong account.
//
// SOKOD_SEED=N replays one sequence; SOKOD_SEQUENCES=N (from
// SOKOD_FIRST_SEED, 1 by default) runs more; SOKOD_ACTIONS sets a
// sequence's length (16), SOKOD_DEVICES=3 adds a third device of the
// account (2).
// Each sequence prints its seed, and a failing one its actions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, openBrowser, closeAll, sendAccountForm, tutorialLevels, arrows } from './harness.mjs';

// Sequences that found a defect, replayed on every run (see the commits
// that fixed them), with the devices and the length they were found with.
const FIXED = [
  // A device whose session ended elsewhere reloaded, became a guest, and
  // its moves were dropped at the log-in.
  { seed: 102, devices: 2, actions: 16 },
  // A conflict met while the account screen showed opened over it and held
  // the log-in form; and, run after seed 102, a device that had not heard
  // its session end opened the level as a new guest, whose moves the
  // log-in dropped.
  { seed: 1009, devices: 3, actions: 24 },
  // A conflict dialog left open on the game screen followed the player to
  // the account screen, and held its log-in form.
  { seed: 3005, devices: 3, actions: 24 },
  // Two devices queued entries while the server was down; the other's
  // reached it first, and its entry at the seq the reloaded page checked
  // was alike to this one's: the page took all of its queue for sent, and
  // the lines before (a step, a restart undone) were never on the server.
  { seed: 901, devices: 2, actions: 40 },
];
const DEVICES = Number(process.env.SOKOD_DEVICES || 2);
const ACTIONS = Number(process.env.SOKOD_ACTIONS || 16);
const CASES = process.env.SOKOD_SEED ? [{ seed: Number(process.env.SOKOD_SEED), devices: DEVICES, actions: ACTIONS }]
  : [...FIXED, ...Array.from({ length: Number(process.env.SOKOD_SEQUENCES || 3) },
    (_, i) => ({ seed: Number(process.env.SOKOD_FIRST_SEED || 1) + i, devices: DEVICES, actions: ACTIONS }))];

const HOME = 'walker', OTHER = 'someone', OTHER_PASSWORD = 'another password';
let server, password = 'walker password 0', passwords = 0;
let levels;
const devices = [];
// Every line seen on each game (by game id), over all sequences.
const seenOn = new Map();
// Steps counts the steps that moved the player (a step into a wall is none).
const totals = { sequences: 0, actions: 0, steps: 0, lost: 0 };

/** mulberry32: a small seeded generator, the same numbers on every machine. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The steps of a history since its last restart: the position and what led there. */
const lineOf = (history) => history.slice(history.lastIndexOf('*') + 1);

/** Rows of the server's database (its sqlite3 shell, read-only). */
function query(sql) {
  const out = execFileSync('sqlite3', ['-json', '-readonly', server.db, sql], { encoding: 'utf8' });
  return out.trim() ? JSON.parse(out) : [];
}

/** Every line game `id` passed through, by its log; and its saved positions. */
function serverLines(id) {
  const lines = new Set(['']);
  const history = [];
  let redo = [];
  const seen = () => lines.add(lineOf(history.join('')));
  for (const e of query(`SELECT kind, steps, count FROM game_log WHERE game_id = ${Number(id)} ORDER BY seq`)) {
    if (e.kind === 'steps') {
      redo = [];
      for (const ch of e.steps) { history.push(ch); seen(); }
    } else if (e.kind === 'restart') {
      redo = [];
      history.push('*');
      seen();
    } else if (e.kind === 'undo') {
      for (let i = 0; i < e.count && history.length > 0; i++) { redo.unshift(history.pop()); seen(); }
    } else if (e.kind === 'redo') {
      for (let i = 0; i < e.count && redo.length > 0; i++) { history.push(redo.shift()); seen(); }
    }
  }
  const saved = new Set(query(`SELECT lurd FROM snapshots WHERE game_id = ${Number(id)}`).map((s) => s.lurd));
  return { lines, saved };
}

function gameOwner(id) {
  return query(`SELECT u.username AS name FROM games g JOIN users u ON u.id = g.user_id WHERE g.id = ${Number(id)}`)[0]?.name ?? null;
}

/** A device: a browser with its own profile, whose home account is
 * `home` (null: a guest). account: who the device is signed in as now;
 * signedIn: false once the server ended that session. */
async function openDevice(name, home) {
  const browser = await openBrowser({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'allow' });
  const d = { name, home, account: home, signedIn: true, offline: false, ...browser, page: browser.page, wasOther: false };
  d.page.on('dialog', (dialog) => dialog.accept());
  devices.push(d);
  return d;
}

async function apiPost(page, path, body) {
  return page.evaluate(async ([p, b]) => {
    try {
      const r = await fetch(`/api/v1${p}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
      return { status: r.status, body: await r.json().catch(() => null) };
    } catch (e) {
      return { status: 0, body: String(e) };
    }
  }, [path, body]);
}

/** Signs up or logs in on the account screen (logging out first whoever
 * is signed in there), and waits until it says so. */
async function signUpOrLogIn(page, form, name, pw) {
  await page.goto(`${server.url}/#/account`);
  await page.waitForSelector('#screen-account:not([hidden])');
  await page.waitForFunction(() => !document.getElementById('acc-signed-in').hidden || !document.getElementById('acc-forms').hidden);
  if (await page.isVisible('#acc-logout')) {
    await page.click('#acc-logout');
    await page.waitForSelector('#acc-forms:not([hidden])');
  }
  await sendAccountForm(page, server.url, form, name, pw);
  await page.waitForFunction((n) => document.getElementById('acc-status').textContent.includes(`Signed in as ${n}`),
    name, { timeout: 15000 });
}

/** Waits until the worker keeps a complete copy of the page, so that a
 * reload with no network opens it. */
async function shellKept(page) {
  for (let i = 0; i < 120; i++) {
    const kept = await page.evaluate(async () => {
      if (!navigator.serviceWorker.controller) return false;
      for (const n of await caches.keys()) {
        if (n.startsWith('sokod-shell-') && await (await caches.open(n)).match('/__sokod/complete')) return true;
      }
      return false;
    }).catch(() => false);
    if (kept) return;
    await page.waitForTimeout(250);
  }
  throw new Error('the service worker kept no copy of the page within 30 s');
}

before(async () => {
  // Every device logs in from one address, many times in a long run.
  process.env.SOKOD_AUTH_PER_MINUTE ??= '1000';
  server = await startServer();
  const a = await openDevice('A', HOME);
  const c = await openDevice('C', HOME);
  // A third device of the account, for the sequences that have one.
  const b = CASES.some((k) => k.devices >= 3) ? await openDevice('B', HOME) : null;
  const g = await openDevice('G', null);
  await a.page.goto(`${server.url}/`);
  levels = (await tutorialLevels(a.page)).slice(4);
  await signUpOrLogIn(a.page, 'signup', HOME, password);
  await signUpOrLogIn(c.page, 'signup', OTHER, OTHER_PASSWORD);
  await signUpOrLogIn(c.page, 'login', HOME, password);
  if (b) await signUpOrLogIn(b.page, 'login', HOME, password);
  await g.page.goto(`${server.url}/`);
  for (const d of devices) {
    await d.page.goto(`${server.url}/#/`);
    await d.page.reload();
    await shellKept(d.page);
  }
});

after(async () => {
  process.stdout.write(`no-move-lost: ${totals.sequences} sequences, ${totals.actions} actions, ` +
    `${totals.steps} steps made, ${totals.lost} lines lost\n`);
  await closeAll(server, ...devices);
});

/** The game on the device's page: {history, redoLine, gameId, ...}, or null. */
async function position(d) {
  return d.page.evaluate(() => window.sokod?.position?.() ?? null).catch(() => null);
}

/** One sequence's state: its seed, level, the log of its actions, and the
 * lines owed: {device, game, line, owner, at}. */
class Run {
  constructor({ seed, devices: count, actions }) {
    this.seed = seed;
    this.actions = actions;
    // The devices it drives: B only in a sequence of three.
    this.devices = devices.filter((d) => d.name !== 'B' || count >= 3);
    this.random = generator(seed);
    this.level = levels[Math.floor(this.random() * levels.length)];
    this.log = [];
    this.owed = [];
    this.serverDown = false;
  }

  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  say(what) {
    this.log.push(what);
  }

  /** Owes the line the device's page shows now (a player saw it). */
  async observe(d) {
    const p = await position(d);
    if (!p || !p.gameId) return null;
    const line = lineOf(p.history);
    if (!seenOn.has(p.gameId)) seenOn.set(p.gameId, new Set());
    seenOn.get(p.gameId).add(line);
    this.owed.push({ device: d.name, game: p.gameId, line, owner: d.account, at: this.log.length });
    return line;
  }

  /** Brings the device to the sequence's level, ready for a key, or
   * resolves to false when it cannot be (the level is not reachable from
   * here now). Solved cards and menus are closed; an open conflict is
   * chosen at random once it can be. */
  async ready(d) {
    const page = d.page;
    const want = `#/play/${this.level.id}`;
    const url = page.url();
    if (!url.startsWith(server.url) || !url.endsWith(want)) {
      try {
        await page.goto(`${server.url}/${want}`, { timeout: 15000 });
      } catch {
        return false; // offline with no copy of the page
      }
    }
    // The level, or the page saying why it cannot show it (signed out with
    // no game kept, offline with none): then the device waits its turn.
    const shown = await page.waitForFunction((t) => {
      const s = document.getElementById('screen-game');
      const h = document.getElementById('game-h');
      if (!s || s.hidden || !h) return false;
      if (h.textContent === t && window.sokod?.position?.()?.gameId > 0) return 'shown';
      return document.getElementById('g-status').hidden ? false : 'refused';
    }, this.level.title, { timeout: 8000 }).then((r) => r.jsonValue(), () => false);
    if (shown !== 'shown') return false;
    // A conflict may open over the solved card, or as it closes.
    for (let i = 0; i < 5; i++) {
      if (await page.isVisible('#conflict[open]').catch(() => false)) {
        if (!(await this.choose(d))) return false;
      } else if (await page.isVisible('#solved')) {
        await page.click('#solved-stay', { timeout: 3000 }).catch(() => {});
      } else if (await page.evaluate(() => document.getElementById('game-menu').open)) {
        await page.keyboard.press('Escape');
      } else {
        return true;
      }
    }
    return false;
  }

  /** What the device's page shows, for a failure's message. */
  async state(d) {
    return d.page.evaluate(() => ({
      hash: location.hash,
      header: document.getElementById('game-h')?.textContent,
      status: document.getElementById('g-status')?.hidden ? '' : document.getElementById('g-status')?.textContent,
      session: document.getElementById('session').hidden ? '' : document.getElementById('session').textContent,
      title: document.getElementById('title-user')?.textContent,
      formError: [...document.querySelectorAll('.form-error')].map((e) => e.textContent).join(' '),
      dialogs: [...document.querySelectorAll('dialog[open]')].map((e) => e.id),
    })).then((s) => JSON.stringify(s), (e) => `unreadable: ${e.message}`);
  }

  /** The conflict dialog is open on d: the line it keeps must be the one
   * the player last saw there, which answers for what d owed on that game
   * (offered). Then Keep mine or Take the other device's, at random. */
  async choose(d) {
    if (this.serverDown || d.offline) return false;
    const { gameId, kept } = await d.page.evaluate(() => {
      const id = window.sokod.gameId();
      return { gameId: id, kept: JSON.parse(localStorage.getItem(`sokod.conflict.${id}`) || 'null') };
    });
    const mine = this.owed.filter((o) => o.device === d.name && o.game === gameId);
    const last = mine[mine.length - 1];
    if (kept?.line != null && last && lineOf(kept.line) === last.line) {
      for (const o of mine) o.offered = true;
    }
    const keep = this.random() < 0.5;
    this.say(`${d.name}: conflict on game ${gameId} (kept line "${kept?.line}"), chose ${keep ? 'mine' : 'theirs'}`);
    await d.page.click(keep ? '#conflict-mine' : '#conflict-theirs');
    const closed = await d.page.waitForSelector('#conflict', { state: 'hidden', timeout: 8000 }).then(() => true, () => false);
    if (!closed) {
      // Chosen, and another device's entries made the choice stale again:
      // a new conflict asks (the caller takes it in turn).
      const again = await d.page.evaluate(([id, before]) => localStorage.getItem(`sokod.conflict.${id}`) !== before,
        [gameId, JSON.stringify(kept)]);
      this.say(`${d.name}: ${again ? 'a new conflict opened' : 'the conflict dialog stayed open'}`);
      if (!again) return false;
    }
    if (!keep && kept?.line) this.owed.push({ device: d.name, game: gameId, line: lineOf(kept.line), owner: d.account, at: this.log.length, saved: true });
    await this.observe(d);
    return true;
  }

  async key(d, key, what) {
    if (!(await this.ready(d))) return;
    const before = (await position(d))?.history;
    await d.page.keyboard.press(key);
    this.say(`${d.name}: ${what}`);
    const line = await this.observe(d);
    this.log[this.log.length - 1] += `, sees "${line}"`;
    if (/^step/.test(what) && (await position(d))?.history !== before) totals.steps++;
  }

  async setOffline(d, offline) {
    d.offline = offline;
    await d.context.setOffline(offline);
    this.say(`${d.name}: ${offline ? 'offline' : 'online'}`);
  }

  async reload(d) {
    this.say(`${d.name}: reload${d.offline || this.serverDown ? ' (no server)' : ''}`);
    await d.page.reload({ timeout: 15000 }).catch(() => {});
    if (await this.ready(d)) await this.observe(d);
  }

  async serverStop() {
    this.say('server stops');
    await server.stop();
    this.serverDown = true;
  }

  async serverStart() {
    this.say('server starts');
    server = await server.restart();
    this.serverDown = false;
  }

  /** From d, signed in at home: the account's sessions end elsewhere (a
   * log-out everywhere ends d's too; a password change keeps it). */
  async endSessions(d) {
    if (this.serverDown || d.offline || d.account !== HOME || !d.signedIn) return;
    if (this.random() < 0.5) {
      const r = await apiPost(d.page, '/account/logout-all', {});
      if (r.status !== 200) return;
      this.say(`${d.name}: log out everywhere`);
      for (const o of devices) if (o.account === HOME) o.signedIn = false;
    } else {
      const next = `walker password ${++passwords}`;
      const r = await apiPost(d.page, '/account/password', { current_password: password, new_password: next });
      if (r.status !== 200) return;
      password = next;
      this.say(`${d.name}: password changed`);
      for (const o of devices) if (o.account === HOME && o !== d) o.signedIn = false;
    }
  }

  /** Logs d in as `name` (its form on the account screen). */
  async logIn(d, name, pw) {
    if (this.serverDown || d.offline) return false;
    try {
      await signUpOrLogIn(d.page, 'login', name, pw);
    } catch {
      return false;
    }
    this.say(`${d.name}: logs in as ${name}`);
    d.account = name;
    d.signedIn = true;
    if (name === OTHER) d.wasOther = true;
    return true;
  }

  /** logIn, tried three times: on a loaded machine a log-in (a password
   * hash, a page's reload) may outlast one try's wait, and a log-in that
   * fails loses no move. */
  async logInPatiently(d, name, pw) {
    for (let i = 0; i < 3; i++) if (await this.logIn(d, name, pw)) return true;
    return false;
  }

  async act() {
    const r = this.random();
    const walkers = this.devices.filter((d) => d.home === HOME);
    const d = this.pick(this.devices);
    const dir = this.pick([...'lurd']);
    if (r < 0.5) return this.key(d, arrows(dir)[0], `step ${dir}`);
    if (r < 0.6) return this.key(d, 'z', 'undo');
    if (r < 0.64) return this.key(d, 'y', 'redo');
    if (r < 0.68) return this.key(d, 'r', 'restart');
    if (r < 0.8) return this.setOffline(d, !d.offline);
    if (r < 0.85) return this.reload(d);
    if (r < 0.9) return this.serverDown ? this.serverStart() : this.serverStop();
    const w = this.pick(walkers);
    if (r < 0.94) return this.endSessions(w);
    if (r < 0.97 && w.account === HOME) return this.logIn(w, OTHER, OTHER_PASSWORD);
    if (w.account !== HOME || !w.signedIn) return this.logIn(w, HOME, password);
    return this.key(w, arrows(dir)[0], `step ${dir}`);
  }

  /** Everyone online, the server up, each device back on its own account
   * (by way of the other one's, when it played there), every conflict
   * chosen and every queue sent. */
  async settle() {
    this.say('settle');
    if (this.serverDown) await this.serverStart();
    for (const d of this.devices) if (d.offline) await this.setOffline(d, false);
    for (const d of this.devices) {
      if (d.wasOther) {
        if (d.account !== OTHER) await this.logInPatiently(d, OTHER, OTHER_PASSWORD);
        await this.drain(d);
      }
      if (d.home !== null && (d.account !== HOME || !d.signedIn) && !(await this.logInPatiently(d, HOME, password))) {
        assert.fail(`${d.name} could not log in at home: ${await this.state(d)}, ${this.story()}`);
      }
      d.wasOther = false;
      await this.drain(d);
    }
    // A second round: a queue sent by one device may make another's stale.
    for (const d of this.devices) await this.drain(d);
  }

  /** Opens the level on d, chooses any conflict, and waits until nothing
   * waits in the device's storage for the account signed in. */
  async drain(d) {
    // An "Offline" page tries again every 3 s: give it a few turns.
    let shown = false;
    for (let i = 0; i < 8 && !shown; i++) {
      shown = await this.ready(d);
      if (!shown) await d.page.waitForTimeout(1000);
    }
    if (!shown) assert.fail(`${d.name} shows no level once everything is back: ${await this.state(d)}, ${this.story()}`);
    for (let i = 0; i < 80; i++) {
      if (await d.page.isVisible('#conflict[open]')) await this.choose(d);
      const left = await d.page.evaluate(() => ({
        pending: document.body.dataset.pending ?? '0',
        conflict: Object.keys(localStorage).some((k) => k.startsWith(`sokod.conflict.${window.sokod.gameId()}`)),
      }));
      if (left.pending === '0' && !left.conflict) return;
      await d.page.waitForTimeout(250);
    }
  }

  /** The sequence so far, to replay it. */
  story() {
    const replay = `SOKOD_SEED=${this.seed} SOKOD_DEVICES=${this.devices.length - 1} SOKOD_ACTIONS=${this.actions}`;
    return `seed ${this.seed} on "${this.level.title}" (replay with ${replay}):\n  ` +
      this.log.map((s, i) => `${i}. ${s}`).join('\n  ');
  }

  /** What the property says, checked against the server's database. */
  check() {
    const lost = [];
    const byGame = new Map();
    for (const o of this.owed) {
      if (o.offered) continue;
      if (!byGame.has(o.game)) byGame.set(o.game, serverLines(o.game));
      const { lines, saved } = byGame.get(o.game);
      if (!lines.has(o.line) && !saved.has(o.line)) lost.push(o);
    }
    const foreign = [];
    for (const [game, seen] of seenOn) {
      const owner = gameOwner(game);
      if (owner === HOME) continue; // two devices play it: conflicts mix lines
      for (const line of serverLines(game).lines) if (line !== '' && !seen.has(line)) foreign.push({ game, owner, line });
    }
    totals.lost += lost.length;
    const story = this.story();
    assert.deepEqual(lost.map((o) => `${o.device} (${o.owner ?? 'guest'}) game ${o.game}: "${o.line}" seen after action ${o.at - 1}` +
      ` not among the server's lines ${JSON.stringify([...serverLines(o.game).lines])}`), [],
    `lines a player saw are lost, ${story}`);
    assert.deepEqual(foreign, [], `moves reached a game no device of its owner played them on, ${story}`);
  }
}

for (const k of CASES) {
  test(`no move is lost: sequence of seed ${k.seed} (${k.devices} devices of the account, ${k.actions} actions)`, async () => {
    const run = new Run(k);
    process.stdout.write(`no-move-lost: seed ${k.seed} on "${run.level.title}"\n`);
    for (const d of run.devices) {
      if (await run.ready(d)) await run.observe(d);
    }
    for (let i = 0; i < run.actions; i++) {
      totals.actions++;
      await run.act();
    }
    await run.settle();
    totals.sequences++;
    if (process.env.SOKOD_VERBOSE) process.stdout.write(`  ${run.log.join('\n  ')}\n`);
    run.check();
    for (const d of run.devices) assert.deepEqual(d.errors, [], `${d.name}'s page threw, seed ${k.seed}`);
  });
}
