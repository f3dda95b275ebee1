// main.js: starts the page: settings and theme, the network indicator, the
// account, and the screens behind the router.

import { app } from './app.js';
import { onReachability } from './api.js';
import { initA11y, toast } from './a11y.js';
import { loadTheme, applyTheme } from './themes.js';
import * as settings from './settings.js';
import { setSoundEnabled } from './sound.js';
import { startRouter } from './router.js';
import * as title from './screens/title.js';
import * as library from './screens/library.js';
import * as game from './screens/game.js';
import * as options from './screens/options.js';
import * as account from './screens/account.js';
import * as credits from './screens/credits.js';

async function useTheme(id) {
  app.theme = await loadTheme(id);
  applyTheme(app.theme);
  title.redraw();
  library.redraw();
  game.redraw();
}

function watchNetwork() {
  const net = document.getElementById('net');
  const text = document.getElementById('net-text');
  let wasDown = false;
  const show = (reachable) => {
    const queued = Number(document.body.dataset.pending || 0);
    net.hidden = reachable;
    text.textContent = queued > 0 ? `Offline: ${queued} move${queued === 1 ? '' : 's'} waiting` : 'Offline';
    if (reachable && wasDown) toast('Back online');
    wasDown = !reachable;
  };
  onReachability(show);
  new MutationObserver(() => { if (!net.hidden) show(false); })
    .observe(document.body, { attributes: true, attributeFilter: ['data-pending'] });
}

async function boot() {
  initA11y();
  watchNetwork();
  app.core();
  await useTheme(settings.get('theme'));
  setSoundEnabled(settings.get('sound'));
  settings.onChange((key, value) => {
    if (key === 'theme') useTheme(value);
    if (key === 'sound') setSoundEnabled(value);
  });
  startRouter({ title, library, play: game, options, account, credits });
  app.refreshAccount().then(() => {
    if (!location.hash || location.hash === '#/') title.enter();
  });
  window.sokod = { app, metrics: game.metrics, settings, position: game.position, gameId: game.gameId };
}

boot();
