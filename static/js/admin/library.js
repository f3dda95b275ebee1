// admin/library.js: the admin page's library tab. Collections in the
// players' order (hidden and deleted ones too) can be reordered, renamed,
// described, credited, hidden, deleted, restored and exported; their levels
// reordered (buttons, or drag and drop), retitled, credited, commented,
// hidden, deleted and restored. Every change goes to the server at once and
// the list is redrawn from its answer.

import { adminApi } from './api.js';
import { errorMessage } from '../api.js';
import { drawThumb } from '../thumb.js';
import { announce, toast } from '../a11y.js';
import { app } from '../app.js';
import { $ } from '../dom.js';
import { counted } from '../words.js';

export function libraryMarkup() {
  return `
  <div class="adm-lib">
    <section class="adm-card" aria-labelledby="adm-colls-h">
      <h2 id="adm-colls-h">Collections</h2>
      <p class="small muted">In the order players see them. Hidden ones are not listed to players; deleted ones keep
        their players' games until restored.</p>
      <ol id="adm-colls" class="adm-colls"></ol>
    </section>
    <section class="adm-card" id="adm-coll" aria-labelledby="adm-coll-h">
      <h2 id="adm-coll-h">Collection</h2>
      <form id="adm-coll-form" class="adm-form" novalidate>
        <label>Name <input name="name" maxlength="200" required autocomplete="off"></label>
        <label>Credit (author) <input name="author" maxlength="200" autocomplete="off"></label>
        <label class="wide">Description <textarea name="description" rows="3"></textarea></label>
        <label class="check"><input type="checkbox" name="hidden"> <span>Hidden from players</span></label>
        <div class="row wide">
          <button class="button primary" type="submit">Save</button>
          <button class="button" type="button" id="adm-coll-delete">Delete</button>
          <span class="small muted">Export:</span>
          <a class="button small-button" id="adm-export-sok" download>.sok</a>
          <a class="button small-button" id="adm-export-slc" download>SLC</a>
          <a class="button small-button" id="adm-export-pack" download>SokoPy pack</a>
        </div>
        <p id="adm-coll-msg" class="form-error wide" role="alert"></p>
      </form>
      <h3>Levels</h3>
      <p class="small muted">Drag a level, or use its arrows, to change its place.</p>
      <ol id="adm-rows" class="adm-rows"></ol>
    </section>
  </div>`;
}

function button(text, label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (label) b.setAttribute('aria-label', label);
  if (label) b.title = label;
  b.addEventListener('click', onClick);
  return b;
}

