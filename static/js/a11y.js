// a11y.js: announcements for screen readers through ARIA live regions, and
// short messages (toasts) that everyone sees.

import { $ } from './dom.js';

let polite, assertive, toastBox;
let pending = null;

export function initA11y() {
  polite = $('live-polite');
  assertive = $('live-assertive');
  toastBox = $('toasts');
}

/** Says text in the polite live region. Rapid calls keep only the last, so
 * a fast player hears the latest count, not a backlog. */
export function announce(text, urgent = false) {
  const region = urgent ? assertive : polite;
  if (!region) return;
  clearTimeout(pending);
  pending = setTimeout(() => {
    region.textContent = '';
    region.textContent = text;
  }, urgent ? 0 : 150);
}

/** Shows a short message for a few seconds (and announces it). */
export function toast(text, kind = 'info', ms = 3500) {
  if (!toastBox) return;
  const el = document.createElement('div');
  el.className = `toast toast-${kind}`;
  el.textContent = text;
  toastBox.append(el);
  announce(text, kind === 'warn');
  setTimeout(() => {
    el.classList.add('leaving');
    setTimeout(() => el.remove(), 400);
  }, ms);
}
