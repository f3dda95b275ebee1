// leaderboard.js: a level's leaderboard (#/board/LEVEL or
// #/board/LEVEL/pushes), or the daily puzzle's board of a day
// (#/board/daily, #/board/daily/pushes/YYYY-MM-DD): the top players by
// fewest moves or fewest pushes, a level's standard and multi-push boards
// a switch apart (#/board/LEVEL/moves/multipush), the player's own rank even outside the
// top, and the solutions found with hints in a list of their own. Every
// entry links to its replay. A level's board also shows its best known
// counts and the solutions players submitted (found elsewhere, pasted or
// loaded from a file, checked by the server), ranked apart.

import { api, errorMessage } from '../api.js';
import { app } from '../app.js';
import { go } from '../router.js';
import { $, el, svgIcon } from '../dom.js';
import { counted, movesPushes } from '../words.js';

const LIMIT = 20;
let built = false;
let token = 0;

function build() {
  const section = $('screen-board');
  section.replaceChildren(
    el('header', { class: 'bar' },
      el('a', { class: 'button icon', id: 'board-back', href: '#/library', 'aria-label': 'Back' },
        svgIcon('i-prev')),
      el('h1', { id: 'board-h', tabindex: '-1', text: 'Leaderboard' })),
    el('div', { class: 'card page-card boards' },
      el('p', { class: 'board-level' }, el('a', { id: 'board-play', href: '#/library', text: '' })),
      el('nav', { class: 'segmented board-by', 'aria-label': 'Order' },
        el('a', { id: 'board-by-moves', href: '#', text: 'Fewest moves' }),
        el('a', { id: 'board-by-pushes', href: '#', text: 'Fewest pushes' })),
      el('nav', { class: 'segmented board-rule', id: 'board-rule', 'aria-label': 'Rule' },
        el('a', { id: 'board-rule-standard', href: '#', text: 'Standard' }),
        el('a', { id: 'board-rule-multipush', href: '#', text: 'Multi-push', title: 'A push moves the whole line of boxes' })),
      el('p', { id: 'board-streak', class: 'board-streak', hidden: '' }),
      el('p', { id: 'board-status', class: 'muted', role: 'status' }),
      el('p', { id: 'board-best', class: 'board-best', hidden: '' }),
      el('section', { id: 'board-plain', 'aria-labelledby': 'board-plain-h' },
        el('h2', { id: 'board-plain-h', text: 'Solved without hints' }),
        el('p', { class: 'muted small board-total' }),
        el('table', { class: 'board-table' }),
        el('p', { class: 'board-you' })),
      el('section', { id: 'board-hinted', 'aria-labelledby': 'board-hinted-h' },
        el('h2', { id: 'board-hinted-h', text: 'Solved with hints' }),
        el('p', { class: 'muted small', text: 'Ranked apart: a hint helps, so these never rank against unaided solutions.' }),
        el('p', { class: 'muted small board-total' }),
        el('table', { class: 'board-table' }),
        el('p', { class: 'board-you' })),
      el('section', { id: 'board-submitted', 'aria-labelledby': 'board-submitted-h' },
        el('h2', { id: 'board-submitted-h', text: 'Submitted solutions' }),
        el('p', { class: 'muted small', text: 'Found elsewhere and pasted here: each is replayed to check it, and ranked apart from the solutions played here.' }),
        el('p', { class: 'muted small board-total' }),
        el('table', { class: 'board-table' }),
        el('form', { id: 'submit-form', class: 'submit-form' },
          el('label', { for: 'submit-lurd', text: 'Your solution, in LURD (pushes in capitals; counts like 3r allowed)' }),
          el('textarea', { id: 'submit-lurd', rows: '3', spellcheck: 'false', autocomplete: 'off', placeholder: 'rRuLLdR…' }),
          el('div', { class: 'row' },
            el('label', { class: 'button', for: 'submit-file', text: 'Load a file…' }),
            el('input', { id: 'submit-file', type: 'file', accept: '.txt,.sok,.lurd,.sol,text/plain', hidden: '' }),
            el('button', { class: 'button primary', id: 'submit-send', type: 'submit', text: 'Submit' })),
          el('p', { id: 'submit-status', class: 'small', role: 'status' })),
        el('p', { id: 'submit-signin', class: 'muted small', hidden: '', text: 'Sign up or log in to submit a solution.' }))));
  $('submit-form').addEventListener('submit', (e) => {
    e.preventDefault();
    submit();
  });
  $('submit-file').addEventListener('change', async () => {
    const file = $('submit-file').files[0];
    if (file) $('submit-lurd').value = lurdOf(await file.text());
    $('submit-file').value = '';
  });
  built = true;
}

/** The solution in a file's text: its longest block of lines written in
 * LURD (a level file's board and notes around it left out), else the
 * text as it is. */
function lurdOf(text) {
  let best = '', block = '';
  for (const line of text.split(/\r?\n/)) {
    if (/^[lurdLURD0-9()\s]+$/.test(line) && /[lurdLURD]/.test(line)) block += line.trim();
    else block = '';
    if (block.length > best.length) best = block;
  }
  return best || text.trim();
}

