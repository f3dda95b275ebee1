// main.js: starts the page: settings and theme, the network indicator, the
// account, and the screens behind the router.

import { app } from './app.js';
import { onReachability, onSession } from './api.js';
import { drainSavedOutboxes } from './sync.js';
import { initA11y, toast } from './a11y.js';
import { loadTheme, applyTheme } from './themes.js';
import * as settings from './settings.js';
import { setSoundEnabled } from './sound.js';
import { startRouter, go, currentScreen } from './router.js';
import * as title from './screens/title.js';
import * as library from './screens/library.js';
import * as game from './screens/game.js';
import * as options from './screens/options.js';
import * as account from './screens/account.js';
import * as credits from './screens/credits.js';
import * as missing from './screens/missing.js';
import * as rooms from './screens/rooms.js';
import { live } from './live.js';
import * as race from './screens/race.js';
import * as watch from './screens/watch.js';
import { lazyScreen } from './lazy.js';
import { $ } from './dom.js';
import { startOffline } from './offline.js';
import { counted } from './words.js';

const editor = lazyScreen('screen-editor', () => import('./screens/editor.js'), '/css/editor.css');
const admin = lazyScreen('screen-admin', () => import('./screens/admin.js'), '/css/editor.css');
const board = lazyScreen('screen-board', () => import('./screens/leaderboard.js'), '/css/boards.css');
const replay = lazyScreen('screen-replay', () => import('./screens/replay.js'), '/css/boards.css');
const stats = lazyScreen('screen-stats', () => import('./screens/stats.js'), '/css/stats.css');

// Counts the themes asked for: a theme that loads after a later choice
// (the player's own, or the account's from another device) is dropped.
let themesAsked = 0;

async function useTheme(id) {
  const asked = ++themesAsked;
  const theme = await loadTheme(id);
  if (asked !== themesAsked) return;
  app.theme = theme;
  applyTheme(app.theme);
  title.redraw();
  library.redraw();
  game.redraw();
  editor.redraw();
  admin.redraw();
  race.redraw();
  watch.redraw();
  replay.redraw();
}

function watchNetwork() {
  const net = $('net');
  const text = $('net-text');
  let wasDown = false;
  const show = (reachable) => {
    const queued = Number(document.body.dataset.pending || 0);
    net.hidden = reachable;
    text.textContent = queued > 0 ? `Offline: ${counted(queued, 'move')} waiting` : 'Offline';
    if (reachable && wasDown) toast('Back online');
    wasDown = !reachable;
  };
  onReachability(show);
  new MutationObserver(() => { if (!net.hidden) show(false); })
    .observe(document.body, { attributes: true, attributeFilter: ['data-pending'] });
}

/** The session ended elsewhere (the server refused one): the page says it
 * is signed out at once and asks for a log-in, which sends the moves held
 * for it (sync.js); a log-in or a sign-up ends that state. */
function watchSession() {
  const show = () => {
    const queued = Number(document.body.dataset.pending || 0);
    const name = app.signedOut ? ` as ${app.signedOut}` : '';
    $('session-text').textContent = queued > 0
      ? `Signed out: log in${name} to send the ${counted(queued, 'move')} waiting here`
      : `Signed out: log in${name} again`;
  };
  onSession((started) => {
    if (started) {
      app.signedOut = '';
      $('session').hidden = true;
      return;
    }
    // A visitor who never signed in has no session to lose (its options
    // wait for one quietly, settings.js).
    if (!app.account?.username && !app.signedOut) return;
    if (app.account?.username) app.signedOut = app.account.username;
    app.account = null;
    show();
    if ($('session').hidden) {
      $('session').hidden = false;
      toast('Your session was ended on another device: log in again. Your moves are kept here until then.', 'warn', 6000);
    }
    if (currentScreen() === 'title') title.enter();
  });
  new MutationObserver(() => { if (!$('session').hidden) show(); })
    .observe(document.body, { attributes: true, attributeFilter: ['data-pending'] });
  // Playing on as a guest instead: the moves kept for the account still
  // wait for its log-in, but levels open as the guest's.
  $('session-guest').addEventListener('click', () => {
    app.signedOut = '';
    app.knownUser = '';
    $('session').hidden = true;
    if (currentScreen() === 'title') title.enter();
    if (currentScreen() === 'play') game.reopen();
  });
  // After a reload: still signed out until a log-in, so that the page does
  // not turn into a guest unasked (a guest's game on a level the account
  // has is dropped when the account logs in).
  if (app.signedOut) {
    show();
    $('session').hidden = false;
  }
}

/** Escape leaves a page screen for the title screen (the game screen
 * opens its own menu instead). */
function watchEscape() {
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('dialog[open]')) return;
    const name = currentScreen();
    if (name && name !== 'title' && name !== 'play' && name !== 'editor') {
      e.preventDefault();
      go('#/');
    }
  });
}

async function boot() {
  initA11y();
  watchNetwork();
  watchSession();
  watchEscape();
  app.core();
  await useTheme(settings.get('theme'));
  setSoundEnabled(settings.get('sound'));
  settings.onChange((key, value) => {
    if (key === 'theme') useTheme(value);
    if (key === 'sound') setSoundEnabled(value);
  });
  app.accountChecked = app.refreshAccount().catch(() => null);
  startRouter({ title, library, play: game, options, account, credits, editor, admin, board, replay, rooms, race, watch, stats, missing });
  // Moves an earlier visit queued and could not send: send them now (the
  // game screen does it itself, once it knows which game it shows).
  if (!/^#\/play\//.test(location.hash)) drainSavedOutboxes();
  window.sokod = { app, metrics: game.metrics, settings, position: game.position, gameId: game.gameId, live };
  startOffline();
}

boot();
