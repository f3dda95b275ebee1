// screens/game.js: the game screen: the board, the counters and buttons,
// keys, taps, swipes and gamepads, the solved moment and the in-game menu.

import { showCommunity } from '../community.js';
import { app } from '../app.js';
import { api, errorMessage, onSession } from '../api.js';
import { keptAnswer } from '../kept.js';
import { BoardView } from '../board.js';
import { Play } from '../play.js';
import { letterOf, RESTART_LETTER } from '../letters.js';
import { actionOfKey, watchPointer, watchGamepads, DIR_OF } from '../input.js';
import { announce, toast } from '../a11y.js';
import { counted, movesPushes, levelTitle } from '../words.js';
import { go, currentScreen } from '../router.js';
import * as settings from '../settings.js';
import { drainSavedOutboxes } from '../sync.js';
import { live } from '../live.js';
import { initHints, resetHints, pressHint, hintsChanged, hintCount } from '../hint.js';
import { bestOf, isNewBest, standing, nextCollection } from '../solved.js';
import { offerForYou } from '../foryou.js';
import { showLesson, hideLesson } from '../lesson.js';
import { $ } from '../dom.js';
import { initSnapshots, openSnapshots } from '../snapshots.js';
import { initConflict, putAsideConflict } from '../conflict.js';

export const section = 'screen-game';

let view = null;
let play = null;
let levelId = 0;
// The rule of the game shown: 0 standard, 1 multi-push (#/play/ID/multipush),
// 2 reverse (#/play/ID/reverse).
let rule = 0;
// Shift held with a step's key: in a reverse game, a step away from a box
// that leaves it where it is.
let keepBox = false;
let neighbours = { prev: 0, next: 0, count: 0, position: 0, name: '' };
let solvedShown = false;
// Bumped by each level opened, by going back to the level still shown and by
// leaving the screen: an answer that comes after it moved on is dropped.
let opening = 0;
// The level being opened, until its game is playable (0: none): keys and
// taps wait, for the game and the neighbours in hand are still the last
// level's.
let loading = 0;
// Settles once the neighbours of the level shown are known: Next and Prev
// pressed the moment a level shows wait for them rather than do nothing.
let neighboursKnown = Promise.resolve();
let drained = false;
// The player's best on the level shown ({moves, pushes}; null: unsolved;
// undefined: not known yet), and the first level of the collection that
// follows a collection's last level (0: none).
let best;
let bestHinted = false;
let nextAfter = 0;
let hovered = -1;
// The arguments of the level last asked for, to open it again.
let lastArgs = null;

/** Timing of the last key press and of the frame that showed it. */
export const metrics = { keyAt: 0, handledAt: 0, shownAt: 0, latencies: [] };

