// offline.js: starts the service worker (sw.js), which keeps the page, the
// core and the levels already seen so that sokod opens without a network.
// Browsers allow one only in a secure context (HTTPS, or localhost).

/** Registers the worker; a browser without one plays online as before. A
 * page the worker served asks it to look for a new version of the files
 * (it keeps the one it has when nothing changed). */
export function startOffline() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const served = navigator.serviceWorker.controller;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((e) => {
    console.warn('sokod: no offline copy of the page:', e.message);
  });
  if (served && navigator.onLine) setTimeout(() => served.postMessage('refresh'), 3000);
}
