// editor/markup.js: the editor screen's HTML, put into its <section> the
// first time the screen opens (the page loads none of the editor before).

import { TOOLS } from './grid.js';
import { publishMarkup } from './publish.js';

const toolKeys = (t) => t.keys.filter((k) => k.length === 1 && /[0-9a-z]/.test(k)).map((k) => k.toUpperCase());

export function editorMarkup() {
  const tools = TOOLS.map((t) => `
      <label class="ed-tool" title="${t.name} (${toolKeys(t).join(', ')})">
        <input type="radio" name="ed-tool" value="${t.id}">
        <span><canvas aria-hidden="true" data-tool="${t.id}"></canvas><b>${t.name}</b><kbd>${toolKeys(t)[0]}</kbd></span>
      </label>`).join('');
  return `
  <header class="bar ed-bar">
    <a class="button icon" href="#/" aria-label="Title screen"><svg><use href="#i-prev"/></svg></a>
    <h1 id="editor-h" tabindex="-1">Level editor</h1>
    <span id="ed-state" class="ed-state" role="status" aria-live="polite"></span>
    <div class="ed-actions" role="toolbar" aria-label="Editor">
      <button id="ed-undo" class="icon" aria-label="Undo (Z)" title="Undo (Z, Ctrl+Z)"><svg><use href="#i-undo"/></svg></button>
      <button id="ed-redo" class="icon" aria-label="Redo (Y)" title="Redo (Y, Ctrl+Y)"><svg><use href="#i-redo"/></svg></button>
      <button id="ed-play" class="button primary" title="Test play (T)">Test play</button>
      <button id="ed-export" class="button">Export</button>
      <button id="ed-import" class="button">Import</button>
      <button id="ed-save" class="button" hidden>Save to a collection</button>
      <button id="ed-publish" class="button" title="Publish to the Community collection">Publish</button>
      <button id="ed-new" class="button">New</button>
    </div>
  </header>
  <div id="ed-edit" class="ed-main">
    <fieldset class="ed-tools">
      <legend class="sr-only">Tool</legend>${tools}
    </fieldset>
    <div id="ed-frame" class="board-frame ed-frame">
      <canvas id="ed-board" tabindex="0" role="application" aria-roledescription="level editor"
        aria-label="The level being drawn" aria-describedby="ed-keys-short"></canvas>
    </div>
    <aside class="ed-side">
      <section class="ed-panel" aria-labelledby="ed-check-h">
        <h2 id="ed-check-h">Check</h2>
        <p id="ed-counts" class="small muted"></p>
        <ul id="ed-problems" class="ed-problems"></ul>
        <p id="ed-ok" class="ed-ok small" hidden></p>
      </section>
      <section class="ed-panel" aria-labelledby="ed-meta-h">
        <h2 id="ed-meta-h">Level</h2>
        <label class="ed-field">Title <input id="ed-title" maxlength="200" autocomplete="off" placeholder="Untitled"></label>
        <label class="ed-field">Author <input id="ed-author" maxlength="200" autocomplete="off"></label>
        <label class="ed-field">Comment <textarea id="ed-comment" rows="2" maxlength="2000"></textarea></label>
      </section>
      <section class="ed-panel" aria-labelledby="ed-size-h">
        <h2 id="ed-size-h">Size</h2>
        <div class="ed-size">
          <label>Width <input id="ed-width" type="number" min="1" max="128" inputmode="numeric"></label>
          <span aria-hidden="true">×</span>
          <label>Height <input id="ed-height" type="number" min="1" max="128" inputmode="numeric"></label>
        </div>
        <div class="ed-grow" role="group" aria-label="Rows and columns">
          <button class="button small-button" data-grow="left:1">+ Column left</button>
          <button class="button small-button" data-grow="left:-1">− Column left</button>
          <button class="button small-button" data-grow="top:1">+ Row on top</button>
          <button class="button small-button" data-grow="top:-1">− Row on top</button>
          <button class="button small-button" data-grow="crop">Crop to the drawing</button>
        </div>
      </section>
      <details class="ed-panel keys" id="ed-keys">
        <summary>Keys</summary>
        <dl>
          <dt>Arrows</dt><dd>Move the cursor</dd>
          <dt>Space, Enter</dt><dd>Paint the square (again: take it away)</dd>
          <dt>Shift+arrows</dt><dd>Move and paint: draw a line</dd>
          <dt>Delete</dt><dd>Erase the square</dd>
          <dt>1–7, W F G B O P E</dt><dd>Wall, floor, goal, box, box on goal, player, erase</dd>
          <dt>Z, Y</dt><dd>Undo, redo</dd>
          <dt>T</dt><dd>Test play</dd>
          <dt>Ctrl+V</dt><dd>Paste a level from the clipboard</dd>
          <dt>Drag</dt><dd>Paint a line; with Shift, a straight one</dd>
          <dt>Right button</dt><dd>Erase</dd>
        </dl>
      </details>
      <p id="ed-keys-short" class="sr-only">Arrows move the cursor, Space paints, number keys choose the tool.</p>
    </aside>
  </div>
  <div id="ed-playing" class="ed-playing" hidden>
    <header class="hud">
      <button id="ed-back" class="button" title="Back to editing (Escape)"><svg class="i"><use href="#i-prev"/></svg>Edit</button>
      <div class="hud-title"><h2 id="ed-play-h">Test play</h2><span class="muted small">Nothing here reaches the server</span></div>
      <dl class="counters" aria-label="Counters">
        <div><dt>Moves</dt><dd id="ed-moves">0</dd></div>
        <div><dt>Pushes</dt><dd id="ed-pushes">0</dd></div>
        <div class="goals"><dt>Goals</dt><dd id="ed-goals">0/0</dd></div>
      </dl>
      <div class="hud-buttons" role="toolbar" aria-label="Test play">
        <button id="ed-p-undo" class="icon" aria-label="Undo (Z)" title="Undo (Z, U, Backspace)"><svg><use href="#i-undo"/></svg></button>
        <button id="ed-p-redo" class="icon" aria-label="Redo (Y)" title="Redo (Y, Shift+Z)"><svg><use href="#i-redo"/></svg></button>
        <button id="ed-p-restart" class="icon" aria-label="Restart (R)" title="Restart (R)"><svg><use href="#i-restart"/></svg></button>
      </div>
    </header>
    <div id="ed-play-frame" class="board-frame">
      <canvas id="ed-play-board" tabindex="0" role="img" aria-label="The level, in test play"></canvas>
    </div>
    <div id="ed-solved" class="ed-solved card" role="status" hidden>
      <div class="solved-mark"><svg><use href="#i-check"/></svg></div>
      <div><h2>Solved!</h2><p id="ed-solved-text"></p></div>
      <div class="row">
        <button id="ed-solved-again" class="button">Play again</button>
        <button id="ed-solved-edit" class="button primary">Back to editing</button>
      </div>
    </div>
  </div>

  <dialog id="ed-export-dialog" class="card ed-dialog" aria-labelledby="ed-export-h">
    <h2 id="ed-export-h">Export</h2>
    <div class="segmented" role="radiogroup" aria-label="Format">
      <label><input type="radio" name="ed-format" value="plain" checked><span>Plain rows</span></label>
      <label><input type="radio" name="ed-format" value="rle"><span>Run-length</span></label>
    </div>
    <label class="check"><input type="checkbox" id="ed-export-meta" checked> <span>With title, author and comment</span></label>
    <p id="ed-export-note" class="small muted"></p>
    <textarea id="ed-export-text" class="ed-text" rows="12" readonly spellcheck="false" aria-label="The level as text"></textarea>
    <div class="row">
      <button id="ed-copy" class="button primary">Copy</button>
      <button id="ed-download" class="button">Download</button>
      <button class="button" data-close>Close</button>
    </div>
  </dialog>

  <dialog id="ed-import-dialog" class="card ed-dialog" aria-labelledby="ed-import-h">
    <h2 id="ed-import-h">Import</h2>
    <p class="small muted">Paste levels in the usual text format (run-length too), or open a file:
      .sok, .xsb, .txt, an SLC .xml file or a SokoPy pack. With several levels, pick one.</p>
    <textarea id="ed-import-text" class="ed-text" rows="9" spellcheck="false" aria-label="Level text to import"
      placeholder="#####&#10;#@$.#&#10;#####"></textarea>
    <div class="row">
      <button id="ed-import-read" class="button primary">Read</button>
      <label class="button">Open a file… <input id="ed-import-file" type="file" class="sr-only"
        accept=".sok,.xsb,.txt,.slc,.xml,.skbn,.pack,text/plain"></label>
      <button class="button" data-close>Cancel</button>
    </div>
    <p id="ed-import-msg" class="form-error" role="alert"></p>
    <ol id="ed-import-list" class="ed-import-list"></ol>
  </dialog>

  <dialog id="ed-save-dialog" class="card ed-dialog" aria-labelledby="ed-save-h">
    <h2 id="ed-save-h">Save to a collection</h2>
    <form id="ed-save-form" class="acc-form" novalidate>
      <label>Collection <select id="ed-save-collection"></select></label>
      <label id="ed-save-new-wrap">Name of the new collection <input id="ed-save-new" maxlength="200" autocomplete="off"></label>
      <p class="small muted" id="ed-save-note"></p>
      <div class="row">
        <button class="button primary" type="submit" id="ed-save-go">Save</button>
        <button class="button" type="button" data-close>Cancel</button>
      </div>
      <p id="ed-save-msg" class="form-error" role="alert"></p>
    </form>
  </dialog>${publishMarkup()}`;
}
