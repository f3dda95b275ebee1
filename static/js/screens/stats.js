// stats.js: the player's statistics (#/stats), from one answer of
// GET /api/v1/account/stats: totals and the daily streak, levels solved
// per day and per week and time played per week over the last twelve
// weeks, and per collection the levels solved and those solved in the
// best known moves, and the rating over time. Charts are SVG drawn here, coloured by the theme's
// variables (css/stats.css); each bar names its figure in a <title> and
// an aria-label, so that the numbers are there for every reader.

import { api, errorMessage } from '../api.js';
import { app } from '../app.js';
import { $, el, svgIcon } from '../dom.js';
import { counted } from '../words.js';

const SVG = 'http://www.w3.org/2000/svg';
let built = false;
let token = 0;

function svgEl(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

function build() {
  $('screen-stats').replaceChildren(
    el('header', { class: 'bar' },
      el('a', { class: 'button icon', href: '#/', 'aria-label': 'Title screen' }, svgIcon('i-prev')),
      el('h1', { id: 'stats-h', tabindex: '-1', text: 'Statistics' })),
    el('div', { class: 'card page-card stats' },
      el('p', { id: 'stats-status', class: 'muted', role: 'status' }),
      el('dl', { id: 'stats-totals', class: 'stats-totals' }),
      el('section', { 'aria-labelledby': 'stats-days-h' },
        el('h2', { id: 'stats-days-h', text: 'Levels solved per day' }),
        el('p', { id: 'stats-days-note', class: 'muted small' }),
        el('div', { id: 'stats-days', class: 'stats-chart' })),
      el('section', { 'aria-labelledby': 'stats-weeks-h' },
        el('h2', { id: 'stats-weeks-h', text: 'Levels solved per week' }),
        el('div', { id: 'stats-weeks', class: 'stats-chart' })),
      el('section', { 'aria-labelledby': 'stats-time-h' },
        el('h2', { id: 'stats-time-h', text: 'Time played per week' }),
        el('p', { class: 'muted small', id: 'stats-time-note' }),
        el('div', { id: 'stats-time', class: 'stats-chart' })),
      el('section', { 'aria-labelledby': 'stats-rating-h' },
        el('h2', { id: 'stats-rating-h', text: 'Rating' }),
        el('p', { id: 'stats-rating-note', class: 'muted small' }),
        el('div', { id: 'stats-rating', class: 'stats-chart' })),
      el('section', { 'aria-labelledby': 'stats-coll-h' },
        el('h2', { id: 'stats-coll-h', text: 'Collections' }),
        el('p', { class: 'muted small' },
          el('span', { class: 'stats-key solved' }), ' solved ',
          el('span', { class: 'stats-key best' }), ' in the best known moves'),
        el('ul', { id: 'stats-collections', class: 'stats-collections' }))));
  built = true;
}

/** A duration in words: "45 s", "12 min", "3 h 05 min". */
export function duration(seconds) {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A bar chart of `bars` ({value, label}: label names the figure), with
 * the axis's top value and the first and last bars' dates under it. */
function barChart(bars, { from, to, unit = (v) => String(v) }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const w = 10, gap = bars.length > 30 ? 2 : 4, h = 100;
  const svg = svgEl('svg', {
    class: 'stats-bars', viewBox: `0 0 ${bars.length * (w + gap)} ${h}`, preserveAspectRatio: 'none',
    role: 'img', 'aria-label': `${bars.length} bars, highest ${unit(Math.max(0, ...bars.map((b) => b.value)))}`,
  });
  svg.append(svgEl('line', { class: 'stats-axis', x1: 0, y1: h, x2: bars.length * (w + gap), y2: h }));
  bars.forEach((b, i) => {
    const bh = b.value > 0 ? Math.max(2, (b.value / max) * (h - 4)) : 0;
    svg.append(svgEl('rect', {
      class: b.value > 0 ? 'stats-bar' : 'stats-bar empty', x: i * (w + gap) + gap / 2, y: h - bh, width: w,
      height: bh, 'aria-label': b.label, 'data-value': b.value,
    }, svgEl('title', {}, b.label)));
  });
  return el('figure', { class: 'stats-figure' },
    el('div', { class: 'stats-plot' }, el('span', { class: 'stats-max small muted', text: unit(max) }), svg),
    el('figcaption', { class: 'stats-dates small muted' }, el('span', { text: from }), el('span', { text: to })));
}

function showTotals(s) {
  const t = s.totals;
  const item = (term, value, id) => [el('dt', { text: term }), el('dd', { id, text: value })];
  $('stats-totals').replaceChildren(
    ...item('Levels solved', String(t.levels_solved), 'stats-solved'),
    ...item('Time played', duration(t.seconds_played), 'stats-played'),
    ...item('Daily streak', `${counted(s.streak.days, 'day')}${s.streak.solved_today ? ', today’s solved' : ''}`, 'stats-streak'),
    ...item('Last 12 weeks', `${counted(t.solved_in_window, 'level')}, ${duration(t.seconds_in_window)}`, 'stats-window'));
}

function showCharts(s) {
  const days = s.days.map((d) => ({ value: d.solved, label: `${d.day}: ${counted(d.solved, 'level')} solved` }));
  $('stats-days').replaceChildren(barChart(days, { from: s.days[0].day, to: s.days.at(-1).day }));
  $('stats-days-note').textContent = 'A level counts on the day of your oldest solution of it.';
  const weeks = s.weeks.map((w) => ({ value: w.solved, label: `Week of ${w.first_day}: ${counted(w.solved, 'level')} solved` }));
  $('stats-weeks').replaceChildren(barChart(weeks, { from: s.weeks[0].first_day, to: s.weeks.at(-1).first_day }));
  const time = s.weeks.map((w) => ({ value: w.seconds, label: `Week of ${w.first_day}: ${duration(w.seconds)} played` }));
  $('stats-time').replaceChildren(barChart(time, { from: s.weeks[0].first_day, to: s.weeks.at(-1).first_day, unit: duration }));
  $('stats-time-note').textContent =
    `Time between your moves, a pause longer than ${s.gap_cap_seconds / 60} minutes counted as ${s.gap_cap_seconds / 60}.`;
}

/** A line of the rating at the end of each day it changed, with a band
 * of one deviation either side. */
function lineChart(days) {
  // One day is drawn as a level line across the chart.
  const points = days.length === 1 ? [days[0], days[0]] : days;
  const w = 100, h = 100, pad = 6;
  const lows = points.map((p) => p.rating - p.deviation), highs = points.map((p) => p.rating + p.deviation);
  const lo = Math.min(...lows), hi = Math.max(...highs, lo + 1);
  const x = (i) => (i * w) / (points.length - 1);
  const y = (v) => pad + ((hi - v) / (hi - lo)) * (h - 2 * pad);
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(2)} ${y(p.rating).toFixed(2)}`).join(' ');
  const band = [...points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(2)} ${y(p.rating + p.deviation).toFixed(2)}`),
    ...points.map((p, i) => [i, p]).reverse().map(([i, p]) => `L${x(i).toFixed(2)} ${y(p.rating - p.deviation).toFixed(2)}`)].join(' ') + ' Z';
  const last = points.at(-1);
  const svg = svgEl('svg', {
    class: 'stats-line', viewBox: `0 0 ${w} ${h}`, preserveAspectRatio: 'none', role: 'img',
    'aria-label': `Rating from ${points[0].rating} on ${points[0].day} to ${last.rating} on ${last.day}`,
  },
  svgEl('path', { class: 'stats-band', d: band }),
  svgEl('path', { class: 'stats-rating', d: line, 'data-points': days.length }));
  svg.append(svgEl('title', {}, days.map((p) => `${p.day}: ${p.rating} ± ${p.deviation}`).join('\n')));
  return el('figure', { class: 'stats-figure' },
    el('div', { class: 'stats-plot' }, el('span', { class: 'stats-max small muted', text: String(Math.round(hi)) }), svg),
    el('figcaption', { class: 'stats-dates small muted' }, el('span', { text: points[0].day }), el('span', { text: last.day })));
}

