// screens/account.js: guest status, sign up, log in and log out (here or
// everywhere), a password change, and the player's solutions: each one's
// LURD to copy, and all of them as a level file to download.

import { app } from '../app.js';
import { api, errorMessage } from '../api.js';
import { announce, toast } from '../a11y.js';
import { copyWithToast } from '../clipboard.js';
import { $, el } from '../dom.js';
import { counted, movesPushes } from '../words.js';

export const section = 'screen-account';
let wired = false;
// Bumped by each listing of solutions: an older answer is dropped.
let listing = 0;

function render() {
  const a = app.account;
  const signedIn = !!(a && a.username && !a.guest);
  $('acc-status').textContent = signedIn
    ? `Signed in as ${a.username}. Your games and solutions follow you to every device you log in on.`
    : 'You are playing as a guest. Your progress lives in this browser\'s session: sign up to keep it and play on any device.';
  $('acc-signed-in').hidden = !signedIn;
  $('acc-forms').hidden = signedIn;
  const storage = a && a.storage;
  $('acc-storage').hidden = !storage;
  if (storage) {
    const share = storage.allowed > 0 ? Math.min(100, Math.round((100 * storage.used) / storage.allowed)) : 0;
    $('acc-storage').textContent =
      `Storage: ${megabytes(storage.used)} of ${megabytes(storage.allowed)} (${share}%): game histories, saved positions, solutions and settings.`;
  }
}

/** Bytes as megabytes, to one decimal. */
function megabytes(n) {
  return `${(n / (1 << 20)).toFixed(1)} MB`;
}

async function submit(form, call) {
  const err = form.querySelector('.form-error');
  const data = new FormData(form);
  const username = String(data.get('username') || '').trim();
  const password = String(data.get('password') || '');
  if (!username || !password) {
    err.textContent = 'Enter a username and a password.';
    return;
  }
  err.textContent = '';
  const button = form.querySelector('button');
  button.disabled = true;
  const r = await call(username, password);
  button.disabled = false;
  if (!r.ok) {
    err.textContent = errorMessage(r, 'That did not work');
    return;
  }
  form.reset();
  await signedInOrOut();
  announce($('acc-status').textContent);
  $('acc-status').focus?.();
}

/** Reads the account again after a change of session, and shows it. */
async function signedInOrOut() {
  app.invalidate();
  app.account = null;
  await app.refreshAccount({ changedHere: true });
  render();
  await listSolutions();
}

async function changePassword(form) {
  const err = form.querySelector('.form-error');
  const data = new FormData(form);
  const current = String(data.get('current_password') || '');
  const next = String(data.get('new_password') || '');
  if (!current || !next) {
    err.textContent = 'Enter your current password and a new one.';
    return;
  }
  if (next.length < 8) {
    err.textContent = 'The new password needs at least 8 characters.';
    return;
  }
  err.textContent = '';
  const button = form.querySelector('button');
  button.disabled = true;
  const r = await api.changePassword(current, next);
  button.disabled = false;
  if (!r.ok) {
    err.textContent = errorMessage(r, 'The password was not changed');
    return;
  }
  form.reset();
  const others = r.body?.sessions_ended ?? 0;
  toast(`Password changed${others > 0 ? `; ${counted(others, 'other session')} logged out` : ''}`);
}

/** The solutions of a level file as sokod exports them: each "Title:" then
 * its "Solution MOVES/PUSHES" lines, each followed by its LURD line. */
export function parseExport(text) {
  const out = [];
  let title = '';
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const t = /^Title:\s*(.*)$/.exec(lines[i]);
    if (t) { title = t[1].trim(); continue; }
    const s = /^Solution\s+(\d+)\/(\d+)(\s+\(multi-push\))?\s*$/.exec(lines[i]);
    if (s && i + 1 < lines.length && /^[lurdLURD]+$/.test(lines[i + 1].trim())) {
      out.push({ title, moves: Number(s[1]), pushes: Number(s[2]), multipush: !!s[3], lurd: lines[i + 1].trim() });
      i++;
    }
  }
  return out;
}

async function listSolutions() {
  const mine = ++listing;
  let text;
  try {
    const r = await fetch('/api/v1/progress/export', { credentials: 'same-origin' });
    text = r.ok ? await r.text() : '';
  } catch {
    text = '';
  }
  if (mine !== listing) return;
  const solutions = parseExport(text);
  $('acc-solutions').hidden = solutions.length === 0;
  $('acc-solution-list').replaceChildren(...solutions.map((s) => {
    const copy = el('button', { class: 'button small', text: 'Copy LURD',
      'aria-label': `Copy the LURD of ${s.title}, ${counted(s.moves, 'move')} and ${counted(s.pushes, 'push', 'pushes')}` });
    copy.addEventListener('click', () => copyWithToast(s.lurd, 'LURD'));
    return el('li', { class: 'solution-row' },
      el('span', { class: 'solution-title', text: s.title, title: s.title }),
      el('span', { class: 'muted small', text: `${movesPushes(s.moves, s.pushes)}${s.multipush ? ', multi-push' : ''}` }),
      copy);
  }));
}

export async function enter() {
  if (!wired) {
    wired = true;
    $('acc-signup').addEventListener('submit', (e) => { e.preventDefault(); submit(e.target, api.signup); });
    $('acc-login').addEventListener('submit', (e) => { e.preventDefault(); submit(e.target, api.login); });
    $('acc-password').addEventListener('submit', (e) => { e.preventDefault(); changePassword(e.target); });
    $('acc-logout').addEventListener('click', async () => {
      await api.logout();
      await signedInOrOut();
      announce('Logged out');
    });
    $('acc-logout-all').addEventListener('click', async () => {
      if (!confirm('Log out on every device, this one included?')) return;
      const r = await api.logoutAll();
      if (!r.ok) return toast(errorMessage(r, 'That did not work'), 'warn');
      await signedInOrOut();
      const n = r.body?.sessions_ended ?? 0;
      announce(`Logged out everywhere: ${counted(n, 'session')} ended`);
    });
  }
  render();
  await app.refreshAccount();
  render();
  await listSolutions();
}