// The level whose board is shown, and its rule, for a submission.
let shownLevel = 0;
let shownRule = 0;

async function submit() {
  const lurd = $('submit-lurd').value.trim();
  if (!lurd) {
    $('submit-status').textContent = 'Paste a solution first.';
    return;
  }
  const level = shownLevel, rule = shownRule, mine = token;
  $('submit-send').disabled = true;
  $('submit-status').textContent = 'Checking…';
  const r = await api.submitSolution(level, lurd, rule);
  $('submit-send').disabled = false;
  if (mine !== token) return;
  if (!r.ok) {
    $('submit-status').textContent = errorMessage(r, 'That solution could not be submitted');
    return;
  }
  const s = r.body.solution;
  $('submit-status').textContent = r.body.created
    ? `Checked: it solves the level in ${counted(s.moves, 'move')} and ${counted(s.pushes, 'push', 'pushes')}. It is on the submitted board.`
    : `You had submitted that line already (${movesPushes(s.moves, s.pushes)}).`;
  $('submit-lurd').value = '';
  showBest(r.body.best_known);
  loadSubmitted(level, currentBy, rule);
}

function showBest(best) {
  $('board-best').hidden = !best;
  if (best) $('board-best').textContent = `Best known: ${movesPushes(best.moves, best.pushes)}, of every solution this server holds.`;
}

let currentBy = 'moves';

async function loadSubmitted(level, by, rule) {
  const mine = token;
  const r = await api.submitted(level, by, LIMIT, rule);
  if (mine !== token) return;
  const part = $('board-submitted');
  part.hidden = !r.ok;
  if (!r.ok) return;
  const table = part.querySelector('table');
  const head = el('tr', {}, ...[['Rank', 'rank'], ['Player', 'who'], ['Moves', 'num'], ['Pushes', 'num'], ['Submitted', 'when']]
    .map(([t, c]) => el('th', { scope: 'col', class: c, text: t })));
  table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...r.body.entries.map((e) => el('tr', {},
    el('td', { class: 'rank', text: String(e.rank) }),
    el('td', { class: 'who', text: e.user }),
    el('td', { class: 'num', text: String(e.moves) }),
    el('td', { class: 'num', text: String(e.pushes) }),
    el('td', { class: 'when', text: when(e.submitted_at) })))));
  table.hidden = r.body.entries.length === 0;
  part.querySelector('.board-total').textContent = r.body.entries.length === 0 ? 'None submitted yet.' : '';
  showBest(r.body.best_known);
}

function when(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

function row(e) {
  // A named player's name opens watching them live.
  const who = el('td', { class: 'who' }, e.user_id != null
    ? el('a', { class: 'watch-link', href: `#/watch/${e.user_id}`, text: e.user, title: `Watch ${e.user} play` })
    : e.user ?? 'you (guest)');
  if (e.hinted) who.append(' ', el('span', { class: 'hinted-mark', title: counted(e.hints, 'hint'), text: 'hinted' }));
  const tr = el('tr', { 'data-solution': String(e.solution_id) },
    el('td', { class: 'rank', text: String(e.rank) }),
    who,
    el('td', { class: 'num', text: String(e.moves) }),
    el('td', { class: 'num', text: String(e.pushes) }),
    el('td', { class: 'when', text: when(e.solved_at) }),
    el('td', {}, el('a', { class: 'replay-link', href: `#/replay/${e.solution_id}`, text: 'Replay' })));
  if (e.you) tr.classList.add('you');
  return tr;
}

function fill(part, list, empty) {
  const table = part.querySelector('table');
  const head = el('tr', {}, ...[['Rank', 'rank'], ['Player', 'who'], ['Moves', 'num'], ['Pushes', 'num'],
    ['Solved', 'when'], ['', '']].map(([t, c]) => el('th', { scope: 'col', class: c, text: t })));
  table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...list.entries.map(row)));
  table.hidden = list.entries.length === 0;
  const mine = list.you;
  // A guest's own solution shows to it alone: the board is not empty to it.
  if (list.total === 0 && mine && !mine.listed) empty = 'Nobody is listed yet: sign up to be the first.';
  part.querySelector('.board-total').textContent = list.total === 0
    ? empty : counted(list.total, 'player');
  const you = part.querySelector('.board-you');
  you.replaceChildren();
  if (mine && !list.entries.some((e) => e.you)) {
    // The player's own entry, below the top.
    you.append(el('span', { class: 'you-rank', text: `Your rank: ${mine.rank}${mine.listed ? ` of ${list.total}` : ' (sign up to be listed)'}` }),
      ` · ${movesPushes(mine.moves, mine.pushes)} · `,
      el('a', { class: 'replay-link', href: `#/replay/${mine.solution_id}`, text: 'Replay' }));
  } else if (mine && !mine.listed) {
    you.textContent = 'Sign up to be listed.';
  }
  return mine;
}