function showRating(s) {
  const r = s.rating;
  if (!r) {
    $('stats-rating-note').textContent = 'Your rating comes with your first solved or given-up level.';
    $('stats-rating').replaceChildren();
    return;
  }
  $('stats-rating-note').textContent =
    `${r.rating} (${r.label}), give or take ${r.deviation}, after ${counted(r.attempts, 'rated level')}. ` +
    'A level solved in good time raises it; one given up or solved slowly lowers it.';
  $('stats-rating').replaceChildren(r.history.length ? lineChart(r.history) : '');
}

function showCollections(s) {
  $('stats-collections').replaceChildren(...s.collections.map((c) => {
    const of = Math.max(1, c.levels);
    const label = `${c.name}: ${c.solved} of ${c.levels} solved, ${c.at_best_known} in the best known moves`;
    const svg = svgEl('svg', { class: 'stats-progress', viewBox: '0 0 100 10', preserveAspectRatio: 'none', role: 'img', 'aria-label': label },
      svgEl('rect', { class: 'stats-track', x: 0, y: 0, width: 100, height: 10 }),
      svgEl('rect', { class: 'stats-solved', x: 0, y: 0, width: (100 * c.solved) / of, height: 10 }),
      svgEl('rect', { class: 'stats-best', x: 0, y: 0, width: (100 * c.at_best_known) / of, height: 10 }),
      svgEl('title', {}, label));
    return el('li', { 'data-collection': c.id },
      el('a', { href: `#/library/${c.id}`, text: c.name }),
      el('span', { class: 'small muted stats-counts', text: `${c.solved} / ${c.levels} · ${c.at_best_known} best known` }),
      svg);
  }));
}

export async function enter() {
  if (!built) build();
  const mine = ++token;
  $('stats-status').textContent = 'Loading…';
  const r = await api.stats();
  if (mine !== token) return;
  if (!r.ok) {
    $('stats-status').textContent = errorMessage(r, 'Your statistics could not be read');
    return;
  }
  const s = r.body;
  $('stats-status').textContent = app.account?.username
    ? `${app.account.username}, up to ${s.today} (UTC).`
    : `Up to ${s.today} (UTC). You play as a guest: sign up to keep these on every device.`;
  showTotals(s);
  showCharts(s);
  showRating(s);
  showCollections(s);
}
