// editor/history.js: undo and redo for the editor. Each entry is a whole
// snapshot (a plain object the caller makes and restores): boards are small,
// and a snapshot cannot drift from the state it restores.

export class History {
  constructor(limit = 300) {
    this.limit = limit;
    this.done = [];   // snapshots before each change, oldest first
    this.undone = []; // snapshots the undos left, the next redo last
  }

  /** Records the state before a change (drops the redo stack). */
  push(before) {
    this.done.push(before);
    if (this.done.length > this.limit) this.done.shift();
    this.undone = [];
  }

  /** The state to go back to, given the current one; null when none. */
  undo(current) {
    if (this.done.length === 0) return null;
    this.undone.push(current);
    return this.done.pop();
  }

  /** The state to go forward to, given the current one; null when none. */
  redo(current) {
    if (this.undone.length === 0) return null;
    this.done.push(current);
    return this.undone.pop();
  }

  get canUndo() { return this.done.length > 0; }
  get canRedo() { return this.undone.length > 0; }

  toJSON() {
    return { done: this.done.slice(-60), undone: this.undone.slice(-60) };
  }

  /** Takes back a stack saved by toJSON (keeping only what `valid` accepts). */
  restore(o, valid = () => true) {
    this.done = Array.isArray(o?.done) ? o.done.filter(valid) : [];
    this.undone = Array.isArray(o?.undone) ? o.undone.filter(valid) : [];
  }
}