export async function enter(args) {
  if (!built) build();
  if (args[0] === 'daily') return enterDaily(args);
  const level = Number(args[0]);
  if (!level) return go('#/library');
  const by = args[1] === 'pushes' ? 'pushes' : 'moves';
  // #/board/ID/moves/multipush: the boards of multi-push solutions.
  const rule = args[2] === 'multipush' ? 1 : 0;
  const suffix = rule ? '/multipush' : '';
  const mine = ++token;
  setOrder(`#/board/${level}`, by, suffix);
  setRule(`#/board/${level}/${by}`, rule);
  $('board-streak').hidden = true;
  $('board-play').href = `#/play/${level}${suffix}`;
  $('board-back').href = `#/play/${level}${suffix}`;
  $('board-status').textContent = 'Loading…';
  const [lr, br] = await Promise.all([api.level(level), api.leaderboard(level, by, LIMIT, rule)]);
  if (mine !== token) return;
  const lv = lr.ok ? lr.body.level : null;
  const title = lv ? (lv.title || `Level ${lv.position}`) : `Level ${level}`;
  $('board-h').textContent = `${rule ? 'Multi-push leaderboard' : 'Leaderboard'}: ${title}`;
  $('board-play').textContent = lv ? `Play ${title} (${lv.collection_name})` : 'Play this level';
  if (lv) $('board-back').href = `#/library/${lv.collection_id}`;
  show(br, by, rule ? ' Multi-push: a push moves the whole line of boxes.' : '');
  shownLevel = level;
  shownRule = rule;
  currentBy = by;
  // The account may not be known yet when the page opens on this screen.
  const who = app.account ?? (await api.account()).body?.user ?? null;
  if (mine !== token) return;
  const account = !!who && !who.guest;
  $('submit-form').hidden = !account;
  $('submit-signin').hidden = !!account;
  $('submit-status').textContent = '';
  loadSubmitted(level, by, rule);
}

function setOrder(base, by, suffix) {
  $('board-by-moves').href = `${base}/moves${suffix}`;
  $('board-by-pushes').href = `${base}/pushes${suffix}`;
  $('board-by-moves').setAttribute('aria-current', String(by === 'moves'));
  $('board-by-pushes').setAttribute('aria-current', String(by === 'pushes'));
}

/** The switch between a level's standard and multi-push boards. */
function setRule(base, rule) {
  $('board-rule').hidden = false;
  $('board-rule-standard').href = base;
  $('board-rule-multipush').href = `${base}/multipush`;
  $('board-rule-standard').setAttribute('aria-current', String(!rule));
  $('board-rule-multipush').setAttribute('aria-current', String(!!rule));
}

function show(br, by, note) {
  if (!br.ok) {
    $('board-status').textContent = errorMessage(br, 'This leaderboard cannot be shown');
    $('board-plain').hidden = $('board-hinted').hidden = true;
    return;
  }
  $('board-status').textContent = `Best first by ${by === 'moves' ? 'fewest moves, then pushes' : 'fewest pushes, then moves'}; ties go to the earlier solution. Only solutions played here count.${note}`;
  $('board-plain').hidden = false;
  fill($('board-plain'), br.body, 'Nobody has solved it yet. Be the first!');
  const hinted = br.body.hinted;
  $('board-hinted').hidden = hinted.total === 0 && !hinted.you;
  fill($('board-hinted'), hinted, 'No solution with hints yet.');
}

/** The daily puzzle's board: #/board/daily[/moves|pushes[/YYYY-MM-DD]]. */
async function enterDaily(args) {
  const by = args[1] === 'pushes' ? 'pushes' : 'moves';
  const day = /^\d{4}-\d\d-\d\d$/.test(args[2] ?? '') ? args[2] : '';
  const mine = ++token;
  $('board-submitted').hidden = true;
  $('board-best').hidden = true;
  setOrder('#/board/daily', by, day ? `/${day}` : '');
  $('board-rule').hidden = true; // the daily puzzle is played by the standard rule
  $('board-status').textContent = 'Loading…';
  const [br, sr] = await Promise.all([api.dailyLeaderboard(day, by, LIMIT), api.streak()]);
  if (mine !== token) return;
  const shownDay = br.body?.day ?? day;
  $('board-h').textContent = `Daily puzzle${shownDay ? ` ${shownDay}` : ''}`;
  if (br.ok) {
    $('board-play').href = `#/play/${br.body.level_id}`;
    $('board-play').textContent = 'Play the puzzle';
    $('board-back').href = `#/play/${br.body.level_id}`;
  }
  const streak = sr.ok ? sr.body.streak : 0;
  $('board-streak').hidden = !sr.ok;
  $('board-streak').textContent = streak > 0
    ? `Your streak: ${counted(streak, 'day')} in a row${sr.body.solved_today ? '' : ' (solve today\'s to keep it)'}`
    : 'Solve the daily puzzle on its day to start a streak.';
  show(br, by, ' Only solutions found on the puzzle\'s own day (UTC) are on its board.');
}