function setup() {
  view = new BoardView($('board'), $('board-frame'));
  view.mayTurn = true;
  view.onFrame = () => {
    if (metrics.keyAt && !metrics.shownAt) {
      metrics.shownAt = performance.now();
      metrics.drawMs = view.drawMs;
      metrics.latencies.push(metrics.shownAt - metrics.keyAt);
    }
  };
  play = new Play(null, view, {
    askConflicts: true,
    shown: () => currentScreen() === 'play',
    update: updateHud,
    solved: onSolved,
    // The level played last is one with a move, not one only looked at.
    played: () => {
      if (app.lastPlayed !== levelId) app.lastPlayed = levelId;
      if (app.lastPlayedRule !== rule) app.lastPlayedRule = rule;
    },
    chooseStart: (cell) => chooseStart(cell),
    pending: (n, waiting) => {
      $('board').dataset.pending = String(n);
      document.body.dataset.pending = String(n);
      if (waiting) document.body.dataset.waiting = '1';
      else delete document.body.dataset.waiting;
    },
  });
  initHints(play, view);
  initSnapshots(play);
  initConflict();
  document.addEventListener('keydown', onKey);
  watchPointer($('board-frame'), {
    point: (x, y) => {
      if (!ready() || !settings.get('pointMode')) return;
      play.pointAt(view.cellAt(x, y));
    },
    drag: (x0, y0, x1, y1) => {
      if (ready() && settings.get('pointMode')) play.dragTo(view.cellAt(x0, y0), view.cellAt(x1, y1));
    },
    action: (name) => ready() && act(name),
    zoom: (factor, x, y) => view.zoomAt(factor, x, y),
    pinch: { begin: (x, y) => view.pinchBegin(x, y), move: (scale, x, y) => view.pinchMove(scale, x, y) },
    hover: (x, y) => {
      if (!ready() || !settings.get('pointMode')) return view.setMarks({ target: -1, path: null });
      const c = x < 0 ? -1 : view.cellAt(x, y);
      if (c === hovered) return;
      hovered = c;
      if (play.selected >= 0) view.setMarks({ target: play.reach && play.reach[c] ? c : -1, path: null });
      else view.setMarks({ target: -1, path: play.walkPreview(c) });
    },
  });
  watchGamepads((name) => {
    if (currentScreen() !== 'play') return;
    if (!$('solved').hidden) {
      if (name === 'confirm' || name === 'next') nextLevel();
      return;
    }
    if (name === 'menu') return openMenu();
    if (ready()) act(name);
  });
  for (const [id, name] of [['g-undo', 'undo'], ['g-undo-push', 'undoPush'], ['g-redo', 'redo'], ['g-restart', 'restart'],
    ['g-prev', 'prev'], ['g-next', 'next']]) {
    $(id).addEventListener('click', () => ready() && act(name));
  }
  $('g-menu').addEventListener('click', openMenu);
  $('keys-close').addEventListener('click', () => $('keys').close());
  $('keys').addEventListener('close', () => $('board').focus());
  $('solved-next').addEventListener('click', nextLevel);
  $('solved-stay').addEventListener('click', closeSolved);
  $('game-menu').addEventListener('click', (e) => {
    const which = e.target.closest('[data-menu]')?.dataset.menu;
    if (!which) return;
    $('game-menu').close();
    if (which === 'levels') go(`#/library/${play.state?.level.collection_id ?? ''}`);
    else if (which === 'positions') openSnapshots();
    else if (which === 'options') go('#/options/play');
    else if (which === 'keys') openKeys();
    else if (which === 'title') go('#/');
    else if (which === 'rule' && levelId) go(playHash(levelId, rule === 1 ? 0 : 1));
    else if (which === 'reverse' && levelId) go(playHash(levelId, rule === 2 ? 0 : 2));
    else $('board').focus();
  });
  // The same game played in another tab or on another device, live.
  live.on('step', (e) => {
    if (currentScreen() !== 'play' || !e) return;
    if (play.applyRemote(e) === 'behind') catchUp();
  });
  live.on('snapshot', () => currentScreen() === 'play' && catchUp());
  // Whatever happened between opening the game and the stream being ready.
  live.on('ready', () => currentScreen() === 'play' && catchUp());
  // Another session (a log-in, a sign-up): the game shown was the last
  // account's, and the level opens again as the new one's.
  onSession((started) => { if (started) reopen(); });
  window.addEventListener('focus', catchUp);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) catchUp(); });
  settings.onChange(applySettings);
  applySettings();
}

function applySettings() {
  if (!view) return;
  view.stepMs = settings.SPEEDS[settings.get('speed')] ?? 120;
  view.setShowDead(settings.get('showDead'));
  play.warnFrozen = settings.get('warnFrozen');
  if (play.game) play.refreshMarks();
  $('board-frame').style.cursor = settings.get('pointMode') ? 'pointer' : 'default';
}

function ready() {
  return play && play.game && !loading && currentScreen() === 'play' && $('solved').hidden && !$('game-menu').open;
}

