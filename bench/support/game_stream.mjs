// A live stream of one game, for the benchmarks of several nodes.
import http from 'node:http';

// Opens `GET /api/v1/events?game=ID` at BASE with the player's COOKIE and
// calls on(name, block) for each event but `ready` (block: the event's
// lines), and ended() when the server closes the stream. Resolves to the
// request (destroy() closes it) once the stream said `ready`; rejects on
// an answer other than 200 or a connection error.
export function followGame(base, id, cookie, on, ended) {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.get({
      host: url.hostname, port: url.port, path: `/api/v1/events?game=${id}`, agent: false,
      headers: { Cookie: cookie, Accept: 'text/event-stream' },
    }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream of game ${id}: status ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (d) => {
        buf += d;
        let end;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const m = /^event: (\S+)$/m.exec(block);
          if (!m) continue;
          if (m[1] === 'ready') resolve(req);
          else on(m[1], block);
        }
      });
      res.on('end', ended);
      res.on('error', () => {});
    });
    req.on('error', reject);
  });
}
