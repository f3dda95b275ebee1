// screens/race.js: one race room (#/race/ID): the lobby, the countdown, the
// player's own board, a small board for every other player replaying their
// steps live with a core of its own, and the results with a rematch. People
// without a seat watch every board. Everything after the first fetch comes
// from the tab's event stream ("room" and "race_step" events).

import { app } from '../app.js';
import { api, errorMessage } from '../api.js';
import { loadCore } from '../core.js';
import { playEntry, gameOfState } from '../letters.js';
import { BoardView } from '../board.js';
import { Play } from '../play.js';
import { actionOfKey, DIR_OF } from '../input.js';
import { announce, toast } from '../a11y.js';
import { currentScreen } from '../router.js';
import { live } from '../live.js';
import { playerName } from './rooms.js';
import { $ } from '../dom.js';
import { copyWithToast } from '../clipboard.js';
import { counted, movesPushes } from '../words.js';

export const section = 'screen-race';

let roomId = 0;
let room = null;            // the room as the server last described it
let you = { user_id: null, seated: false };
const boards = new Map();   // user id -> {card, view, core, game, gameId, seq}
const corePool = [];        // cores of boards that were taken down, for reuse
let own = null;             // {play, view, gameId} when the player has a board here
let ownCore = null;
const countdown = { until: 0, timer: 0 };
let wired = false;
let loading = null;

function wire() {
  wired = true;
  $('race-join').addEventListener('click', () => act('join'));
  $('race-leave').addEventListener('click', () => act('leave'));
  $('race-start').addEventListener('click', () => act('start'));
  $('race-rematch').addEventListener('click', () => act('rematch'));
  $('race-copy').addEventListener('click', () => copyWithToast($('race-url').value, 'Link'));
  $('race-url').addEventListener('focus', (e) => e.target.select());
  live.on('room', (state) => {
    if (currentScreen() !== 'race' || !state || state.id !== roomId) return;
    onRoom(state);
  });
  live.on('race_step', (e) => {
    if (currentScreen() !== 'race' || !e || e.room !== roomId) return;
    onStep(e);
  });
  live.on('snapshot', () => currentScreen() === 'race' && load());
  live.on('ready', () => currentScreen() === 'race' && roomId && load());
  document.addEventListener('keydown', onKey);
}

export async function enter(args) {
  if (!wired) wire();
  const id = Number(args[0]);
  if (id !== roomId) {
    takeDown();
    roomId = id;
    room = null;
    $('race-h').textContent = 'Race';
    $('race-state').textContent = 'Loading…';
  }
  $('race-url').value = `${location.origin}/#/race/${id}`;
  live.follow({ room: id });
  await load();
}

export function leave() {
  live.stop();
  clearInterval(countdown.timer);
}

export function redraw() {
  for (const b of boards.values()) b.view.setTheme(app.theme);
  own?.view.setTheme(app.theme);
}

async function act(action) {
  const id = roomId;
  const r = await api.roomAction(id, action);
  // The player opened another room meanwhile: this answer is not about it.
  if (id !== roomId) return;
  if (!r.ok) {
    toast(errorMessage(r, 'That did not work'), 'warn');
    return;
  }
  // Joining may have made this browser a guest: its stream must say who it is.
  if (action === 'join') live.reopen();
  apply(r.body);
}

/** Fetches the room with every board and applies it, one load at a time: a
 * call made meanwhile for the same room shares the load under way, which
 * then runs once more, for what was heard during it. */
function load() {
  if (!roomId) return null;
  // A load of another room (left meanwhile) is no answer for this one.
  if (loading?.id === roomId) {
    loading.again = true;
    return loading.done;
  }
  const mine = { id: roomId, again: false, done: null };
  loading = mine;
  mine.done = (async () => {
    try {
      const r = await api.room(mine.id);
      if (mine.id === roomId) {
        if (r.ok) await apply(r.body);
        else $('race-state').textContent = errorMessage(r, 'This room cannot be opened');
      }
    } finally {
      // Cleared only once applied (a second load during the first apply
      // would build the boards twice), and cleared however the apply ended:
      // a load left standing would answer every later one without a fetch.
      if (loading === mine) loading = null;
    }
    if (mine.again && mine.id === roomId) await load();
  })();
  return mine.done;
}

/** Takes a full answer ({room, games, you}): boards are rebuilt where their game changed. */
async function apply(full) {
  const id = full.room.id;
  if (id !== roomId) return;
  keepLaterCounts(full.room.players);
  room = full.room;
  you = full.you ?? you;
  const games = full.games ?? [];
  const players = room.players;
  let ownGame = false;
  for (let i = 0; i < players.length; i++) {
    // Boards are made one after another: the player may have left for another room meanwhile.
    if (id !== roomId) return;
    const p = players[i], game = games[i];
    if (p.user_id === you.user_id) {
      // A core of its own: the game screen's play keeps the shared one.
      if (game && (!own || own.gameId !== game.id)) await ownBoard(ownCore ??= await loadCore('/core.wasm'), game);
      // Only a newer game: an answer that left the server before steps
      // heard or confirmed since would take them back.
      else if (game && own && own.play.sync?.pending === 0 && game.seq > own.play.sync.seq) own.play.adopt(game, '');
      ownGame = !!game && own?.gameId === game.id;
      continue;
    }
    const b = boards.get(p.user_id);
    if (game && (!b || b.gameId !== game.id || game.seq > b.seq)) await miniBoard(p, game);
  }
  // This player's counts are those of the board, which may be ahead of the
  // answer (not in a new round's lobby: the board is the last round's).
  if (ownGame) updateOwnCounts();
  render();
}

