// sw.js: the service worker that lets sokod open without a network.
//
// The page's files (HTML, modules, styles, themes, the core) are kept as
// one generation: a crawl of index.html and of the modules and files it
// names, fetched together, checked against their ETags and swapped in
// whole when any of them changed. A page opened offline is served from the
// one complete generation, so it never mixes two versions; online, every
// file comes from the network as it would without a worker. The API never
// goes through here: the page keeps the answers it needs itself (kept.js).

const SHELL = 'sokod-shell-';
const COMPLETE = '/__sokod/complete';
// Files the crawl cannot find in the text it reads.
const ALWAYS = ['/', '/core.wasm', '/favicon.svg', '/themes/index.json'];

self.addEventListener('install', (event) => {
  event.waitUntil(refreshShell().catch(() => {}).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  if (event.data === 'refresh') event.waitUntil(refreshShell().catch(() => {}));
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (req.method !== 'GET' || url.pathname === '/sw.js') return;
  event.respondWith(shellAnswer(req, url));
});

// ---- The page's files ---------------------------------------------------------

/** The network's answer; the kept generation's when the network fails. */
async function shellAnswer(req, url) {
  try {
    return await fetch(req);
  } catch (e) {
    const cache = await currentShell();
    const key = req.mode === 'navigate' || url.pathname.endsWith('/') ? '/' : url.pathname;
    const kept = cache && await cache.match(key);
    if (kept) return kept;
    throw e;
  }
}

/** The complete generation, or null. */
async function currentShell() {
  for (const name of await caches.keys()) {
    if (!name.startsWith(SHELL)) continue;
    const cache = await caches.open(name);
    if (await cache.match(COMPLETE)) return cache;
  }
  return null;
}

/** The same-origin paths a file names: module imports, links, string paths. */
function pathsIn(text, base) {
  const found = new Set();
  const patterns = [
    /(?:src|href)="([^"]+)"/g,
    /\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bimport\s+['"]([^'"]+)['"]/g,
    /['"](\/[\w/.-]+\.(?:css|js|json|wasm|svg|png))['"]/g,
  ];
  for (const re of patterns) {
    for (const m of text.matchAll(re)) {
      const url = new URL(m[1], base);
      if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/sw.js') continue;
      if (!/\.(css|js|json|wasm|svg|png|html)$/.test(url.pathname) && url.pathname !== '/') continue;
      found.add(url.pathname);
    }
  }
  return found;
}

/** Fetches every file of the page, following what each names. Resolves to
 * [[path, response]], or throws when one cannot be fetched. */
async function crawl() {
  const seen = new Set(ALWAYS), queue = [...ALWAYS], got = [];
  while (queue.length > 0) {
    const path = queue.shift();
    const res = await fetch(path, { cache: 'no-cache' });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    got.push([path, res]);
    const type = res.headers.get('Content-Type') || '';
    if (!/html|javascript|css|json/.test(type)) continue;
    const text = await res.clone().text();
    const more = pathsIn(text, new URL(path, self.location.origin));
    if (path === '/themes/index.json') {
      for (const name of JSON.parse(text).themes || []) more.add(`/themes/${name}.json`);
    }
    for (const p of more) {
      if (!seen.has(p)) {
        seen.add(p);
        queue.push(p);
      }
    }
  }
  return got;
}

/** The name of a generation: a digest of every file's path and ETag. */
async function generationName(files) {
  const text = files.map(([p, r]) => `${p} ${r.headers.get('ETag') || r.headers.get('Content-Length')}`).join('\n');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return SHELL + [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

let refreshing = null;

/** Fetches the page's files again; when any changed, keeps them as a new
 * generation, marked complete once every file is in, then drops the others. */
function refreshShell() {
  refreshing ??= (async () => {
    try {
      const files = await crawl();
      const name = await generationName(files);
      const cache = await caches.open(name);
      if (!(await cache.match(COMPLETE))) {
        for (const [path, res] of files) await cache.put(path, res);
        await cache.put(COMPLETE, new Response(String(Date.now())));
      }
      for (const other of await caches.keys()) {
        if (other.startsWith(SHELL) && other !== name) await caches.delete(other);
      }
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}
