// screens/watch.js: following one player live (#/watch/USER_ID). The board
// starts from the player's game as GET /watch/{id} gives it, then replays
// the "step" events of the tab's stream with a core of its own; a "playing"
// event (the player opened another level), a gap or a "snapshot" loads the
// game again. Entries heard before the first load are kept and replayed
// after it, so nothing falls between the fetch and the stream.

import { app } from '../app.js';
import { api, errorMessage } from '../api.js';
import { loadCore } from '../core.js';
import { playEntry, gameOfState, boardCells } from '../letters.js';
import { BoardView } from '../board.js';
import { currentScreen } from '../router.js';
import { live } from '../live.js';
import { $ } from '../dom.js';
import { movesPushes } from '../words.js';

export const section = 'screen-watch';

let userId = 0;
let view = null;
let core = null;
let shown = null;   // {game (core game), gameId, seq} of the board on screen
let early = [];     // step events heard while loading
let loading = null;
let wired = false;

function wire() {
  wired = true;
  live.on('step', (e) => {
    if (currentScreen() !== 'watch' || !e) return;
    if (loading || !shown) early.push(e);
    else onStep(e);
  });
  live.on('playing', (e) => currentScreen() === 'watch' && e?.user_id === userId && load());
  live.on('snapshot', () => currentScreen() === 'watch' && load());
  live.on('ready', () => currentScreen() === 'watch' && userId && load());
  // Refused (the player opted out) or lost: the watch answer says which.
  live.on('down', () => currentScreen() === 'watch' && userId && load());
}

export async function enter(args) {
  if (!wired) wire();
  const id = Number(args[0]);
  if (id !== userId) {
    userId = id;
    shown = null;
    early = [];
    $('watch-h').textContent = 'Watching';
    $('watch-sub').textContent = '';
    $('watch-own').hidden = true;
  }
  $('watch-state').textContent = 'Loading…';
  live.follow({ watch: id });
}

export function leave() {
  live.stop();
}

export function redraw() {
  view?.setTheme(app.theme);
}

/** Fetches the player's game; calls made meanwhile for the same player share it. */
function load() {
  if (!userId) return null;
  // A load of the player watched before is no answer for this one.
  if (loading?.id === userId) return loading.done;
  const id = userId;
  const mine = { id, done: null };
  loading = mine;
  mine.done = api.watch(id).then(async (r) => {
    if (id !== userId) {
      if (loading === mine) loading = null;
      return;
    }
    if (!r.ok) {
      loading = null;
      shown = null;
      $('watch-own').hidden = true;
      $('watch-state').textContent = errorMessage(r, 'This player cannot be watched');
      document.body.dataset.watch = 'refused';
      live.stop(); // the refusal stands until the page is opened again
      return;
    }
    const name = r.body.player.name || `Player ${id}`;
    $('watch-h').textContent = `Watching ${name}`;
    if (!r.body.game) {
      shown = null;
      $('watch-own').hidden = true;
      $('watch-state').textContent = `${name} has not played yet: their board shows here when they do.`;
    } else {
      await show(r.body.game);
      // The first board waits for its core: another player may be watched by then.
      if (id !== userId) {
        if (loading === mine) loading = null;
        return;
      }
      $('watch-state').textContent = `${name} is playing ${r.body.game.level?.title ?? 'a level'}.`;
    }
    if (loading === mine) loading = null;
    const heard = early;
    early = [];
    for (const e of heard) onStep(e);
    document.body.dataset.watch = 'live';
  });
  return mine.done;
}

async function show(game) {
  core ??= await loadCore('/core.wasm');
  if (!view) {
    view = new BoardView($('watch-board'), $('watch-frame'));
    view.setTheme(app.theme);
    view.stepMs = 0;
  }
  $('watch-own').hidden = false;
  view.resize();
  const g = gameOfState(core, game);
  shown = { game: g, gameId: game.id, seq: game.seq };
  $('watch-sub').textContent = game.level?.title ?? '';
  view.setLevel({ width: g.width, height: g.height, cells: boardCells(g) }, { player: g.player, boxes: g.boxes() });
  mark();
}

function mark() {
  const g = shown.game;
  $('watch-counts').textContent = movesPushes(g.moves, g.pushes);
  Object.assign($('screen-watch').dataset, {
    game: String(shown.gameId), seq: String(shown.seq), player: String(g.player),
    moves: String(g.moves), pushes: String(g.pushes),
  });
}

/** An entry of the watched player, heard live. */
function onStep(e) {
  if (!shown || e.game !== shown.gameId) {
    if (!shown || e.seq > 0) load();
    return;
  }
  if (e.seq <= shown.seq) return; // already on the board
  if (e.seq !== shown.seq + 1) return void load();
  const g = shown.game;
  const ok = playEntry(g, e);
  shown.seq = e.seq;
  if (!ok || g.moves !== e.moves || g.pushes !== e.pushes) return void load();
  view.snap({ player: g.player, boxes: g.boxes() });
  mark();
}
