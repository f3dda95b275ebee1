// play.js: one level being played. Joins the core (rules, paths), the board
// view (animation), the sync queue (the server) and the player's feedback
// (counters, sound, announcements). Every action is played at once on the
// local core and queued for the server; the server's answer is normally the
// same position, and when it is not, the page adopts the server's game.

import { dirOfLetter, stepFrom, BOX, WALL, OUTSIDE, PUSHED } from './core.js';
import { letterOf, playEntry, gameOfState, boardCells, RESTART_LETTER } from './letters.js';
import { stepTransition, undoTransition } from './board.js';
import { GameSync, savedOutbox } from './sync.js';
import { api } from './api.js';
import { announce, toast } from './a11y.js';
import { counted, movesPushes } from './words.js';
import { play as sound } from './sound.js';
import { showMiss } from './miss.js';
import { askConflict, keepConflict, keptConflict } from './conflict.js';

const DIR_NAMES = ['up', 'right', 'down', 'left'];

/** True for an upper-case step letter: a push, or a reverse game's pull. */
const upper = (ch) => ch !== ch.toLowerCase();

// The most steps one entry of the outbox carries when a whole line is
// played at once (going back to a saved position).
const LINE_BATCH = 4000;
const LINE_KEPT_MAX = 50000;

export class Play {
  /** core: a Core; view: a BoardView; hooks: update(play), solved(play),
   * played(play) (an action of the player's was queued), pending(moves,
   * waiting), askConflicts (true: when the game moved on elsewhere while
   * moves waited, the player chooses what to keep), shown() (false while
   * the screen of this game is not the one shown: a choice waits for it,
   * askWaiting) */
  constructor(core, view, hooks) {
    this.core = core;
    this.view = view;
    this.hooks = hooks;
    this.game = null;
    this.state = null;      // the server's last game object
    this.sync = null;
    this.selected = -1;     // the box chosen in point mode
    this.reach = null;
    this.warnFrozen = true;
    this.wasSolved = false;
    this.wasStuck = false;
    // True while attach resends what an earlier page left unsent: the
    // queue is rebuilt from the answer, so actions must wait for it.
    this.resuming = false;
    // A conflict seen while another screen showed, to ask on return.
    this.conflictWaiting = false;
  }

  /** True when the player's actions can be taken. */
  get playable() {
    return !!this.game && !!this.sync && !this.resuming;
  }

  /** Leaves the level; entries still queued for it go on to the server. */
  close() {
    if (this.sync?.pending > 0) this.sync.drain();
    else this.sync?.close();
    this.sync = null;
    this.resuming = false;
  }

  /** Plays a game the server gave (the player's game on a level, a race
   * game): builds it and sends the entries an earlier page left unsent. */
  async attach(state) {
    this.close();
    this.build(state);
    this.sync = new GameSync(state.id, state.seq, {
      adopt: (game, message) => this.adopt(game, message),
      // Only where the player can be asked (the game screen): elsewhere
      // (a race) the server's game is adopted as before.
      conflict: this.hooks.askConflicts ? (game, entries, line) => this.conflict(game, entries, line) : undefined,
      // Long lines are not kept: LINE_KEPT_MAX steps are what a saved position holds.
      line: () => (this.game && this.game.moves <= LINE_KEPT_MAX ? this.game.lurd() : null),
      confirmed: (game, entry, steps, idle) => this.confirmed(game, entry, steps, idle),
      pending: (n, waiting) => this.hooks.pending?.(n, waiting),
      full: (message) => toast(`${message}. Your moves are kept on this device until there is room.`, 'warn'),
    });
    const sync = this.sync;
    this.resuming = true;
    try {
      await this.resumeOutbox(state);
    } finally {
      // Unless another game was attached meanwhile, which has its own turn.
      if (this.sync === sync) this.resuming = false;
    }
    // A choice left open by an earlier page: ask again.
    const kept = this.hooks.askConflicts ? keptConflict(state.id) : null;
    if (kept && this.sync === sync) this.conflict(null, kept.entries, kept.line);
  }

