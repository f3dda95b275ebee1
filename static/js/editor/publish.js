// editor/publish.js: the editor's "Publish" dialog. A signed-in player
// sends the level to the community collection; the server checks it (a
// valid board, no copy of a level of the library, turned or mirrored, and
// solvable by its solver) before it is listed under the player's name. A
// guest is told to sign up first.

import { api, errorMessage } from '../api.js';
import { write } from './levelio.js';
import { app } from '../app.js';
import { toast } from '../a11y.js';
import { $ } from '../dom.js';

export function publishMarkup() {
  return `
  <dialog id="ed-publish-dialog" class="card ed-dialog" aria-labelledby="ed-publish-h">
    <h2 id="ed-publish-h">Publish</h2>
    <div id="ed-publish-guest" hidden>
      <p>Sign up or sign in to publish your levels: a published level is listed under its author's name.</p>
      <div class="row">
        <a class="button primary" href="#/account">Account</a>
        <button class="button" type="button" data-close>Cancel</button>
      </div>
    </div>
    <form id="ed-publish-form" class="acc-form" novalidate>
      <label>Title <input id="ed-publish-title" maxlength="100" autocomplete="off"></label>
      <p class="small muted" id="ed-publish-note">The level goes to the Community collection under your name, for every
        player. The server first checks that it is no copy of a level it has (turned or mirrored too) and that its
        solver can solve it.</p>
      <div class="row">
        <button class="button primary" type="submit" id="ed-publish-go">Publish</button>
        <button class="button" type="button" data-close>Cancel</button>
      </div>
      <p id="ed-publish-msg" class="form-error" role="alert"></p>
      <p id="ed-publish-done" class="small" hidden>Published. <a id="ed-publish-play" href="#/library">Play it</a></p>
    </form>
  </dialog>`;
}

export class PublishDialog {
  /** editor: {core(), grid(), meta()} */
  constructor(editor) {
    this.editor = editor;
    const d = $('ed-publish-dialog');
    d.addEventListener('click', (e) => { if (e.target.closest('[data-close]')) d.close(); });
    $('ed-publish-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.publish();
    });
  }

  async open() {
    const d = $('ed-publish-dialog');
    $('ed-publish-msg').textContent = '';
    $('ed-publish-done').hidden = true;
    $('ed-publish-go').disabled = false;
    await app.refreshAccount();
    const a = app.account;
    const member = !!(a && a.username && !a.guest);
    $('ed-publish-guest').hidden = member;
    $('ed-publish-form').hidden = !member;
    $('ed-publish-title').value = this.editor.meta().title || '';
    d.showModal();
    if (member) $('ed-publish-title').focus();
  }

  async publish() {
    const msg = $('ed-publish-msg');
    let board;
    try {
      board = write(this.editor.core(), this.editor.grid().text(), false);
    } catch (e) {
      msg.textContent = `The level is not valid: ${e.message}`;
      return;
    }
    msg.textContent = 'Checking the level…';
    $('ed-publish-go').disabled = true;
    const r = await api.publish(board, $('ed-publish-title').value.trim());
    $('ed-publish-go').disabled = false;
    if (!r.ok) {
      msg.textContent = errorMessage(r, 'The level cannot be published');
      return;
    }
    msg.textContent = '';
    const level = r.body.level;
    $('ed-publish-play').href = `#/play/${level.id}`;
    $('ed-publish-done').hidden = false;
    app.invalidate?.();
    toast('Published to the Community collection');
  }
}
