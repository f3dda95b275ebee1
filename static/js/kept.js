// kept.js: the API answers the page keeps so that it can open a level with
// no network: the level, the collections, the account and its settings (as
// the server last gave them), and the player's game on each level seen
// under each rule (standard, multi-push, reverse), which follows every
// entry the server confirms. They live in the Cache API (cache
// "sokod-api"), are given only when the server cannot be reached, marked
// as kept (api.js), and are dropped when the player logs in, signs up or
// logs out. The page's own files are kept by the service worker
// (sw.js); API requests never go through it.

const CACHE = 'sokod-api';
const KEPT_GET = [/^\/levels\/\d+$/, /^\/collections(\/\d+)?$/, /^\/account(\/settings)?$/];
const OPEN_GAME = /^\/levels\/(\d+)\/game$/;
const GAME = /^\/games\/(\d+)$/;
const GAME_ENTRY = /^\/games\/(\d+)\/(log|walk|push)$/;
const ACCOUNT_CHANGE = /^\/account\/(login|signup|logout|logout-all)$/;

const usable = () => typeof caches !== 'undefined' && window.isSecureContext;

/** Where the game of a level under a rule is kept. Earlier pages kept
 * the game of every rule at the standard rule's key, the last one opened
 * there: what they kept is read as the game of its own rule (keptGame). */
const levelGameKey = (levelId, rule = 0) =>
  (rule ? `/__sokod/level-game/${levelId}/rule/${rule}` : `/__sokod/level-game/${levelId}`);

/** The rule of a game asked for with `sent` (POST /levels/{id}/game). */
const ruleOf = (sent) => Number(sent?.rule) || 0;

/** Where an answer to (method, path, sent) is kept, or null when it is not. */
function keyOf(method, path, sent) {
  if (method === 'GET' && KEPT_GET.some((re) => re.test(path))) return `/__sokod/get${path}`;
  const open = path.match(OPEN_GAME);
  if (method === 'POST' && open) return levelGameKey(open[1], ruleOf(sent));
  return null;
}

/** The game of level `levelId` under `rule` as kept: {key, kept: {at,
 * body}}, or null. A game of another rule is never given for it. */
async function keptGame(cache, levelId, rule) {
  for (const key of new Set([levelGameKey(levelId, rule), levelGameKey(levelId)])) {
    const res = await cache.match(key);
    if (!res) continue;
    const kept = await res.json();
    if ((kept.body?.game?.rule ?? 0) === rule) return { key, kept };
  }
  return null;
}

async function put(cache, key, body) {
  await cache.put(key, new Response(JSON.stringify({ at: new Date().toISOString(), body }),
    { headers: { 'Content-Type': 'application/json' } }));
}

/** The kept answer to (method, path, sent): {at, body}, or null. */
export async function keptAnswer(method, path, sent) {
  const key = keyOf(method, path, sent);
  if (!key || !usable()) return null;
  try {
    const cache = await caches.open(CACHE);
    const open = method === 'POST' && path.match(OPEN_GAME);
    if (open) return (await keptGame(cache, Number(open[1]), ruleOf(sent)))?.kept ?? null;
    const kept = await cache.match(key);
    return kept ? await kept.json() : null;
  } catch {
    return null;
  }
}

// Writes happen one after another, in the order the answers came: a game
// kept follows its entries in order.
let writes = Promise.resolve();

// Counts the account changes answered. An answer to a request made before
// the last one may belong to the account that left: it is not kept.
let generation = 0;

/** What keepAnswer needs to know of a request made now: pass it back with
 * the answer. */
export function keptGeneration() {
  return generation;
}

/** Keeps what the server's successful answer `body` to (method, path, sent)
 * says: the answer itself, the game it shows, or the entry it confirmed;
 * `since` is keptGeneration() from when the request was made. Resolves once
 * it is kept (never rejects). */
export function keepAnswer(method, path, sent, body, since = generation) {
  if (!usable()) return Promise.resolve();
  if (method !== 'GET' && ACCOUNT_CHANGE.test(path)) generation++;
  else if (since !== generation) return writes; // made before an account change
  writes = writes.then(() => keep(method, path, sent, body)).catch(() => {});
  return writes;
}

async function keep(method, path, sent, body) {
  if (method !== 'GET' && ACCOUNT_CHANGE.test(path)) {
    await caches.delete(CACHE);
    return;
  }
  const key = keyOf(method, path, sent);
  const game = GAME.test(path) && method === 'GET';
  const entry = method === 'POST' && GAME_ENTRY.test(path);
  if (!key && !game && !entry) return;
  const cache = await caches.open(CACHE);
  const shown = game && body?.game?.level_id ? body.game : null;
  if (key) await put(cache, key, body);
  else if (shown) await refreshGame(cache, shown);
  else if (entry && body?.game) await followEntry(cache, sent, body);
}

/** Keeps a game the server showed by its id (GET /games/{id}) when it is
 * the game kept for its level and rule: another game of that level, a
 * race's, never takes the place of the player's own. */
async function refreshGame(cache, shown) {
  const rule = shown.rule ?? 0;
  const found = await keptGame(cache, shown.level_id, rule);
  if (found?.kept.body?.game?.id !== shown.id) return;
  const key = levelGameKey(shown.level_id, rule);
  await put(cache, key, { created: false, game: shown });
  if (found.key !== key) await cache.delete(found.key);
}

/** Plays an entry the server confirmed on the game kept for its level and
 * rule, so that a page opened offline goes on from the server's last word.
 * A game that does not follow (an answer missed) is dropped rather than
 * kept stale; one an earlier page kept at the standard rule's key moves to
 * its own rule's. */
async function followEntry(cache, entry, answer) {
  const summary = answer.game;
  const rule = summary.rule ?? 0;
  const found = await keptGame(cache, summary.level_id, rule);
  if (!found) return;
  const game = found.kept.body.game;
  if (game.id !== summary.id || answer.duplicate || summary.seq === game.seq) return;
  if (summary.seq !== game.seq + 1 || game.history === undefined) {
    await cache.delete(found.key);
    return;
  }
  let history = game.history, redo = game.redo ?? '';
  if (entry.undo) {
    const n = Math.min(entry.undo, history.length);
    redo = history.slice(history.length - n) + redo;
    history = history.slice(0, history.length - n);
  } else if (entry.redo) {
    history += redo.slice(0, entry.redo);
    redo = redo.slice(entry.redo);
  } else if (entry.restart) {
    history += '*';
    redo = '';
  } else {
    history += answer.steps ?? '';
    redo = '';
  }
  const next = { ...game, ...summary, history, redo };
  delete next.rows; // the position now: the page replays history instead
  delete next.lurd;
  const key = levelGameKey(summary.level_id, rule);
  await put(cache, key, { created: false, game: next });
  if (found.key !== key) await cache.delete(found.key);
}
