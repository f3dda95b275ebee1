// themes.js: loads themes (static/themes/*.json: colours and sprite
// descriptions) and applies a theme's interface colours as CSS variables.

const cache = new Map();
let index = null;

/** The list of theme ids and the default one. */
export async function themeIndex() {
  if (!index) index = await (await fetch('/themes/index.json')).json();
  return index;
}

/** A theme by id (falls back to the default theme). */
export async function loadTheme(id) {
  if (cache.has(id)) return cache.get(id);
  const { themes, default: fallback } = await themeIndex();
  const name = themes.includes(id) ? id : fallback;
  const res = await fetch(`/themes/${name}.json`);
  const theme = await res.json();
  theme.id = name;
  cache.set(id, theme);
  return theme;
}

const VARS = {
  bg: '--bg', panel: '--panel', text: '--text', muted: '--muted', accent: '--accent',
  accentText: '--accent-text', focus: '--focus', line: '--line', good: '--good', warn: '--warn',
};

/** Sets the page's colours from a theme. */
export function applyTheme(theme) {
  const root = document.documentElement;
  for (const [k, v] of Object.entries(VARS)) {
    if (theme.ui[k]) root.style.setProperty(v, theme.ui[k]);
  }
  root.style.setProperty('--board-bg', theme.board.background);
  root.dataset.theme = theme.id;
  root.style.colorScheme = theme.dark ? 'dark' : 'light';
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.content = theme.ui.bg;
}
