// screens/library.js: collections and their levels with drawn thumbnails,
// solved marks, best moves and pushes, each level's difficulty and solve
// count, filters and sorts that the server applies (GET /api/v1/levels,
// within a collection or across them, a page at a time), and a search
// over every collection.

import { app } from '../app.js';
import { api } from '../api.js';
import { drawThumb } from '../thumb.js';
import { announce } from '../a11y.js';
import { $ } from '../dom.js';
import { difficultyText } from '../foryou.js';
import { counted, movesPushes } from '../words.js';

export const section = 'screen-library';

const boards = new Map(); // level id -> rows, from /levels/{id}
let collections = [];
let currentId = 0;
let observer = null;
let loadQueue = [];
let loading = 0;
// Counts the collections chosen (a visit, a click): a visit whose list
// arrives after a click on the buttons still on screen from the last visit
// must not open its own choice over the one clicked.
let picks = 0;
// Levels a page of the server's listing holds: across every collection,
// and the most the server gives (one collection is read whole).
const PAGE = 100;
const PAGE_MAX = 200;
let shown = []; // the levels listed, for "Show more"
let listing = null; // the query of the list shown, and its total
// The community collection's levels (id -> author, likes ...) when it is
// shown, and the author whose levels alone are shown (0: everyone's).
let community = null;
let authorFilter = 0;

export async function enter(args) {
  // Wired before anything is awaited: what is typed while the list loads
  // filters it as soon as it is drawn (renderLevels reads the box).
  if (!$('lib-search').dataset.wired) {
    $('lib-search').dataset.wired = '1';
    $('lib-search').addEventListener('input', () => renderLevels());
    for (const id of ['lib-filter', 'lib-sort', 'lib-order', 'lib-all']) $(id).addEventListener('change', () => renderLevels());
    $('lib-tools').addEventListener('submit', (e) => e.preventDefault());
    $('lib-more').addEventListener('click', () => renderLevels(true));
  }
  const wanted = Number(args[0]) || app.lastCollection;
  authorFilter = args[1] === 'author' ? Number(args[2]) || 0 : 0;
  const pick = ++picks;
  app.invalidate();
  const list = await app.collections();
  if (!list) {
    $('lib-heading').textContent = 'The server cannot be reached';
    return;
  }
  collections = list;
  renderCollections();
  if (pick !== picks) return;
  const chosen = collections.find((c) => c.id === wanted) ?? collections[0];
  if (chosen) await show(chosen.id);
}

export function leave() {
  observer?.disconnect();
  loadQueue = [];
}

function renderCollections() {
  const nav = $('lib-collections');
  nav.replaceChildren(...collections.map((c) => {
    const b = document.createElement('button');
    b.className = 'collection';
    b.dataset.id = c.id;
    b.setAttribute('aria-current', String(c.id === currentId));
    const pct = c.levels ? Math.round((100 * c.solved) / c.levels) : 0;
    b.innerHTML = `<span class="name"></span><span class="muted small">${c.solved} of ${c.levels} solved</span>` +
      `<span class="progress" aria-hidden="true"><span></span></span>`;
    b.querySelector('.name').textContent = c.name;
    // Set through the DOM: the Content-Security-Policy refuses style attributes in markup.
    b.querySelector('.progress > span').style.width = `${pct}%`;
    b.addEventListener('click', () => {
      picks++;
      authorFilter = 0;
      history.replaceState(null, '', `#/library/${c.id}`);
      show(c.id);
    });
    return b;
  }));
}

async function show(id) {
  currentId = id;
  app.lastCollection = id;
  for (const b of $('lib-collections').children) b.setAttribute('aria-current', String(Number(b.dataset.id) === id));
  const data = await app.collection(id);
  // Another collection chosen meanwhile has the heading now.
  if (!data || id !== currentId) return;
  $('lib-heading').textContent = data.collection.name;
  $('lib-notes').textContent = notesOf(data.collection);
  renderLevels();
}

/** A collection's header as a sentence or two: its credit, then its notes. */
function notesOf(c) {
  const text = [];
  for (const raw of (c.notes || '').split('\n')) {
    // Notes imported before the server dropped them keep the file's "; " marks.
    const line = raw.replace(/^\s*;\s?/, '');
    if (!/^\s*(Collection|Title|Comment|Comment-End)\s*:/i.test(line)) text.push(line.trim());
  }
  const body = text.join(' ').replace(/\s+/g, ' ').trim();
  const author = (c.author || '').trim();
  return [author && `By ${author}`, body].filter(Boolean).join(' — ');
}

