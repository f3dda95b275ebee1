// foryou.js: "a level for you", on the title screen and the solved card:
// an unsolved level near the player's rating (GET /api/v1/levels/next),
// with "Another" to draw again. The server draws by the player and a
// number (draw=), so the same page shows the same level until "Another".

import { api } from './api.js';
import { $ } from './dom.js';

/** A level's difficulty as words and a number: "easy 1280". */
export function difficultyText(d) {
  return d ? `${d.label} ${d.rating}` : 'not rated yet';
}

/** Fills the line `id` (and its `id`-link, `id`-difficulty and
 * `id`-another): hidden when no level is left. `exclude` is a level not
 * to draw (the one just solved, or the one shown before "Another").
 * Resolves to the level drawn, or null. */
export async function offerForYou(id, exclude = 0) {
  const line = $(id), link = $(`${id}-link`), another = $(`${id}-another`);
  if (!another.dataset.wired) {
    another.dataset.wired = '1';
    another.addEventListener('click', () => {
      line.dataset.draw = String(Number(line.dataset.draw || 0) + 1);
      offerForYou(id, Number(link.dataset.level) || 0);
    });
  }
  const mine = (line.dataset.asks = String(Number(line.dataset.asks || 0) + 1));
  const r = await api.nextLevel(exclude, Number(line.dataset.draw || 0));
  if (line.dataset.asks !== mine) return null;
  const l = r.ok ? r.body.level : null;
  line.hidden = !l;
  if (!l) return null;
  const title = (l.title || '').trim();
  link.href = `#/play/${l.id}`;
  link.dataset.level = l.id;
  link.textContent = `${l.collection_name} · ${!title || /^\d+$/.test(title) ? `Level ${title || l.position}` : `${l.position}. ${title}`}`;
  $(`${id}-difficulty`).textContent = difficultyText(l.difficulty);
  return l;
}