  /** Replays entries an earlier page queued but could not send: those the
   * server holds are confirmed by resending, the others are played here too. */
  async resumeOutbox(state) {
    const saved = savedOutbox(state.id);
    if (saved.length === 0) return;
    const mine = saved.filter((e) => e.seq > state.seq);
    if (saved[0].seq <= state.seq) {
      // The first ones may be ours, already applied: then each is the
      // server's entry at its seq, and sent again it answers "duplicate".
      // One that is not means another device played on, and what is left
      // here is stale. Each is asked, not only the last: two devices may
      // have sent alike entries at one seq after different ones.
      if (!saved.some((e) => e.seq === state.seq)) return this.staleOutbox(state, saved);
      const sync = this.sync;
      for (const e of saved.filter((x) => x.seq <= state.seq)) {
        const r = await sync.send({ ...e });
        // Another game was attached meanwhile (the player opened another level).
        if (this.sync !== sync) return;
        // Offline (the game came from the service worker, which saw the
        // server take that entry), or signed out from the game's account
        // (a kept game): play on from it; a stale guess is refused later
        // and asked about then.
        const code = r.body?.error?.code;
        if (r.offline || code === 'no_session' || code === 'game_not_found') break;
        if (!r.ok || !r.body.duplicate) return this.staleOutbox(state, saved);
      }
    }
    if (mine.length === 0) return this.sync.reset(state.seq);
    if (mine[0].seq !== state.seq + 1) return this.staleOutbox(state, saved);
    for (const e of mine) playEntry(this.game, e);
    this.view.snap(this.position());
    this.sync.queue = mine.map((e) => ({ ...e, sealed: e.sealed }));
    this.sync.changed();
    this.afterChange();
  }

  /** Entries an earlier page left that no longer follow the server's game
   * (another device moved on): the player chooses what to keep. */
  staleOutbox(state, saved) {
    const line = this.sync.savedLine();
    this.sync.reset(state.seq);
    this.conflict(state, saved, line);
  }

  /** The server's game moved on elsewhere while `entries` waited here; `line`
   * is the LURD of the position they led to. Nothing is dropped until the
   * player has chosen (conflict.js keeps them until then). */
  conflict(state, entries, line) {
    const sync = this.sync;
    if (!sync) return;
    keepConflict(sync.gameId, entries, line);
    if (!state || state.history === undefined) {
      api.game(sync.gameId).then((r) => {
        if (this.sync !== sync) return;
        if (r.ok) this.conflict(r.body.game, entries, line);
        else toast('This level moved on elsewhere: your moves are kept here until the server answers', 'warn');
      });
      return;
    }
    this.adopt(state, '');
    // Asked on another screen, the dialog would hold that screen: the
    // choice waits, kept, until the player is back on this game.
    if (this.hooks.shown && !this.hooks.shown()) {
      this.conflictWaiting = true;
      return;
    }
    this.conflictWaiting = false;
    askConflict(this, state, entries, line);
  }

  /** Asks the choice that waited for this game's screen, if any. */
  askWaiting() {
    if (!this.conflictWaiting || !this.sync) return;
    this.conflictWaiting = false;
    const kept = keptConflict(this.sync.gameId);
    if (kept) this.conflict(null, kept.entries, kept.line);
  }

  /** Plays `entries` (as the outbox holds them) on from the game as it
   * stands, and queues them anew. Returns false, changing nothing, when one
   * does not replay legally here. */
  playOn(entries) {
    const g = this.game, state = this.state;
    const played = [];
    let ok = true;
    for (const e of entries) {
      if (e.kind === 'undo' || e.kind === 'redo') {
        for (let i = 0; i < e.count && ok; i++) ok = (e.kind === 'undo' ? g.undo() : g.redo()) >= 0;
        played.push({ kind: e.kind, count: e.count });
      } else if (e.kind === 'restart') {
        ok = g.restart() >= 0;
        played.push({ kind: 'restart' });
      } else {
        let letters = '';
        for (const ch of e.steps || '') {
          const rc = g.play(dirOfLetter(ch), upper(ch));
          if (rc < 0) { ok = false; break; }
          letters += letterOf(dirOfLetter(ch), rc === PUSHED);
        }
        played.push({ kind: 'steps', steps: letters });
      }
      if (!ok) break;
    }
    if (!ok) {
      this.build(state);
      return false;
    }
    for (const e of played) this.queue(e);
    this.view.snap(this.position());
    this.afterChange();
    return true;
  }

