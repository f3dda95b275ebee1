// screens/title.js: the title screen: a little scene drawn with the theme's
// sprites, and the main menu. "Play" continues the last level played.

import { app } from '../app.js';
import { api, errorMessage } from '../api.js';
import { go } from '../router.js';
import { drawSprite } from '../sprites.js';
import { $ } from '../dom.js';

const SCENE = [
  '#########',
  '#.  $ @ #',
  '#*  $  .#',
  '#########',
];

export const section = 'screen-title';

export function drawTitleArt(canvas, theme) {
  const dpr = window.devicePixelRatio || 1;
  const w = SCENE[0].length, h = SCENE.length;
  const t = Math.max(8, Math.floor((canvas.clientWidth * dpr) / w));
  canvas.width = t * w;
  canvas.height = t * h;
  const ctx = canvas.getContext('2d');
  const b = theme.board;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const ch = SCENE[y][x];
      const px = x * t, py = y * t;
      if (ch === '#') {
        ctx.fillStyle = b.wall.fill;
        ctx.fillRect(px, py, t, t);
        ctx.fillStyle = y === 0 ? b.wall.top : b.wall.edge;
        if (y === 0 || y === h - 1) ctx.fillRect(px, y === 0 ? py : py + t * 0.86, t, t * 0.14);
        continue;
      }
      ctx.fillStyle = (x + y) % 2 ? b.floorAlt || b.floor : b.floor;
      ctx.fillRect(px, py, t, t);
      if (ch === '.' || ch === '*') drawSprite(ctx, theme.sprites.goal, t, px, py);
      if (ch === '$') drawSprite(ctx, theme.sprites.box, t, px, py);
      if (ch === '*') drawSprite(ctx, theme.sprites.boxOnGoal, t, px, py);
      if (ch === '@') drawSprite(ctx, theme.sprites.player, t, px, py, 3);
    }
  }
}

let dailyWired = false;
// Counts the times the title screen was left: a daily puzzle asked for
// before then no longer moves the player, who has gone elsewhere meanwhile.
let left = 0;

// Opens today's puzzle: the server names its level (making it on the day's
// first request), then the play screen opens it like any level.
async function openDaily() {
  const button = $('title-daily');
  const status = $('title-daily-status');
  const asked = left;
  button.disabled = true;
  status.textContent = 'Fetching today’s puzzle…';
  const r = await api.daily();
  if (asked !== left) return;
  button.disabled = false;
  if (!r.ok) {
    status.textContent = errorMessage(r, 'The daily puzzle cannot be opened');
    return;
  }
  status.textContent = '';
  go(`#/play/${r.body.level.id}`);
}

export function enter() {
  if (!dailyWired) {
    dailyWired = true;
    $('title-daily').addEventListener('click', openDaily);
  }
  $('title-daily-status').textContent = '';
  const art = $('title-art');
  if (app.theme) requestAnimationFrame(() => drawTitleArt(art, app.theme));
  const play = $('title-play');
  const last = app.lastLevel;
  play.href = last ? `#/play/${last}` : '#/library';
  play.textContent = last ? 'Continue' : 'Play';
  const who = $('title-user');
  const a = app.account;
  $('title-admin').hidden = !a?.admin;
  who.textContent = a && a.username ? `Signed in as ${a.username}` : 'Playing as a guest: sign up to keep your progress on every device';
}

export function leave() {
  left++;
  // The request still out is given up: the button is free again on return.
  $('title-daily').disabled = false;
}

export function redraw() {
  if (app.theme) drawTitleArt($('title-art'), app.theme);
}
