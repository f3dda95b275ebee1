// A Server-Sent Events reader for the server tests: opens GET /api/v1/events
// with a client's cookie, parses the stream as the EventSource of a browser
// does, and lets a test wait for the events it expects.
import http from 'node:http';

export class EventStream {
  // client: a harness Client (its cookies are sent); query: '?game=1';
  // headers: more headers (Last-Event-ID).
  constructor(client, query, headers = {}) {
    this.events = [];    // {id, event, data, json, at}
    this.comments = 0;   // heartbeat lines
    this.raw = '';
    this.status = 0;
    this.headers = null;
    this.ended = false;
    this.waiters = [];
    const u = new URL(client.base + '/api/v1/events' + query);
    const h = { Accept: 'text/event-stream', ...headers };
    if (client.cookies.size > 0) h.Cookie = client.cookieHeader();
    this.opened = new Promise((resolve, reject) => {
      this.req = http.get({ host: u.hostname, port: u.port, path: u.pathname + u.search, headers: h }, (res) => {
        this.status = res.statusCode;
        this.headers = res.headers;
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (d) => {
          this.raw += d;
          buf += d;
          let cut;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            this.frame(buf.slice(0, cut));
            buf = buf.slice(cut + 2);
          }
          this.poke();
        });
        res.on('end', () => { this.ended = true; this.poke(); });
        res.on('error', () => { this.ended = true; this.poke(); });
        resolve(this);
      });
      this.req.on('error', (e) => { this.ended = true; this.poke(); reject(e); });
    });
  }

  frame(text) {
    const e = { id: null, event: 'message', data: '', at: performance.now() };
    let comment = false;
    for (const line of text.split('\n')) {
      if (line.startsWith(':')) { comment = true; continue; }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') e.id = value;
      else if (field === 'event') e.event = value;
      else if (field === 'data') e.data += (e.data ? '\n' : '') + value;
    }
    if (comment && e.id === null && e.data === '') { this.comments++; return; }
    try { e.json = JSON.parse(e.data); } catch { e.json = undefined; }
    this.events.push(e);
  }

  poke() {
    for (const w of [...this.waiters]) w();
  }

  // Resolves once pred(this) holds; rejects after `ms` saying what came.
  until(pred, what, ms = 10000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (pred(this)) { done(); resolve(this); return true; }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${what} within ${ms} ms; the stream so far:\n${this.raw.slice(-2000)}`));
      }, ms);
      const done = () => { clearTimeout(timer); this.waiters = this.waiters.filter((w) => w !== check); };
      if (!check()) this.waiters.push(check);
    });
  }

  // Resolves to the first event of `type` matching pred, waiting for it.
  async next(type, pred = () => true, ms) {
    const find = () => this.events.find((e) => e.event === type && pred(e.json ?? {}, e));
    await this.until(() => find() !== undefined, `'${type}' event`, ms);
    return find();
  }

  of(type) {
    return this.events.filter((e) => e.event === type);
  }

  close() {
    this.req.destroy();
  }
}

// Opens a stream and waits for its answer's headers.
export async function openStream(client, query, headers) {
  const s = new EventStream(client, query, headers);
  await s.opened;
  return s;
}
