// editor/transfer.js: the editor's export and import dialogs. Export writes
// the level with the core (plain rows or one run-length line, with its
// title, author and comment), to copy or to download. Import reads pasted
// text or a file (text, SLC XML, SokoPy pack) and, when it holds several
// levels, lets the author pick one.

import { write, readLevels, readPack, readSlc, isPack, gridOfText, gridOfLevel } from './levelio.js';
import { drawThumb } from '../thumb.js';
import { toast, announce } from '../a11y.js';
import { $ } from '../dom.js';
import { counted } from '../words.js';

/** The level file text of a board: the board, then its metadata and a
 * solution when there is one. */
export function levelFile(board, meta, solution) {
  const lines = [board];
  if (meta.title) lines.push(`Title: ${oneLine(meta.title)}`);
  if (meta.author) lines.push(`Author: ${oneLine(meta.author)}`);
  const comment = (meta.comment || '').trim();
  if (comment && comment.includes('\n')) lines.push('Comment:', comment, 'Comment-End:');
  else if (comment) lines.push(`Comment: ${comment}`);
  if (solution) lines.push('', `Solution ${solution.moves}/${solution.pushes}`, solution.lurd);
  return `${lines.join('\n')}\n`;
}

const oneLine = (s) => String(s).replace(/\s+/g, ' ').trim();

/** A file name from a title. */
export function fileName(title, ext = 'sok') {
  const base = oneLine(title || 'level').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `${base || 'level'}.${ext}`;
}

export class Transfer {
  /** editor: {core(), theme(), grid(), meta(), check(), load({grid, title, author, comment})} */
  constructor(editor) {
    this.editor = editor;
    this.found = [];
    for (const d of [$('ed-export-dialog'), $('ed-import-dialog')]) {
      d.addEventListener('click', (e) => { if (e.target.closest('[data-close]')) d.close(); });
    }
    $('ed-export-dialog').addEventListener('change', () => this.fillExport());
    $('ed-copy').addEventListener('click', () => this.copy());
    $('ed-download').addEventListener('click', () => this.download());
    $('ed-import-read').addEventListener('click', () => this.readPasted());
    $('ed-import-file').addEventListener('change', (e) => {
      const f = e.target.files[0];
      e.target.value = '';
      if (f) this.readFile(f);
    });
    const area = $('ed-import-text');
    area.addEventListener('dragover', (e) => { e.preventDefault(); area.classList.add('drop'); });
    area.addEventListener('dragleave', () => area.classList.remove('drop'));
    area.addEventListener('drop', (e) => {
      e.preventDefault();
      area.classList.remove('drop');
      const f = e.dataTransfer.files[0];
      if (f) this.readFile(f);
    });
  }

  // ---- Export --------------------------------------------------------------------

  openExport() {
    this.fillExport();
    $('ed-export-dialog').showModal();
    $('ed-copy').focus();
  }

  fillExport() {
    const core = this.editor.core(), grid = this.editor.grid();
    const rle = $('ed-export-dialog').querySelector('input[name="ed-format"]:checked').value === 'rle';
    const withMeta = $('ed-export-meta').checked;
    let board, note;
    try {
      board = write(core, grid.text(), rle);
      note = rle ? 'The level on one line: counts before squares, - for floor, | between rows.'
        : 'The level in the usual text format, as the core reads it back.';
    } catch (e) {
      board = grid.text();
      note = `The board as drawn: it is not a valid level yet (${e.message}).`;
    }
    const meta = withMeta ? this.editor.meta() : {};
    $('ed-export-text').value = levelFile(board, meta, withMeta ? this.editor.solution() : null);
    $('ed-export-note').textContent = note;
  }

