// words.js: how the page words a count and names a level, the same on
// every screen.

/** "1 move", "2 moves": a count with its noun in the right number. The
 * plural is the noun with an s unless given ("push", "pushes"). */
export function counted(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** "3 moves, 1 push": a game's or a solution's two counts. */
export function movesPushes(moves, pushes) {
  return `${counted(moves, 'move')}, ${counted(pushes, 'push', 'pushes')}`;
}

/** A level's name as the library gives it: its title, or "Level N" when
 * it has none or its title is a bare number (files that number their
 * levels), N the number in the title or else the level's position. */
export function levelTitle(level) {
  const title = (level?.title || '').trim();
  if (!title || /^\d+$/.test(title)) return `Level ${title || level?.position}`;
  return title;
}
