// live.js: the tab's one Server-Sent Events stream (GET /api/v1/events). A
// screen says what it follows (its game on other devices, a race room) and
// listens for event types; the stream is reopened when that changes, and
// when it breaks it comes back with the id of the last event it saw, so the
// server sends what was missed (or a "snapshot" event: fetch the state).

const RETRY_MS = [500, 1000, 2000, 5000];

class LiveStream {
  constructor() {
    this.source = null;
    this.query = '';
    this.lastId = '';
    this.handlers = new Map(); // type -> Set of fn(data, event)
    this.failures = 0;
    this.timer = 0;
    this.connected = false;
  }

  /** Follows what `what` names ({game: id}, {room: id}, {watch: user id}); {} stops. */
  follow(what) {
    const params = new URLSearchParams();
    for (const key of ['game', 'room', 'watch']) if (what?.[key]) params.set(key, String(what[key]));
    const query = params.toString();
    if (query === this.query && this.source) return;
    this.query = query;
    this.open();
  }

  /** Calls fn(data, event) for each event of `type`; returns an unsubscribe function. */
  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    if (this.source) this.listen(type);
    return () => this.handlers.get(type)?.delete(fn);
  }

  /** Opens the stream again (the session changed: a guest was just made),
   * going on from the last event seen. */
  reopen() {
    if (this.query) this.open();
  }

  stop() {
    this.query = '';
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    this.source?.close();
    this.source = null;
    this.connected = false;
    document.body.dataset.live = 'off';
    if (!this.query) return;
    // A new stream says where the last one stopped; an EventSource that
    // reconnects by itself sends Last-Event-ID on its own.
    const last = this.lastId ? `&last_event_id=${encodeURIComponent(this.lastId)}` : '';
    const source = new EventSource(`/api/v1/events?${this.query}${last}`);
    this.source = source;
    this.listening = new Set();
    for (const type of this.handlers.keys()) this.listen(type);
    this.listen('ready');
    source.onerror = () => {
      if (this.source !== source) return;
      this.connected = false;
      document.body.dataset.live = 'off';
      // CLOSED: the server refused (an error status); EventSource gives up,
      // so try again later. Otherwise it is reconnecting by itself.
      if (source.readyState === EventSource.CLOSED) {
        // Screens may ask why ("down": the stream was refused or lost).
        for (const fn of this.handlers.get('down') ?? []) fn(null, null);
        const wait = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)];
        this.failures++;
        this.timer = setTimeout(() => { if (this.source === source) this.open(); }, wait);
      }
    };
  }

  listen(type) {
    if (type === 'down' || this.listening.has(type)) return;
    this.listening.add(type);
    const source = this.source;
    source.addEventListener(type, (ev) => {
      if (this.source !== source) return;
      if (ev.lastEventId) this.lastId = ev.lastEventId;
      if (type === 'ready') {
        this.connected = true;
        this.failures = 0;
        document.body.dataset.live = 'on';
      }
      let data;
      try {
        data = JSON.parse(ev.data);
      } catch {
        data = null;
      }
      for (const fn of this.handlers.get(type) ?? []) fn(data, ev);
    });
  }
}

/** The tab's stream. */
export const live = new LiveStream();
