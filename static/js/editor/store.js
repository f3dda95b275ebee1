// editor/store.js: keeps the level being drawn in this browser's
// localStorage: the grid, its title, author and comment, the tool, the
// cursor, the undo history and a solution found in test play. A reload or a
// closed tab loses nothing; a full or unavailable storage loses only the
// saving, never the work on screen.

const KEY = 'sokod.editor';

/** The saved draft, or null. */
export function loadDraft() {
  try {
    const d = JSON.parse(localStorage.getItem(KEY) || 'null');
    return d && typeof d === 'object' ? d : null;
  } catch {
    return null;
  }
}

/** Saves the draft; false when the browser would not keep it. */
export function saveDraft(draft) {
  try {
    localStorage.setItem(KEY, JSON.stringify(draft));
    return true;
  } catch {
    // Too large for the quota: keep at least the board.
    try {
      localStorage.setItem(KEY, JSON.stringify({ ...draft, history: null }));
      return true;
    } catch {
      return false;
    }
  }
}
