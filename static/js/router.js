// router.js: one screen at a time, chosen by the location hash
// (#/, #/library/3, #/play/17, #/options, ...). Each screen is a <section>
// with a module that has enter(args) and, optionally, leave(). A hash that
// names no screen shows the table's `missing` screen, which says so; one
// that names an element of the page (the skip link's #main) is no route.

let current = null;
let screens = {};

export function startRouter(table) {
  screens = table;
  window.addEventListener('hashchange', route);
  route();
}

export function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

export function currentScreen() {
  return current?.name ?? null;
}

/** The screen a location hash names in table and the arguments after it:
 * {name, args}. No hash is the title's; a hash that names no screen of the
 * table is the `missing` screen's, with every part of it as arguments (the
 * title's when the table has no such screen). */
export function routeOf(hash, table) {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  if (parts.length === 0) return { name: 'title', args: [] };
  if (parts[0] !== 'missing' && Object.hasOwn(table, parts[0])) return { name: parts[0], args: parts.slice(1) };
  if (Object.hasOwn(table, 'missing')) return { name: 'missing', args: parts };
  return { name: 'title', args: parts.slice(1) };
}

function route() {
  // An anchor within the page (the skip link) moves focus, not screens.
  if (/^#[^/]/.test(location.hash) && document.getElementById(decodeURIComponent(location.hash.slice(1)))) return;
  const { name, args } = routeOf(location.hash, screens);
  const screen = screens[name];
  if (current && current.name !== name) {
    current.screen.leave?.();
    document.getElementById(current.screen.section).hidden = true;
  }
  const section = document.getElementById(screen.section);
  const fresh = !current || current.name !== name;
  current = { name, screen };
  section.hidden = false;
  screen.enter(args, fresh);
  if (fresh) {
    // Move focus to the new screen's heading, so keyboard and screen reader
    // users start there.
    const h = section.querySelector('h1');
    if (h && screen.focusHeading !== false) h.focus({ preventScroll: true });
  }
}
