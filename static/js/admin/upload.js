// admin/upload.js: the admin page's upload tab. Files come by drag and
// drop, the file picker (one or many) or pasted text; each is sent in parts
// with a progress bar, checked by the server, shown as a report (see
// report.js) and imported on request into a new or an existing
// collection. Uploads the server still holds (after a reload) come back.

import { adminApi } from './api.js';
import { renderReport, solverText } from './report.js';
import { errorMessage } from '../api.js';
import { announce } from '../a11y.js';
import { app } from '../app.js';
import { $ } from '../dom.js';
import { counted } from '../words.js';

export function uploadMarkup() {
  return `
  <section class="adm-card" aria-labelledby="adm-up-h">
    <h2 id="adm-up-h">Upload level files</h2>
    <div id="adm-drop" class="adm-drop">
      <p><b>Drop level files here</b></p>
      <p class="small muted">Text files (.sok, .xsb, .txt, run-length too), SLC XML (.slc) or SokoPy packs, one or many at once.
        Nothing is imported before you have seen the check.</p>
      <label class="button primary">Choose files… <input id="adm-files" type="file" multiple class="sr-only"
        accept=".sok,.xsb,.txt,.slc,.xml,.skbn,.pack,text/plain,application/xml"></label>
    </div>
    <details class="adm-paste">
      <summary>Or paste the text of a level file</summary>
      <div class="adm-form">
        <label>File name <input id="adm-paste-name" value="pasted.sok" maxlength="200"></label>
        <label class="wide">Text <textarea id="adm-paste-text" class="ed-text" rows="8" spellcheck="false"></textarea></label>
      </div>
      <div class="row"><button id="adm-paste-go" class="button">Upload and check</button></div>
    </details>
  </section>
  <ol id="adm-uploads" class="adm-uploads" aria-label="Uploads"></ol>`;
}

