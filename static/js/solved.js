// solved.js: what the solved card tells once the server holds the
// solution: the player's best and rank on the level and whether this
// solution is a new best; and, after the last level of a collection, the
// collection that follows.

import { app } from './app.js';
import { api } from './api.js';
import { movesPushes } from './words.js';

/** The player's best counts on a level answer ({moves, pushes}), or null
 * when the player has not solved it. */
export function bestOf(level) {
  return level?.solved ? { moves: level.best_moves, pushes: level.best_pushes } : null;
}

/** True when a solution of `moves` and `pushes` beats `best` (null: none
 * yet) on either count. */
export function isNewBest(best, moves, pushes) {
  return !best || moves < best.moves || pushes < best.pushes;
}

/** The player's standing on the level's board, by moves, as a line ("Your
 * best: 3 moves, 2 pushes · rank 1 of 4"); hinted solutions stand on the
 * hinted list. Resolves to '' when the board cannot be read. */
export async function standing(levelId, hinted) {
  const r = await api.leaderboard(levelId, 'moves', 1);
  const list = r.ok ? (hinted ? r.body.hinted : r.body) : null;
  const you = list?.you;
  if (!you) return '';
  const best = `Your best: ${movesPushes(you.moves, you.pushes)} · `;
  // A guest is ranked where it would stand but listed to nobody and not
  // counted in the total: the board does not show it, so neither does a
  // rank "of" a total that leaves it out.
  if (!you.listed) return `${best}sign up to be listed: rank ${you.rank} of ${list.total + 1}${hinted ? ' with hints' : ''}`;
  return `${best}rank ${you.rank} of ${list.total}${hinted ? ' with hints' : ''}`;
}

/** The listed collection after `collectionId` (from the first, when that
 * one is not listed) that has a level left to solve, with that level:
 * {collection, level}; or null. */
export async function nextCollection(collectionId) {
  const list = await app.collections();
  if (!list) return null;
  const at = list.findIndex((c) => c.id === collectionId);
  for (const c of [...list.slice(at + 1), ...list.slice(0, Math.max(0, at))]) {
    if (c.solved >= c.levels) continue;
    const data = await app.collection(c.id, true);
    const level = data?.levels.find((l) => !l.solved);
    if (level) return { collection: c, level };
  }
  return null;
}