export async function enter(args) {
  if (!view) setup();
  const id = Number(args[0]);
  if (!id) return go('#/library');
  const wantRule = args[1] === 'multipush' ? 1 : args[1] === 'reverse' ? 2 : 0;
  if (id === levelId && wantRule === rule && play.game && loading !== id) {
    if (loading) {
      // Back on the level shown while another was opening (Back after Next):
      // that one's answer must not replace this game.
      ++opening;
      loading = 0;
      $('g-status').hidden = true;
      updateHud();
    }
    live.follow({ game: play.sync.gameId });
    view.resize();
    $('board').focus();
    play.askWaiting();
    return;
  }
  const token = ++opening;
  // A retry of the level that could not be opened keeps saying why.
  const retry = loading === id && $('screen-game').dataset.unavailable === String(id);
  loading = id;
  closeSolved();
  hideLesson();
  if (!retry) {
    $('game-h').textContent = 'Loading…';
    $('g-status').hidden = true;
  }
  play.core = await app.core();
  view.setTheme(app.theme);
  applySettings();
  lastArgs = args;
  // A session ended elsewhere is noticed first: opening a game then would
  // make the page a guest unasked.
  await app.accountChecked;
  // And since then, for a signed-in page: with a session that ended, the
  // server would answer with a new guest's game.
  if (app.account?.username) await app.refreshAccount({ settingsToo: false });
  if (token !== opening) return;
  const r = app.signedOut ? await keptGame(id, wantRule) : await api.openGame(id, wantRule);
  if (token !== opening) return;
  if (!r.ok) {
    unavailable(id);
    $('game-h').textContent = r.signedOut ? 'Signed out' : r.offline ? 'Offline' : 'Level not found';
    $('g-status').textContent = r.offline
      ? 'This level has not been opened on this device, and the server cannot be reached: trying again…'
      : errorMessage(r, 'This level cannot be opened');
    $('g-status').hidden = false;
    if (r.offline) setTimeout(() => { if (token === opening && currentScreen() === 'play') enter(args); }, 3000);
    return;
  }
  unavailable(0);
  levelId = id;
  rule = wantRule;
  neighbours = { prev: 0, next: 0, count: 0, position: 0, name: '' };
  best = undefined;
  bestHinted = false;
  nextAfter = 0;
  await play.attach(r.body.game);
  if (token !== opening) return;
  loading = 0;
  updateHud();
  app.lastLevel = id;
  resetHints(play.state);
  live.follow({ game: play.sync.gameId });
  if (!drained) {
    // Moves an earlier visit queued for other levels go to the server too.
    drained = true;
    drainSavedOutboxes(play.sync.gameId);
  }
  solvedShown = play.game.solved;
  $('board').focus();
  loadHint(id);
  neighboursKnown = loadNeighbours(play.state.level);
  await neighboursKnown;
  if (token !== opening) return;
  announce(`${$('game-h').textContent}. ${play.counts()}.`);
}

/** Shows that level `id` cannot be opened (0: the level opened): the last
 * level's board, counters and buttons are not this one's, so they go. */
function unavailable(id) {
  const screen = $('screen-game');
  if (id) screen.dataset.unavailable = String(id);
  else delete screen.dataset.unavailable;
  for (const el of [$('board'), screen.querySelector('.counters'), screen.querySelector('.hud-buttons')]) el.hidden = !!id;
  if (id) {
    levelId = 0;
    $('g-sub').textContent = '';
    $('g-best').hidden = true;
    $('g-hint').textContent = '';
    $('hint-panel').hidden = true;
  }
}

/** The account's game on level `id` under `rule` as this device last had
 * it, for a page signed out from that account (its session ended
 * elsewhere): played here, its moves wait for the log-in as they would
 * offline. Resolves as api.openGame does; when the device kept no such
 * game, to a refusal that says how to go on. */
