// screens/title.js: the title screen: a little scene drawn with the theme's
// sprites, and the main menu. "Play" continues where the player left off.

import { app } from '../app.js';
import { api, errorMessage } from '../api.js';
import { go } from '../router.js';
import { drawSprite } from '../sprites.js';
import { $ } from '../dom.js';
import { counted } from '../words.js';
import { offerForYou } from '../foryou.js';

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

// Counts the title screen's visits: a daily state answered for an earlier
// one is dropped.
let visits = 0;

/** Today's puzzle in a line: solved or not, and the streak of days. */
function dailyStateText(s) {
  const days = `${counted(s.streak, 'day')} in a row`;
  if (s.solved_today) return `Solved today · ${days}`;
  return s.streak > 0 ? `Not solved yet today · ${days} so far` : 'Not solved yet today';
}

async function showDailyState(visit) {
  const r = await api.streak();
  if (visit !== visits) return;
  const state = $('title-daily-state');
  state.textContent = r.ok ? dailyStateText(r.body) : '';
  state.toggleAttribute('data-solved', !!(r.ok && r.body.solved_today));
}

/** The first unsolved level of `levels` after position `after`, else the
 * first unsolved one before it, else null. */
function nextUnsolved(levels, after) {
  return levels.find((l) => !l.solved && l.position > after) ?? levels.find((l) => !l.solved) ?? null;
}

/** The level "Play" opens, as {level, collection, resume, rule}, or null:
 * the level played last (on this device, else the account's latest game)
 * while unsolved, under the rule it was played by, else the next unsolved
 * level of its collection, else the first
 * unsolved level of the collections in order (for a new player, the first
 * level of the first: First Steps 1). */
async function playTarget() {
  const list = await app.collections();
  if (!list) return null;
  const listed = new Map(list.map((c) => [c.id, c]));
  const open = async (c) => (await app.collection(c.id, true))?.levels ?? [];
  let from = null;
  let last = app.lastPlayed, rule = app.lastPlayedRule;
  if (!last) {
    // Nothing played on this device: the account's latest unsolved game.
    const p = await api.progress();
    const latest = p.ok ? p.body.in_progress[0] : null;
    [last, rule] = [latest?.level_id ?? 0, latest?.rule ?? 0];
  }
  if (last) {
    const r = await api.level(last);
    if (r.ok && !r.body.level.solved) {
      return { level: r.body.level, collection: r.body.level.collection_name, resume: true, rule };
    }
    if (r.ok) from = r.body.level;
  }
  if (from && listed.has(from.collection_id)) {
    const c = listed.get(from.collection_id);
    const next = nextUnsolved(await open(c), from.position);
    if (next) return { level: next, collection: c.name, resume: false };
  }
  for (const c of list) {
    if (c.solved >= c.levels) continue;
    const next = nextUnsolved(await open(c), 0);
    if (next) return { level: next, collection: c.name, resume: false };
  }
  return null;
}

async function showPlayTarget(visit) {
  const target = await playTarget();
  if (visit !== visits) return;
  const play = $('title-play');
  if (target) {
    const l = target.level;
    play.href = `#/play/${l.id}${target.rule === 1 ? '/multipush' : target.rule === 2 ? '/reverse' : ''}`;
    play.textContent = target.resume ? 'Continue' : 'Play';
    $('title-play-what').textContent = `${target.collection} · ${l.position}. ${l.title || `Level ${l.position}`}` +
      (target.rule === 1 ? ' · Multi-push' : target.rule === 2 ? ' · Reverse' : '');
  } else {
    play.href = '#/library';
    play.textContent = 'Play';
    $('title-play-what').textContent = '';
  }
  play.dataset.ready = '1';
}

export function enter() {
  if (!dailyWired) {
    dailyWired = true;
    $('title-daily').addEventListener('click', openDaily);
  }
  $('title-daily-status').textContent = '';
  const visit = ++visits;
  delete $('title-play').dataset.ready;
  showDailyState(visit);
  const art = $('title-art');
  if (app.theme) requestAnimationFrame(() => drawTitleArt(art, app.theme));
  showPlayTarget(visit);
  offerForYou('title-foryou');
  showWho();
  // Read again: a session ended on another device shows here at once.
  app.refreshAccount().then(() => { if (visit === visits) showWho(); });
}

/** Who plays, as the page last heard from the server. */
function showWho() {
  const who = $('title-user');
  const a = app.account;
  $('title-admin').hidden = !a?.admin;
  if (a && a.username) who.textContent = `Signed in as ${a.username}`;
  else if (app.signedOut) who.textContent = `Signed out: log in as ${app.signedOut} again to keep your moves`;
  else who.textContent = 'Playing as a guest: sign up to keep your progress on every device';
}

export function leave() {
  left++;
  // The request still out is given up: the button is free again on return.
  $('title-daily').disabled = false;
}

export function redraw() {
  if (app.theme) drawTitleArt($('title-art'), app.theme);
}
