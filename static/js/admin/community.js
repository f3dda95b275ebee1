// admin/community.js: the admin page's moderation tab for players' own
// levels: the newest published levels (hide, show, delete), the players'
// reports on them, and the authors blocked from publishing (block,
// unblock). Hiding and deleting go through the library's level routes, as
// for any level.

import { adminApi } from './api.js';
import { errorMessage } from '../api.js';
import { $ } from '../dom.js';

export function communityMarkup() {
  const table = (id, heads) => `
    <table class="adm-audit adm-community">
      <thead><tr>${heads.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>
      <tbody id="${id}"></tbody>
    </table>`;
  return `
  <section class="adm-card" aria-labelledby="adm-reports-h">
    <h2 id="adm-reports-h">Reports</h2>
    <p class="small muted">What players reported of the levels published to the Community collection, newest first.</p>
    ${table('adm-reports-rows', ['When', 'Level', 'Author', 'Reported by', 'Reason', ''])}
    <p id="adm-reports-msg" class="muted small"></p>
  </section>
  <section class="adm-card" aria-labelledby="adm-published-h">
    <h2 id="adm-published-h">Published levels</h2>
    ${table('adm-published-rows', ['Published', 'Level', 'Author', 'Likes', 'Reports', ''])}
    <p id="adm-published-msg" class="muted small"></p>
  </section>
  <section class="adm-card" aria-labelledby="adm-blocked-h">
    <h2 id="adm-blocked-h">Blocked authors</h2>
    ${table('adm-blocked-rows', ['Since', 'Author', 'Reason', ''])}
    <p id="adm-blocked-msg" class="muted small"></p>
  </section>`;
}

const when = (iso) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString();
};

function cell(text) {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

function levelCell(id, title) {
  const td = document.createElement('td');
  const a = document.createElement('a');
  a.href = `#/play/${id}`;
  a.textContent = title || `Level ${id}`;
  td.append(a);
  return td;
}

function button(text, action, data) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'button';
  b.textContent = text;
  b.dataset.action = action;
  Object.assign(b.dataset, data);
  return b;
}

export class Community {
  constructor() {
    $('adm-panel-community').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-action]');
      if (b) this.act(b);
    });
  }

  async load() {
    const r = await adminApi.community();
    if (!r.ok) {
      $('adm-reports-msg').textContent = errorMessage(r, 'The community levels cannot be read');
      return;
    }
    const { levels, reports, blocked } = r.body;
    const blockedIds = new Set(blocked.map((b) => b.user_id));
    $('adm-reports-rows').replaceChildren(...reports.map((x) => {
      const tr = document.createElement('tr');
      const act = document.createElement('td');
      act.append(button(x.hidden ? 'Show' : 'Hide', x.hidden ? 'show' : 'hide', { level: x.level_id }));
      if (!blockedIds.has(x.author_id)) act.append(button('Block author', 'block', { user: x.author_id, name: x.author }));
      tr.append(cell(when(x.created_at)), levelCell(x.level_id, x.level_title), cell(x.author), cell(x.reporter),
        cell(x.reason), act);
      return tr;
    }));
    $('adm-reports-msg').textContent = reports.length ? '' : 'No report.';
    $('adm-published-rows').replaceChildren(...levels.map((l) => {
      const tr = document.createElement('tr');
      const act = document.createElement('td');
      act.append(button(l.hidden ? 'Show' : 'Hide', l.hidden ? 'show' : 'hide', { level: l.id }),
        button('Delete', 'delete', { level: l.id }));
      tr.append(cell(when(l.published_at)), levelCell(l.id, l.title), cell(l.author), cell(String(l.likes)),
        cell(String(l.reports)), act);
      if (l.hidden) tr.classList.add('muted');
      return tr;
    }));
    $('adm-published-msg').textContent = levels.length ? '' : 'No level published yet.';
    $('adm-blocked-rows').replaceChildren(...blocked.map((b) => {
      const tr = document.createElement('tr');
      const act = document.createElement('td');
      act.append(button('Unblock', 'unblock', { user: b.user_id }));
      tr.append(cell(when(b.blocked_at)), cell(b.username), cell(b.reason), act);
      return tr;
    }));
    $('adm-blocked-msg').textContent = blocked.length ? '' : 'No author is blocked.';
  }

  async act(b) {
    const level = Number(b.dataset.level), user = Number(b.dataset.user);
    let r;
    if (b.dataset.action === 'hide' || b.dataset.action === 'show') {
      r = await adminApi.updateLevel(level, { hidden: b.dataset.action === 'hide' });
    } else if (b.dataset.action === 'delete') {
      if (!confirm('Delete this level? It can be restored from the Library tab.')) return;
      r = await adminApi.deleteLevel(level);
    } else if (b.dataset.action === 'block') {
      const reason = prompt(`Why block ${b.dataset.name} from publishing?`, '');
      if (reason === null) return;
      r = await adminApi.blockAuthor(user, true, reason);
    } else {
      r = await adminApi.blockAuthor(user, false);
    }
    if (!r.ok) {
      $('adm-reports-msg').textContent = errorMessage(r, 'That did not work');
      return;
    }
    await this.load();
  }
}
