// screens/account.js: guest status, sign up, log in and log out.

import { app } from '../app.js';
import { api, errorMessage } from '../api.js';
import { announce } from '../a11y.js';
import { $ } from '../dom.js';

export const section = 'screen-account';
let wired = false;

function render() {
  const a = app.account;
  const signedIn = !!(a && a.username && !a.guest);
  $('acc-status').textContent = signedIn
    ? `Signed in as ${a.username}. Your games and solutions follow you to every device you log in on.`
    : 'You are playing as a guest. Your progress lives in this browser\'s session: sign up to keep it and play on any device.';
  $('acc-signed-in').hidden = !signedIn;
  $('acc-forms').hidden = signedIn;
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
  app.invalidate();
  await app.refreshAccount();
  render();
  announce($('acc-status').textContent);
  $('acc-status').focus?.();
}

export async function enter() {
  if (!wired) {
    wired = true;
    $('acc-signup').addEventListener('submit', (e) => { e.preventDefault(); submit(e.target, api.signup); });
    $('acc-login').addEventListener('submit', (e) => { e.preventDefault(); submit(e.target, api.login); });
    $('acc-logout').addEventListener('click', async () => {
      await api.logout();
      app.invalidate();
      app.account = null;
      await app.refreshAccount();
      render();
      announce('Logged out');
    });
  }
  render();
  await app.refreshAccount();
  render();
}