async function keptGame(id, rule) {
  const kept = await keptAnswer('POST', `/levels/${id}/game`, { rule });
  if (kept?.body?.game) return { ok: true, status: 200, body: kept.body, kept: kept.at };
  const message = `Signed out: log in as ${app.signedOut} to play this level, or play as a guest.`;
  return { ok: false, status: 401, signedOut: true, body: { error: { code: 'no_session', message } } };
}

/** Opens the level shown again, as the session now stands (after a log-in,
 * or when the player chose to play as a guest). */
export function reopen() {
  levelId = 0;
  if (currentScreen() === 'play' && lastArgs) enter(lastArgs);
}

export function leave() {
  ++opening;
  hideLesson();
  live.stop();
  $('game-menu').open && $('game-menu').close();
  $('keys').open && $('keys').close();
  // A choice left open is asked again on return, not over the next screen.
  if (putAsideConflict()) play.conflictWaiting = true;
}

export function redraw() {
  if (view) view.setTheme(app.theme);
}

// The collections listed to players (GET /collections) by id, asked again
// when a level's is not among them.
let listed = null;

/** False when a collection is not listed (the daily puzzles' hidden one):
 * it has no list of levels to ask for. True when unknown (offline). */
async function isListed(id) {
  if (!listed?.has(id)) {
    const list = await app.collections();
    if (list) listed = new Map(list.map((c) => [c.id, c]));
  }
  return listed?.has(id) ?? true;
}

async function loadNeighbours(level) {
  if (!(await isListed(level.collection_id))) {
    const r = await api.level(level.id);
    if (play.state?.level.id !== level.id) return;
    neighbours = { prev: 0, next: 0, count: 0, position: level.position, name: r.ok ? r.body.level.collection_name : '',
      unlisted: true };
    updateHud();
    return;
  }
  const data = await app.collection(level.collection_id);
  // Another level's, when the player moved on while it was on its way.
  if (play.state?.level.id !== level.id) return;
  const levels = data?.levels ?? [];
  const i = levels.findIndex((l) => l.id === level.id);
  neighbours = {
    prev: i > 0 ? levels[i - 1].id : 0,
    next: i >= 0 && i + 1 < levels.length ? levels[i + 1].id : 0,
    count: levels.length,
    position: level.position,
    name: data?.collection.name ?? '',
  };
  updateHud();
}

async function loadHint(id) {
  const r = await api.level(id);
  if (id !== levelId) return;
  const l = r.ok ? r.body.level : null;
  if (l) {
    best = bestOf(l);
    bestHinted = !!l.hinted;
    showBest();
  }
  // A tutorial level's comment is its lesson, shown on the board.
  const lesson = l?.comment && (await isListed(l.collection_id)) &&
    /tutorial/.test(listed?.get(l.collection_id)?.source ?? '');
  if (id !== levelId) return;
  const bits = [];
  if (l?.author) bits.push(`by ${l.author}`);
  if (l?.comment && !lesson) bits.push(l.comment);
  if (l?.best_known && rule === 0) bits.push(`best known ${movesPushes(l.best_known.moves, l.best_known.pushes)}`);
  $('g-hint').textContent = bits.join(' — ');
  showCommunity(l?.community);
  // A lesson speaks of pushes: a reverse game has none.
  if (lesson && play.game.pushes === 0 && rule !== 2) showLesson(view, id, l.comment, play.game.boxes()[0] ?? play.game.player);
}

