// router.js: one screen at a time, chosen by the location hash
// (#/, #/library/3, #/play/17, #/options, ...). Each screen is a <section>
// with a module that has enter(args) and, optionally, leave().

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
 * {name, args}. A hash that names no screen of the table is the title's. */
export function routeOf(hash, table) {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const name = Object.hasOwn(table, parts[0] ?? '') ? parts[0] : 'title';
  return { name, args: parts.slice(1) };
}

function route() {
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