async function allLevels() {
  const out = [];
  for (const c of collections) {
    const data = await app.collection(c.id);
    if (data) for (const l of data.levels) out.push({ ...l, collection_name: c.name });
  }
  return out;
}

/** The filters and sorts chosen, as the query of GET /api/v1/levels. */
function toolsQuery() {
  const across = $('lib-all').checked;
  return {
    collection: across ? undefined : currentId,
    filter: $('lib-filter').value,
    sort: $('lib-sort').value,
    order: $('lib-order').value,
    limit: across ? PAGE : PAGE_MAX,
  };
}

/** The levels the server lists for the tools' choice, with the best
 * counts of the collection's own answer when there is one; null when the
 * server cannot be asked (offline: the collection as it was kept). */
async function listed(query, offset, data) {
  const r = await api.levels({ ...query, offset });
  if (!r.ok) return null;
  const mine = new Map((data?.levels ?? []).map((l) => [l.id, l]));
  return { total: r.body.total, levels: r.body.levels.map((l) => ({ ...mine.get(l.id), ...l })) };
}

let renderToken = 0;
async function renderLevels(more = false) {
  const token = ++renderToken;
  const q = $('lib-search').value.trim().toLowerCase();
  const query = toolsQuery();
  let levels, data = null, total = 0;
  if (q) {
    levels = (await allLevels()).filter((l) =>
      (l.title || '').toLowerCase().includes(q) || (l.author || '').toLowerCase().includes(q) ||
      String(l.position) === q || (l.collection_name || '').toLowerCase().includes(q));
  } else {
    data = query.collection ? await app.collection(currentId) : null;
    let page = await listed(query, more ? shown.length : 0, data);
    if (page) {
      levels = more ? [...shown, ...page.levels] : page.levels;
      total = page.total;
      // One collection is listed whole, as its own answer lists it; every
      // collection at once, a page at a time ("Show more").
      while (query.collection && page && page.levels.length > 0 && levels.length < total) {
        page = await listed(query, levels.length, data);
        if (page) levels = [...levels, ...page.levels];
      }
    } else {
      levels = data ? data.levels : [];
      total = levels.length;
    }
    community = await communityOf(data?.collection);
    if (community && authorFilter) {
      levels = levels.filter((l) => community.get(l.id)?.author_id === authorFilter);
      total = levels.length;
    }
  }
  // Only the latest render writes the heading: an earlier search answered
  // late would otherwise title the collection shown after it.
  if (token !== renderToken) return;
  if (q) {
    $('lib-heading').textContent = `Search: ${counted(levels.length, 'level')}`;
    $('lib-notes').textContent = '';
  } else if (!query.collection) {
    $('lib-heading').textContent = `Every collection: ${counted(total, 'level')}`;
    $('lib-notes').textContent = '';
  } else if (data) {
    $('lib-heading').textContent = data.collection.name;
    $('lib-notes').textContent = notesOf(data.collection);
    if (community && authorFilter) showAuthor(levels);
  }
  shown = q ? [] : levels;
  listing = q ? null : { query, total };
  $('lib-more').hidden = !listing || shown.length >= total;
  observer?.disconnect();
  observer = new IntersectionObserver(onVisible, { rootMargin: '200px' });
  loadQueue = [];
  const ol = $('lib-levels');
  const across = !!q || !query.collection;
  ol.replaceChildren(...levels.map((l) => withCommunity(card(l, across), across ? null : community?.get(l.id))));
  $('lib-empty').hidden = levels.length > 0;
  if (q) announce(`${counted(levels.length, 'level')} found`);
  else if (query.filter !== 'all' || query.sort !== 'order') announce(counted(total, 'level'));
}

/** The published levels of the community collection by id, with their
 * authors and likes; null for any other collection. */
async function communityOf(collection) {
  if (collection?.source !== 'community') return null;
  const r = await api.communityLevels(authorFilter);
  return new Map((r.ok ? r.body.levels : []).map((l) => [l.id, l]));
}

/** The heading of one author's levels, with the way back to everyone's. */
function showAuthor(levels) {
  const name = community.get(levels[0]?.id)?.author ?? 'this player';
  $('lib-heading').textContent = `Levels by ${name}`;
  const all = document.createElement('a');
  all.href = `#/library/${currentId}`;
  all.textContent = 'Every author\'s levels';
  $('lib-notes').replaceChildren(`${counted(levels.length, 'level')} · `, all);
}

/** A card of the community collection gains its likes and a link to its
 * author's levels. */