function updateHud() {
  if (!play.game) return;
  hovered = -1;
  const g = play.game, lvl = play.state.level;
  $('game-h').textContent = loading ? 'Loading…' : levelTitle(lvl);
  $('g-sub').textContent = !neighbours.name ? `Level ${lvl.position}`
    : neighbours.count ? `${neighbours.name} · ${lvl.position} of ${neighbours.count}` : neighbours.name;
  if (rule === 1) $('g-sub').textContent += ' · Multi-push';
  if (rule === 2) $('g-sub').textContent += ' · Reverse';
  showBest();
  $('g-moves').textContent = g.moves;
  // A reverse game pulls its boxes back to where they start.
  $('g-pushes-name').textContent = g.reverse ? 'Pulls' : 'Pushes';
  $('g-pushes').textContent = g.pushes;
  $('g-goals-name').textContent = g.reverse ? 'Start' : 'Goals';
  $('g-goals').textContent = `${g.boxesHome}/${g.boxCount}`;
  $('g-undo').disabled = g.cursor === 0;
  $('g-undo-push').disabled = g.cursor === 0;
  $('g-redo').disabled = g.redoCount === 0;
  $('g-restart').disabled = g.moves === 0;
  // The solver plans pushes: there are no hints in a reverse game.
  $('g-ask-hint').disabled = g.reverse;
  $('g-prev').disabled = !neighbours.prev;
  $('g-next').disabled = !neighbours.next;
  $('board').setAttribute('aria-label', `${$('game-h').textContent}: ${g.width} by ${g.height} squares, ` +
    `${g.boxesHome} of ${g.boxCount} boxes ${g.reverse ? 'back on their start' : 'on goals'}, ${play.counts()}` +
    (play.stuck ? '. A box is stuck' : ''));
  document.body.dataset.moves = g.moves;
  document.body.dataset.pushes = g.pushes;
  if (!g.solved && solvedShown) solvedShown = false;
  if (g.pushes > 0) hideLesson();
  hintsChanged();
}

function act(name) {
  // Directions are as seen on screen, where the board may be turned.
  if (DIR_OF[name] !== undefined) return play.step(view.boardDir(DIR_OF[name]), false, null, keepBox);
  switch (name) {
    case 'undo': return play.undo();
    case 'redo': return play.redo();
    case 'undoPush': return play.undoPush();
    case 'restart': return play.restart();
    case 'hint': return play.game.reverse ? announce('There are no hints in a reverse game') : pressHint();
    case 'next': return toNeighbour('next');
    case 'prev': return toNeighbour('prev');
    case 'menu': return openMenu();
    default: return null;
  }
}

/** Opens the next or previous level, once the level shown knows it. */
async function toNeighbour(which) {
  const token = opening;
  await neighboursKnown;
  if (token === opening && neighbours[which]) go(playHash(neighbours[which]));
}

function onKey(e) {
  if (currentScreen() !== 'play' || e.defaultPrevented) return;
  if (e.target.closest?.('input, textarea, select')) return;
  const name = actionOfKey(e);
  if (!name) return;
  if (!$('solved').hidden) {
    if (name === 'confirm' || name === 'next') { e.preventDefault(); nextLevel(); }
    else if (name === 'menu') { e.preventDefault(); closeSolved(); }
    else if (name === 'undo') { e.preventDefault(); closeSolved(); play.undo(); }
    return;
  }
  if ($('screen-game').querySelector('dialog[open]')) return; // a dialog handles its own keys
  if (name === 'confirm') return; // Enter activates focused buttons
  // The menu is the way out, so it opens while a level loads and after one
  // could not be opened too, when the other keys wait.
  if (name === 'menu') { e.preventDefault(); openMenu(); return; }
  if (name === 'keys') { e.preventDefault(); openKeys(); return; }
  if (!ready()) return;
  e.preventDefault();
  const timed = DIR_OF[name] !== undefined;
  if (timed) {
    metrics.keyAt = e.timeStamp;
    metrics.handledAt = performance.now();
    metrics.shownAt = 0;
  }
  // Shift with a step's key, and only the keyboard's: a step that leaves the box.
  keepBox = e.shiftKey;
  act(name);
  keepBox = false;
  if (timed) metrics.handlerMs = performance.now() - metrics.handledAt;
}