const kb = (n) => (n < 1024 ? `${n} bytes` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`);

export class Uploads {
  /** ctx: {core(), theme(), collections() (a fresh list), imported()} */
  constructor(ctx) {
    this.ctx = ctx;
    this.items = new Map(); // upload id -> item
    const drop = $('adm-drop');
    drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', (e) => {
      e.preventDefault();
      drop.classList.remove('over');
      this.sendFiles([...e.dataTransfer.files]);
    });
    $('adm-files').addEventListener('change', (e) => {
      const files = [...e.target.files];
      e.target.value = '';
      this.sendFiles(files);
    });
    $('adm-paste-go').addEventListener('click', () => {
      const text = $('adm-paste-text').value;
      if (!text.trim()) return announce('Paste the text of a level file first');
      const name = $('adm-paste-name').value.trim() || 'pasted.sok';
      this.send(name, new TextEncoder().encode(text));
    });
  }

  /** Shows the uploads the server still holds that are not imported yet. */
  async resume() {
    const r = await adminApi.uploads();
    if (!r.ok) return;
    for (const u of r.body.uploads) {
      if (this.items.has(u.id) || u.state === 'imported' || u.state === 'receiving') continue;
      const item = this.newItem(u.file, u.size);
      item.id = u.id;
      this.items.set(u.id, item);
      const full = await adminApi.getUpload(u.id);
      if (full.ok) this.checked(item, full.body.upload);
    }
  }

  async sendFiles(files) {
    for (const f of files) this.send(f.name, new Uint8Array(await f.arrayBuffer()));
  }

  newItem(name, size) {
    const li = document.createElement('li');
    li.className = 'adm-upload';
    li.innerHTML = `
      <div class="adm-upload-head">
        <h3></h3><span class="small muted size"></span><span class="chip state"></span>
        <button type="button" class="button small-button discard">Discard</button>
      </div>
      <div class="adm-bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"><span></span></div>
      <p class="small muted status" aria-live="polite"></p>
      <div class="report"></div>
      <form class="adm-import" hidden>
        <label>Into <select name="into"></select></label>
        <label class="new-name">New collection's name <input name="name" maxlength="200" autocomplete="off"></label>
        <label class="new-only">Credit (author) <input name="author" maxlength="200" autocomplete="off"></label>
        <label class="new-only">Description <textarea name="description" rows="2"></textarea></label>
        <label class="check"><input type="checkbox" name="keep"> <span>Import duplicates too</span></label>
        <button class="button primary" type="submit">Import</button>
      </form>
      <p class="adm-result" role="status"></p>`;
    li.querySelector('h3').textContent = name;
    li.querySelector('.size').textContent = kb(size);
    const bar = li.querySelector('.adm-bar');
    bar.setAttribute('aria-label', `Upload of ${name}`);
    const item = { li, id: 0, name, size, upload: null, polling: 0 };
    li.querySelector('.discard').addEventListener('click', () => this.discard(item));
    li.querySelector('form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.import(item);
    });
    li.querySelector('select').addEventListener('change', () => this.toggleTarget(item));
    $('adm-uploads').prepend(li);
    return item;
  }

  progress(item, sent, total, text) {
    const pct = total > 0 ? Math.round((100 * sent) / total) : 100;
    const bar = item.li.querySelector('.adm-bar');
    bar.setAttribute('aria-valuenow', String(pct));
    bar.firstElementChild.style.width = `${pct}%`;
    item.li.querySelector('.status').textContent = text ?? `Sending: ${kb(Math.round(sent))} of ${kb(total)} (${pct}%)`;
  }

  setState(item, state, kind = '') {
    const chip = item.li.querySelector('.state');
    chip.textContent = state;
    chip.className = `chip state ${kind}`;
    item.li.dataset.state = state;
  }

  async send(name, bytes) {
    const item = this.newItem(name, bytes.length);
    this.setState(item, 'sending');
    if (bytes.length === 0) {
      this.setState(item, 'empty', 'bad');
      item.li.querySelector('.status').textContent = 'This file is empty.';
      return;
    }
    const r = await adminApi.upload(name, bytes, {
      onProgress: (sent, total) => this.progress(item, sent, total),
    });
    if (r.id) {
      item.id = r.id;
      this.items.set(r.id, item);
    }
    if (!r.ok) {
      this.setState(item, 'failed', 'bad');
      item.li.querySelector('.status').textContent = errorMessage(r, 'The upload failed');
      return;
    }
    this.checked(item, r.upload);
  }

  /** The upload is in and checked: the report and the import form. */
  async checked(item, upload) {
    item.upload = upload;
    const report = upload.report;
    this.progress(item, upload.size, upload.size, `${kb(upload.size)} sent and checked.`);
    renderReport(item.li.querySelector('.report'), report, this.ctx);
    const ok = report && !report.error && report.summary.valid > 0;
    this.setState(item, upload.state === 'imported' ? 'imported' : ok ? 'checked' : 'nothing to import',
      ok ? 'good' : 'bad');
    if (upload.state === 'imported') return;
    const form = item.li.querySelector('form');
    form.hidden = !ok;
    if (ok) {
      form.elements.name.value = report.name || item.name.replace(/\.[^.]+$/, '');
      form.elements.author.value = report.author || '';
      form.elements.description.value = report.description || '';
      await this.fillTargets(item);
    }
    announce(`${item.name} checked: ${report?.summary.valid ?? 0} valid levels of ${report?.summary.levels ?? 0}`);
    this.pollSolver(item);
  }

  async fillTargets(item) {
    const select = item.li.querySelector('select');
    const list = (await this.ctx.collections()) || [];
    select.replaceChildren(new Option('A new collection', 'new'),
      ...list.filter((c) => !c.deleted).map((c) => new Option(`${c.name} (${counted(c.levels, 'level')})`, String(c.id))));
    this.toggleTarget(item);
  }

  toggleTarget(item) {
    const isNew = item.li.querySelector('select').value === 'new';
    for (const l of item.li.querySelectorAll('.new-name, .new-only')) l.hidden = !isNew;
  }

  /** While the server's solver works through the levels, follow it. */
  pollSolver(item) {
    clearTimeout(item.polling);
    const s = item.upload?.solver;
    if (!s || s.done >= s.total || !item.li.isConnected) return;
    // Solving takes seconds a level: ask less often as it goes on.
    item.pollMs = Math.min(10000, (item.pollMs || 1000) * 1.3);
    item.polling = setTimeout(async () => {
      if ($('screen-admin').hidden) return this.pollSolver(item);
      const r = await adminApi.getUpload(item.id);
      if (!r.ok) return;
      // Keep the report the cards are drawn from, with the new verdicts.
      const shown = item.upload.report?.levels ?? [];
      item.upload = { ...r.body.upload, report: item.upload.report };
      const levels = r.body.upload.report?.levels ?? [];
      for (const l of levels) {
        if (shown[l.number - 1]) shown[l.number - 1].solver = l.solver;
        const line = item.li.querySelector(`.adm-level[data-number="${l.number}"] .solver`);
        if (!line || !l.solver) continue;
        line.textContent = solverText(l.solver);
        line.classList.toggle('err', l.solver.status === 'unsolvable');
      }
      this.pollSolver(item);
    }, item.pollMs);
  }

  async import(item) {
    const form = item.li.querySelector('form');
    const f = form.elements;
    const target = {};
    if (f.into.value === 'new') {
      const name = f.name.value.trim();
      if (!name) {
        f.name.focus();
        return this.result(item, 'Name the new collection.', false);
      }
      target.collection = name;
      if (f.author.value.trim()) target.author = f.author.value.trim();
      if (f.description.value.trim()) target.description = f.description.value.trim();
    } else {
      target.collection_id = Number(f.into.value);
    }
    if (f.keep.checked) target.keep_duplicates = true;
    form.querySelector('button[type="submit"]').disabled = true;
    const r = await adminApi.importUpload(item.id, target);
    form.querySelector('button[type="submit"]').disabled = false;
    if (!r.ok) return this.result(item, errorMessage(r, 'The import failed'), false);
    const im = r.body.import;
    form.hidden = true;
    this.setState(item, 'imported', 'good');
    const bits = [`${counted(im.imported, 'level')} imported into ${im.created ? 'the new' : 'the'} collection`];
    if (im.restored) bits.push(`${im.restored} brought back`);
    if (im.duplicates) bits.push(`${counted(im.duplicates, 'duplicate')} skipped`);
    if (im.invalid) bits.push(`${im.invalid} invalid left out`);
    if (im.references) bits.push(`${counted(im.references, 'reference solution')} kept`);
    this.result(item, `${bits.join(', ')}.`, true, im.collection_id);
    app.invalidate();
    this.ctx.imported(im.collection_id);
  }

  result(item, text, good, collectionId = 0) {
    const p = item.li.querySelector('.adm-result');
    p.className = `adm-result ${good ? 'good' : 'bad'}`;
    p.textContent = text;
    if (collectionId) {
      const a = document.createElement('a');
      a.href = `#/library/${collectionId}`;
      a.textContent = ' Play it in the library';
      p.append(a);
    }
    announce(text);
  }

  async discard(item) {
    clearTimeout(item.polling);
    if (item.id && item.li.dataset.state !== 'imported') {
      const r = await adminApi.discard(item.id);
      if (!r.ok && r.status !== 404) return this.result(item, errorMessage(r, 'It could not be discarded'), false);
    }
    this.items.delete(item.id);
    item.li.remove();
    announce(`${item.name} removed`);
  }
}
