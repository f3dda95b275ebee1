// community.js: what the game screen shows of a level a player published:
// its author (a link to their levels), its likes with a like button, and a
// "Report" dialog that tells the admins what is wrong with it. Nothing
// shows for the other levels.

import { api, errorMessage } from './api.js';
import { app } from './app.js';
import { toast } from './a11y.js';
import { $ } from './dom.js';

let shown = null; // the community object of the level on screen

function build() {
  const bar = document.createElement('p');
  bar.id = 'g-community';
  bar.className = 'community-bar small';
  bar.hidden = true;
  bar.innerHTML = `<a id="g-community-author" class="muted"></a>
    <button id="g-like" class="button small" type="button" aria-pressed="false"></button>
    <button id="g-report" class="button small" type="button">Report</button>`;
  $('g-hint').after(bar);
  const dialog = document.createElement('dialog');
  dialog.id = 'report-dialog';
  dialog.className = 'card menu-dialog';
  dialog.setAttribute('aria-labelledby', 'report-h');
  dialog.innerHTML = `<h2 id="report-h">Report this level</h2>
    <form id="report-form" class="acc-form" novalidate>
      <label>What is wrong with it? <textarea id="report-reason" rows="3" maxlength="500" required></textarea></label>
      <div class="row">
        <button class="button primary" type="submit">Send to the admins</button>
        <button class="button" type="button" data-close>Cancel</button>
      </div>
      <p id="report-msg" class="form-error" role="alert"></p>
    </form>`;
  bar.after(dialog);
  dialog.addEventListener('click', (e) => { if (e.target.closest('[data-close]')) dialog.close(); });
  $('g-like').addEventListener('click', like);
  $('g-report').addEventListener('click', openReport);
  $('report-form').addEventListener('submit', (e) => {
    e.preventDefault();
    sendReport();
  });
}

function member() {
  const a = app.account;
  return !!(a && a.username && !a.guest);
}

function fill() {
  const c = shown;
  $('g-community-author').textContent = `More levels by ${c.author}`;
  $('g-community-author').href = `#/library/${c.collection_id}/author/${c.author_id}`;
  $('g-like').textContent = `${c.liked ? '♥ Liked' : '♡ Like'} · ${c.likes}`;
  $('g-like').setAttribute('aria-pressed', String(!!c.liked));
  $('g-like').setAttribute('aria-label', `${c.liked ? 'Liked' : 'Like'}: ${c.likes} like${c.likes === 1 ? '' : 's'}`);
}

/** Shows the bar for a level's `community` object (GET /levels/{id}), or
 * hides it for a level nobody published (undefined). */
export function showCommunity(community) {
  if (!$('g-community')) build();
  shown = community ?? null;
  $('g-community').hidden = !shown;
  if (shown) fill();
}

async function like() {
  if (!shown) return;
  if (!member()) {
    toast('Sign up to like levels');
    return;
  }
  const id = shown.id;
  const r = await api.like(id, !shown.liked);
  if (!r.ok) {
    toast(errorMessage(r, 'The like cannot be saved'), 'error');
    return;
  }
  if (shown?.id === id) {
    shown = r.body.level;
    fill();
  }
}

function openReport() {
  if (!shown) return;
  if (!member()) {
    toast('Sign up to report levels');
    return;
  }
  $('report-msg').textContent = '';
  $('report-reason').value = '';
  $('report-dialog').showModal();
  $('report-reason').focus();
}

async function sendReport() {
  const reason = $('report-reason').value.trim();
  if (!reason) {
    $('report-msg').textContent = 'Say what is wrong with it.';
    return;
  }
  const r = await api.report(shown.id, reason);
  if (!r.ok) {
    $('report-msg').textContent = errorMessage(r, 'The report cannot be sent');
    return;
  }
  $('report-dialog').close();
  toast(r.body.created ? 'Thank you: the admins will look at it' : 'You reported this level already');
}