/** The address of a level's game under the rule of the game shown (or r). */
function playHash(id, r = rule) {
  return `#/play/${id}${r === 1 ? '/multipush' : r === 2 ? '/reverse' : ''}`;
}

/** A reverse game with nothing played starts again from `cell`, a square
 * its player could not walk to: the server keeps the choice. */
async function chooseStart(cell) {
  const [x, y] = play.game.xy(cell), id = levelId, token = opening;
  const r = await api.openGame(id, 2, { x, y });
  if (token !== opening || id !== levelId) return;
  if (!r.ok) return toast(errorMessage(r, 'The player cannot start there'), 'warn');
  await play.attach(r.body.game);
  updateHud();
  announce('The player starts here');
}

function openMenu() {
  const d = $('game-menu');
  $('menu-rule').textContent = rule === 1 ? 'Play the standard rule' : 'Play multi-push';
  $('menu-reverse').textContent = rule === 2 ? 'Play forward' : 'Play in reverse';
  if (!d.open) d.showModal();
}

/** Opens the list of keys (? or F1, and the menu's Keys); Escape or Close
 * closes it and the board has the focus again. */
function openKeys() {
  const d = $('keys');
  if (!d.open) d.showModal();
}

/** "Solved · best 12 moves, 3 pushes" under the level's name, once the
 * player's best on the level shown is known and while it is solved. */
function showBest() {
  const line = $('g-best');
  line.hidden = !best || loading !== 0;
  line.textContent = best ? `Solved · best ${movesPushes(best.moves, best.pushes)}${bestHinted ? ' with hints' : ''}` : '';
  line.title = line.textContent;
}

function onSolved() {
  if (solvedShown) return;
  solvedShown = true;
  app.invalidate();
  const g = play.game;
  // Let the last push finish before the card shows.
  const show = () => {
    if (view.animating) return requestAnimationFrame(show);
    if (!g.solved || play.game !== g) return;
    const hints = hintCount();
    const stored = storedCounts(g);
    $('solved-text').textContent = stored.text + (hints > 0 ? `, with ${counted(hints, 'hint')}` : '');
    // A level of no listed collection (the daily puzzle, a race's) is no
    // collection's last: what follows is said once it is known.
    $('solved-best').textContent = neighbours.next || neighbours.unlisted ? '' : 'That was the last level of this collection.';
    $('solved-next').hidden = !neighbours.next;
    $('solved-next-label').textContent = 'Next level';
    $('solved-board').href = `#/board/${levelId}${rule === 1 ? '/moves/multipush' : ''}`;
    $('solved').hidden = false;
    (neighbours.next ? $('solved-next') : $('solved-stay')).focus();
    showStanding(stored.counts);
    $('solved-foryou').hidden = true;
    offerForYou('solved-foryou', levelId);
    if (!neighbours.next) offerNextCollection();
  };
  setTimeout(show, 120);
}

/** The solution solved game g leaves on the server, as the solved card
 * words it: {counts: {moves, pushes} or null when unknown, text}. A
 * reverse game's is the forward line it stands for, counted as the
 * leaderboard shows it; when the page cannot work that line out, the
 * card tells the reverse game's own steps and pulls. */
function storedCounts(g) {
  if (!g.reverse) return { counts: { moves: g.moves, pushes: g.pushes }, text: movesPushes(g.moves, g.pushes) };
  const f = g.forwardCounts();
  if (f) return { counts: f, text: `${movesPushes(f.moves, f.pushes)}, played in reverse` };
  return { counts: null, text: `${counted(g.moves, 'move')}, ${counted(g.pushes, 'pull')} in reverse` };
}

/** "New best" at once, then the player's best and rank once the server
 * holds the solution (it ranks what it saw played). counts: the stored
 * solution's {moves, pushes}, or null when unknown. */
