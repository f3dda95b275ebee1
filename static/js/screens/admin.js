// screens/admin.js: the admin page: four tabs (uploads, the library, the
// community's levels, the audit log), shown only to an account with the admin right. Others get a
// short explanation; the server refuses their requests anyway.

import { app } from '../app.js';
import { go } from '../router.js';
import { uploadMarkup, Uploads } from '../admin/upload.js';
import { libraryMarkup, Library } from '../admin/library.js';
import { auditMarkup, Audit } from '../admin/audit.js';
import { redrawReports } from '../admin/report.js';
import { communityMarkup, Community } from '../admin/community.js';
import { $ } from '../dom.js';

export const section = 'screen-admin';

const TABS = [['upload', 'Upload'], ['library', 'Library'], ['community', 'Community'], ['audit', 'Audit log']];
let built = false, uploads = null, library = null, audit = null, community = null, core = null;
// Counts the visits: the account is asked for on each, and a visit answered
// after a later one (arrow keys go through tabs faster than the server
// answers) must not show its tab over the one in the address.
let entering = 0;

function markup() {
  const tabs = TABS.map(([id, name]) =>
    `<button type="button" role="tab" id="adm-tab-${id}" aria-controls="adm-panel-${id}" data-tab="${id}">${name}</button>`).join('');
  const panels = [['upload', uploadMarkup()], ['library', libraryMarkup()], ['community', communityMarkup()], ['audit', auditMarkup()]]
    .map(([id, html]) => `<div role="tabpanel" id="adm-panel-${id}" aria-labelledby="adm-tab-${id}" tabindex="-1" hidden>${html}</div>`).join('');
  return `
  <header class="bar">
    <a class="button icon" href="#/" aria-label="Title screen"><svg><use href="#i-prev"/></svg></a>
    <h1 id="admin-h" tabindex="-1">Admin</h1>
    <span id="adm-who" class="small muted"></span>
  </header>
  <div class="adm">
    <div id="adm-denied" class="adm-card adm-denied" hidden>
      <h2>This page is for admins</h2>
      <p>Sign in with an account that has the admin right. An operator gives it with
        <code>sokod admin grant NAME</code>.</p>
      <p><a class="button primary" href="#/account">Account</a></p>
    </div>
    <div id="adm-body" hidden>
      <div class="adm-tabs" role="tablist" aria-label="Admin">${tabs}</div>
      ${panels}
    </div>
  </div>`;
}

function build() {
  built = true;
  $(section).innerHTML = markup();
  const ctx = { core: () => core, theme: () => app.theme };
  library = new Library(ctx);
  uploads = new Uploads({
    ...ctx,
    collections: () => library.list(),
    imported: (id) => { library.current = id; },
  });
  audit = new Audit();
  community = new Community();
  const tablist = $(section).querySelector('[role="tablist"]');
  tablist.addEventListener('click', (e) => {
    const id = e.target.closest('[data-tab]')?.dataset.tab;
    if (id) go(`#/admin/${id}`);
  });
  tablist.addEventListener('keydown', (e) => {
    const i = TABS.findIndex(([id]) => e.target.dataset.tab === id);
    if (i < 0) return;
    let j = -1;
    if (e.key === 'ArrowRight') j = (i + 1) % TABS.length;
    else if (e.key === 'ArrowLeft') j = (i + TABS.length - 1) % TABS.length;
    else if (e.key === 'Home') j = 0;
    else if (e.key === 'End') j = TABS.length - 1;
    if (j < 0) return;
    e.preventDefault();
    go(`#/admin/${TABS[j][0]}`);
    $(`adm-tab-${TABS[j][0]}`).focus();
  });
}

function showTab(id) {
  for (const [tab] of TABS) {
    const on = tab === id;
    const b = $(`adm-tab-${tab}`);
    b.setAttribute('aria-selected', String(on));
    b.tabIndex = on ? 0 : -1;
    $(`adm-panel-${tab}`).hidden = !on;
  }
  if (id === 'library') library.show();
  if (id === 'audit') audit.load();
  if (id === 'upload') uploads.resume();
  if (id === 'community') community.load();
}

export async function enter(args, fresh) {
  if (!built) build();
  const entry = ++entering;
  core = await app.core();
  await app.refreshAccount();
  if (entry !== entering) return;
  const a = app.account;
  const admin = !!a?.admin;
  $('adm-denied').hidden = admin;
  $('adm-body').hidden = !admin;
  $('adm-who').textContent = admin ? `Signed in as ${a.username}` : '';
  document.body.dataset.admin = admin ? '1' : '0';
  if (admin) {
    const tab = TABS.some(([id]) => id === args[0]) ? args[0] : 'upload';
    showTab(tab);
  }
  if (fresh) $('admin-h').focus({ preventScroll: true });
}

export function redraw() {
  library?.redraw();
  if (built) redrawReports($(section));
}
