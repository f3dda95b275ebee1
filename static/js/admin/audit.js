// admin/audit.js: the admin page's audit log: every change an admin made,
// newest first, a page at a time.

import { adminApi } from './api.js';
import { errorMessage } from '../api.js';
import { $ } from '../dom.js';

export function auditMarkup() {
  return `
  <section class="adm-card" aria-labelledby="adm-audit-h">
    <h2 id="adm-audit-h">Audit log</h2>
    <p class="small muted">Every change made by an admin, from this page or from the command line, newest first.</p>
    <table class="adm-audit">
      <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th><th scope="col">Details</th></tr></thead>
      <tbody id="adm-audit-rows"></tbody>
    </table>
    <p id="adm-audit-msg" class="muted small"></p>
    <button id="adm-audit-more" class="button" hidden>Older entries</button>
  </section>`;
}

/** Details as short text: {"name":{"from":"a","to":"b"}} reads name: a → b. */
function detailsText(d) {
  if (!d || typeof d !== 'object') return '';
  return Object.entries(d).map(([k, v]) => {
    if (v && typeof v === 'object' && 'from' in v && 'to' in v) return `${k}: ${JSON.stringify(v.from)} → ${JSON.stringify(v.to)}`;
    return `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`;
  }).join('; ');
}

const when = (iso) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};

export class Audit {
  constructor() {
    this.next = 0;
    // Counts the reads from the top (each visit to the tab): a page of older
    // entries asked for before one of them belongs to the list it replaced.
    this.asked = 0;
    $('adm-audit-more').addEventListener('click', () => this.load(this.next));
  }

  async load(before = 0) {
    if (!before) this.asked++;
    const asked = this.asked;
    // Off while a page is on its way: a second click would append it twice.
    $('adm-audit-more').disabled = true;
    const r = await adminApi.audit(before);
    if (asked !== this.asked) return;
    $('adm-audit-more').disabled = false;
    const body = $('adm-audit-rows');
    if (!r.ok) {
      $('adm-audit-msg').textContent = errorMessage(r, 'The audit log cannot be read');
      return;
    }
    if (!before) body.replaceChildren();
    for (const e of r.body.entries) {
      const tr = document.createElement('tr');
      tr.dataset.action = e.action;
      for (const [text, cls] of [[when(e.at), ''], [e.actor, ''], [e.action, ''], [e.target, ''], [detailsText(e.details), 'details']]) {
        const td = document.createElement('td');
        td.textContent = text;
        if (cls) td.className = cls;
        tr.append(td);
      }
      body.append(tr);
    }
    this.next = r.body.next_before ?? 0;
    $('adm-audit-more').hidden = !this.next;
    $('adm-audit-msg').textContent = body.children.length === 0 ? 'Nothing yet.' : '';
  }
}