async function ownBoard(core, game) {
  if (!own) {
    const view = new BoardView($('race-board'), $('race-frame'));
    view.setTheme(app.theme);
    view.stepMs = 80;
    const play = new Play(core, view, {
      update: () => updateOwnCounts(),
      solved: () => announce('Solved! Waiting for the others', true),
      pending: (n) => { document.body.dataset.pending = String(n); },
    });
    own = { play, view, gameId: 0 };
  }
  own.gameId = game.id;
  $('race-own').hidden = false;
  own.view.resize();
  await own.play.attach(game);
}

function updateOwnCounts() {
  const g = own?.play.game;
  if (!g || !room) return;
  const me = room.players.find((p) => p.user_id === you.user_id);
  if (me) {
    me.moves = g.moves;
    me.pushes = g.pushes;
    me.boxes_on_goal = g.boxesOnGoal;
    renderCard(me);
  }
}

/** A small board replaying another player's game, with a core of its own
 * (a core holds one game at a time). */
async function miniBoard(p, game) {
  let b = boards.get(p.user_id);
  if (!b) {
    const core = corePool.pop() ?? await loadCore('/core.wasm');
    // Another answer may have made the board while the core loaded: one board a player.
    b = boards.get(p.user_id);
    if (b) corePool.push(core);
    else b = addMiniBoard(p, core);
  }
  const g = gameOfState(b.core, game);
  b.game = g;
  b.gameId = game.id;
  b.seq = game.seq;
  b.view.setLevel({ width: g.width, height: g.height, cells: g.start }, { player: g.player, boxes: g.boxes() });
  markBoard(b);
}

function addMiniBoard(p, core) {
  const card = cardOf(p);
  const frame = card.querySelector('.race-mini');
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${playerName(p)}'s board`);
  frame.append(canvas);
  const view = new BoardView(canvas, frame);
  view.setTheme(app.theme);
  view.stepMs = 0;
  const b = { card, view, core, game: null, gameId: 0, seq: 0 };
  boards.set(p.user_id, b);
  return b;
}

function markBoard(b) {
  b.card.dataset.player = String(b.game.player);
  b.card.dataset.seq = String(b.seq);
}

/** A race entry of someone heard live. */
function onStep(e) {
  const p = room?.players.find((x) => x.user_id === e.user_id);
  if (!p) return load();
  p.seq = e.seq;
  p.moves = e.moves;
  p.pushes = e.pushes;
  p.boxes_on_goal = e.boxes_on_goal;
  if (e.user_id === you.user_id) {
    // This player's own entry (from this tab or another device).
    if (own && own.play.applyRemote(e) === 'behind') load();
    renderCard(p);
    return;
  }
  const b = boards.get(e.user_id);
  if (!b || b.gameId !== e.game || e.seq !== b.seq + 1) {
    if (!b || e.seq > b.seq) load();
    return;
  }
  const g = b.game;
  const ok = playEntry(g, e);
  b.seq = e.seq;
  if (!ok || g.moves !== e.moves || g.pushes !== e.pushes) return load();
  b.view.snap({ player: g.player, boxes: g.boxes() });
  markBoard(b);
  renderCard(p);
}

/** Counts in a room's state may be older than the steps heard since it
 * left the server: keeps the later ones, from the room shown. */
function keepLaterCounts(players) {
  const known = new Map((room?.players ?? []).map((p) => [p.user_id, p]));
  for (const p of players) {
    const k = known.get(p.user_id);
    if (k && k.game_id === p.game_id && k.seq > p.seq) Object.assign(p, { seq: k.seq, moves: k.moves, pushes: k.pushes, boxes_on_goal: k.boxes_on_goal });
  }
}

function onRoom(state) {
  const needBoards = !room || state.round !== room.round ||
    state.players.some((p) => p.game_id && (p.user_id === you.user_id ? own?.gameId !== p.game_id
      : boards.get(p.user_id)?.gameId !== p.game_id));
  keepLaterCounts(state.players);
  room = state;
  if (needBoards) load();
  else render();
}

function takeDown() {
  for (const b of boards.values()) {
    corePool.push(b.core);
    b.card.remove();
  }
  boards.clear();
  own?.play.close();
  own = null;
  $('race-own').hidden = true;
  $('race-players').replaceChildren();
  clearInterval(countdown.timer);
}

// ---- Rendering ---------------------------------------------------------------------