  /** Brings the game to the position `lurd` reaches from the start: a
   * restart and those steps, queued like any others (undo takes them back).
   * Returns false, changing nothing, when the steps do not replay. */
  goToLine(lurd) {
    const g = this.game, before = g.cursor;
    const restarted = g.moves > 0;
    if (restarted) g.restart();
    let letters = '';
    for (const ch of lurd) {
      if (ch === RESTART_LETTER) continue;
      const rc = g.play(dirOfLetter(ch), upper(ch));
      if (rc < 0) {
        // Back to where it stood; only the redo stack differs, and nothing was queued.
        while (g.cursor > before) g.undo();
        return false;
      }
      letters += letterOf(dirOfLetter(ch), rc === PUSHED);
    }
    if (restarted) this.queue({ kind: 'restart' });
    for (let i = 0; i < letters.length; i += LINE_BATCH) {
      this.queue({ kind: 'steps', steps: letters.slice(i, i + LINE_BATCH) });
    }
    this.view.snap(this.position(), 2);
    this.afterChange();
    return true;
  }

  /** Builds the local game from a server game object. */
  build(state) {
    this.state = state;
    const lvl = state.level;
    this.game = gameOfState(this.core, state);
    if (this.game.width !== lvl.width || this.game.height !== lvl.height) {
      console.warn('sokod: the board read here differs in size from the server\'s', lvl.width, lvl.height);
    }
    if (!this.matches(state)) console.warn('sokod: the local replay differs from the server\'s game');
    this.selected = -1;
    this.reach = null;
    this.wasSolved = this.game.solved;
    this.wasStuck = false;
    this.view.setLevel({ width: this.game.width, height: this.game.height, cells: boardCells(this.game) },
      this.position());
    this.view.setDeadSquares(this.game.deadSquares);
    this.refreshMarks();
    this.hooks.update?.(this);
  }

  /** True when the local game is the server's game. */
  matches(state) {
    const g = this.game;
    if (g.moves !== state.moves || g.pushes !== state.pushes) return false;
    if (state.undo_available !== undefined && g.cursor !== state.undo_available) return false;
    if (state.redo_available !== undefined && g.redoCount !== state.redo_available) return false;
    if (state.player && g.player !== state.player.y * g.width + state.player.x) return false;
    if (state.hash !== undefined && g.hash !== state.hash) return false;
    if (state.rows) {
      const cells = g.cells();
      for (let y = 0; y < g.height; y++) {
        const row = state.rows[y] || '';
        for (let x = 0; x < g.width; x++) {
          const ch = row[x] || ' ';
          const box = ch === '$' || ch === '*';
          if (box !== !!(cells[y * g.width + x] & BOX)) return false;
        }
      }
    }
    return true;
  }

  position() {
    return { player: this.game.player, boxes: this.game.boxes() };
  }

  adopt(state, message) {
    if (!state || state.history === undefined) {
      // No whole game in the answer (a step's answer has only its summary): fetch it.
      const sync = this.sync;
      api.game(sync?.gameId ?? this.state.id).then((r) => {
        // The player has moved on to another game (or opened this one again).
        if (this.sync !== sync) return;
        if (r.ok) this.adopt(r.body.game, message);
        else toast(message, 'warn');
      });
      return;
    }
    const seq = state.seq;
    this.build(state);
    this.sync?.reset(seq);
    this.view.snap(this.position());
    if (message) toast(message, 'warn');
  }

  confirmed(state, entry, serverSteps, idle) {
    if (!state) return;
    this.state = { ...this.state, ...state };
    if ((entry.kind === 'walk' || entry.kind === 'push') && serverSteps !== entry.steps) {
      this.adopt(state, 'The server walked another way: following it');
      return;
    }
    if (idle && !this.matches(state)) this.adopt(state, 'Caught up with the server');
    else this.hooks.update?.(this);
  }

