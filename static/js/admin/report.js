// admin/report.js: an upload's check report, drawn: a summary (levels,
// valid, invalid, duplicates), then one card per level with its title,
// size and boxes, a thumbnail drawn from the normalised rows, every error
// with its line and column, the level it duplicates, the solutions written
// in the file as replayed, and the background solver's verdict.

import { drawThumb } from '../thumb.js';
import { el } from '../dom.js';
import { counted, movesPushes } from '../words.js';

/** "line 4, column 2" (or "byte 120, row 3" in a pack), for a problem. */
export function placeOf(p, format) {
  if (format === 'pack') {
    const bits = [];
    if (p.offset !== undefined) bits.push(`byte ${p.offset}`);
    if (p.line) bits.push(`row ${p.line}`);
    if (p.col) bits.push(`column ${p.col}`);
    return bits.join(', ');
  }
  if (p.line && p.col) return `line ${p.line}, column ${p.col}`;
  if (p.line) return `line ${p.line}`;
  return '';
}

function duplicateText(d) {
  if (!d) return '';
  if (d.where === 'file') return `The same puzzle as level ${d.number} of this file: skipped unless duplicates are kept.`;
  return `Already in the library: “${d.title || `level ${d.level_id}`}” in ${d.collection}: skipped unless duplicates are kept.`;
}

function solutionText(s) {
  const name = s.title ? `“${s.title}”` : 'A solution';
  if (s.result === 'solved') return `${name} solves it: ${movesPushes(s.moves, s.pushes)}.`;
  if (s.result === 'not_played') return `${name} was not replayed: the level is invalid.`;
  const where = s.result === 'failed' ? ` at step ${s.step}` : '';
  return `${name} (line ${s.line}) does not solve it${where}: ${s.message}`;
}

export function solverText(s) {
  if (!s) return '';
  switch (s.status) {
    case 'pending': return 'Solver: waiting for its turn…';
    case 'running': return 'Solver: working on it…';
    case 'solvable': return `Solver: solvable, ${counted(s.pushes, 'push', 'pushes')}, ${counted(s.moves, 'move')} (${s.seconds?.toFixed?.(1) ?? '?'} s).`;
    case 'unsolvable': return 'Solver: this level cannot be solved.';
    case 'unknown': return 'Solver: no answer within its time limit.';
    case 'over_budget': return 'Solver: not checked: over budget (this file\'s levels used the solver time one upload gets).';
    default: return '';
  }
}

/** One level's card. */
function levelCard(l, format, ctx) {
  const li = el('li', { class: 'adm-level' });
  li.dataset.number = l.number;
  if (!l.valid) li.classList.add('invalid');
  if (l.duplicate) li.classList.add('duplicate');
  let canvas;
  if (l.valid) {
    canvas = el('canvas');
    canvas.setAttribute('aria-hidden', 'true');
  } else {
    canvas = el('div', { class: 'adm-nothumb', text: 'No picture: the board cannot be read' });
  }
  li.append(canvas, el('span', { class: 't', text: `${l.number}. ${l.title || 'Untitled'}` }));
  const bits = [];
  if (l.valid) bits.push(`${l.width}×${l.height}, ${counted(l.boxes, 'box', 'boxes')}`);
  if (l.author) bits.push(`by ${l.author}`);
  if (l.line) bits.push(`line ${l.line}`);
  li.append(el('span', { class: 'meta muted', text: bits.join(' · ') }));
  const chips = el('div', { class: 'adm-summary' });
  chips.append(el('span', { class: `chip ${l.valid ? 'good' : 'bad'}`, text: l.valid ? 'valid' : 'invalid' }));
  if (l.duplicate) chips.append(el('span', { class: 'chip dup', text: 'duplicate' }));
  if (l.restores) chips.append(el('span', { class: 'chip dup', text: 'restores a deleted level' }));
  if (l.imported_id) chips.append(el('span', { class: 'chip good', text: 'imported' }));
  li.append(chips);
  for (const e of l.errors || []) {
    const where = placeOf(e, format);
    li.append(el('p', { class: 'err', text: `${where ? `${where[0].toUpperCase()}${where.slice(1)}: ` : ''}${e.message}` }));
  }
  if (l.duplicate) li.append(el('p', { class: 'note', text: duplicateText(l.duplicate) }));
  if (l.restores) li.append(el('p', { class: 'note', text: `Brings back deleted level ${l.restores}, with its players' games.` }));
  const replayed = (l.solutions || []).filter((s) => s.result !== 'over_budget');
  for (const s of replayed) li.append(el('p', { class: s.result === 'solved' ? 'note' : 'err', text: solutionText(s) }));
  // One line for them all: past the budget, every level's solutions are.
  const unchecked = (l.solutions || []).length - replayed.length;
  if (unchecked) li.append(el('p', { class: 'note', text: `${counted(unchecked, 'solution')} not checked: over budget (the replays of one file are limited on the server).` }));
  if (l.solutions_not_replayed) li.append(el('p', { class: 'note', text: `${counted(l.solutions_not_replayed, 'more solution')} not replayed.` }));
  const solver = solverText(l.solver);
  if (solver) li.append(el('p', { class: `note solver ${l.solver.status === 'unsolvable' ? 'err' : ''}`, text: solver }));
  if (l.valid && l.rows) {
    canvas.paint = () => {
      const core = ctx.core(), theme = ctx.theme();
      if (!core || !theme) return;
      canvas.dataset.drawn = '1';
      try {
        drawThumb(canvas, core.parseLevel(l.rows.join('\n')), theme);
      } catch {
        // The browser's core disagrees with the server's: leave it blank.
      }
    };
  }
  return li;
}