export class Library {
  /** ctx: {core(), theme()} */
  constructor(ctx) {
    this.ctx = ctx;
    this.collections = [];
    this.current = 0;
    this.data = null; // {collection, levels}
    this.dragged = null;
    // Counts the collections asked for, so that only the answer to the
    // latest is shown: an earlier one arriving late would overwrite the
    // form the admin is already typing in.
    this.asked = 0;
    $('adm-coll-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.saveCollection();
    });
    $('adm-coll-delete').addEventListener('click', () => this.deleteCollection());
  }

  /** The collections, fresh from the server (for other tabs too). */
  async list() {
    const r = await adminApi.collections();
    if (r.ok) this.collections = r.body.collections;
    return r.ok ? this.collections : null;
  }

  /** Lists the collections and opens one (the current one by default),
   * unless the admin has chosen another while the list was on its way. */
  async show(id = this.current) {
    const asked = this.asked;
    const list = await this.list();
    if (!list) return;
    const chosen = asked !== this.asked;
    if (!chosen) this.current = list.some((c) => c.id === id) ? id : list[0]?.id ?? 0;
    this.renderCollections();
    if (!chosen) await this.open(this.current);
  }

  renderCollections() {
    const ol = $('adm-colls');
    const active = this.collections.filter((c) => !c.deleted);
    ol.replaceChildren(...this.collections.map((c) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `adm-coll${c.hidden ? ' is-hidden' : ''}${c.deleted ? ' is-deleted' : ''}`;
      b.dataset.id = c.id;
      b.setAttribute('aria-current', String(c.id === this.current));
      const flags = [c.hidden && 'hidden', c.deleted && 'deleted'].filter(Boolean).join(', ');
      b.innerHTML = '<span class="name"></span><span class="small muted"></span>';
      b.querySelector('.name').textContent = c.name;
      b.querySelector('.muted').textContent = `${c.levels}${flags ? ` · ${flags}` : ''}`;
      b.addEventListener('click', () => {
        this.current = c.id;
        this.renderCollections();
        this.open(c.id);
      });
      li.append(b);
      const i = active.indexOf(c);
      if (i >= 0) {
        const up = button('↑', `Move ${c.name} up`, () => this.moveCollection(c.id, -1));
        const down = button('↓', `Move ${c.name} down`, () => this.moveCollection(c.id, 1));
        up.className = down.className = 'icon small-button';
        up.disabled = i === 0;
        down.disabled = i === active.length - 1;
        li.append(up, down);
      }
      return li;
    }));
  }

  async moveCollection(id, by) {
    const ids = this.collections.filter((c) => !c.deleted).map((c) => c.id);
    const i = ids.indexOf(id), j = i + by;
    if (i < 0 || j < 0 || j >= ids.length) return;
    [ids[i], ids[j]] = [ids[j], ids[i]];
    const r = await adminApi.orderCollections(ids);
    if (!r.ok) return toast(errorMessage(r, 'The order could not be changed'), 'warn');
    await this.show(this.current);
    app.invalidate();
    $('adm-colls').querySelector(`[data-id="${id}"]`)?.parentElement
      .querySelector(`button[aria-label^="Move"][aria-label$="${by < 0 ? 'up' : 'down'}"]:not(:disabled)`)?.focus();
    announce(`Moved ${by < 0 ? 'up' : 'down'}`);
  }

  async open(id) {
    if (!id) {
      $('adm-coll').hidden = true;
      return;
    }
    $('adm-coll').hidden = false;
    const asked = ++this.asked;
    const r = await adminApi.collection(id);
    if (asked !== this.asked) return;
    if (!r.ok) {
      $('adm-coll-msg').textContent = errorMessage(r, 'This collection cannot be opened');
      return;
    }
    this.fill(r.body);
  }

  /** Shows a collection's answer, unless the admin has moved on to another. */
  fill(data) {
    if (data.collection.id !== this.current) return;
    this.data = data;
    const c = data.collection, f = $('adm-coll-form').elements;
    $('adm-coll-h').textContent = c.name;
    f.name.value = c.name;
    f.author.value = c.author;
    f.description.value = c.description;
    f.hidden.checked = c.hidden;
    $('adm-coll-msg').textContent = '';
    $('adm-coll-delete').textContent = c.deleted ? 'Restore' : 'Delete';
    for (const fmt of ['sok', 'slc', 'pack']) {
      const a = $(`adm-export-${fmt}`);
      a.href = adminApi.exportUrl(c.id, fmt);
      a.hidden = c.deleted;
    }
    this.renderLevels();
  }

  async saveCollection() {
    const f = $('adm-coll-form').elements, c = this.data.collection;
    const fields = {};
    if (f.name.value.trim() !== c.name) fields.name = f.name.value.trim();
    if (f.author.value.trim() !== c.author) fields.author = f.author.value.trim();
    if (f.description.value !== c.description) fields.description = f.description.value;
    if (f.hidden.checked !== c.hidden) fields.hidden = f.hidden.checked;
    if (Object.keys(fields).length === 0) return announce('Nothing changed');
    const r = await adminApi.updateCollection(c.id, fields);
    if (!r.ok) {
      $('adm-coll-msg').textContent = errorMessage(r, 'The collection could not be saved');
      return;
    }
    app.invalidate();
    await this.list();
    this.renderCollections();
    this.fill(r.body);
    toast('Collection saved');
  }

  async deleteCollection() {
    const c = this.data.collection;
    if (!c.deleted && !confirm(`Delete the collection “${c.name}”? Players' games stay, and Restore brings it back.`)) return;
    const r = c.deleted ? await adminApi.restoreCollection(c.id) : await adminApi.deleteCollection(c.id);
    if (!r.ok) {
      $('adm-coll-msg').textContent = errorMessage(r, 'That did not work');
      return;
    }
    app.invalidate();
    await this.list();
    this.renderCollections();
    this.fill(r.body);
    toast(c.deleted ? 'Collection restored' : 'Collection deleted');
  }

  renderLevels() {
    const ol = $('adm-rows');
    const levels = this.data.levels;
    const active = levels.filter((l) => !l.deleted);
    ol.replaceChildren(...levels.map((l) => this.row(l, active)));
    if (levels.length === 0) {
      const li = document.createElement('li');
      li.className = 'muted';
      li.textContent = 'No levels yet: upload some, or save one from the level editor.';
      ol.append(li);
    }
  }

  row(l, active) {
    const li = document.createElement('li');
    li.className = `adm-row${l.hidden ? ' is-hidden' : ''}${l.deleted ? ' is-deleted' : ''}`;
    li.dataset.id = l.id;
    const i = active.indexOf(l);
    const pos = document.createElement('span');
    pos.className = 'pos';
    pos.textContent = l.deleted ? '–' : String(i + 1);
    const canvas = document.createElement('canvas');
    canvas.setAttribute('aria-hidden', 'true');
    const text = document.createElement('div');
    const t = document.createElement('div');
    t.className = 't';
    t.textContent = l.title || `Level ${l.position}`;
    const meta = document.createElement('div');
    meta.className = 'meta';
    const bits = [`${l.width}×${l.height}, ${counted(l.boxes, 'box', 'boxes')}`];
    if (l.author) bits.push(`by ${l.author}`);
    bits.push(`${counted(l.games, 'game')}, ${counted(l.player_solutions, 'solution')}`);
    if (l.solver?.status === 'solvable') bits.push(`solver: ${counted(l.solver.pushes, 'push', 'pushes')}`);
    else if (l.solver?.status) bits.push(`solver: ${l.solver.status}`);
    if (l.hidden) bits.push('hidden');
    if (l.deleted) bits.push('deleted');
    meta.textContent = bits.join(' · ');
    text.append(t, meta);
    const acts = document.createElement('div');
    acts.className = 'acts';
    const name = t.textContent;
    if (i >= 0) {
      const up = button('↑', `Move ${name} up`, () => this.moveLevel(l.id, -1));
      const down = button('↓', `Move ${name} down`, () => this.moveLevel(l.id, 1));
      up.disabled = i === 0;
      down.disabled = i === active.length - 1;
      acts.append(up, down);
    }
    if (!l.hidden && !l.deleted && !this.data.collection.hidden && !this.data.collection.deleted) {
      const play = document.createElement('a');
      play.className = 'button';
      play.href = `#/play/${l.id}`;
      play.textContent = 'Play';
      play.setAttribute('aria-label', `Play ${name}`);
      acts.append(play);
    }
    acts.append(
      button('Edit', `Edit ${name}`, () => this.editLevel(li, l)),
      button(l.hidden ? 'Show' : 'Hide', `${l.hidden ? 'Show' : 'Hide'} ${name}`, () => this.patchLevel(l.id, { hidden: !l.hidden })),
      button(l.deleted ? 'Restore' : 'Delete', `${l.deleted ? 'Restore' : 'Delete'} ${name}`, () => this.deleteLevel(l)),
    );
    li.append(pos, canvas, text, acts);
    if (i >= 0) this.draggable(li, l.id);
    requestAnimationFrame(async () => {
      const core = this.ctx.core();
      try {
        if (core) drawThumb(canvas, core.parseLevel(l.rows.join('\n')), this.ctx.theme());
      } catch {
        // A board the browser cannot read stays blank.
      }
    });
    return li;
  }

  draggable(li, id) {
    li.draggable = true;
    li.addEventListener('dragstart', (e) => {
      this.dragged = id;
      li.classList.add('dragging');
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', String(id));
    });
    li.addEventListener('dragend', () => li.classList.remove('dragging'));
    li.addEventListener('dragover', (e) => {
      if (this.dragged && this.dragged !== id) e.preventDefault();
    });
    li.addEventListener('drop', (e) => {
      e.preventDefault();
      const from = this.dragged;
      this.dragged = null;
      if (!from || from === id) return;
      const ids = this.data.levels.filter((l) => !l.deleted).map((l) => l.id).filter((x) => x !== from);
      ids.splice(ids.indexOf(id), 0, from);
      this.orderLevels(ids);
    });
  }

  /** Moves a level one place. Moves are made one after another, each from
   * the order the last one left: ↑ pressed twice moves a level two places. */
  moveLevel(id, by) {
    // After the last move, whether it worked or not: one failure must not stop the rest.
    const next = () => this.moveLevelNow(id, by);
    this.moves = (this.moves ?? Promise.resolve()).then(next, next);
    return this.moves;
  }

  async moveLevelNow(id, by) {
    const ids = this.data.levels.filter((l) => !l.deleted).map((l) => l.id);
    const i = ids.indexOf(id), j = i + by;
    if (i < 0 || j < 0 || j >= ids.length) return;
    [ids[i], ids[j]] = [ids[j], ids[i]];
    if (!(await this.orderLevels(ids))) return;
    const row = $('adm-rows').querySelector(`[data-id="${id}"]`);
    row?.querySelector(`button[aria-label$="${by < 0 ? 'up' : 'down'}"]:not(:disabled)`)?.focus();
    announce(`Moved to place ${j + 1}`);
  }

  /** Puts the levels of the collection on screen in the order of ids
   * (taken from it: another collection clicked may still be on its way).
   * True when the server took the order. */
  async orderLevels(ids) {
    const r = await adminApi.orderLevels(this.data.collection.id, ids);
    if (!r.ok) {
      toast(errorMessage(r, 'The order could not be changed'), 'warn');
      return false;
    }
    app.invalidate();
    if (r.body?.levels) this.fill(r.body);
    else await this.open(this.current);
    return true;
  }

  async patchLevel(id, fields) {
    const r = await adminApi.updateLevel(id, fields);
    if (!r.ok) return toast(errorMessage(r, 'The level could not be changed'), 'warn');
    app.invalidate();
    await this.open(this.current);
    return true;
  }

  async deleteLevel(l) {
    const r = l.deleted ? await adminApi.restoreLevel(l.id) : await adminApi.deleteLevel(l.id);
    if (!r.ok) return toast(errorMessage(r, 'That did not work'), 'warn');
    app.invalidate();
    await this.show(this.current);
    toast(l.deleted ? 'Level restored' : 'Level deleted: Restore brings it back with its games');
  }

  editLevel(li, l) {
    if (li.querySelector('form')) return;
    const form = document.createElement('form');
    form.className = 'adm-form adm-edit';
    form.innerHTML = `
      <label>Title <input name="title" maxlength="200" autocomplete="off"></label>
      <label>Author <input name="author" maxlength="200" autocomplete="off"></label>
      <label class="wide">Comment <textarea name="comment" rows="2"></textarea></label>
      <div class="row wide"><button class="button primary" type="submit">Save</button>
        <button class="button" type="button" data-cancel>Cancel</button></div>`;
    form.elements.title.value = l.title;
    form.elements.author.value = l.author;
    form.elements.comment.value = l.comment;
    form.querySelector('[data-cancel]').addEventListener('click', () => form.remove());
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = form.elements, fields = {};
      if (f.title.value.trim() !== l.title) fields.title = f.title.value.trim();
      if (f.author.value.trim() !== l.author) fields.author = f.author.value.trim();
      if (f.comment.value !== l.comment) fields.comment = f.comment.value;
      if (Object.keys(fields).length === 0) return form.remove();
      if (await this.patchLevel(l.id, fields)) toast('Level saved');
    });
    li.append(form);
    form.elements.title.focus();
  }

  redraw() {
    if (this.data) this.renderLevels();
  }
}