async function showStanding(counts) {
  const sync = play.sync, id = levelId;
  $('solved-new').hidden = best === undefined || !counts || !isNewBest(best, counts.moves, counts.pushes);
  $('solved-rank').textContent = '';
  if (best !== undefined && counts) {
    if (!best) bestHinted = hintCount() > 0;
    best = best ? { moves: Math.min(best.moves, counts.moves), pushes: Math.min(best.pushes, counts.pushes) }
      : { ...counts };
    showBest();
  }
  while (play.sync === sync && sync.pending > 0) await new Promise((r) => setTimeout(r, 100));
  if (play.sync !== sync) return;
  const line = await standing(id, hintCount() > 0);
  if (levelId === id) $('solved-rank').textContent = line;
}

/** After a collection's last level, the next collection with a level left;
 * after a level of no listed collection, the first one (and after today's
 * daily puzzle, when the next one comes, and the day's board). */
async function offerNextCollection() {
  const id = levelId, unlisted = !!neighbours.unlisted;
  const [next, daily] = await Promise.all([nextCollection(play.state.level.collection_id),
    unlisted ? api.daily() : null]);
  if (levelId !== id) return;
  let said = unlisted ? '' : 'That was the last level of this collection.';
  if (daily?.ok && daily.body.level?.id === id) {
    said = 'Today’s puzzle is solved: a new one comes tomorrow.';
    $('solved-board').href = '#/board/daily';
  }
  $('solved-best').textContent = said;
  if (!next) return;
  nextAfter = next.level.id;
  $('solved-best').textContent = `${said ? `${said} ` : ''}Next: ${next.collection.name}.`;
  $('solved-next-label').textContent = `Play ${next.collection.name}`;
  $('solved-next').hidden = false;
  if (document.activeElement === $('solved-stay')) $('solved-next').focus();
}

function closeSolved() {
  if ($('solved').hidden) return;
  $('solved').hidden = true;
  $('board').focus();
}

function nextLevel() {
  $('solved').hidden = true;
  if (neighbours.next) go(playHash(neighbours.next));
  else if (nextAfter) go(`#/play/${nextAfter}`);
  else go(neighbours.unlisted ? '#/library' : `#/library/${play.state.level.collection_id}`);
}

/** Back in this tab: when the game moved on elsewhere, follow it. */
async function catchUp() {
  if (currentScreen() !== 'play' || loading || !play?.sync || play.sync.pending > 0 || view.animating) return;
  const sync = play.sync, seq = sync.seq;
  const r = await api.game(sync.gameId);
  // A step played and confirmed while the answer was on its way makes it
  // older than the page: adopting it would undo that step.
  if (!r.ok || play.sync !== sync || sync.seq !== seq || sync.pending > 0) return;
  if (r.body.game.seq !== seq) {
    play.adopt(r.body.game, '');
    toast('Continued from another device');
  }
}

/** The position of the game on screen, for tests and debugging. */
export function position() {
  const g = play?.game;
  if (!g) return null;
  return {
    player: g.player, boxes: g.boxes(), moves: g.moves, pushes: g.pushes, cursor: g.cursor,
    redo: g.redoCount, hash: g.hash, solved: g.solved, seq: play.sync?.seq ?? 0, pending: play.sync?.pending ?? 0,
    width: g.width, height: g.height, selected: play.selected, stuck: !!play.stuck,
    reach: play.reach ? [...play.reach.keys()].filter((i) => play.reach[i]) : [],
    history: lettersOf(g, 0, g.cursor), redoLine: lettersOf(g, g.cursor, g.historyLength),
    gameId: play.sync?.gameId ?? 0,
  };
}

/** The letters of history entries [from, to) of game g, as the API writes them. */
function lettersOf(g, from, to) {
  let out = '';
  for (let i = from; i < to; i++) {
    const e = g.entry(i);
    out += e.restart ? RESTART_LETTER : letterOf(e.dir, e.pushed > 0);
  }
  return out;
}

export function gameId() {
  return play?.sync?.gameId ?? 0;
}
