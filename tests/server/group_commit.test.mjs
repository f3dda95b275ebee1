// Log entries of many requests commit together (group commit): every
// player's entries land in order, two devices never both take one seq, and
// a write that fails undoes only its own entry, or the whole batch when the
// transaction is lost, with the games in memory following the database.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { show, sqlite, startServerWithLevels, stopCleanly } from './harness.mjs';

let server;
let ids;

before(async () => ({ server, ids } = await startServerWithLevels()));

after(() => stopCleanly(server));

// Opens a game on the Room level for a new guest: "u" then "d" walks up and
// back from the start without touching a box.
async function openRoom() {
  const c = server.client();
  const r = await c.post(`/api/v1/levels/${ids[1]}/game`);
  assert.equal(r.status, 201, show(r));
  return { c, id: r.json.game.id };
}

test('forty players stepping at once each get every entry, in order', async () => {
  const players = await Promise.all(Array.from({ length: 40 }, openRoom));
  const entries = 12;
  await Promise.all(players.map(async ({ c, id }) => {
    for (let seq = 1; seq <= entries; seq++) {
      const r = await c.post(`/api/v1/games/${id}/log`, { seq, steps: seq % 2 === 1 ? 'u' : 'd' });
      assert.equal(r.status, 200, `game ${id} entry ${seq}: ${show(r)}`);
      assert.equal(r.json.duplicate, false);
      assert.equal(r.json.game.seq, seq, `game ${id}: the answer is the game after entry ${seq}`);
    }
  }));
  for (const { c, id } of players) {
    const g = (await c.get(`/api/v1/games/${id}`)).json.game;
    assert.equal(g.seq, entries);
    assert.equal(g.history, 'ud'.repeat(entries / 2), `game ${id}`);
    const log = sqlite(server.db, `SELECT group_concat(steps, '') FROM (SELECT steps FROM game_log WHERE game_id = ${id} ORDER BY seq)`);
    assert.equal(log, 'ud'.repeat(entries / 2), `game ${id}: the database holds every acknowledged entry`);
  }
});

test('two devices sending the same seq at once: exactly one takes it', async () => {
  const { c: phone, id } = await openRoom();
  const laptop = phone.sameUser();
  let seq = 0;
  const winners = [];
  for (let round = 0; round < 15; round++) {
    // From the start, "u" and "r" are both open; then back with "d" or "l".
    const [a, b] = seq % 2 === 0 ? ['u', 'r'] : [winners.at(-1) === 'u' ? 'd' : 'l', winners.at(-1) === 'u' ? 'd' : 'l'];
    const [ra, rb] = await Promise.all([
      phone.post(`/api/v1/games/${id}/log`, { seq: seq + 1, steps: a }),
      laptop.post(`/api/v1/games/${id}/log`, { seq: seq + 1, steps: b }),
    ]);
    const ok = [ra, rb].filter((r) => r.status === 200 && !r.json.duplicate);
    const dup = [ra, rb].filter((r) => r.status === 200 && r.json.duplicate);
    const stale = [ra, rb].filter((r) => r.status === 409);
    assert.equal(ok.length, 1, `round ${round}: one device applies seq ${seq + 1}: ${show(ra)} / ${show(rb)}`);
    // The same steps from both count as a retry; different ones as stale.
    assert.equal(dup.length + stale.length, 1, `round ${round}: ${show(ra)} / ${show(rb)}`);
    if (stale.length === 1) {
      assert.equal(stale[0].json.error.code, 'stale_seq');
      assert.equal(stale[0].json.game.seq, seq + 1, 'the refusal carries the game after the winner');
    }
    seq++;
    winners.push(ok[0].json.steps);
  }
  const g = (await phone.get(`/api/v1/games/${id}`)).json.game;
  assert.equal(g.seq, seq);
  assert.equal(g.history, winners.join(''));
  assert.equal(sqlite(server.db, `SELECT count(*) FROM game_log WHERE game_id = ${id}`), String(seq));
});

// Runs entry 1 ("u") of several games at once; resolves to their answers.
function stepAll(players, seq, steps) {
  return Promise.all(players.map(({ c, id }) => c.post(`/api/v1/games/${id}/log`, { seq, steps })));
}

test('a write that fails undoes its own entry only; the others of its batch commit', async () => {
  const players = await Promise.all(Array.from({ length: 8 }, openRoom));
  const victim = players[3];
  sqlite(server.db, `CREATE TRIGGER refuse_victim BEFORE INSERT ON game_log WHEN NEW.game_id = ${victim.id}
    BEGIN SELECT RAISE(ABORT, 'the disk says no'); END`);
  try {
    const answers = await stepAll(players, 1, 'u');
    answers.forEach((r, i) => {
      if (players[i] === victim) {
        assert.equal(r.status, 500, `the failed write is not acknowledged: ${show(r)}`);
        assert.equal(r.json.error.code, 'internal');
      } else {
        assert.equal(r.status, 200, `game ${players[i].id}: ${show(r)}`);
      }
    });
  } finally {
    sqlite(server.db, 'DROP TRIGGER refuse_victim');
  }
  const g = (await victim.c.get(`/api/v1/games/${victim.id}`)).json.game;
  assert.equal(g.seq, 0, `the game in memory went back to what the database holds: ${JSON.stringify(g)}`);
  assert.equal(g.history, '');
  const again = await victim.c.post(`/api/v1/games/${victim.id}/log`, { seq: 1, steps: 'u' });
  assert.equal(again.status, 200, `the same entry goes through now: ${show(again)}`);
  for (const { id } of players) {
    assert.equal(sqlite(server.db, `SELECT seq FROM games WHERE id = ${id}`), '1', `game ${id}`);
  }
});

test('a lost transaction acknowledges nothing of its batch, and every game can go on', async () => {
  const players = await Promise.all(Array.from({ length: 8 }, openRoom));
  const victim = players[5];
  // RAISE(ROLLBACK) ends the whole transaction, with the other entries in it.
  sqlite(server.db, `CREATE TRIGGER lose_batch BEFORE INSERT ON game_log WHEN NEW.game_id = ${victim.id}
    BEGIN SELECT RAISE(ROLLBACK, 'the disk is gone'); END`);
  let answers;
  try {
    answers = await stepAll(players, 1, 'u');
  } finally {
    sqlite(server.db, 'DROP TRIGGER lose_batch');
  }
  console.log(`answers of the batch: ${answers.map((r) => r.status).join(' ')}`);
  const victimAnswer = answers[5];
  assert.equal(victimAnswer.status, 500, show(victimAnswer));
  for (let i = 0; i < players.length; i++) {
    const { c, id } = players[i];
    const inDb = sqlite(server.db, `SELECT count(*) FROM game_log WHERE game_id = ${id}`);
    const g = (await c.get(`/api/v1/games/${id}`)).json.game;
    if (answers[i].status === 200) {
      assert.equal(inDb, '1', `game ${id}: an acknowledged entry is in the database`);
      assert.equal(g.seq, 1);
    } else {
      assert.equal(answers[i].status, 500, show(answers[i]));
      assert.equal(inDb, '0', `game ${id}: an entry answered 500 is not in the database`);
      assert.equal(g.seq, 0, `game ${id}: memory follows the database`);
    }
    const next = await c.post(`/api/v1/games/${id}/log`, { seq: g.seq + 1, steps: g.seq === 0 ? 'u' : 'd' });
    assert.equal(next.status, 200, `game ${id} goes on: ${show(next)}`);
  }
});