function withCommunity(li, c) {
  if (!c) return li;
  const meta = li.querySelector('.meta');
  meta.textContent += ` · ♥ ${c.likes}`;
  const a = li.querySelector('.level-card');
  a.setAttribute('aria-label', `${a.getAttribute('aria-label')}, ${c.likes} like${c.likes === 1 ? '' : 's'}`);
  const by = document.createElement('a');
  by.className = 'level-board small level-author';
  by.href = `#/library/${c.collection_id}/author/${c.author_id}`;
  by.textContent = `By ${c.author}`;
  by.setAttribute('aria-label', `Levels by ${c.author}`);
  li.append(by);
  return li;
}

/** A level's name on its card: "3. Title". A level without a title, or
 * whose title is a bare number (files that number their levels), is
 * "Level N" rather than "3. 3". */
export function levelName(l) {
  const title = (l.title || '').trim();
  if (!title || /^\d+$/.test(title)) return `Level ${title || l.position}`;
  return `${l.position}. ${title}`;
}

function card(l, withCollection) {
  const li = document.createElement('li');
  const a = document.createElement('a');
  a.className = 'level-card';
  a.href = `#/play/${l.id}`;
  a.dataset.level = l.id;
  const name = levelName(l);
  const canvas = document.createElement('canvas');
  canvas.setAttribute('aria-hidden', 'true');
  canvas.dataset.level = l.id;
  const t = document.createElement('span');
  t.className = 't';
  t.textContent = name;
  // A title too long for its card wraps to two lines; the tooltip has it whole.
  t.title = name;
  const meta = document.createElement('span');
  meta.className = 'meta';
  const bits = [];
  if (withCollection) bits.push(l.collection_name);
  bits.push(`${l.width}×${l.height}, ${counted(l.boxes, 'box', 'boxes')}`);
  // A level solved only with hints says so: its best counts are those of helped solutions.
  if (l.solved && l.best_moves !== undefined) bits.push(`best ${movesPushes(l.best_moves, l.best_pushes)}${l.hinted ? ' with hints' : ''}`);
  meta.textContent = bits.join(' · ');
  a.append(canvas, t, meta);
  let label = name;
  // The difficulty and solve count, when the server's listing gave them.
  if ('difficulty' in l) {
    const d = document.createElement('span');
    d.className = 'difficulty muted';
    const solves = counted(l.solves, 'solve');
    d.textContent = `${difficultyText(l.difficulty)} · ${solves}`;
    a.append(d);
    label += `, ${difficultyText(l.difficulty)}, ${solves}`;
  }
  if (l.solved) {
    const badge = document.createElement('span');
    badge.className = 'badge';
    badge.innerHTML = `<svg><use href="#i-check"/></svg>${l.hinted ? 'Solved with hints' : 'Solved'}`;
    if (l.hinted) badge.classList.add('hinted');
    a.append(badge);
    label += `, solved${l.hinted ? ' with hints' : ''}`;
    if (l.best_moves !== undefined) label += `, best ${movesPushes(l.best_moves, l.best_pushes)}`;
  } else if (l.started) {
    const badge = document.createElement('span');
    badge.className = 'badge playing';
    badge.textContent = 'Started';
    a.append(badge);
    label += ', started';
  }
  if (l.author) label += `, by ${l.author}`;
  a.setAttribute('aria-label', label);
  const board = document.createElement('a');
  board.className = 'level-board small';
  board.href = `#/board/${l.id}`;
  board.textContent = 'Leaderboard';
  board.setAttribute('aria-label', `Leaderboard of ${name}`);
  li.append(a, board);
  observer.observe(canvas);
  return li;
}

function onVisible(entries) {
  for (const e of entries) {
    if (!e.isIntersecting) continue;
    observer.unobserve(e.target);
    const id = Number(e.target.dataset.level);
    if (boards.has(id)) paint(e.target, boards.get(id));
    else {
      loadQueue.push(e.target);
      pumpLoads();
    }
  }
}

async function pumpLoads() {
  while (loading < 4 && loadQueue.length > 0) {
    const canvas = loadQueue.shift();
    const id = Number(canvas.dataset.level);
    loading++;
    api.level(id).then((r) => {
      loading--;
      if (r.ok) {
        boards.set(id, r.body.level.rows);
        paint(canvas, r.body.level.rows);
      }
      pumpLoads();
    });
  }
}

async function paint(canvas, rows) {
  if (!canvas.isConnected || !app.theme) return;
  const core = await app.core();
  try {
    drawThumb(canvas, core.parseLevel(rows.join('\n')), app.theme);
  } catch {
    // A board this page cannot read stays blank.
  }
}

/** Redraws the thumbnails (after a theme change). */
export function redraw() {
  for (const c of document.querySelectorAll('#lib-levels canvas')) {
    const rows = boards.get(Number(c.dataset.level));
    if (rows) paint(c, rows);
  }
}