const PAGE = 60;

/** Draws a card's thumbnail when it scrolls into view. */
const thumbs = new IntersectionObserver((entries) => {
  for (const e of entries) {
    if (!e.isIntersecting) continue;
    thumbs.unobserve(e.target);
    e.target.paint?.();
  }
}, { rootMargin: '300px' });

/** Fills `box` with the report (from GET /admin/uploads/{id}): a summary,
 * a filter (all levels, the invalid ones, the duplicates) and the level
 * cards, a page at a time. ctx: {core(), theme()}, asked at each drawing. */
export function renderReport(box, report, ctx) {
  box.replaceChildren();
  if (!report) return;
  const s = report.summary;
  const head = el('div', { class: 'adm-summary' });
  head.append(el('span', { class: 'chip', text: `${report.format}` }),
    el('span', { class: 'chip', text: counted(s.levels, 'level') }),
    el('span', { class: 'chip good', text: `${s.valid} valid` }));
  if (s.invalid) head.append(el('span', { class: 'chip bad', text: `${s.invalid} invalid` }));
  if (s.duplicates) head.append(el('span', { class: 'chip dup', text: counted(s.duplicates, 'duplicate') }));
  box.append(head);
  if (report.name || report.author || report.description) {
    const p = el('p', { class: 'small muted' });
    p.textContent = [report.name && `Collection “${report.name}”`, report.author && `by ${report.author}`,
      report.description && report.description.split('\n')[0]].filter(Boolean).join(' · ');
    box.append(p);
  }
  if (report.error) {
    const where = placeOf(report.error, report.format);
    box.append(el('p', { class: 'adm-result bad', text: `The file cannot be read${where ? ` (${where})` : ''}: ${report.error.message}` }));
  }
  const levels = report.levels;
  if (!levels || levels.length === 0) return;
  const filters = [['all', `All (${levels.length})`, () => true]];
  if (s.invalid) filters.push(['invalid', `Invalid (${s.invalid})`, (l) => !l.valid]);
  if (s.duplicates) filters.push(['duplicates', `Duplicates (${s.duplicates})`, (l) => !!l.duplicate]);
  const ol = el('ol', { class: 'adm-levels' });
  ol.setAttribute('aria-label', 'Levels of the file');
  const more = el('button', { class: 'button small-button adm-more' });
  more.type = 'button';
  let shown = [], count = 0;
  const page = () => {
    const next = shown.slice(count, count + PAGE).map((l) => {
      const card = levelCard(l, report.format, ctx);
      const canvas = card.querySelector('canvas');
      if (canvas) thumbs.observe(canvas);
      return card;
    });
    ol.append(...next);
    count += next.length;
    more.hidden = count >= shown.length;
    more.textContent = `Show ${Math.min(PAGE, shown.length - count)} more of ${shown.length - count}`;
  };
  const pick = (test) => {
    shown = levels.filter(test);
    count = 0;
    ol.replaceChildren();
    page();
  };
  if (filters.length > 1) {
    const bar = el('div', { class: 'segmented adm-filter' });
    bar.setAttribute('role', 'radiogroup');
    bar.setAttribute('aria-label', 'Show');
    const name = `adm-filter-${Math.random().toString(36).slice(2)}`;
    for (const [id, label, test] of filters) {
      const l = el('label');
      const input = el('input');
      input.type = 'radio';
      input.name = name;
      input.value = id;
      input.checked = id === 'all';
      input.addEventListener('change', () => pick(test));
      l.append(input, el('span', { text: label }));
      bar.append(l);
    }
    box.append(bar);
  }
  more.addEventListener('click', page);
  box.append(ol, more);
  pick(() => true);
}

/** Draws again every report thumbnail drawn so far (after a theme change). */
export function redrawReports(root) {
  for (const c of root.querySelectorAll('.adm-level canvas[data-drawn]')) c.paint?.();
}
