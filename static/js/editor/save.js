// editor/save.js: the editor's "Save to a collection" dialog, for admins.
// The level goes through the same admin upload as any file (so the server
// checks it, finds duplicates and replays the test-play solution), then is
// imported into the chosen collection or a new one.

import { adminApi } from '../admin/api.js';
import { errorMessage } from '../api.js';
import { write } from './levelio.js';
import { levelFile, fileName } from './transfer.js';
import { app } from '../app.js';
import { toast } from '../a11y.js';
import { $ } from '../dom.js';
import { movesPushes } from '../words.js';

const NEW = 'new';

export class SaveDialog {
  /** editor: {core(), grid(), meta(), solution(), result()} */
  constructor(editor) {
    this.editor = editor;
    const d = $('ed-save-dialog');
    d.addEventListener('click', (e) => { if (e.target.closest('[data-close]')) d.close(); });
    $('ed-save-collection').addEventListener('change', () => this.toggleNew());
    $('ed-save-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.save();
    });
  }

  toggleNew() {
    const isNew = $('ed-save-collection').value === NEW;
    $('ed-save-new-wrap').hidden = !isNew;
  }

  async open() {
    const msg = $('ed-save-msg');
    msg.textContent = '';
    const d = $('ed-save-dialog');
    const select = $('ed-save-collection');
    select.replaceChildren(new Option('Loading…', ''));
    d.showModal();
    const r = await adminApi.collections();
    if (!r.ok) {
      msg.textContent = errorMessage(r, 'The collections cannot be listed');
      select.replaceChildren(new Option('A new collection', NEW));
      this.toggleNew();
      return;
    }
    const list = (r.body.collections || []).filter((c) => !c.deleted);
    select.replaceChildren(...list.map((c) => new Option(c.name + (c.hidden ? ' (hidden)' : ''), String(c.id))),
      new Option('A new collection…', NEW));
    const last = localStorage.getItem('sokod.editor.collection');
    if (last && list.some((c) => String(c.id) === last)) select.value = last;
    else if (list.length === 0) select.value = NEW;
    this.toggleNew();
    const sol = this.editor.solution();
    $('ed-save-note').textContent = sol
      ? `Your test-play solution (${movesPushes(sol.moves, sol.pushes)}) goes with it, as the level's reference solution.`
      : 'Solve it in test play first and the solution goes with it, as proof that it can be solved.';
    select.focus();
  }

  async save() {
    const msg = $('ed-save-msg');
    const meta = this.editor.meta();
    const core = this.editor.core();
    let board;
    try {
      board = write(core, this.editor.grid().text(), false);
    } catch (e) {
      msg.textContent = `The level is not valid: ${e.message}`;
      return;
    }
    const choice = $('ed-save-collection').value;
    const target = {};
    if (choice === NEW) {
      const name = $('ed-save-new').value.trim();
      if (!name) {
        msg.textContent = 'Name the new collection.';
        $('ed-save-new').focus();
        return;
      }
      target.collection = name;
    } else {
      target.collection_id = Number(choice);
    }
    const text = levelFile(board, meta, this.editor.solution());
    $('ed-save-go').disabled = true;
    msg.textContent = '';
    try {
      const up = await adminApi.upload(fileName(meta.title), new TextEncoder().encode(text), {});
      if (!up.ok) {
        msg.textContent = errorMessage(up, 'The upload failed');
        return;
      }
      const level = up.report?.levels?.[0];
      if (!level || !level.valid) {
        msg.textContent = `The server refused the level: ${level?.errors?.[0]?.message ?? 'it found no level'}`;
        return;
      }
      if (level.duplicate?.where === 'library') {
        msg.textContent = `This level is in the library already: “${level.duplicate.title}” in ${level.duplicate.collection}.`;
        await adminApi.discard(up.id);
        return;
      }
      const r = await adminApi.importUpload(up.id, target);
      if (!r.ok) {
        msg.textContent = errorMessage(r, 'The import failed');
        return;
      }
      const id = r.body?.import?.collection_id ?? target.collection_id;
      if (id) localStorage.setItem('sokod.editor.collection', String(id));
      app.invalidate();
      $('ed-save-dialog').close();
      toast(`Saved to ${choice === NEW ? target.collection : $('ed-save-collection').selectedOptions[0].textContent}`);
    } finally {
      $('ed-save-go').disabled = false;
    }
  }
}