  /** An entry of this game made on another device and heard live
   * ({seq, kind, steps|count, moves, pushes}): played here too, step by step.
   * Returns 'applied', 'ignored' (this tab's own entry, or one it has), or
   * 'behind' (it does not follow on from here: fetch the game). */
  applyRemote(e) {
    const sync = this.sync, g = this.game;
    if (!sync || !g || e.game !== sync.gameId) return 'ignored';
    if (e.seq <= sync.seq + sync.queue.length) return 'ignored';
    if (sync.queue.length > 0 || e.seq !== sync.seq + 1) return 'behind';
    if (e.kind === 'steps') {
      for (const ch of e.steps) if (!this.step(dirOfLetter(ch), true, upper(ch))) return 'behind';
    } else if (e.kind === 'undo') {
      for (let i = 0; i < e.count && g.cursor > 0; i++) this.undoOne();
    } else if (e.kind === 'redo') {
      for (let i = 0; i < e.count && g.redoCount > 0; i++) {
        const entry = g.entry(g.cursor), from = g.player;
        g.redo();
        if (entry.restart) this.view.snap(this.position());
        else this.view.animate(stepTransition(g.width, from, entry.dir, entry.pushed, this.position(), g.reverse));
      }
    } else if (e.kind === 'restart') {
      g.restart();
      this.view.snap(this.position(), 2);
    }
    sync.seq = e.seq;
    if (g.moves !== e.moves || g.pushes !== e.pushes) return 'behind';
    this.state = { ...this.state, seq: e.seq, moves: e.moves, pushes: e.pushes, solved: e.solved };
    announce(`Played on another device. ${this.counts()}`);
    this.afterChange();
    return 'applied';
  }

  /** Hands local entries to the server queue: the player played here. */
  queue(entry) {
    this.sync?.add(entry);
    this.hooks.played?.(this);
  }

  // ---- Actions -------------------------------------------------------------------

  /** True when a box stands behind the player as it steps in direction d:
   * the box a reverse game's step pulls. */
  boxBehind(d) {
    const g = this.game, [x, y] = g.xy(g.player);
    const [bx, by] = stepFrom(x, y, d ^ 2);
    const c = g.cellAt(bx, by);
    return c >= 0 && (g.cells()[c] & BOX) !== 0;
  }

  /** One step in direction d. In a reverse game `pull` says whether it
   * pulls the box behind the player; left out, it does when there is one
   * (`keepBox`: a step that leaves it). Returns the step's letter, or false. */
  step(d, silent = false, pull = null, keepBox = false) {
    const g = this.game, from = g.player, goalsBefore = g.boxesHome;
    const pulling = g.reverse && (pull ?? (!keepBox && this.boxBehind(d)));
    const rc = g.reverse ? g.play(d, pulling) : g.step(d);
    if (rc < 0) {
      if (!silent) sound('bump');
      return false;
    }
    const e = g.entry(g.cursor - 1);
    const t = stepTransition(g.width, from, d, e.pushed, this.position(), g.reverse);
    t.paced = silent;
    this.view.animate(t);
    const letter = letterOf(d, rc === PUSHED);
    if (!silent) {
      this.queue({ kind: 'steps', steps: letter });
      this.feedback(rc === PUSHED, g.boxesHome > goalsBefore, DIR_NAMES[d]);
      this.afterChange();
    }
    return letter;
  }

  undo(times = 1) {
    const g = this.game;
    let done = 0;
    for (; done < times && g.cursor > 0; done++) this.undoOne();
    if (done === 0) {
      announce('Nothing to undo');
      return 0;
    }
    this.queue({ kind: 'undo', count: done });
    sound('step');
    announce(`Undone. ${this.counts()}`);
    this.afterChange();
    return done;
  }

  undoOne() {
    const g = this.game, e = g.entry(g.cursor - 1);
    if (e.restart) {
      g.undo();
      this.view.snap(this.position());
      return e;
    }
    g.undo();
    this.view.animate(undoTransition(g.width, g.player, e.dir, e.pushed, this.position(), g.reverse));
    return e;
  }