  async copy() {
    const text = $('ed-export-text').value;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard permission (an http page, an old browser): select and copy.
      const area = $('ed-export-text');
      area.focus();
      area.select();
      document.execCommand?.('copy');
    }
    toast('Copied to the clipboard');
  }

  download() {
    const text = $('ed-export-text').value;
    const blob = new Blob([text], { type: 'text/plain;charset=utf-8' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = fileName(this.editor.meta().title);
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 5000);
  }

  // ---- Import --------------------------------------------------------------------

  openImport() {
    $('ed-import-msg').textContent = '';
    $('ed-import-list').replaceChildren();
    $('ed-import-dialog').showModal();
    $('ed-import-text').focus();
  }

  /** Text pasted straight onto the board: read it as the dialog would. */
  pasteText(text) {
    $('ed-import-text').value = text;
    $('ed-import-msg').textContent = '';
    $('ed-import-list').replaceChildren();
    if (!$('ed-import-dialog').open) $('ed-import-dialog').showModal();
    this.readPasted();
  }

  readPasted() {
    const text = $('ed-import-text').value;
    if (!text.trim()) {
      $('ed-import-msg').textContent = 'Paste a level first.';
      return;
    }
    this.offer(text.trimStart().startsWith('<') ? () => readSlc(this.editor.core(), text)
      : () => readLevels(this.editor.core(), text), text);
  }

  async readFile(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (isPack(bytes)) return this.offer(() => readPack(this.editor.core(), bytes), null);
    const text = new TextDecoder().decode(bytes);
    $('ed-import-text').value = text.length < 200000 ? text : '';
    if (text.trimStart().startsWith('<')) return this.offer(() => readSlc(this.editor.core(), text), text);
    return this.offer(() => readLevels(this.editor.core(), text), text);
  }

  offer(read, text) {
    const msg = $('ed-import-msg');
    msg.textContent = '';
    let found;
    try {
      found = read();
    } catch (e) {
      msg.textContent = `This cannot be read: ${e.message}`;
      return;
    }
    if (found.length === 0 && text !== null) {
      // No board line with a '#': perhaps rows of a board without walls yet.
      const grid = gridOfText(this.editor.core(), text);
      if (grid) return this.take({ grid, title: '', author: '' });
      msg.textContent = 'No level found: a board is rows of #, $, ., *, @, + and spaces.';
      return;
    }
    this.found = found;
    if (found.length === 1) return this.pick(0);
    this.list(found);
  }

  list(found) {
    const ol = $('ed-import-list');
    const theme = this.editor.theme();
    const items = found.slice(0, 500).map((f, i) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'ed-pick';
      b.dataset.index = i;
      const canvas = document.createElement('canvas');
      canvas.setAttribute('aria-hidden', 'true');
      const t = document.createElement('span');
      t.className = 't';
      t.textContent = `${f.number}. ${f.title || 'Untitled'}`;
      const meta = document.createElement('span');
      meta.className = 'meta';
      meta.textContent = f.level ? `${f.level.width}×${f.level.height}, ${counted(f.level.boxes, 'box', 'boxes')}`
        : `line ${f.error.line}${f.error.col ? `, column ${f.error.col}` : ''}: ${f.error.message}`;
      if (!f.level) meta.classList.add('bad');
      b.append(canvas, t, meta);
      b.addEventListener('click', () => this.pick(i));
      li.append(b);
      if (f.level) requestAnimationFrame(() => drawThumb(canvas, f.level, theme));
      return li;
    });
    ol.replaceChildren(...items);
    const more = found.length > 500 ? ` (the first 500 are listed)` : '';
    $('ed-import-msg').textContent = '';
    announce(`${counted(found.length, 'level')} found${more}: pick one`);
    const note = document.createElement('li');
    note.className = 'muted small ed-pick-note';
    note.textContent = `${counted(found.length, 'level')} found${more}. Pick the one to edit.`;
    ol.prepend(note);
    ol.querySelector('button')?.focus();
  }

  pick(i) {
    const f = this.found[i];
    const core = this.editor.core();
    const grid = f.level ? gridOfLevel(f.level) : gridOfText(core, f.board);
    if (!grid) {
      $('ed-import-msg').textContent = 'This board cannot be edited: it holds characters that are not squares.';
      return;
    }
    this.take({ grid, title: /^\d+$/.test(f.title) ? `Level ${f.title}` : f.title, author: f.author || '' });
  }

  take(level) {
    $('ed-import-dialog').close();
    this.editor.load(level);
    toast('Level imported: undo takes it back');
  }
}
