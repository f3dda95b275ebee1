// screens/options.js: theme, animation speed, point mode, sound and
// deadlock warnings. Every change applies at once.

import * as settings from '../settings.js';
import { themeIndex, loadTheme } from '../themes.js';
import { drawSprite } from '../sprites.js';
import { $ } from '../dom.js';

export const section = 'screen-options';
let built = false;

function preview(canvas, theme) {
  const t = 32, w = 4, h = 2;
  canvas.width = t * w;
  canvas.height = t * h;
  const ctx = canvas.getContext('2d');
  const b = theme.board;
  ctx.fillStyle = b.wall.fill;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) {
      if (x === 0 && y === 0) continue;
      ctx.fillStyle = (x + y) % 2 ? b.floorAlt || b.floor : b.floor;
      ctx.fillRect(x * t, y * t, t, t);
    }
  }
  ctx.fillStyle = b.wall.top;
  ctx.fillRect(0, 0, t, t * 0.14);
  drawSprite(ctx, theme.sprites.player, t, t, 0, 1);
  drawSprite(ctx, theme.sprites.box, t, 2 * t, 0);
  drawSprite(ctx, theme.sprites.goal, t, 3 * t, 0);
  drawSprite(ctx, theme.sprites.goal, t, t, t);
  drawSprite(ctx, theme.sprites.boxOnGoal, t, t, t);
  drawSprite(ctx, theme.sprites.goal, t, 3 * t, t);
  drawSprite(ctx, theme.sprites.box, t, 0, t);
}

// Options apply as they change: the form is never sent anywhere. Wired
// before the themes are fetched, so that a box ticked meanwhile counts.
function wire() {
  const form = $('options-form');
  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('change', (e) => {
    const el = e.target;
    if (el.type === 'checkbox') settings.set(el.name, el.checked);
    else if (el.type === 'radio') settings.set(el.name, el.value);
  });
  // A setting changed elsewhere shows here too: the account's, which the
  // server answers after the form was filled, or a theme chosen meanwhile.
  settings.onChange(() => fill());
}

async function build() {
  built = true;
  wire();
  fill();
  const { themes } = await themeIndex();
  const loaded = await Promise.all(themes.map((id) => loadTheme(id)));
  const box = $('opt-themes');
  for (const [i, id] of themes.entries()) {
    const theme = loaded[i];
    const label = document.createElement('label');
    label.className = 'theme-choice';
    label.innerHTML = '<input type="radio" name="theme"><span><canvas aria-hidden="true"></canvas><b></b></span>';
    const input = label.querySelector('input');
    input.value = id;
    label.querySelector('b').textContent = theme.name;
    label.title = theme.description;
    preview(label.querySelector('canvas'), theme);
    box.append(label);
  }
}

function fill() {
  const form = $('options-form');
  const values = settings.all();
  for (const el of form.elements) {
    if (!el.name) continue;
    if (el.type === 'checkbox') el.checked = !!values[el.name];
    else if (el.type === 'radio') el.checked = values[el.name] === el.value;
  }
  $('opt-where').textContent = settings.storedWhere();
}

export async function enter(args) {
  // Opened from a game: the back button returns to it.
  $('options-back').href = args[0] === 'play' && localStorage.getItem('sokod.last')
    ? `#/play/${localStorage.getItem('sokod.last')}` : '#/';
  if (!built) await build();
  fill();
  $('options-form').dataset.ready = '1';
}