  /** Undoes back to before the last push (moves after it, then the push). */
  undoPush() {
    const g = this.game;
    if (g.cursor === 0) return this.undo(1);
    let n = 0;
    while (g.cursor > 0) {
      const e = g.entry(g.cursor - 1);
      if (e.restart && n > 0) break;
      this.undoOne();
      n++;
      if (e.restart || e.pushed > 0) break;
    }
    this.queue({ kind: 'undo', count: n });
    sound('push');
    announce(`Back before the last push. ${this.counts()}`);
    this.afterChange();
    return n;
  }

  redo(times = 1) {
    const g = this.game;
    let done = 0;
    for (; done < times && g.redoCount > 0; done++) {
      const e = g.entry(g.cursor);
      const from = g.player;
      g.redo();
      if (e.restart) this.view.snap(this.position());
      else this.view.animate(stepTransition(g.width, from, e.dir, e.pushed, this.position(), g.reverse));
    }
    if (done === 0) {
      announce('Nothing to redo');
      return 0;
    }
    this.queue({ kind: 'redo', count: done });
    sound('step');
    announce(`Redone. ${this.counts()}`);
    this.afterChange();
    return done;
  }

  restart() {
    const g = this.game;
    if (g.moves === 0) return false;
    g.restart();
    this.view.snap(this.position(), 2);
    this.queue({ kind: 'restart' });
    sound('push');
    announce('Restarted. Undo takes it back.');
    this.afterChange();
    return true;
  }

  /** Walks to a square along the core's shortest path. */
  walkTo(cell) {
    const path = this.game.walkPath(cell);
    if (!path) return this.miss(cell, 'No way there');
    if (path.length === 0) return true;
    const letters = this.playPath(path);
    const [x, y] = this.game.xy(cell);
    this.queue({ kind: 'walk', walk: { x, y }, steps: letters });
    sound('step');
    announce(`Walked ${counted(path.length, 'step')}. ${this.counts()}`);
    this.afterChange();
    return true;
  }

  /** Pushes the selected box to a square along the core's push path. */
  pushBoxTo(box, cell) {
    const path = this.game.pushPath(box, cell);
    if (!path) return this.miss(cell, 'The box cannot get there');
    const goalsBefore = this.game.boxesOnGoal;
    const letters = this.playPath(path);
    const [bx, by] = this.game.xy(box), [x, y] = this.game.xy(cell);
    this.queue({ kind: 'push', push: { box: { x: bx, y: by }, to: { x, y } }, steps: letters });
    this.feedback(true, this.game.boxesOnGoal > goalsBefore, null);
    this.afterChange();
    return true;
  }

  playPath(path) {
    let letters = '';
    for (const d of path) {
      // A walk only moves, in a reverse game too.
      const l = this.step(d, true, false);
      if (!l) break;
      letters += l;
    }
    return letters;
  }

  /** Point mode: the player tapped or clicked a square. */
  pointAt(cell) {
    const g = this.game;
    if (cell < 0) return this.select(-1);
    const c = g.cells()[cell];
    if (g.reverse) return this.pointReverse(cell, c);
    if (this.selected >= 0) {
      const box = this.selected, reach = this.reach;
      if (cell === box) return this.select(-1);
      if (c & BOX) return this.select(cell);
      this.select(-1);
      if (reach && reach[cell]) return this.pushBoxTo(box, cell);
      if (!(c & (WALL | OUTSIDE))) return this.walkTo(cell);
      return this.missWall(cell, c);
    }
    if (c & BOX) return this.select(cell);
    if (c & (WALL | OUTSIDE)) return this.missWall(cell, c);
    return this.walkTo(cell);
  }

  /** Point mode in a reverse game: a walk; before anything is played, a
   * square the player cannot walk to becomes its start square (the hook
   * opens the game again from there); a box says how to pull it. */
  pointReverse(cell, c) {
    const g = this.game;
    if (c & BOX) return this.miss(cell, 'Step away from a box to pull it');
    if (c & (WALL | OUTSIDE)) return this.missWall(cell, c);
    const fresh = this.state.seq === 0 && g.historyLength === 0 && !(this.sync?.pending > 0);
    if (fresh && g.startAllowed(cell) && !g.walkPath(cell) && this.hooks.chooseStart) {
      this.hooks.chooseStart(cell);
      return true;
    }
    return this.walkTo(cell);
  }

