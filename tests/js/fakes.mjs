// Stand-ins for what the page's modules use of the browser, for the unit
// tests on node: window (an event target), localStorage (in memory) and a
// server behind fetch whose answers the test gives one request at a time.

class MemoryStorage {
  constructor() { this.map = new Map(); }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) { this.map.set(k, String(v)); }
  removeItem(k) { this.map.delete(k); }
  clear() { this.map.clear(); }
}

globalThis.window = new EventTarget();
globalThis.localStorage = new MemoryStorage();

/** A server behind fetch: each request waits until the test answers it. */
export class FakeServer {
  constructor() {
    this.waiting = [];      // requests next() has not handed out yet
    this.open = new Set();  // requests not answered yet
    this.seen = [];         // every request, in order: {path, body}
    this.wakeups = [];
    globalThis.fetch = (url, init) => new Promise((resolve) => {
      const request = {
        path: url.replace(/^\/api\/v1/, ''),
        body: init.body === undefined ? undefined : JSON.parse(init.body),
        answer: (status, json = {}) => {
          this.open.delete(request);
          resolve({ ok: status >= 200 && status < 300, status, json: async () => json });
        },
      };
      this.open.add(request);
      this.seen.push({ path: request.path, body: request.body });
      this.waiting.push(request);
      for (const wake of this.wakeups.splice(0)) wake();
    });
  }

  /** The oldest request not handed out yet, once it has been made:
   * {path, body, answer(status, json)}. */
  async next() {
    while (this.waiting.length === 0) await new Promise((wake) => this.wakeups.push(wake));
    return this.waiting.shift();
  }
}

/** Lets every promise callback that is ready run. */
export const settle = () => new Promise((resolve) => setImmediate(resolve));