function cardOf(p) {
  let card = $('race-players').querySelector(`[data-user="${p.user_id}"]`);
  if (card) return card;
  card = document.createElement('article');
  card.className = 'card race-card';
  card.dataset.user = String(p.user_id);
  card.innerHTML = '<h3><span class="race-name"></span> <span class="race-badge"></span></h3>' +
    '<p class="race-counts small"></p><div class="race-mini"></div>';
  $('race-players').append(card);
  return card;
}

function statusOf(p) {
  if (p.finished) return `${ordinal(p.place)} in ${seconds(p.time_ms)}`;
  if (p.left) return 'left';
  if (!p.connected) return 'offline';
  return p.host ? 'host' : 'ready';
}

function renderCard(p) {
  const card = cardOf(p);
  card.querySelector('.race-name').textContent = playerName(p) + (p.user_id === you.user_id ? ' (you)' : '');
  card.querySelector('.race-badge').textContent = statusOf(p);
  card.querySelector('.race-counts').textContent =
    `${movesPushes(p.moves, p.pushes)}, ${p.boxes_on_goal}/${room.boxes} boxes on goals`;
  Object.assign(card.dataset, {
    moves: String(p.moves), pushes: String(p.pushes), goals: String(p.boxes_on_goal),
    connected: p.connected ? '1' : '0', gone: p.left || !p.connected ? '1' : '0',
    finished: p.finished ? '1' : '0',
  });
}

const ordinal = (n) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function render() {
  if (!room) return;
  const seat = room.players.find((p) => p.user_id === you.user_id);
  const seated = !!seat && !seat.left;
  const isHost = you.user_id === room.host_id;
  $('race-h').textContent = room.title || 'Race';
  $('race-sub').textContent = `Round ${room.round} · ${room.spectators} watching`;
  const state = room.state;
  document.body.dataset.race = state;
  const texts = {
    lobby: `In the lobby: ${counted(room.players.length, 'player')}` +
      (isHost ? '. Start when everyone is in.' : seated ? '. The host starts the race.' : '.'),
    countdown: 'Get ready…',
    racing: seated ? 'Go! Every step counts.' : 'Racing: watching every board.',
    finished: 'The race is over.',
  };
  $('race-state').textContent = texts[state] ?? state;
  $('race-join').hidden = !(!seated && (state === 'lobby' || state === 'finished' || (seat && seat.left)));
  $('race-join').textContent = seat?.left ? 'Back to the race' : 'Join the race';
  $('race-leave').hidden = !seated;
  $('race-start').hidden = !(isHost && state === 'lobby');
  $('race-rematch').hidden = !(seated && state === 'finished');
  // Cards in seat order; cards of players who left the lobby go.
  const ids = new Set(room.players.map((p) => String(p.user_id)));
  for (const card of [...$('race-players').children]) if (!ids.has(card.dataset.user)) card.remove();
  for (const p of room.players) renderCard(p);
  $('race-own').hidden = !own || !seated || state === 'lobby';
  renderCountdown();
  renderResults();
}

function renderCountdown() {
  clearInterval(countdown.timer);
  const el = $('race-countdown');
  if (room.state !== 'countdown') {
    el.hidden = true;
    return;
  }
  countdown.until = performance.now() + room.starts_in_ms;
  const tick = () => {
    const left = countdown.until - performance.now();
    if (left <= 0) {
      clearInterval(countdown.timer);
      el.textContent = 'Go!';
      room.state = 'racing';
      document.body.dataset.race = 'racing';
      setTimeout(() => { el.hidden = true; }, 600);
      $('race-state').textContent = own ? 'Go! Every step counts.' : 'Racing: watching every board.';
      if (own) $('race-board').focus();
      return;
    }
    el.hidden = false;
    el.textContent = String(Math.ceil(left / 1000));
  };
  tick();
  countdown.timer = setInterval(tick, 100);
}

function renderResults() {
  const box = $('race-results');
  box.hidden = room.state !== 'finished';
  if (box.hidden) return;
  const order = [...room.players].sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
  $('race-results-list').replaceChildren(...order.map((p) => {
    const li = document.createElement('li');
    li.textContent = p.finished
      ? `${playerName(p)}: ${seconds(p.time_ms)}, ${movesPushes(p.moves, p.pushes)}`
      : `${playerName(p)}: ${p.left ? 'left' : 'did not finish'}`;
    return li;
  }));
}

// ---- Playing -----------------------------------------------------------------------

function onKey(e) {
  // Not while the board resends what an earlier tab left: keys wait.
  if (currentScreen() !== 'race' || e.defaultPrevented || !own?.play.playable) return;
  if (e.target.closest?.('input, textarea, select')) return;
  const me = room?.players.find((p) => p.user_id === you.user_id);
  if (room?.state !== 'racing' || !me || me.finished || me.left) return;
  const name = actionOfKey(e);
  if (!name) return;
  const play = own.play;
  if (DIR_OF[name] !== undefined) play.step(DIR_OF[name]);
  else if (name === 'undo') play.undo();
  else if (name === 'redo') play.redo();
  else if (name === 'undoPush') play.undoPush();
  else if (name === 'restart') play.restart();
  else return;
  e.preventDefault();
}