  /** Point mode: a box dragged with the mouse goes where the drag ends, as
   * a click on it and one there would take it; a drag from anything else
   * is a click where it started. */
  dragTo(from, to) {
    const c = from >= 0 ? this.game.cells()[from] : 0;
    if (!(c & BOX) || from === to) return this.pointAt(from);
    this.select(from);
    if (!this.reach?.some((r, i) => r && i !== from)) return false;
    return this.pointAt(to);
  }

  /** A click that leads nowhere: a bump, a word for screen readers, and
   * the same word on the square. Returns false. */
  miss(cell, text) {
    sound('bump');
    announce(text);
    showMiss(this.view, cell, text);
    return false;
  }

  missWall(cell, c) {
    return this.miss(cell, c & WALL ? 'Wall' : 'No way there');
  }

  /** The squares a walk to `cell` would cross (for a hover preview), or null. */
  walkPreview(cell) {
    const g = this.game;
    if (cell < 0 || cell === g.player || g.cells()[cell] & (WALL | OUTSIDE | BOX)) return null;
    const path = g.walkPath(cell);
    if (!path) return null;
    const width = g.width, delta = [-width, 1, width, -1], out = [];
    let at = g.player;
    for (const d of path) {
      at += delta[d];
      out.push(at);
    }
    return out;
  }

  select(box) {
    this.selected = box;
    this.reach = box >= 0 ? this.game.boxReach(box) : null;
    if (box >= 0) {
      const n = this.reach ? this.reach.reduce((a, b) => a + b, 0) - 1 : 0;
      if (n > 0) announce(`Box selected: it can go to ${counted(n, 'square')}. Choose one.`);
      else this.miss(box, 'This box cannot move');
    }
    this.refreshMarks();
    return true;
  }

  // ---- After each change -------------------------------------------------------------

  counts() {
    return movesPushes(this.game.moves, this.game.pushes);
  }

  feedback(pushed, onGoal, dirName) {
    if (onGoal) sound('goal');
    else sound(pushed ? 'push' : 'step');
    const g = this.game;
    let text = dirName ? `${pushed ? 'Push' : 'Move'} ${dirName}. ` : '';
    text += this.counts();
    if (onGoal && g.reverse) text += `. Box back on its start: ${g.boxesHome} of ${g.boxCount}`;
    else if (onGoal) text += `. Box on goal: ${g.boxesOnGoal} of ${g.boxCount}`;
    announce(text);
  }

  afterChange() {
    if (this.selected >= 0) {
      this.selected = -1;
      this.reach = null;
    }
    this.refreshMarks();
    const solved = this.game.solved;
    if (solved && !this.wasSolved) {
      sound('solved');
      announce(`Solved in ${this.counts()}!`, true);
      this.hooks.solved?.(this);
    }
    this.wasSolved = solved;
    this.hooks.update?.(this);
  }

  refreshMarks() {
    let frozen = null;
    if (this.warnFrozen && this.game?.reverse) {
      // A reverse game's stuck boxes: on a square no pull brings back to a start square.
      const g = this.game, cells = g.cells();
      const marks = g.deadSquares.map((dead, c) => (dead && cells[c] & BOX ? 1 : 0));
      const stuck = marks.some((m) => m);
      frozen = stuck ? marks : null;
      if (stuck && !this.wasStuck) announce('A box can never be pulled back to a start square: undo to free it', true);
      this.wasStuck = stuck;
    } else if (this.warnFrozen && this.game) {
      const f = this.game.frozen();
      frozen = f.count > 0 ? f.marks : null;
      const stuck = f.count > 0;
      if (stuck && !this.wasStuck) announce('A box is stuck for good: undo to free it', true);
      this.wasStuck = stuck;
    }
    this.stuck = frozen !== null;
    this.view.setMarks({ reach: this.reach, select: this.selected, frozen, path: null, target: -1 });
  }
}

