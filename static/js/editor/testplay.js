// editor/testplay.js: plays the level being drawn in place, with the game's
// own board renderer, rules and controls (keys, taps, swipes, point mode,
// undo, redo, restart). The Play object runs without a server: nothing is
// queued or sent. Solving hands the solution to the editor.

import { BoardView } from '../board.js';
import { Play } from '../play.js';
import { actionOfKey, watchPointer, DIR_OF } from '../input.js';
import * as settings from '../settings.js';
import { announce } from '../a11y.js';
import { $ } from '../dom.js';
import { movesPushes } from '../words.js';

export class TestPlay {
  /** hooks: solved(lurd, moves, pushes), leave() */
  constructor(hooks) {
    this.hooks = hooks;
    this.view = new BoardView($('ed-play-board'), $('ed-play-frame'));
    this.play = new Play(null, this.view, {
      update: () => this.updateHud(),
      solved: () => this.onSolved(),
    });
    this.active = false;
    watchPointer($('ed-play-frame'), {
      point: (x, y) => {
        if (this.ready() && settings.get('pointMode')) this.play.pointAt(this.view.cellAt(x, y));
      },
      drag: (x0, y0, x1, y1) => {
        if (this.ready() && settings.get('pointMode')) {
          this.play.dragTo(this.view.cellAt(x0, y0), this.view.cellAt(x1, y1));
        }
      },
      action: (name) => this.ready() && this.act(name),
      hover: (x, y) => {
        if (!this.ready() || !settings.get('pointMode')) return;
        const c = x < 0 ? -1 : this.view.cellAt(x, y);
        if (this.play.selected >= 0) this.view.setMarks({ target: this.play.reach && this.play.reach[c] ? c : -1, path: null });
        else this.view.setMarks({ target: -1, path: this.play.walkPreview(c) });
      },
    });
    for (const [id, name] of [['ed-p-undo', 'undo'], ['ed-p-redo', 'redo'], ['ed-p-restart', 'restart']]) {
      $(id).addEventListener('click', () => this.ready() && this.act(name));
    }
    $('ed-solved-again').addEventListener('click', () => {
      $('ed-solved').hidden = true;
      this.play.restart();
      $('ed-play-board').focus();
    });
    $('ed-solved-edit').addEventListener('click', () => this.hooks.leave());
    $('ed-back').addEventListener('click', () => this.hooks.leave());
    settings.onChange(() => this.applySettings());
  }

  applySettings() {
    this.view.stepMs = settings.SPEEDS[settings.get('speed')] ?? 120;
    this.view.setShowDead(settings.get('showDead'));
    this.play.warnFrozen = settings.get('warnFrozen');
    if (this.play.game) this.play.refreshMarks();
  }

  /** Starts playing the board `text` (valid) titled `title`. */
  start(core, theme, text, title) {
    this.play.core = core;
    this.view.setTheme(theme);
    this.applySettings();
    const level = core.parseLevel(text);
    this.play.build({
      level: { rows: text.split('\n'), width: level.width, height: level.height },
      history: '', redo: '', moves: 0, pushes: 0,
    });
    this.active = true;
    this.solvedShown = false;
    $('ed-solved').hidden = true;
    $('ed-play-h').textContent = title ? `Test play: ${title}` : 'Test play';
    this.updateHud();
    announce(`Test play. ${this.play.counts()}. Escape goes back to editing.`);
  }

  stop() {
    this.active = false;
    this.play.game = null;
  }

  setTheme(theme) {
    this.view.setTheme(theme);
  }

  ready() {
    return this.active && this.play.game && $('ed-solved').hidden;
  }

  act(name) {
    if (DIR_OF[name] !== undefined) return this.play.step(DIR_OF[name]);
    switch (name) {
      case 'undo': return this.play.undo();
      case 'redo': return this.play.redo();
      case 'undoPush': return this.play.undoPush();
      case 'restart': return this.play.restart();
      default: return null;
    }
  }

  /** A key while test play shows; true when it was used. */
  key(e) {
    const name = actionOfKey(e);
    if (!name) return false;
    if (!$('ed-solved').hidden) {
      if (name === 'undo') {
        $('ed-solved').hidden = true;
        this.play.undo();
        $('ed-play-board').focus();
        return true;
      }
      if (name === 'menu') {
        this.hooks.leave();
        return true;
      }
      return false;
    }
    if (name === 'menu') {
      this.hooks.leave();
      return true;
    }
    if (name === 'confirm' || name === 'next' || name === 'prev' || name === 'keys') return false;
    this.act(name);
    return true;
  }

  updateHud() {
    const g = this.play.game;
    if (!g) return;
    $('ed-moves').textContent = g.moves;
    $('ed-pushes').textContent = g.pushes;
    $('ed-goals').textContent = `${g.boxesOnGoal}/${g.boxCount}`;
    $('ed-p-undo').disabled = g.cursor === 0;
    $('ed-p-redo').disabled = g.redoCount === 0;
    $('ed-p-restart').disabled = g.moves === 0;
    const frame = $('ed-playing');
    frame.dataset.moves = g.moves;
    frame.dataset.pushes = g.pushes;
    frame.dataset.solved = g.solved ? '1' : '0';
    $('ed-play-board').setAttribute('aria-label', `Test play: ${g.width} by ${g.height} squares, ` +
      `${g.boxesOnGoal} of ${g.boxCount} boxes on goals, ${movesPushes(g.moves, g.pushes)}`);
  }

  onSolved() {
    const g = this.play.game;
    this.hooks.solved(g.lurd(), g.moves, g.pushes);
    const show = () => {
      if (this.view.animating) return requestAnimationFrame(show);
      if (!this.active || !g.solved || this.play.game !== g) return;
      $('ed-solved-text').textContent = `${movesPushes(g.moves, g.pushes)}. The level can be solved.`;
      $('ed-solved').hidden = false;
      $('ed-solved-edit').focus();
    };
    setTimeout(show, 120);
  }
}
